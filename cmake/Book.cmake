# SPDX-License-Identifier: MIT
# The book's programs, their libraries and their runs: the index of the
# cmake/Book*.cmake files that declare them (CMakeLists.txt includes this one).
#
# Chapters are found, not listed: every code/chNN-name/CMakeLists.txt is read
# (book_add_chapters), and inside it the chapter key defaults to the folder's
# name. book/STYLE.md shows the steps; the reference of each function is at the
# top of the file that holds it:
#
#   BookHelpers.cmake   argument parsing, file:line of a match, JSON strings
#   BookCalls.cmake     the keywords of book_library, book_program and book_run
#                       (which a chapter's program download reads too)
#   BookGpus.cmake      the reference GPUs and the lead (book/gpus.json), the
#                       runs that wait for a GPU (recordings/pending.json)
#   BookChapters.cmake  chapter keys, BOOK_CHAPTERS, book_add_chapters
#   BookPrograms.cmake  book_library, book_program
#   BookInputs.cmake    a run's input hash: flags identity, library sources,
#                       the runner's input arguments
#   BookInputsSettled.cmake  the settings that must not change after book_program
#   BookRuns.cmake      book_run (its record's rule)
#   BookRunOrder.cmake  the order of the GPU runs (_book_order_gpu_runs)
#   BookRunTests.cmake  the tests of each run (records.*, gpu.*, sanitize.*, run.*)
#   BookManifest.cmake  book-manifest.json, cy-tags.json, book_register_catch2_test
#
# This file: book_finish (called once every folder is read) and book_summary.
include(BookHelpers)
include(BookCalls)
include(BookGpus)
include(BookChapters)
include(BookPrograms)
include(BookInputs)
include(BookInputsSettled)
include(BookRuns)
include(BookRunOrder)
include(BookRunTests)
include(BookManifest)

# After every folder is read: the programs' settings are final (a change made
# after book_program would be compiled but not hashed), the build manifest
# (book-manifest.json) and the check-yourself tags (cy-tags.json).
function(book_finish)
  cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _book_order_gpu_runs)
  _book_check_programs_settled()
  _book_check_pending()
  _book_write_compile_inputs()
  _book_write_manifest()
  _book_gpu_states_rule()
  _book_cy_tags_rule()
  _book_test_programs_rule()
endfunction()

# Test programs (tests/, whose targets are not in ALL, and the exercise kit) are
# built by `ctest` before any test runs: CTestCustom.cmake's pre-test command,
# which fails the test run, printing the compiler's errors, when one does not build.
function(_book_test_programs_rule)
  if(NOT BOOK_TESTS)
    return()
  endif()
  set(targets tests/all)
  if(TARGET exercise-kit)
    list(APPEND targets exercise-kit)
  endif()
  list(JOIN targets " " t)
  file(WRITE "${CMAKE_BINARY_DIR}/CTestCustom.cmake"
       "# Written by cmake/Book.cmake: build the test programs before the tests run.\n"
       "set(CTEST_CUSTOM_PRE_TEST \"\\\"${CMAKE_COMMAND}\\\" --build \\\"${CMAKE_BINARY_DIR}\\\" --target ${t}\")\n")
  set_property(GLOBAL PROPERTY BOOK_TEST_PROGRAM_TARGETS "${targets}")
endfunction()

function(book_summary)
  get_property(left GLOBAL PROPERTY BOOK_LEFT_OUT)
  message(STATUS "Book: CUDA compiler: ${BOOK_HAVE_CUDA}; GPUs found: ${BOOK_GPU_COUNT}; GPU runs live: ${BOOK_GPU_LIVE}")
  if(left)
    string(REPLACE ";" ", " left "${left}")
    message(STATUS "Book: left out (no nvcc): ${left}; their outputs come from recordings/${BOOK_GPU_SLUG}")
    message(STATUS "Book: left out (no nvcc): the GPU, sanitizer and GPU-exercise tests, which report skipped")
  elseif(NOT BOOK_GPU_LIVE)
    message(STATUS "Book: GPU program outputs come from recordings/${BOOK_GPU_SLUG}")
  endif()
  _book_summary_needs()
endfunction()

# What the configure step says of the compute capabilities: the runs whose
# program needs more than 7.5 (book_program's NEEDS_CC), the programs left out
# because BOOK_CUDA_ARCHITECTURES does not reach their need, and the runs
# skipped on this GPU, each with the reason.
function(_book_summary_needs)
  get_property(needing GLOBAL PROPERTY BOOK_RUNS_NEEDING)
  set(ccs "")
  foreach(entry IN LISTS needing)
    string(REGEX REPLACE "^.*=" "" cc "${entry}")
    list(APPEND ccs "${cc}")
  endforeach()
  list(REMOVE_DUPLICATES ccs)
  foreach(cc IN LISTS ccs)
    set(runs "")
    foreach(entry IN LISTS needing)
      if(entry MATCHES "^(.*)=${cc}$")
        list(APPEND runs "${CMAKE_MATCH_1}")
      endif()
    endforeach()
    list(JOIN runs ", " runs)
    book_cc_text(text "${cc}")
    message(STATUS "Book: runs that need compute capability ${text} (every other runs from 7.5): ${runs}")
  endforeach()
  get_property(left GLOBAL PROPERTY BOOK_LEFT_OUT_CC)
  foreach(entry IN LISTS left)
    string(REGEX MATCH "^(.*)=(.*)$" _ "${entry}")
    book_cc_text(text "${CMAKE_MATCH_2}")
    string(REPLACE ";" "," archs "${BOOK_CUDA_ARCHITECTURES}")
    message(STATUS "Book: left out: ${CMAKE_MATCH_1}, which needs compute capability ${text}; "
                   "BOOK_CUDA_ARCHITECTURES (${archs}) has no entry that high")
  endforeach()
  if(BOOK_GPU_LIVE AND NOT BOOK_GPU_CC)
    message(STATUS "Book: nvidia-smi did not say this GPU's compute capability: no run is skipped for it")
  endif()
  get_property(skipped GLOBAL PROPERTY BOOK_RUNS_SKIPPED)
  foreach(name IN LISTS skipped)
    get_property(why GLOBAL PROPERTY "BOOK_R_${name}_SKIPPED")
    message(STATUS "Book: skipped: ${why}")
  endforeach()
endfunction()
