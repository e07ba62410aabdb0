# SPDX-License-Identifier: MIT
# The keywords of the calls a chapter's code/<key>/CMakeLists.txt makes
# (book_library, book_program, book_run: <call>_ONE, the keywords of one value,
# and <call>_MULTI, those of several), and the architectures a program that
# declares NEEDS_CC compiles for (_book_program_archs), in one place for the
# three that read those files: the book's build (cmake/BookPrograms.cmake,
# cmake/BookRuns.cmake, which say what each keyword means), a chapter's
# program download (cmake/standalone/BookStandalone.cmake, which ships this
# file) and its packer (cmake/BookPackPrograms.cmake). A reader that did not
# know a keyword would take it, and its value, for values of the keyword
# before it.
# Tests: every build of the book, which packs each chapter's download;
# site.downloads.programs builds chapter 1's.
include_guard(GLOBAL)

set(BOOK_LIBRARY_ONE "")
set(BOOK_LIBRARY_MULTI SOURCES LIBS PRIVATE_LIBS INCLUDE_DIRS OPTIONS DEFINITIONS)
set(BOOK_PROGRAM_ONE CHAPTER NEEDS_CC)
set(BOOK_PROGRAM_MULTI SOURCES LIBS OPTIONS DEFINITIONS)
set(BOOK_RUN_ONE CHAPTER PROGRAM TIMEOUT REPEATS CHECKS SANITIZER SANITIZER_EXPECT SASS_FUNCTION NCU_KERNEL
                 NCU_CACHE_CONTROL)
set(BOOK_RUN_MULTI ARGS ENV SASS_FUNCTIONS NCU_KERNELS NCU_METRICS NCU_ARGS NCU_LABELS SANITIZE_ARGS VARIES EXACT)

# The entries of BOOK_CUDA_ARCHITECTURES (compute capabilities without the dot,
# 90a counting as 90) a program that needs compute capability <needs>
# (book_program's NEEDS_CC) is compiled for, in <out>: every one where <needs> is
# empty; none where none reaches it.
function(_book_program_archs out needs)
  set(archs "")
  foreach(a IN LISTS BOOK_CUDA_ARCHITECTURES)
    string(REGEX REPLACE "[af]$" "" n "${a}")
    if(NOT needs OR n GREATER_EQUAL needs)
      list(APPEND archs "${a}")
    endif()
  endforeach()
  set(${out} "${archs}" PARENT_SCOPE)
endfunction()
