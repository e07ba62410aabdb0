# An exercise's contract: what the student edits, what the tests are, what they
# are worth. One copy of it, in exercises/<key>/<ex>/; read by the book's build
# (cmake/BookExercises.cmake), by the student bundle's build, and in script mode
# to check a whole tree:
#
#   cmake -DBOOK_SOURCE_DIR=<repository> -P cmake/BookExerciseContract.cmake
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
#                                       device code: cmake/BookExercises.cmake)
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
#   EXERCISE_TIMEOUT        seconds one test set may run (default 60)
#   EXERCISE_LIBS           book libraries the tests link besides the student's files
#                           (optional; a GPU exercise gets book_cuda without asking)
#   EXERCISE_FUNCTIONS      the functions of the contract's header that the grader's
#                           worker exposes to the tests (the bridge's names); with it,
#                           tools/grade runs the tests in a process of their own that
#                           never loads the student's code (tools/grader/judge/grade_bridge.hpp)
#
# A drift between the two sides stops the build, naming the file: a solution file
# the contract does not name, a contract file copied into solutions/, a solution
# file missing, a test set without points or points without a test set.

cmake_policy(VERSION 3.18...3.25)  # also in script mode (-P); include() scopes it

set(BOOK_EXERCISE_SETS visible hidden)
set(BOOK_EXERCISE_NAME_REGEX "^[A-Za-z0-9_][A-Za-z0-9_.-]*\\.(cpp|cc|cxx|cu|hpp|h|hh|cuh|inl)$")

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

# _bx_host_only(<file>): a GPU exercise's test code (a test set, the bridge, a
# header they share) is host code, which the book's build compiles with the host
# compiler (cmake/BookExercises.cmake): a <<<...>>> launch there is an error,
# naming the file and line (line comments are not looked at).
function(_bx_host_only file)
  file(READ "${file}" text)
  string(REGEX REPLACE "//[^\n]*" "" text "${text}")  # line comments out, lines kept
  string(FIND "${text}" "<<<" at)
  if(at GREATER -1)
    string(SUBSTRING "${text}" 0 ${at} before)
    string(REGEX MATCHALL "\n" breaks "${before}")
    list(LENGTH breaks line)
    math(EXPR line "${line} + 1")
    _bx_error("${file}:${line}" "a <<<...>>> launch, but a GPU exercise's test code is host "
              "code, compiled by the host compiler: launch the contract's kernel with "
              "cudaLaunchKernelEx")
  endif()
endfunction()

# book_exercise_read's helpers, by concern. Each reads the contract's EXERCISE_*
# variables from the caller's scope and sets what it finds there (PARENT_SCOPE).

# _bx_read_contract(<exercise.cmake>): include the contract and set its
# EXERCISE_* variables (STUDENT_FILES, POINTS, TIMEOUT: 60 by default, LIBS,
# FUNCTIONS) in the caller's scope, unset where the contract sets none; any
# other EXERCISE_* variable is an error.
function(_bx_read_contract contract)
  # Only EXERCISE_* variables it knows, so that a misspelt one is an error rather
  # than a silent default.
  foreach(v STUDENT_FILES POINTS TIMEOUT LIBS FUNCTIONS)
    unset(EXERCISE_${v})
  endforeach()
  get_cmake_property(before VARIABLES)
  include("${contract}")
  get_cmake_property(after VARIABLES)
  list(REMOVE_ITEM after ${before})
  foreach(v IN LISTS after)
    if(v MATCHES "^EXERCISE_" AND NOT v MATCHES "^EXERCISE_(STUDENT_FILES|POINTS|TIMEOUT|LIBS|FUNCTIONS)$")
      _bx_error("${contract}" "unknown setting ${v} (known: EXERCISE_STUDENT_FILES, "
                "EXERCISE_POINTS, EXERCISE_TIMEOUT, EXERCISE_LIBS, EXERCISE_FUNCTIONS)")
    endif()
  endforeach()
  if(NOT DEFINED EXERCISE_TIMEOUT)
    set(EXERCISE_TIMEOUT 60)
  endif()
  if(NOT EXERCISE_TIMEOUT MATCHES "^[1-9][0-9]*$" OR EXERCISE_TIMEOUT GREATER 600)
    _bx_error("${contract}" "EXERCISE_TIMEOUT must be a whole number of seconds, 1 to 600")
  endif()
  foreach(v STUDENT_FILES POINTS TIMEOUT LIBS FUNCTIONS)
    if(DEFINED EXERCISE_${v})
      set(EXERCISE_${v} "${EXERCISE_${v}}" PARENT_SCOPE)
    else()
      unset(EXERCISE_${v} PARENT_SCOPE)
    endif()
  endforeach()
endfunction()

# _bx_student_files(<sources var> <contract files var> <dir> <contract>): the
# student's files (plain names, sources only, present in the starter; their
# list made unique in the caller's EXERCISE_STUDENT_FILES) and the contract's
# headers (every other file of the starter but README.md and exercise.cmake).
function(_bx_student_files sources_out contract_files_out dir contract)
  if(NOT EXERCISE_STUDENT_FILES)
    _bx_error("${contract}" "EXERCISE_STUDENT_FILES is empty: name the files the student edits")
  endif()
  _bx_plain_files(present "${dir}")
  set(sources "")
  foreach(f IN LISTS EXERCISE_STUDENT_FILES)
    if(NOT f MATCHES "${BOOK_EXERCISE_NAME_REGEX}")
      _bx_error("${contract}" "EXERCISE_STUDENT_FILES: '${f}' is no plain C++/CUDA file name")
    endif()
    if(NOT f MATCHES "\\.(cpp|cc|cxx|cu)$")
      _bx_error("${contract}" "EXERCISE_STUDENT_FILES: '${f}' is a header, but the tests are "
                "compiled once against the contract's headers for every student, so a student "
                "edits sources only (.cpp, .cu)")
    endif()
    if(f STREQUAL "README.md" OR f STREQUAL "exercise.cmake")
      _bx_error("${contract}" "EXERCISE_STUDENT_FILES: '${f}' is not the student's to edit")
    endif()
    if(NOT f IN_LIST present)
      _bx_error("${dir}/${f}" "missing: exercise.cmake names it as a student file, so the "
                "starter must have it")
    endif()
    list(APPEND sources "${f}")
  endforeach()
  list(REMOVE_DUPLICATES EXERCISE_STUDENT_FILES)
  if(NOT sources)
    _bx_error("${contract}" "EXERCISE_STUDENT_FILES names no source file (.cpp, .cu)")
  endif()
  set(contract_files "${present}")
  list(REMOVE_ITEM contract_files README.md exercise.cmake ${EXERCISE_STUDENT_FILES})
  foreach(f IN LISTS contract_files)
    if(NOT f MATCHES "${BOOK_EXERCISE_NAME_REGEX}")
      _bx_error("${dir}/${f}" "neither a student file (EXERCISE_STUDENT_FILES) nor a header of "
                "the contract (.hpp, .h, .cuh)")
    endif()
    if(f MATCHES "\\.(cpp|cc|cxx|cu)$")
      _bx_error("${dir}/${f}" "a source file the contract does not name: list it in "
                "EXERCISE_STUDENT_FILES or remove it")
    endif()
  endforeach()
  set(EXERCISE_STUDENT_FILES "${EXERCISE_STUDENT_FILES}" PARENT_SCOPE)
  set(${sources_out} "${sources}" PARENT_SCOPE)
  set(${contract_files_out} "${contract_files}" PARENT_SCOPE)
endfunction()

# _bx_points(<sets var> <total var> <contract>): EXERCISE_POINTS read as pairs
# of test set and points: the sets in order, their total, and points_<set> for
# each in the caller's scope.
function(_bx_points sets_out total_out contract)
  list(LENGTH EXERCISE_POINTS n)
  math(EXPR odd "${n} % 2")
  if(n EQUAL 0 OR odd)
    _bx_error("${contract}" "EXERCISE_POINTS must be pairs of test set and points, e.g. "
              "\"visible 7 hidden 3\"")
  endif()
  set(sets "")
  set(total 0)
  math(EXPR last "${n} - 1")
  foreach(i RANGE 0 ${last} 2)
    math(EXPR j "${i} + 1")
    list(GET EXERCISE_POINTS ${i} s)
    list(GET EXERCISE_POINTS ${j} p)
    if(NOT s IN_LIST BOOK_EXERCISE_SETS)
      string(REPLACE ";" ", " known "${BOOK_EXERCISE_SETS}")
      _bx_error("${contract}" "EXERCISE_POINTS: unknown test set '${s}' (known: ${known})")
    endif()
    if(s IN_LIST sets)
      _bx_error("${contract}" "EXERCISE_POINTS: test set '${s}' given twice")
    endif()
    if(NOT p MATCHES "^[0-9]+$")
      _bx_error("${contract}" "EXERCISE_POINTS: '${p}' points for '${s}' is no whole number")
    endif()
    list(APPEND sets "${s}")
    set(points_${s} ${p})
    math(EXPR total "${total} + ${p}")
  endforeach()
  if(NOT "visible" IN_LIST sets)
    _bx_error("${contract}" "EXERCISE_POINTS has no 'visible' test set")
  endif()
  foreach(s IN LISTS sets)
    set(points_${s} "${points_${s}}" PARENT_SCOPE)
  endforeach()
  set(${sets_out} "${sets}" PARENT_SCOPE)
  set(${total_out} "${total}" PARENT_SCOPE)
endfunction()

# _bx_test_sets(<sets var> <support var> <bridge var> <kinds var> <tests dir>
#               <contract> <sets>): one test file per set in the tests folder
# (test_<set> in the caller's scope), the headers the sets share, the bridge
# (absolute, or empty) and the kinds of the test files (cpp, cu); a set of
# BOOK_EXERCISE_OPTIONAL_SETS without its file is dropped from <sets>.
function(_bx_test_sets sets_out support_out bridge_out kinds_out tests_dir contract sets)
  if(NOT IS_DIRECTORY "${tests_dir}")
    _bx_error("${tests_dir}" "missing: the exercise's tests, one <set>.test.cpp (or .test.cu) "
              "per test set")
  endif()
  _bx_plain_files(test_files "${tests_dir}")
  set(kinds "")
  set(support "")
  set(bridge "")
  foreach(f IN LISTS test_files)
    if(f MATCHES "^bridge\\.(cpp|cu)$")
      set(bridge "${tests_dir}/${f}")
      continue()
    endif()
    if(f MATCHES "\\.(hpp|cuh|h)$" AND NOT f MATCHES "\\.test\\.")
      if(f MATCHES "^hidden")
        _bx_error("${tests_dir}/${f}" "test code the sets share goes to students with the visible "
                  "tests: a name starting with 'hidden' would say otherwise (keep what only the "
                  "hidden set may see in hidden.test.*)")
      endif()
      list(APPEND support "${f}")
      continue()
    endif()
    if(NOT f MATCHES "^([a-z]+)\\.test\\.(cpp|cu)$")
      _bx_error("${tests_dir}/${f}" "not a test set file: the folder holds only <set>.test.cpp "
                "or <set>.test.cu, one per test set of EXERCISE_POINTS, and the headers they share")
    endif()
    set(s "${CMAKE_MATCH_1}")
    if(NOT s IN_LIST sets)
      _bx_error("${tests_dir}/${f}" "test set '${s}' has no points in ${contract} (EXERCISE_POINTS)")
    endif()
    if(DEFINED test_${s})
      _bx_error("${tests_dir}/${f}" "test set '${s}' has two files")
    endif()
    set(test_${s} "${tests_dir}/${f}")
    list(APPEND kinds "${CMAKE_MATCH_2}")
  endforeach()
  # BOOK_EXERCISE_OPTIONAL_SETS (the student bundle: hidden) may lack their files;
  # such a set is dropped.
  set(kept "")
  foreach(s IN LISTS sets)
    if(DEFINED test_${s})
      list(APPEND kept "${s}")
    elseif(NOT s IN_LIST BOOK_EXERCISE_OPTIONAL_SETS)
      _bx_error("${tests_dir}" "no ${s}.test.cpp (or .test.cu) for the test set '${s}' of ${contract}")
    endif()
  endforeach()
  set(sets "${kept}")
  list(REMOVE_DUPLICATES kinds)
  list(LENGTH kinds nkinds)
  if(nkinds GREATER 1)
    _bx_error("${tests_dir}" "mixes .test.cpp and .test.cu: an exercise's test sets are all CPU "
              "tests or all GPU tests")
  endif()
  foreach(s IN LISTS sets)
    set(test_${s} "${test_${s}}" PARENT_SCOPE)
  endforeach()
  set(${sets_out} "${sets}" PARENT_SCOPE)
  set(${support_out} "${support}" PARENT_SCOPE)
  set(${bridge_out} "${bridge}" PARENT_SCOPE)
  set(${kinds_out} "${kinds}" PARENT_SCOPE)
endfunction()

# _bx_gpu_and_bridge(<gpu var> <tests dir> <contract> <sets> <kinds> <bridge>
#                    <support>): one kind of test file, all CPU or all GPU (ON:
#                    .test.cu, whose test code is host code); EXERCISE_FUNCTIONS
# are function names, and a bridge is there exactly when they are.
function(_bx_gpu_and_bridge gpu_out tests_dir contract sets kinds bridge support)
  set(gpu OFF)
  if(kinds STREQUAL "cu")
    set(gpu ON)
    foreach(s IN LISTS sets)
      _bx_host_only("${test_${s}}")
    endforeach()
    foreach(f IN LISTS bridge support)
      if(NOT IS_ABSOLUTE "${f}")
        set(f "${tests_dir}/${f}")
      endif()
      _bx_host_only("${f}")
    endforeach()
  endif()
  foreach(fn IN LISTS EXERCISE_FUNCTIONS)
    if(NOT fn MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
      _bx_error("${contract}" "EXERCISE_FUNCTIONS: '${fn}' is no function name")
    endif()
  endforeach()
  if(EXERCISE_FUNCTIONS AND NOT bridge AND NOT "hidden" IN_LIST BOOK_EXERCISE_OPTIONAL_SETS)
    _bx_error("${tests_dir}" "no bridge.cpp (or .cu): ${contract} names EXERCISE_FUNCTIONS, which "
              "the bridge exposes to the tests (tools/grader/judge/grade_bridge.hpp)")
  elseif(bridge AND NOT EXERCISE_FUNCTIONS)
    _bx_error("${bridge}" "a bridge, but ${contract} names no EXERCISE_FUNCTIONS for it to expose")
  endif()
  set(${gpu_out} "${gpu}" PARENT_SCOPE)
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
#   <prefix>_FUNCTIONS, <prefix>_BRIDGE  the worker's functions and the bridge (absolute;
#                                       empty where the exercise has none)
#   <prefix>_SETS                       visible [hidden]
#   <prefix>_POINTS                     their total
#   <prefix>_<set>_POINTS, <prefix>_<set>_TEST (absolute), <prefix>_<set>_NAMES
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
        string(REPLACE "/" ";" parts "${o}")
        list(GET parts 0 k)
        list(GET parts 1 e)
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
