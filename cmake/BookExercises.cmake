# SPDX-License-Identifier: MIT
# The exercises: every folder exercises/<key>/exNN-name/ is one, its contract in
# its exercise.cmake (cmake/BookExerciseContract.cmake describes the layout and
# checks both sides: a drift between exercises/ and solutions/ stops here).
#
# Always written (also without BOOK_TESTS), at generate time:
#   ${CMAKE_BINARY_DIR}/exercises.json   what the book's {exercise} directive shows:
#       {"exercises": [{"id", "chapter", "name", "title", "points", "gpu", "dir",
#         "solution_dir", "student_files", "visible_tests", "hidden_tests",
#         "contract_files", "timeout", "sets": {"<set>": {"points", "credit",
#         "test_file", "tests"}}}]} ("credit": all-or-nothing or per-case,
#         EXERCISE_CREDIT); test names are TEST_CASE names (the test
#         exercises.test-names checks them against the built programs).
#
# With BOOK_TESTS, per exercise <key>/<ex> (<tid> = <key>.<ex>) and test set <set>:
#   exercise-tests.<tid>.<set>   the set's test objects (an OBJECT library, compiled
#                                once; tools/grade links the same objects)
#   exercise-judge.<tid>.<set>   the judge (the set + the bridge's judge side), and
#   exercise-worker.<tid>,       the workers (the solution's, BOOK_EXERCISES_DIR or
#   exercise-starter-worker.<tid> solutions/, and the starter's, each + the bridge's
#                                worker side); CTest test exercises.<key>.<ex>.<set>
#                                passes when the solution's worker passes the judge,
#                                exercises.starter.<key>.<ex>.<set> when the
#                                starter's fails it
#   exercise.<tid>.<set>,        the solution (or the starter) and the set in one
#   exercise-starter.<tid>.<set> process, as the student bundle builds them: for a
#                                bridged exercise built on demand only (not in ALL)
# Programs land in build/<preset>/exercises/ (judge/, worker/, starter/).
# Every target here is built before the tests run (exercise-kit, which `ctest`
# builds first: cmake/Book.cmake), not with the book, except the solutions in the
# instructor edition, whose listings the book shows. A GPU exercise's code (the
# starter and the solution) compiles where nvcc is; its test programs are built
# where a GPU is too (BOOK_GPU_LIVE); elsewhere its tests report skipped, never passed. Their tests and bridge are host code,
# which the host compiler compiles (_bx_host_code); nvcc compiles the student's files.
#   exercise-kit                 everything tools/grade links: the test objects, the
#                                Catch2 mains, the libraries, the GPU probe; and
#   ${CMAKE_BINARY_DIR}/exercises/kit.json, which tells tools/grade where they
#                                are and how to compile and link a student's files.
# The grader's own tests are in tools/grader/tests/tests.cmake.
#
# The files, by concern (each one's header names what it owns):
#   BookExerciseContract.cmake  the layout and the contract of one exercise, read and
#                               checked (with BookExerciseSettings.cmake)
#   BookExercises.cmake         this file: discovery, exercises.json, the order of the steps
#   BookExerciseTargets.cmake   the mains and the probe; an exercise's code, bridge, workers
#   BookExerciseSets.cmake      per test set: its objects, programs, judge and CTest tests
#   BookExerciseLinks.cmake     the libraries an exercise links, followed and described
#   BookExerciseKit.cmake       the kit: its entry per exercise, exercise-kit, kit.json
include(BookExerciseContract)
include(BookExerciseTargets)
include(BookExerciseSets)
include(BookExerciseLinks)
include(BookExerciseKit)

set(BOOK_EXERCISE_CXX_OPTIONS -O0 CACHE STRING
    "Options for an exercise's code (starter, solution, a student's files), as for test code")
mark_as_advanced(BOOK_EXERCISE_CXX_OPTIONS)
find_program(BOOK_EXERCISES_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH)  # as BookDocs does
find_program(BOOK_EXERCISES_PYTHON python3)

# A JSON array of the strings of a CMake list.
function(_bx_json_array out)
  set(items "")
  foreach(v IN LISTS ARGN)
    _book_json_string(q "${v}")
    list(APPEND items "${q}")
  endforeach()
  list(JOIN items ", " joined)
  set(${out} "[${joined}]" PARENT_SCOPE)
endfunction()

# A JSON array of what generator expressions give (each may give a list): an
# empty string marks an empty expression, which tools/grade drops.
function(_bx_json_genex_array out)
  set(items "")
  foreach(g IN LISTS ARGN)
    list(APPEND items "\"$<JOIN:${g},\"$<COMMA> \">\"")
  endforeach()
  list(JOIN items ", " joined)
  set(${out} "[${joined}]" PARENT_SCOPE)
endfunction()

# _bx_read_exercise(<key>/<ex>): reads and checks both sides of one exercise
# (book_exercise_read, book_exercise_check_solution), has configure re-run when
# what it read changes, and appends its entry of exercises.json to the global
# _BX_BOOK_ENTRIES. book_exercise_read's BX_<tid>_* variables are set in the
# caller's scope too, where the targets' step (_bx_declare_exercise) reads them.
function(_bx_read_exercise id)
  book_exercise_id_parts("${id}" key ex)
  string(REPLACE "/" "." tid "${id}")
  set(p "BX_${tid}")
  book_exercise_read("${_bx_root}" ${key} ${ex} "${p}")
  if(NOT BOOK_READER_SOURCE)
    book_exercise_check_solution("${_bx_root}" ${key} ${ex} "${${p}_STUDENT_FILES}")
  endif()
  # What configure read re-runs it: the contract, the title, the test names, and
  # the folders (a file added or removed). Editing a starter or a solution does not.
  set(watch "${_bx_root}/exercises/${id}/exercise.cmake"
            "${_bx_root}/exercises/${id}/README.md"
            "${_bx_root}/exercises/${id}" "${_bx_root}/solutions/${id}"
            "${_bx_root}/tests/${key}/exercises/${ex}")
  foreach(s IN LISTS ${p}_SETS)
    list(APPEND watch "${${p}_${s}_TEST}")
  endforeach()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${watch})
  _bx_book_entry(entry "${id}" ${key} ${ex} ${p})
  set_property(GLOBAL APPEND PROPERTY _BX_BOOK_ENTRIES "${entry}")
  get_cmake_property(vars VARIABLES)
  foreach(v IN LISTS vars)
    string(FIND "${v}" "${p}_" at)
    if(at EQUAL 0)
      set(${v} "${${v}}" PARENT_SCOPE)
    endif()
  endforeach()
endfunction()

# _bx_book_entry(<out> <key>/<ex> <key> <ex> <prefix>): the exercise's entry of
# exercises.json, from book_exercise_read's <prefix>_* variables.
function(_bx_book_entry out id key ex p)
  _book_json_string(_j_id "${id}")
  _book_json_string(_j_title "${${p}_TITLE}")
  _book_json_string(_j_dir "${${p}_DIR}")
  _book_json_string(_j_sdir "${_bx_root}/solutions/${id}")
  _bx_json_array(_j_files ${${p}_STUDENT_FILES})
  _bx_json_array(_j_contract ${${p}_CONTRACT_FILES})
  set(_j_visible "[]")
  set(_j_hidden "[]")
  set(_j_sets "")
  foreach(s IN LISTS ${p}_SETS)
    _bx_json_array(_j_names ${${p}_${s}_NAMES})
    set(_j_${s} "${_j_names}")
    _book_json_string(_j_file "${${p}_${s}_TEST}")
    list(APPEND _j_sets "\"${s}\": {\"points\": ${${p}_${s}_POINTS}, \"credit\": \"${${p}_${s}_CREDIT}\", \"test_file\": ${_j_file}, \"tests\": ${_j_names}}")
  endforeach()
  list(JOIN _j_sets ", " _j_sets)
  _book_json_bool(_j_gpu "${${p}_GPU}")
  set(${out}
      "    {\"id\": ${_j_id}, \"chapter\": \"${key}\", \"name\": \"${ex}\", \"title\": ${_j_title}, \"points\": ${${p}_POINTS}, \"gpu\": ${_j_gpu}, \"timeout\": ${${p}_TIMEOUT},\n     \"dir\": ${_j_dir}, \"solution_dir\": ${_j_sdir},\n     \"student_files\": ${_j_files}, \"contract_files\": ${_j_contract},\n     \"visible_tests\": ${_j_visible},\n     \"hidden_tests\": ${_j_hidden},\n     \"sets\": {${_j_sets}}}"
      PARENT_SCOPE)
endfunction()

# ---- discovery and the layout check (both sides) -----------------------------
set(_bx_root "${CMAKE_SOURCE_DIR}")
# The reader's source: the archive the site offers (cmake/BookPackSource.cmake)
# holds no solutions/ and no hidden test set, which only an instructor may read.
# It builds the book all the same: each exercise's statement and visible tests
# are read as ever, and its own tests and the grader's (which grade the
# solutions) are left out, as the configure step says. A reader works an
# exercise in its chapter's bundle (tools/grader/bundle).
set(BOOK_READER_SOURCE OFF)
if(NOT IS_DIRECTORY "${_bx_root}/solutions")
  set(BOOK_READER_SOURCE ON)
  list(APPEND BOOK_EXERCISE_OPTIONAL_SETS hidden)
  if(BOOK_EDITION STREQUAL "instructor")
    message(FATAL_ERROR "${_bx_root}/solutions: missing, and the instructor edition (BOOK_EDITION) "
                        "shows the solutions: this is the reader's source, which leaves them out; "
                        "build the instructor edition from the repository")
  endif()
endif()
book_exercise_list("${_bx_root}" _bx_ids)
if(BOOK_CHAPTERS)  # only the exercises of the chapters this build has (cmake/BookChapters.cmake)
  set(_bx_kept "")
  foreach(_bx_id IN LISTS _bx_ids)
    string(REGEX REPLACE "/.*" "" _bx_key "${_bx_id}")
    if(_bx_key IN_LIST BOOK_CHAPTERS)
      list(APPEND _bx_kept "${_bx_id}")
    endif()
  endforeach()
  set(_bx_ids "${_bx_kept}")
endif()
file(GLOB _bx_keys LIST_DIRECTORIES true "${_bx_root}/exercises/*" "${_bx_root}/solutions/*"
                                         "${_bx_root}/tests/*/exercises")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             "${_bx_root}/cmake/BookExerciseContract.cmake" "${_bx_root}/exercises"
             "${_bx_root}/solutions" ${_bx_keys})
set_property(GLOBAL PROPERTY _BX_BOOK_ENTRIES "")
foreach(_bx_id IN LISTS _bx_ids)
  _bx_read_exercise("${_bx_id}")
endforeach()
get_property(_bx_book_entries GLOBAL PROPERTY _BX_BOOK_ENTRIES)
list(JOIN _bx_book_entries ",\n" _bx_book_entries)
file(GENERATE OUTPUT "${CMAKE_BINARY_DIR}/exercises.json" CONTENT
     "{\n  \"exercises\": [\n${_bx_book_entries}\n  ]\n}\n")
list(LENGTH _bx_ids _bx_count)
if(BOOK_READER_SOURCE)
  message(STATUS "Exercises: ${_bx_count}, from the reader's source (no solutions/): the exercises' "
                 "tests and the grader's are left out; each chapter's exercise bundle holds what a "
                 "reader needs to work them")
  return()
endif()
message(STATUS "Exercises: ${_bx_count}, both sides checked (cmake/BookExerciseContract.cmake)")

if(NOT BOOK_TESTS)
  return()
endif()
# ---- with BOOK_TESTS: per exercise, its targets, tests and kit entry ----------
_bx_add_mains()
_bx_grade_compilers(_j_cxx_compile _j_cxx_link _j_cuda)
get_filename_component(_bx_graded "${BOOK_EXERCISES_DIR}" ABSOLUTE BASE_DIR "${CMAKE_BINARY_DIR}")
set(_bx_out "${CMAKE_BINARY_DIR}/exercises")
set(_bx_catch_args --order decl --use-colour no)
set_property(GLOBAL PROPERTY _BX_KIT_DEPS book_catch_main book_exercise_worker_main)
set_property(GLOBAL PROPERTY _BX_KIT_ENTRIES "")
set_property(GLOBAL PROPERTY _BX_NEED_GPU_MAIN OFF)
set_property(GLOBAL PROPERTY _BX_DESCRIBED "")
set_property(GLOBAL PROPERTY _BX_LIBRARIES "")
foreach(_bx_id IN LISTS _bx_ids)
  _bx_declare_exercise("${_bx_id}")
endforeach()
_bx_write_kit("${_j_cxx_compile}" "${_j_cxx_link}" "${_j_cuda}")
