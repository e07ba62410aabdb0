# SPDX-License-Identifier: MIT
# One exercise's contract and tests folder, read and checked: book_exercise_read's
# helpers (cmake/BookExerciseContract.cmake includes this file, which the
# student bundle ships beside it), one per concern. Each reads the contract's
# EXERCISE_* variables from the caller's scope and sets what it finds there
# (PARENT_SCOPE); each stops at the file (and line) of a drift, through _bx_error.
#   _bx_read_contract   exercise.cmake's settings, and nothing else
#   _bx_pairs           a setting of pairs of key and value (EXERCISE_SPEED,
#                       EXERCISE_POINTS, EXERCISE_CREDIT)
#   _bx_student_files   the student's files and the contract's headers
#   _bx_points          EXERCISE_POINTS: the test sets and their points
#   _bx_credit          EXERCISE_CREDIT: how each set's points are earned
#   _bx_test_sets       the tests folder: one file per set, the shared headers, the bridge
#   _bx_gpu_and_bridge  a GPU exercise's test code is host code (_bx_host_only);
#                       a bridge where EXERCISE_FUNCTIONS are, and only there
# Tests: exercises.layout (tools/grader/tests/check_layout.py: a drift of each
# kind fails, naming the file), exercises.bundle.

# _bx_read_contract(<exercise.cmake>): include the contract and set its
# EXERCISE_* variables (STUDENT_FILES, POINTS, CREDIT, TIMEOUT: 60 by default,
# LIBS, FUNCTIONS) in the caller's scope, unset where the contract sets none; any
# other EXERCISE_* variable is an error.
function(_bx_read_contract contract)
  # Only EXERCISE_* variables it knows, so that a misspelt one is an error rather
  # than a silent default.
  foreach(v STUDENT_FILES POINTS CREDIT TIMEOUT LIBS FUNCTIONS SPEED)
    unset(EXERCISE_${v})
  endforeach()
  get_cmake_property(before VARIABLES)
  include("${contract}")
  get_cmake_property(after VARIABLES)
  list(REMOVE_ITEM after ${before})
  foreach(v IN LISTS after)
    if(v MATCHES "^EXERCISE_" AND NOT v MATCHES "^EXERCISE_(STUDENT_FILES|POINTS|CREDIT|TIMEOUT|LIBS|FUNCTIONS|SPEED)$")
      _bx_error("${contract}" "unknown setting ${v} (known: EXERCISE_STUDENT_FILES, "
                "EXERCISE_POINTS, EXERCISE_CREDIT, EXERCISE_TIMEOUT, EXERCISE_LIBS, "
                "EXERCISE_FUNCTIONS, EXERCISE_SPEED)")
    endif()
  endforeach()
  if(NOT DEFINED EXERCISE_TIMEOUT)
    set(EXERCISE_TIMEOUT 60)
  endif()
  if(NOT EXERCISE_TIMEOUT MATCHES "^[1-9][0-9]*$" OR EXERCISE_TIMEOUT GREATER 600)
    _bx_error("${contract}" "EXERCISE_TIMEOUT must be a whole number of seconds, 1 to 600")
  endif()
  _bx_speed("${contract}")
  foreach(v STUDENT_FILES POINTS CREDIT TIMEOUT LIBS FUNCTIONS SPEED)
    if(DEFINED EXERCISE_${v})
      set(EXERCISE_${v} "${EXERCISE_${v}}" PARENT_SCOPE)
    else()
      unset(EXERCISE_${v} PARENT_SCOPE)
    endif()
  endforeach()
endfunction()

# _bx_pairs(<keys var> <contract> <name> <known> <what>): the setting <name>, a
# list of an even length, read as pairs of key and value: each key one of
# <known> (<what> says what a key is, in the errors), none given twice. The keys
# in order in <keys var>, and each value as value_<key>, in the caller's scope.
function(_bx_pairs keys_out contract name known what)
  list(LENGTH ${name} n)
  math(EXPR last "${n} - 1")
  set(keys "")
  foreach(i RANGE 0 ${last} 2)
    math(EXPR j "${i} + 1")
    list(GET ${name} ${i} k)
    list(GET ${name} ${j} v)
    if(NOT k IN_LIST known)
      string(REPLACE ";" ", " names "${known}")
      _bx_error("${contract}" "${name}: unknown ${what} '${k}' (known: ${names})")
    endif()
    if(k IN_LIST keys)
      _bx_error("${contract}" "${name}: ${what} '${k}' given twice")
    endif()
    list(APPEND keys "${k}")
    set(value_${k} "${v}" PARENT_SCOPE)
  endforeach()
  set(${keys_out} "${keys}" PARENT_SCOPE)
endfunction()

# _bx_speed(<contract>): EXERCISE_SPEED read as pairs of key and value (speed
# grading, tools/grader/speed.py, which checks the values again): harness (the
# bridge's timed harness), points, full and none (the scale: full points at a
# ratio of reference time over student time of at least full, none below none,
# in proportion between), and optionally calls, size, per_worker, max_rounds,
# rse, wall, atol, rtol, round_timeout, plausible. Only with EXERCISE_FUNCTIONS (a bridge).
function(_bx_speed contract)
  if(NOT DEFINED EXERCISE_SPEED)
    return()
  endif()
  if(NOT EXERCISE_FUNCTIONS)
    _bx_error("${contract}" "EXERCISE_SPEED needs a bridge (EXERCISE_FUNCTIONS): the timing is its")
  endif()
  list(LENGTH EXERCISE_SPEED n)
  math(EXPR odd "${n} % 2")
  if(n EQUAL 0 OR odd)
    _bx_error("${contract}" "EXERCISE_SPEED must be pairs of key and value, e.g. "
              "harness sum points 4 full 0.9 none 0.5")
  endif()
  set(known harness points full none calls size per_worker max_rounds rse wall atol rtol round_timeout
            plausible)
  _bx_pairs(seen "${contract}" EXERCISE_SPEED "${known}" key)
  foreach(k IN LISTS seen)
    set(v "${value_${k}}")
    if(NOT k STREQUAL "harness" AND NOT v MATCHES "^[0-9]+(\\.[0-9]+)?(e-?[0-9]+)?$")
      _bx_error("${contract}" "EXERCISE_SPEED: ${k} '${v}' is no number")
    endif()
    if(k STREQUAL "harness" AND NOT v MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
      _bx_error("${contract}" "EXERCISE_SPEED: harness '${v}' is no name")
    endif()
  endforeach()
  foreach(k harness points full none)
    if(NOT k IN_LIST seen)
      _bx_error("${contract}" "EXERCISE_SPEED: '${k}' is missing")
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
  _bx_pairs(sets "${contract}" EXERCISE_POINTS "${BOOK_EXERCISE_SETS}" "test set")
  set(total 0)
  foreach(s IN LISTS sets)
    set(p "${value_${s}}")
    if(NOT p MATCHES "^[0-9]+$")
      _bx_error("${contract}" "EXERCISE_POINTS: '${p}' points for '${s}' is no whole number")
    endif()
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

# _bx_credit(<contract> <sets>): EXERCISE_CREDIT read: how each test set earns
# its points, credit_<set> in the caller's scope for each of <sets>:
#   all-or-nothing  (the default) the set's points when every one of its test
#                   cases passes, else none
#   per-case        the set's points split evenly over its test cases: k of n
#                   passed earn floor(points * k / n), so the whole set earns
#                   exactly its points and a partial one never more than its share
# EXERCISE_CREDIT is one rule for every set ("per-case") or pairs of test set and
# rule ("hidden per-case"), a set it does not name all-or-nothing. Anything else
# is an error naming the contract.
function(_bx_credit contract sets)
  set(rules all-or-nothing per-case)
  foreach(s IN LISTS sets)
    set(credit_${s} all-or-nothing)
  endforeach()
  list(LENGTH EXERCISE_CREDIT n)
  if(DEFINED EXERCISE_CREDIT AND n EQUAL 0)
    _bx_error("${contract}" "EXERCISE_CREDIT is empty: leave it out (all-or-nothing) or say "
              "per-case")
  elseif(n EQUAL 1)
    if(NOT EXERCISE_CREDIT IN_LIST rules)
      _bx_error("${contract}" "EXERCISE_CREDIT: '${EXERCISE_CREDIT}' is no credit rule (known: "
                "all-or-nothing, per-case, or pairs of test set and rule, e.g. \"hidden per-case\")")
    endif()
    foreach(s IN LISTS sets)
      set(credit_${s} "${EXERCISE_CREDIT}")
    endforeach()
  elseif(n GREATER 1)
    math(EXPR odd "${n} % 2")
    if(odd)
      _bx_error("${contract}" "EXERCISE_CREDIT must be one rule for every set (per-case) or "
                "pairs of test set and rule, e.g. \"hidden per-case\"")
    endif()
    _bx_pairs(named "${contract}" EXERCISE_CREDIT "${sets}" "test set")
    foreach(s IN LISTS named)
      set(rule "${value_${s}}")
      if(NOT rule IN_LIST rules)
        _bx_error("${contract}" "EXERCISE_CREDIT: '${rule}' for '${s}' is no credit rule "
                  "(known: all-or-nothing, per-case)")
      endif()
      set(credit_${s} "${rule}")
    endforeach()
  endif()
  foreach(s IN LISTS sets)
    set(credit_${s} "${credit_${s}}" PARENT_SCOPE)
  endforeach()
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

# _bx_host_only(<file>): a GPU exercise's test code (a test set, the bridge, a
# header they share) is host code, which the book's build compiles with the host
# compiler (cmake/BookExerciseTargets.cmake): a <<<...>>> launch there is an error,
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
