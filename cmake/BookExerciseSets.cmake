# SPDX-License-Identifier: MIT
# An exercise's test sets (cmake/BookExerciseTargets.cmake's _bx_declare_exercise
# calls these, per set <set> of exercise <key>/<ex>, <tid> = <key>.<ex>): the set's
# test objects exercise-tests.<tid>.<set>, the programs that link them with the
# solution and with the starter in one process (_bx_set_targets), a bridged
# exercise's judge exercise-judge.<tid>.<set> (_bx_set_judge), and the two-sided
# check, the CTest tests exercises.<key>.<ex>.<set> and
# exercises.starter.<key>.<ex>.<set> (_bx_set_tests), or, for an exercise whose
# tests cannot be built here, the same tests reporting skipped (_bx_skipped_tests).
# These read the directory's _bx_root, _bx_out and _bx_catch_args
# (cmake/BookExercises.cmake) and append what the kit builds to the global _BX_KIT_DEPS.
# Tests: exercises-two-sided (docs/architecture.md): exercises.<key>.<ex>.<set>,
# exercises.starter.<key>.<ex>.<set>.

# The labels and timeout of an exercise test; a GPU one reports 77 as skipped
# and takes one GPU slot.
function(_bx_test_properties test timeout gpu)
  set(labels exercises)
  if(gpu)
    list(APPEND labels gpu)
  endif()
  set_tests_properties(${test} PROPERTIES LABELS "${labels}" TIMEOUT ${timeout})
  if(gpu)
    set_tests_properties(${test} PROPERTIES SKIP_RETURN_CODE 77 RESOURCE_GROUPS "gpus:1")
  endif()
endfunction()

# _bx_set_targets(<key> <ex> <set> <prefix> <gpu> <libs> <main>): the set's test
# objects and the programs exercise.<tid>.<set> and exercise-starter.<tid>.<set>,
# which link them with the solution and with the starter and <main>; then its
# judge and its tests.
function(_bx_set_targets key ex s p gpu libs main)
  set(tid "${key}.${ex}")
  set(objs exercise-tests.${tid}.${s})
  add_library(${objs} OBJECT EXCLUDE_FROM_ALL "${${p}_${s}_TEST}")
  _bx_target_setup(${objs} "${${p}_DIR}" ${gpu} "${libs};book_catch2")
  set(direct_extra "")
  if(${p}_BRIDGE)
    target_compile_definitions(${objs} PRIVATE BOOK_GRADE_BRIDGED)
    set(direct_extra $<TARGET_OBJECTS:exercise-worker-bridge.${tid}>)
  endif()
  if(gpu)
    _bx_host_code(${objs} "${${p}_${s}_TEST}" PRECOMPILED)
  else()
    book_test_headers(${objs})
  endif()
  set_property(GLOBAL APPEND PROPERTY _BX_KIT_DEPS ${objs})
  foreach(side solution starter)
    if(side STREQUAL "solution")
      set(prog exercise.${tid}.${s})
      set(code exercise-code.${tid})
      set(dir "${_bx_out}")
    else()
      set(prog exercise-starter.${tid}.${s})
      set(code exercise-starter-code.${tid})
      set(dir "${_bx_out}/starter")
    endif()
    add_executable(${prog} EXCLUDE_FROM_ALL $<TARGET_OBJECTS:${code}>
                   $<TARGET_OBJECTS:${objs}> ${direct_extra})
    if(NOT ${p}_BRIDGE)
      set_property(GLOBAL APPEND PROPERTY _BX_KIT_DEPS ${prog})  # the exercise tests run it
    endif()
    target_link_libraries(${prog} PRIVATE ${libs} ${main})
    set_target_properties(${prog} PROPERTIES OUTPUT_NAME "${tid}.${s}"
                                             RUNTIME_OUTPUT_DIRECTORY "${dir}")
    # Objects only: the language links as the exercise's sources are written.
    _bx_link_language(${prog} ${gpu})
  endforeach()
  _bx_set_judge(run_solution run_starter ${tid} ${s} ${p} ${gpu} "${libs}")
  _bx_set_tests(${key} ${ex} ${s} ${p} ${gpu} "${run_solution}" "${run_starter}")
endfunction()

# _bx_set_judge(<run solution> <run starter> <tid> <set> <prefix> <gpu> <libs>):
# the commands the set's two tests run: the programs above, or for a bridged
# exercise its judge (the set's objects and the bridge's judge side, never the
# student's code) driving the solution's or the starter's worker.
function(_bx_set_judge solution_out starter_out tid s p gpu libs)
  set(run_solution exercise.${tid}.${s})
  set(run_starter $<TARGET_FILE:exercise-starter.${tid}.${s}>)
  if(${p}_BRIDGE)
    set(judge exercise-judge.${tid}.${s})
    add_executable(${judge} EXCLUDE_FROM_ALL $<TARGET_OBJECTS:exercise-tests.${tid}.${s}>
                   $<TARGET_OBJECTS:exercise-judge-bridge.${tid}>)
    target_link_libraries(${judge} PRIVATE ${libs} book_exercise_judge_main)
    set_target_properties(${judge} PROPERTIES OUTPUT_NAME "${tid}.${s}"
                          RUNTIME_OUTPUT_DIRECTORY "${_bx_out}/judge")
    if(gpu)  # book_cuda is nvcc's: nvcc links the CUDA runtime (the judge needs no GPU)
      set_target_properties(${judge} PROPERTIES LINKER_LANGUAGE CUDA)
      set(skip --skip-without-gpu $<TARGET_FILE:book_exercise_gpu_probe>)
    else()
      set_target_properties(${judge} PROPERTIES LINKER_LANGUAGE CXX)
      set(skip "")
    endif()
    set_property(GLOBAL APPEND PROPERTY _BX_KIT_DEPS ${judge})
    # Fresh inputs each run (--rng-seed time), as in grading.
    set(run_solution ${judge} --worker $<TARGET_FILE:exercise-worker.${tid}>
                     ${skip} --rng-seed time)
    set(run_starter $<TARGET_FILE:${judge}> --worker
                    $<TARGET_FILE:exercise-starter-worker.${tid}> ${skip}
                    --rng-seed time)
  endif()
  set(${solution_out} "${run_solution}" PARENT_SCOPE)
  set(${starter_out} "${run_starter}" PARENT_SCOPE)
endfunction()

# _bx_set_tests(<key> <ex> <set> <prefix> <gpu> <run solution> <run starter>):
# the two-sided check: the solution passes the set, the starter fails it.
function(_bx_set_tests key ex s p gpu run_solution run_starter)
  set(test "exercises.${key}.${ex}.${s}")
  add_test(NAME ${test} COMMAND ${run_solution} ${_bx_catch_args})
  _bx_test_properties(${test} ${${p}_TIMEOUT} ${gpu})
  if(BOOK_EXERCISES_PYTHON)
    set(skip "")
    if(gpu)
      set(skip --skip-code 77 --skip-expect "skipped: no CUDA GPU")
    endif()
    set(test "exercises.starter.${key}.${ex}.${s}")
    math(EXPR ctest_timeout "${${p}_TIMEOUT} + 30")
    add_test(NAME ${test}
             COMMAND "${BOOK_EXERCISES_PYTHON}" "${_bx_root}/tests/book/expect_failure.py"
                     --scratch "${CMAKE_CURRENT_BINARY_DIR}/exercise-scratch/${key}.${ex}.${s}"
                     --timeout ${${p}_TIMEOUT} ${skip}
                     --expect "^test cases:[ ]*[0-9]+([ ]*[|][ ]*[0-9]+ passed)?[ ]*[|][ ]*[1-9][0-9]* failed"
                     -- ${run_starter} ${_bx_catch_args})
    _bx_test_properties(${test} ${ctest_timeout} ${gpu})
  endif()
endfunction()

# _bx_skipped_tests(<key>/<ex> <key> <ex> <prefix> <why>): an exercise whose test
# programs are not built here (a GPU exercise without nvcc or a GPU): its tests
# report skipped, saying why, and never pass.
function(_bx_skipped_tests id key ex p why)
  foreach(s IN LISTS ${p}_SETS)
    foreach(test "exercises.${key}.${ex}.${s}" "exercises.starter.${key}.${ex}.${s}")
      add_test(NAME ${test} COMMAND bookrun skip "${id}: ${why}")
      _bx_test_properties(${test} 60 ON)
    endforeach()
  endforeach()
endfunction()
