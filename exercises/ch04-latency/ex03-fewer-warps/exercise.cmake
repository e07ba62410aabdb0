# SPDX-License-Identifier: MIT
# Exercise 4.3's contract (cmake/BookExerciseContract.cmake says what each setting
# means). The tests are tests/ch04-latency/exercises/ex03-fewer-warps/: .cu
# test files make this a GPU exercise, which links book_cuda without asking.
set(EXERCISE_STUDENT_FILES read_sum.cu)
set(EXERCISE_POINTS visible 7 hidden 3)
set(EXERCISE_TIMEOUT 120)
# The functions the grader's worker exposes to the tests (its bridge: the tests'
# bridge.cu); the tests call them in another process.
# launch_read is the tests' own (read_check.cuh): the student's kernel launched and
# timed by the tests' driver, so that the sums and the times come from the kernel.
set(EXERCISE_FUNCTIONS launch_read)
