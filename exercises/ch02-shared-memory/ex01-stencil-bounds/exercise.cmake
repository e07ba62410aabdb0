# SPDX-License-Identifier: MIT
# Exercise 2.1's contract (cmake/BookExerciseContract.cmake says what each setting
# means). The tests are tests/ch02-shared-memory/exercises/ex01-stencil-bounds/:
# .cu test files make this a GPU exercise, which links book_cuda without asking.
set(EXERCISE_STUDENT_FILES stencil_bounds.cu)
set(EXERCISE_POINTS visible 7 hidden 3)
set(EXERCISE_TIMEOUT 60)
# The functions the grader's worker exposes to the tests (its bridge: the tests'
# bridge.cu); the tests call them in another process. launch_between_guards is
# the tests' own (stencil_check.cuh): the guarded launch of stencil_clamped.
set(EXERCISE_FUNCTIONS stencil_on_gpu launch_between_guards)
