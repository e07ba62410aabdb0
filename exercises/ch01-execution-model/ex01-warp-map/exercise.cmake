# SPDX-License-Identifier: MIT
# Exercise 1.1's contract (cmake/BookExerciseContract.cmake says what each setting
# means). The tests are tests/ch01-execution-model/exercises/ex01-warp-map/.
set(EXERCISE_STUDENT_FILES warp_map.cpp)
set(EXERCISE_POINTS visible 7 hidden 3)
set(EXERCISE_TIMEOUT 60)
set(EXERCISE_LIBS ch01_warp_model)  # the tests check you against the chapter's warp model
# The functions the grader's worker exposes to the tests (its bridge: the tests'
# bridge.cpp); the tests call them in another process.
set(EXERCISE_FUNCTIONS warp_of_thread lane_of_thread warps_in_block active_lanes_in_last_warp diverging_warps_for_threshold)
