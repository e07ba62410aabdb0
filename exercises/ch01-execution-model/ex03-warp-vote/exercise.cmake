# SPDX-License-Identifier: MIT
# Exercise 1.3's contract (cmake/BookExerciseContract.cmake says what each setting
# means). The tests are tests/ch01-execution-model/exercises/ex03-warp-vote/: .cu
# test files make this a GPU exercise, which links book_cuda without asking.
set(EXERCISE_STUDENT_FILES warp_vote.cu)
set(EXERCISE_POINTS visible 7 hidden 3)
set(EXERCISE_TIMEOUT 60)
# The functions the grader's worker exposes to the tests (its bridge: the tests'
# bridge.cu); the tests call them in another process.
# launch_count is the tests' own (vote_check.cuh): count_matching launched by the
# tests' driver, so that the counts come from the kernel, on the device.
set(EXERCISE_FUNCTIONS count_on_gpu launch_count)
