# SPDX-License-Identifier: MIT
# Exercise 4.2's contract (cmake/BookExerciseContract.cmake says what each setting
# means). The tests are tests/ch04-latency/exercises/ex02-chase-cycle/ (.cpp: a
# CPU exercise, which runs anywhere).
set(EXERCISE_STUDENT_FILES chase_cycle.cpp)
set(EXERCISE_POINTS visible 7 hidden 3)
set(EXERCISE_TIMEOUT 60)
# The functions the grader's worker exposes to the tests (its bridge: the tests'
# bridge.cpp); the tests call them in another process.
set(EXERCISE_FUNCTIONS random_cycle cycle_length)
