# SPDX-License-Identifier: MIT
# Exercise 1.2's contract (cmake/BookExerciseContract.cmake says what each setting
# means). The tests are tests/ch01-execution-model/exercises/ex02-simt-efficiency/.
set(EXERCISE_STUDENT_FILES simt_efficiency.cpp)
set(EXERCISE_POINTS visible 7 hidden 3)
set(EXERCISE_TIMEOUT 60)
set(EXERCISE_LIBS ch01_warp_model)  # the tests check you against the chapter's warp model
# The functions the grader's worker exposes to the tests (its bridge: the tests'
# bridge.cpp); the tests call them in another process.
set(EXERCISE_FUNCTIONS lane_efficiency_of_loop branch_efficiency reorder_for_uniform_warps)
