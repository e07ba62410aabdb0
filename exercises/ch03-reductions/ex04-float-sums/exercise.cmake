# SPDX-License-Identifier: MIT
# Exercise 3.4's contract (cmake/BookExerciseContract.cmake says what each setting
# means). The tests are tests/ch03-reductions/exercises/ex04-float-sums/ (.cpp: a
# CPU exercise, which runs anywhere).
set(EXERCISE_STUDENT_FILES float_sums.cpp)
set(EXERCISE_POINTS visible 7 hidden 3)
set(EXERCISE_TIMEOUT 60)
# The functions the grader's worker exposes to the tests (its bridge: the tests'
# bridge.cpp); the tests call them in another process.
set(EXERCISE_FUNCTIONS pairwise_sum pairwise_depth compensated_sum)
