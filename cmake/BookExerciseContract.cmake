# SPDX-License-Identifier: MIT
# An exercise's contract: what the student edits, what the tests are, what they
# are worth. One copy of it, in exercises/<key>/<ex>/; read by the book's build
# (cmake/BookExercises.cmake), by the student bundle's build, and in script mode
# to check a whole tree:
#
#   cmake -DBOOK_SOURCE_DIR=<repository> -P cmake/BookExerciseContract.cmake
#
# This file: the layout, book_exercise_read, book_exercise_check_solution,
# book_exercise_id_parts, book_exercise_list and the script mode; the checks of exercise.cmake and of the
# tests folder that book_exercise_read calls are cmake/BookExerciseSettings.cmake's
# (included here; the student bundle ships both files).
#
# The layout of one exercise <key>/<ex> (<key> a chapter, chNN-name; <ex>, exNN-name):
#
#   exercises/<key>/<ex>/README.md      first line "# <title>", then the statement,
#                                       "## Hints", "## Check yourself"
#   exercises/<key>/<ex>/exercise.cmake the contract (below)
#   exercises/<key>/<ex>/<student files> the starter: compiles, fails its tests
#   exercises/<key>/<ex>/<other files>  the contract's headers: every other file
#   solutions/<key>/<ex>/<student files> the solved versions, and nothing else but
#   solutions/<key>/<ex>/SOLUTION.md    the notes on the solution
#   tests/<key>/exercises/<ex>/<set>.test.cpp   one Catch2 test file per test set
#                                       (.test.cu for a GPU exercise): visible, and
#                                       optionally hidden; a GPU exercise's test code
#                                       is host code all the same (no <<<...>>>, no
#                                       device code: cmake/BookExerciseTargets.cmake)
#   tests/<key>/exercises/<ex>/bridge.cpp (.cu)  the grader's bridge: how the judge (the
#                                       test sets) calls EXERCISE_FUNCTIONS in the worker
#                                       (tools/grader/judge/grade_bridge.hpp)
#   tests/<key>/exercises/<ex>/<name>.hpp (.cuh, .h)  test code the sets share (the
#                                       reference, the checks): shipped to students
#                                       with the visible tests, so never named hidden*
#
# exercise.cmake sets (and nothing else):
#   EXERCISE_STUDENT_FILES  the file names the student edits and hands in: sources only
#                           (.cpp, .cu); headers are the contract's, the same for all
#   EXERCISE_POINTS         points per test set: visible <n> [hidden <n>]; a set is
#                           worth its points when every one of its test cases passes
#   EXERCISE_CREDIT         how a set earns its points (optional): all-or-nothing (the
#                           default, as above) or per-case (its points split evenly
#                           over its test cases, rounded down: _bx_credit); one rule
#                           for every set, or pairs: "hidden per-case"
#   EXERCISE_TIMEOUT        seconds one test set may run (default 60)
#   EXERCISE_LIBS           book libraries the tests link besides the student's files
#                           (optional; a GPU exercise gets book_cuda without asking)
#   EXERCISE_FUNCTIONS      the functions of the contract's header that the grader's
#                           worker exposes to the tests (the bridge's names); with it,
#                           tools/grade runs the tests in a process of their own that
#                           never loads the student's code (tools/grader/judge/grade_bridge.hpp)
#   EXERCISE_SPEED          speed points (optional, with a bridge): pairs of key and value,
#                           "harness <name> points <n> full <ratio> none <ratio> ...": the
#                           bridge's timed harness, timed against the solution (the book's
#                           reference) on the grading GPU; points by the ratio of the
#                           reference's time to the student's (_bx_speed, tools/grader/speed.py)
#
# A drift between the two sides stops the build, naming the file: a solution file
# the contract does not name, a contract file copied into solutions/, a solution
# file missing, a test set without points or points without a test set.

cmake_policy(VERSION 3.18...3.25)  # also in script mode (-P); include() scopes it

set(BOOK_EXERCISE_SETS visible hidden)
set(BOOK_EXERCISE_NAME_REGEX "^[A-Za-z0-9_][A-Za-z0-9_.-]*\\.(cpp|cc|cxx|cu|hpp|h|hh|cuh|inl)$")

# The helpers that read exercise.cmake and the tests folder, by concern.
include("${CMAKE_CURRENT_LIST_DIR}/BookExerciseSettings.cmake")

# _bx_error(<file> <message>...): stop, naming the file, on one line of its own
# ("<file>: <message>", as compilers write it), then with CMake's error.
function(_bx_error file)
  string(JOIN "" text ${ARGN})
  message(NOTICE "${file}: ${text}")
  message(FATAL_ERROR "The exercises' layout is broken: ${file} (the line above says how)")
endfunction()

# The regular files of a folder (names only); sub-folders are an error.
function(_bx_plain_files out dir)
  file(GLOB entries LIST_DIRECTORIES true RELATIVE "${dir}" "${dir}/*" "${dir}/.*")
  set(files "")
  foreach(e IN LISTS entries)
    if(IS_SYMLINK "${dir}/${e}")
      _bx_error("${dir}/${e}" "a symbolic link, but an exercise's files are plain files")
    elseif(IS_DIRECTORY "${dir}/${e}")
      _bx_error("${dir}/${e}" "a folder, but an exercise's files lie directly in ${dir}")
    endif()
    list(APPEND files "${e}")
  endforeach()
  list(SORT files)
  set(${out} "${files}" PARENT_SCOPE)
endfunction()

# The TEST_CASE names of a Catch2 test file, in order. Read from the source text
# at configure time (the book's exercise directive needs them without a build);
# the test exercises.test-names checks them against what the built programs list.
function(_bx_test_names out file)
  file(READ "${file}" text)
  # Comments out first, so that a TEST_CASE in a comment is not taken.
  string(REGEX REPLACE "/\\*([^*]|\\*+[^*/])*\\*+/" "" text "${text}")
  string(REGEX REPLACE "//[^\n]*" "" text "${text}")
  string(REGEX MATCHALL "TEST_CASE[ \t\r\n]*\\([ \t\r\n]*\"[^\"\n]*\"" hits "${text}")
  set(names "")
  foreach(h IN LISTS hits)
    string(REGEX REPLACE "^TEST_CASE[ \t\r\n]*\\([ \t\r\n]*\"([^\"\n]*)\"$" "\\1" n "${h}")
    if(n STREQUAL "")
      _bx_error("${file}" "a TEST_CASE without a name")
    endif()
    if(n IN_LIST names)
      _bx_error("${file}" "two test cases named \"${n}\"")
    endif()
    list(APPEND names "${n}")
  endforeach()
  if(NOT names)
    _bx_error("${file}" "no TEST_CASE(\"name\", ...) found")
  endif()
  set(${out} "${names}" PARENT_SCOPE)
endfunction()

# book_exercise_read(<source root> <key> <ex> <prefix>)
# Reads and checks exercises/<key>/<ex> and tests/<key>/exercises/<ex> under the
# source root, and sets in the caller's scope:
#   <prefix>_DIR, <prefix>_TESTS_DIR    the two folders
#   <prefix>_TITLE                      README.md's first line, without "# "
#   <prefix>_STUDENT_FILES              names, as listed
#   <prefix>_SOURCES                    the student files that are compiled (.cpp, .cu, ...)
#   <prefix>_CONTRACT_FILES             names of the contract's files (headers)
#   <prefix>_LIBS, <prefix>_TIMEOUT, <prefix>_GPU (ON/OFF)
#   <prefix>_SPEED                      EXERCISE_SPEED's pairs (empty: no speed points)
#   <prefix>_FUNCTIONS, <prefix>_BRIDGE  the worker's functions and the bridge (absolute;
#                                       empty where the exercise has none)
#   <prefix>_SETS                       visible [hidden]
#   <prefix>_POINTS                     their total
#   <prefix>_<set>_POINTS, <prefix>_<set>_TEST (absolute), <prefix>_<set>_NAMES
#   <prefix>_<set>_CREDIT               all-or-nothing or per-case (EXERCISE_CREDIT)
#   <prefix>_TEST_SUPPORT               names of the headers the test sets share
function(book_exercise_read root key ex prefix)
  set(dir "${root}/exercises/${key}/${ex}")
  set(tests_dir "${root}/tests/${key}/exercises/${ex}")
  set(contract "${dir}/exercise.cmake")
  if(NOT EXISTS "${contract}")
    _bx_error("${dir}" "no exercise.cmake: every exercise states its contract there")
  endif()
  set(readme "${dir}/README.md")
  if(NOT EXISTS "${readme}")
    _bx_error("${dir}" "no README.md")
  endif()
  file(STRINGS "${readme}" first LIMIT_COUNT 1)
  if(NOT first MATCHES "^# (.+)$")
    _bx_error("${readme}:1" "the first line must be \"# <title>\"")
  endif()
  set(title "${CMAKE_MATCH_1}")

  _bx_read_contract("${contract}")
  _bx_student_files(sources contract_files "${dir}" "${contract}")
  _bx_points(sets total "${contract}")
  _bx_credit("${contract}" "${sets}")
  _bx_test_sets(sets support bridge kinds "${tests_dir}" "${contract}" "${sets}")
  _bx_gpu_and_bridge(gpu "${tests_dir}" "${contract}" "${sets}" "${kinds}" "${bridge}" "${support}")

  set(${prefix}_DIR "${dir}" PARENT_SCOPE)
  set(${prefix}_TESTS_DIR "${tests_dir}" PARENT_SCOPE)
  set(${prefix}_TEST_SUPPORT "${support}" PARENT_SCOPE)
  set(${prefix}_TITLE "${title}" PARENT_SCOPE)
  set(${prefix}_STUDENT_FILES "${EXERCISE_STUDENT_FILES}" PARENT_SCOPE)
  set(${prefix}_SOURCES "${sources}" PARENT_SCOPE)
  set(${prefix}_CONTRACT_FILES "${contract_files}" PARENT_SCOPE)
  set(${prefix}_LIBS "${EXERCISE_LIBS}" PARENT_SCOPE)
  set(${prefix}_FUNCTIONS "${EXERCISE_FUNCTIONS}" PARENT_SCOPE)
  set(${prefix}_SPEED "${EXERCISE_SPEED}" PARENT_SCOPE)
  set(${prefix}_BRIDGE "${bridge}" PARENT_SCOPE)
  set(${prefix}_TIMEOUT "${EXERCISE_TIMEOUT}" PARENT_SCOPE)
  set(${prefix}_GPU "${gpu}" PARENT_SCOPE)
  set(${prefix}_SETS "${sets}" PARENT_SCOPE)
  set(${prefix}_POINTS "${total}" PARENT_SCOPE)
  set(all_names "")
  foreach(s IN LISTS sets)
    _bx_test_names(names "${test_${s}}")
    foreach(nm IN LISTS names)
      if(nm IN_LIST all_names)
        _bx_error("${test_${s}}" "test case \"${nm}\" is in two test sets")
      endif()
    endforeach()
    list(APPEND all_names ${names})
    set(${prefix}_${s}_POINTS "${points_${s}}" PARENT_SCOPE)
    set(${prefix}_${s}_CREDIT "${credit_${s}}" PARENT_SCOPE)
    set(${prefix}_${s}_TEST "${test_${s}}" PARENT_SCOPE)
    set(${prefix}_${s}_NAMES "${names}" PARENT_SCOPE)
  endforeach()
endfunction()

# book_exercise_check_solution(<source root> <key> <ex> <student files>)
# solutions/<key>/<ex>/ holds the student files and SOLUTION.md, nothing else.
function(book_exercise_check_solution root key ex student_files)
  set(sdir "${root}/solutions/${key}/${ex}")
  set(contract "${root}/exercises/${key}/${ex}/exercise.cmake")
  if(NOT IS_DIRECTORY "${sdir}")
    _bx_error("${sdir}" "missing: the solution of exercises/${key}/${ex}")
  endif()
  _bx_plain_files(present "${sdir}")
  string(REPLACE ";" ", " names "${student_files}")
  foreach(f IN LISTS present)
    if(f STREQUAL "SOLUTION.md" OR f IN_LIST student_files)
      continue()
    endif()
    if(EXISTS "${root}/exercises/${key}/${ex}/${f}")
      _bx_error("${sdir}/${f}" "a copy of the contract file exercises/${key}/${ex}/${f}: the "
                "contract has one copy, in exercises/, so delete this one")
    endif()
    _bx_error("${sdir}/${f}" "not a file the student edits (EXERCISE_STUDENT_FILES in ${contract} "
              "names: ${names}), and a solution holds only those and SOLUTION.md")
  endforeach()
  foreach(f IN LISTS student_files ITEMS SOLUTION.md)
    if(NOT f IN_LIST present)
      _bx_error("${sdir}/${f}" "missing: a solution holds every student file of ${contract} "
                "and SOLUTION.md")
    endif()
  endforeach()
endfunction()

# book_exercise_id_parts(<key>/<ex> <key out> <ex out>): an exercise id's chapter
# key and exercise folder name.
function(book_exercise_id_parts id key_out ex_out)
  string(REPLACE "/" ";" parts "${id}")
  list(GET parts 0 key)
  list(GET parts 1 ex)
  set(${key_out} "${key}" PARENT_SCOPE)
  set(${ex_out} "${ex}" PARENT_SCOPE)
endfunction()

# book_exercise_list(<source root> <out>): every <key>/<ex> of exercises/, sorted;
# solutions/ and tests/<key>/exercises/ folders with no exercise are errors.
function(book_exercise_list root out)
  file(GLOB dirs LIST_DIRECTORIES true RELATIVE "${root}/exercises" "${root}/exercises/*/*")
  set(ids "")
  foreach(d IN LISTS dirs)
    if(IS_DIRECTORY "${root}/exercises/${d}")
      if(NOT d MATCHES "^ch[0-9][0-9]-[a-z0-9-]+/ex[0-9][0-9]-[a-z0-9-]+$")
        _bx_error("${root}/exercises/${d}" "not an exercise folder: exercises/chNN-name/exNN-name/")
      endif()
      list(APPEND ids "${d}")
    endif()
  endforeach()
  list(SORT ids)
  foreach(side solutions tests)
    if(side STREQUAL "tests")
      file(GLOB others LIST_DIRECTORIES true RELATIVE "${root}/tests" "${root}/tests/*/exercises/*")
      list(TRANSFORM others REPLACE "/exercises/" "/")
    else()
      file(GLOB others LIST_DIRECTORIES true RELATIVE "${root}/${side}" "${root}/${side}/*/*")
    endif()
    foreach(o IN LISTS others)
      if(NOT o IN_LIST ids)
        book_exercise_id_parts("${o}" k e)
        if(side STREQUAL "tests")
          set(where "${root}/tests/${k}/exercises/${e}")
        else()
          set(where "${root}/${side}/${o}")
        endif()
        _bx_error("${where}" "no exercise exercises/${o} for it")
      endif()
    endforeach()
  endforeach()
  set(${out} "${ids}" PARENT_SCOPE)
endfunction()

# Script mode: check every exercise of BOOK_SOURCE_DIR, both sides.
if(CMAKE_SCRIPT_MODE_FILE AND CMAKE_SCRIPT_MODE_FILE STREQUAL CMAKE_CURRENT_LIST_FILE)
  if(NOT BOOK_SOURCE_DIR)
    message(FATAL_ERROR "usage: cmake -DBOOK_SOURCE_DIR=<repository> -P ${CMAKE_CURRENT_LIST_FILE}")
  endif()
  book_exercise_list("${BOOK_SOURCE_DIR}" _ids)
  foreach(_id IN LISTS _ids)
    string(REPLACE "/" ";" _parts "${_id}")
    list(GET _parts 0 _key)
    list(GET _parts 1 _ex)
    book_exercise_read("${BOOK_SOURCE_DIR}" ${_key} ${_ex} _e)
    book_exercise_check_solution("${BOOK_SOURCE_DIR}" ${_key} ${_ex} "${_e_STUDENT_FILES}")
    string(REPLACE ";" ", " _files "${_e_STUDENT_FILES}")
    string(REPLACE ";" ", " _sets "${_e_SETS}")
    message(STATUS "${_id}: student files ${_files}, test sets ${_sets}, ${_e_POINTS} points")
  endforeach()
  list(LENGTH _ids _n)
  message(STATUS "exercises: ${_n} checked")
endif()
