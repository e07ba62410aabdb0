# SPDX-License-Identifier: MIT
# The grader's tests (label exercises), included from tests/CMakeLists.txt once
# cmake/BookExercises.cmake has declared the kit.
#
#   exercises.grader-units   pytest: the grader's judging of Catch2's reports, its
#                            reading of folders and archives (test_grader_units.py)
#   exercises.layout         the two sides of every exercise cannot drift apart
#                            (check_layout.py: the tree passes, seventeen drifts fail)
#   exercises.test-names     the test names of exercises.json are those the built
#                            programs list
#   exercises.grade.<case>   tools/grade on one submission of cases/<case>/ (the
#                            solutions, the starters, an empty folder, missing, extra
#                            and oddly named files, and every hostile submission: grader-sandboxed)
#                            gives the expected grade, and leaves the repository and
#                            the kit byte for byte as they were, and no process behind
#   exercises.grade.batch    a class of submissions, one of them broken
#   exercises.grader-speed   pytest: speed grading on the CPU (test_speed.py): the timed
#                            protocol, the judge's clock, the digest check, the stop rule,
#                            the points, the report, hostile fake workers
#   exercises.grader-course  pytest: the class tools (test_course.py): the roster and
#                            Gradescope's metadata (bad input named by file and line),
#                            shards and their merge, statistics, the gradebook
#   exercises.grade.shards   a class graded in one batch and in 3 shards merged: the same
#                            summary, statistics and gradebook (check_shards.py)
#   exercises.grade.no-sandbox  without bubblewrap: refused, or graded with --trusted
#   exercises.grade.gradescope  the Gradescope package unpacked into an /autograder-shaped
#                            folder, set up (no apt-get; this build's kit), and run on
#                            loose files, a zipped bundle folder, a nested archive, no
#                            bubblewrap, an empty and a broken submission (check_gradescope.py;
#                            --full-setup, run by hand, builds the package's own kit)
#   exercises.bundle         the student bundle: contents, the same bytes twice, one
#                            chapter's alone, and a clean build of it (check_bundle.py;
#                            tests/site's site.downloads.build checks a chapter's
#                            download from the built site with the same script)
#   exercises.bundle.catch2-v3  the same bundle built against Catch2 version 3 (a
#                            CMake package under BOOK_CATCH2_V3_PREFIX; skipped without one)
#   exercises.reader-edition the reader's HTML holds no hidden test and no solution
# They grade against this build's kit (target exercise-kit, which ctest builds before any test).
if(NOT BOOK_EXERCISES_PYTHON)
  message(STATUS "Exercises: no python3; the grader's tests are left out")
  return()
endif()
if(BOOK_READER_SOURCE)  # no solutions/ to grade (cmake/BookExercises.cmake said so)
  return()
endif()
set(_bt "${CMAKE_SOURCE_DIR}/tools/grader/tests")
set(_bt_scratch "${CMAKE_BINARY_DIR}/exercise-scratch")
set(_bt_grade "${CMAKE_SOURCE_DIR}/tools/grade")
set(_bt_kit --grade "${_bt_grade}" --kit "${CMAKE_BINARY_DIR}")

# Where bubblewrap cannot run, a test that needs it reports skipped (77), never passed.
# The scripts import the grader package from tools/ (PYTHONPATH).
function(_bt_add name timeout)
  add_test(NAME ${name} COMMAND "${CMAKE_COMMAND}" -E env "PYTHONPATH=${BOOK_PY_PATH}"
                                "${BOOK_EXERCISES_PYTHON}" ${ARGN})
  set_tests_properties(${name} PROPERTIES LABELS exercises TIMEOUT ${timeout} SKIP_RETURN_CODE 77)
endfunction()

execute_process(COMMAND "${BOOK_EXERCISES_PYTHON}" -c "import pytest"
                RESULT_VARIABLE _bt_no_pytest OUTPUT_QUIET ERROR_QUIET)
if(_bt_no_pytest EQUAL 0)
  _bt_add(exercises.grader-units 120 -B -m pytest -q -p no:cacheprovider "${_bt}/test_grader_units.py")
  set_tests_properties(exercises.grader-units PROPERTIES LABELS "exercises;unit")
  _bt_add(exercises.grader-course 120 -B -m pytest -q -p no:cacheprovider "${_bt}/test_course.py")
  set_tests_properties(exercises.grader-course PROPERTIES LABELS "exercises;unit")
else()
  book_tool_missing("pytest for ${BOOK_EXERCISES_PYTHON}" python3-pytest
                    "the tests exercises.grader-units and exercises.grader-course")
endif()
_bt_add(exercises.layout 120 "${_bt}/check_layout.py" --cmake "${CMAKE_COMMAND}"
        --root "${CMAKE_SOURCE_DIR}" --work "${_bt_scratch}/layout")
_bt_add(exercises.test-names 120 "${_bt}/check_test_names.py" --build "${CMAKE_BINARY_DIR}")

# Speed grading on the CPU (test_speed.py): the protocol, the judge's clock and
# checks, the stop rule, the points, the report, and hostile workers (a fake
# exercise's worker on the CPU: speed_fake_worker.cpp); the GPU's hostile cases are
# tools/grader/tests/gpu_cases/speed-* (gpu_check.sh).
add_executable(grader-speed-fake-worker EXCLUDE_FROM_ALL "${_bt}/speed_fake_worker.cpp"
               "${CMAKE_SOURCE_DIR}/tools/grader/judge/worker_main.cpp")
target_link_libraries(grader-speed-fake-worker PRIVATE book_exercise_grade_bridge)
# Its inputs are book::random_u32's (book/random.hpp, which includes cuda_runtime.h):
# the toolkit's header where CUDA is, a stand-in of two words where it is not.
target_include_directories(grader-speed-fake-worker PRIVATE "${CMAKE_SOURCE_DIR}/code/common/include")
if(BOOK_HAVE_CUDA)
  target_include_directories(grader-speed-fake-worker SYSTEM PRIVATE ${CMAKE_CUDA_TOOLKIT_INCLUDE_DIRECTORIES})
else()
  target_include_directories(grader-speed-fake-worker PRIVATE "${_bt}/no_cuda")
endif()
set_target_properties(grader-speed-fake-worker PROPERTIES
                      RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/exercises/tests")
add_dependencies(exercise-kit grader-speed-fake-worker)
if(_bt_no_pytest EQUAL 0)
  _bt_add(exercises.grader-speed 300 -B -m pytest -q -p no:cacheprovider "${_bt}/test_speed.py")
  set_tests_properties(exercises.grader-speed PROPERTIES LABELS "exercises;unit"
                       ENVIRONMENT "BOOK_KIT=${CMAKE_BINARY_DIR}")
endif()

file(GLOB _bt_cases LIST_DIRECTORIES true CONFIGURE_DEPENDS "${_bt}/cases/*")
foreach(_c IN LISTS _bt_cases)
  if(NOT EXISTS "${_c}/case.json")
    continue()
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${_c}/case.json")
  get_filename_component(_n "${_c}" NAME)
  _bt_add(exercises.grade.${_n} 300 "${_bt}/grade_case.py" ${_bt_kit}
          --work "${_bt_scratch}/grade/${_n}" "${_c}")
  # A case that runs the GPU exercise takes the GPU CTest allocates.
  file(READ "${_c}/case.json" _j)
  if(_j MATCHES "\"gpu:")
    set_tests_properties(exercises.grade.${_n} PROPERTIES RESOURCE_GROUPS "gpus:1")
  endif()
endforeach()
_bt_add(exercises.grade.batch 600 "${_bt}/check_batch.py" ${_bt_kit} --work "${_bt_scratch}/batch")
_bt_add(exercises.grade.shards 600 "${_bt}/check_shards.py" ${_bt_kit} --work "${_bt_scratch}/shards")
_bt_add(exercises.grade.gradescope 900 "${_bt}/check_gradescope.py" ${_bt_kit}
        --work "${_bt_scratch}/gradescope")
_bt_add(exercises.grade.no-sandbox 300 "${_bt}/check_no_sandbox.py" ${_bt_kit}
        --work "${_bt_scratch}/no-sandbox")
if(BOOK_DOCS AND BOOK_EDITION STREQUAL "reader")
  _bt_add(exercises.reader-edition 120 "${_bt}/check_reader_edition.py" --build "${CMAKE_BINARY_DIR}"
          --html "${CMAKE_BINARY_DIR}/html" --pdf "${CMAKE_BINARY_DIR}/pdf/book.pdf")
endif()
_bt_add(exercises.bundle 1200 "${_bt}/check_bundle.py" ${_bt_kit} --work "${_bt_scratch}/bundle"
        --catch2-include "${BOOK_CATCH2_INCLUDE}"
        --cmake "${CMAKE_COMMAND}" --ctest "${CMAKE_CTEST_COMMAND}")
# The same bundle against Catch2 version 3 (Ubuntu 24.04's), where one is installed:
# BOOK_CATCH2_V3_PREFIX, its install prefix. Debian 12 has none: then skipped.
set(BOOK_CATCH2_V3_PREFIX "" CACHE PATH
    "A Catch2 version 3 install prefix for exercises.bundle.catch2-v3 (empty: the test is skipped)")
_bt_add(exercises.bundle.catch2-v3 900 "${_bt}/check_bundle.py" ${_bt_kit}
        --work "${_bt_scratch}/bundle-catch2-v3" "--catch2-v3=${BOOK_CATCH2_V3_PREFIX}"
        --cmake "${CMAKE_COMMAND}" --ctest "${CMAKE_CTEST_COMMAND}")
