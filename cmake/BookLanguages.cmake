# SPDX-License-Identifier: MIT
# The languages of the book's programs, set alike for the book's own build
# (CMakeLists.txt; cmake/BookCuda.cmake then chooses the architectures and finds
# the GPU) and for the two downloads that ship this file beside their own
# CMakeLists.txt: a chapter's programs (cmake/standalone/, packed by
# cmake/BookPackPrograms.cmake) and the exercises' bundle (tools/grader/bundle/,
# written by tools/grader/bundle.py). Included once, at the top level:
#
#  - C++20, and a Release build unless another is named;
#  - CUDA in C++20 where nvcc is: /usr/local/cuda/bin/nvcc unless
#    CMAKE_CUDA_COMPILER names another (one named but absent means no CUDA),
#    with the C++ compiler as its host compiler. BOOK_HAVE_CUDA says whether
#    CUDA is on. A download whose GPU code has a default of its own sets
#    CMAKE_CUDA_ARCHITECTURES before including this file; otherwise CMake takes
#    the compiler's default, which the book's build replaces (BookCuda.cmake).
#    Which of them a program that needs more compiles for (NEEDS_CC) is
#    cmake/BookCalls.cmake's _book_program_archs.
#
# Tests: every build of the book; site.downloads.programs and exercises.bundle
# build the two downloads from their own files.
include_guard(GLOBAL)

set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
if(NOT CMAKE_BUILD_TYPE)
  set(CMAKE_BUILD_TYPE Release CACHE STRING "Build type" FORCE)
endif()

include(CheckLanguage)
if(NOT DEFINED CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
  set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
endif()
# A CUDA compiler named but absent (-DCMAKE_CUDA_COMPILER=/nonexistent, or an
# uninstalled toolkit left in the cache) means: build without CUDA.
if(CMAKE_CUDA_COMPILER AND NOT EXISTS "${CMAKE_CUDA_COMPILER}")
  message(WARNING "CMAKE_CUDA_COMPILER is ${CMAKE_CUDA_COMPILER}, which does not exist: "
                  "building without CUDA.")
  set(CMAKE_CUDA_COMPILER "" CACHE FILEPATH "CUDA compiler" FORCE)
  set(CMAKE_CUDA_COMPILER "")
endif()
check_language(CUDA)
set(BOOK_HAVE_CUDA OFF)
if(CMAKE_CUDA_COMPILER)
  set(CMAKE_CUDA_HOST_COMPILER "${CMAKE_CXX_COMPILER}" CACHE FILEPATH "Host compiler for nvcc")
  enable_language(CUDA)
  set(BOOK_HAVE_CUDA ON)
  # CMake before 3.27 does not know that a recent nvcc speaks C++20: tell it.
  if(NOT CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
    set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
    list(APPEND CMAKE_CUDA_COMPILE_FEATURES cuda_std_20)
  endif()
  set(CMAKE_CUDA_STANDARD 20)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
endif()
