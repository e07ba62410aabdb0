# SPDX-License-Identifier: MIT
# Exercise 3.3's contract (cmake/BookExerciseContract.cmake says what each setting
# means). The tests are tests/ch03-reductions/exercises/ex03-one-pass-max/: .cu
# test files make this a GPU exercise, which links book_cuda without asking.
set(EXERCISE_STUDENT_FILES one_pass_max.cu)
set(EXERCISE_POINTS visible 7 hidden 3)
set(EXERCISE_TIMEOUT 60)
# The functions the grader's worker exposes to the tests (its bridge: the tests'
# bridge.cu); the tests call them in another process: one_pass_max constructs a
# finder in the worker, max is its member function.
# launch_max is the tests' own (max_check.cuh): the student's kernel launched by the tests'
# driver, so that the results come from the kernel, on the device.
set(EXERCISE_FUNCTIONS one_pass_max max launch_max)
