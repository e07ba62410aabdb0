# SPDX-License-Identifier: MIT
# Exercise 3.1's contract (cmake/BookExerciseContract.cmake says what each setting
# means). The tests are tests/ch03-reductions/exercises/ex01-warp-argmax/: .cu
# test files make this a GPU exercise, which links book_cuda without asking.
set(EXERCISE_STUDENT_FILES warp_argmax.cu)
set(EXERCISE_POINTS visible 7 hidden 3)
set(EXERCISE_TIMEOUT 60)
# The functions the grader's worker exposes to the tests (its bridge: the tests'
# bridge.cu); the tests call them in another process.
# launch_arg_max is the tests' own (argmax_check.cuh): the student's kernel launched by the tests'
# driver, so that the results come from the kernel, on the device.
set(EXERCISE_FUNCTIONS arg_max_on_gpu launch_arg_max)
