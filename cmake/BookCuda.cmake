# SPDX-License-Identifier: MIT
# CUDA is optional. With nvcc, CUDA programs compile for BOOK_CUDA_ARCHITECTURES
# (real SASS for each, PTX for the last). Without it, the book still builds from
# the committed recordings and says what it left out.
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
  # CMake 3.25 predates nvcc 13 and does not know that it speaks C++20: tell it.
  if(NOT CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
    set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
    set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
    list(APPEND CMAKE_CUDA_COMPILE_FEATURES cuda_std_20)
  endif()
  set(CMAKE_CUDA_STANDARD 20)
  set(CMAKE_CUDA_STANDARD_REQUIRED ON)
  # One setting for the whole book: SASS for every listed architecture, PTX for the last.
  set(_archs "")
  foreach(a IN LISTS BOOK_CUDA_ARCHITECTURES)
    list(APPEND _archs "${a}-real")
  endforeach()
  list(GET BOOK_CUDA_ARCHITECTURES -1 _last)
  list(APPEND _archs "${_last}-virtual")
  set(CMAKE_CUDA_ARCHITECTURES "${_archs}")
  get_filename_component(_cuda_bin "${CMAKE_CUDA_COMPILER}" DIRECTORY)
  find_program(BOOK_CUOBJDUMP cuobjdump HINTS "${_cuda_bin}")
  find_program(BOOK_NCU ncu HINTS "${_cuda_bin}" /usr/local/cuda/bin)
  find_program(BOOK_SANITIZER compute-sanitizer HINTS "${_cuda_bin}" /usr/local/cuda/bin)
else()
  message(WARNING
    "No CUDA compiler (nvcc) was found. The CUDA programs are not compiled; "
    "the book shows their committed recordings (recordings/<gpu>/), and the "
    "GPU and sanitizer tests report skipped. Install the CUDA Toolkit or set "
    "CMAKE_CUDA_COMPILER to build them.")
endif()

# Is there a GPU to run on? AUTO asks nvidia-smi at configure time.
set(BOOK_GPU_COUNT 0)
if(BOOK_HAVE_CUDA AND NOT BOOK_GPU STREQUAL "OFF")
  find_program(BOOK_NVIDIA_SMI nvidia-smi)
  if(BOOK_NVIDIA_SMI)
    execute_process(COMMAND "${BOOK_NVIDIA_SMI}" -L
                    OUTPUT_VARIABLE _smi RESULT_VARIABLE _smi_rc ERROR_QUIET)
    if(_smi_rc EQUAL 0)
      string(REGEX MATCHALL "GPU [0-9]+:" _gpus "${_smi}")
      list(LENGTH _gpus BOOK_GPU_COUNT)
    endif()
  endif()
endif()
if(BOOK_GPU STREQUAL "ON" AND BOOK_GPU_COUNT EQUAL 0)
  message(FATAL_ERROR "BOOK_GPU=ON, but no GPU was found (nvidia-smi -L listed none, or CUDA is missing).")
endif()
set(BOOK_GPU_LIVE OFF)
if(BOOK_GPU_COUNT GREATER 0)
  set(BOOK_GPU_LIVE ON)
endif()

# A CTest resource specification: four "gpus" slots per GPU. No test times
# anything (the timed runs are the build's, made alone: book_gpu_runs), so up to
# four GPU tests (sanitizers, the GPU exercises) share one GPU, and a machine with
# several GPUs spreads them over all.
set(_spec "{\n  \"version\": {\"major\": 1, \"minor\": 0},\n  \"local\": [{\n    \"gpus\": [")
set(_sep "")
if(BOOK_GPU_COUNT GREATER 0)
  math(EXPR _last_gpu "${BOOK_GPU_COUNT} - 1")
  # cmake-lint: disable=E1120
  # (cmake-lint reads foreach(... RANGE <start> <stop>) as missing an argument.)
  foreach(i RANGE 0 ${_last_gpu})
    string(APPEND _spec "${_sep}{\"id\": \"${i}\", \"slots\": 4}")
    set(_sep ", ")
  endforeach()
else()
  string(APPEND _spec "{\"id\": \"none\", \"slots\": 1}")
endif()
string(APPEND _spec "]\n  }]\n}\n")
file(WRITE "${CMAKE_BINARY_DIR}/ctest-resources.json" "${_spec}")

# The GPU this build's records are of (BOOK_GPU_MODEL): where GPU programs run
# live, this machine's, whatever it is (tools/book record records it into
# recordings/<its slug>/); elsewhere the lead reference GPU's recordings
# (book/gpus.json), with every other reference GPU's beside them
# (cmake/BookRuns.cmake). It is no setting: a value left in the cache by an
# older configure is dropped.
include(BookGpus)
unset(BOOK_GPU_MODEL CACHE)
if(BOOK_GPU_LIVE)
  _book_live_gpu_model(BOOK_GPU_MODEL "${BOOK_NVIDIA_SMI}")
else()
  set(BOOK_GPU_MODEL "${BOOK_GPU_LEAD}")
endif()
# The slug names the recordings folder: "NVIDIA H200" -> nvidia-h200.
book_gpu_slug(BOOK_GPU_SLUG "${BOOK_GPU_MODEL}")
set(BOOK_GPU_SLUG "${BOOK_GPU_SLUG}" CACHE INTERNAL "recordings/<slug> of BOOK_GPU_MODEL")
# (In the cache for tools/book, which reads what GPU a build recorded.)
set(BOOK_GPU_MODEL "${BOOK_GPU_MODEL}" CACHE INTERNAL "the GPU this build's records are of")
