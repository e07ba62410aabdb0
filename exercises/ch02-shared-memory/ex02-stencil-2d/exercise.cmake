# SPDX-License-Identifier: MIT
# Exercise 2.2's contract (cmake/BookExerciseContract.cmake says what each setting
# means). The tests are tests/ch02-shared-memory/exercises/ex02-stencil-2d/:
# .cu test files make this a GPU exercise, which links book_cuda without asking.
set(EXERCISE_STUDENT_FILES stencil_2d.cu)
set(EXERCISE_POINTS visible 7 hidden 3)
set(EXERCISE_TIMEOUT 60)
# The functions the grader's worker exposes to the tests (its bridge: the tests'
# bridge.cu); the tests call them in another process. launch_between_guards and
# kernel_shared_bytes are the tests' own (stencil_check.cuh): the guarded launch
# of stencil5_tiled, and its shared memory as the CUDA runtime reports it.
set(EXERCISE_FUNCTIONS stencil5_on_gpu launch_between_guards kernel_shared_bytes)
