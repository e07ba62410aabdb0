# SPDX-License-Identifier: MIT
# Exercise 4.1's contract (cmake/BookExerciseContract.cmake says what each setting
# means). The tests are tests/ch04-latency/exercises/ex01-knee/ (.cpp: a CPU
# exercise, which runs anywhere).
set(EXERCISE_STUDENT_FILES knee.cpp)
set(EXERCISE_POINTS visible 7 hidden 3)
set(EXERCISE_TIMEOUT 60)
set(EXERCISE_LIBS ch04_little)  # the tests check you against the chapter's model
# The functions the grader's worker exposes to the tests (its bridge: the tests'
# bridge.cpp); the tests call them in another process.
set(EXERCISE_FUNCTIONS bytes_in_flight knee_bytes_per_sm predicted_tbs loads_to_reach)
