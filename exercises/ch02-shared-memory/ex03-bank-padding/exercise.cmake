# SPDX-License-Identifier: MIT
# Exercise 2.3's contract (cmake/BookExerciseContract.cmake says what each setting
# means). The tests are tests/ch02-shared-memory/exercises/ex03-bank-padding/.
set(EXERCISE_STUDENT_FILES banks.cpp)
set(EXERCISE_POINTS visible 7 hidden 3)
set(EXERCISE_TIMEOUT 60)
# The functions the grader's worker exposes to the tests (its bridge: the tests'
# bridge.cpp); the tests call them in another process.
set(EXERCISE_FUNCTIONS bank_of conflict_ways column_read_ways conflict_free_pitch)
