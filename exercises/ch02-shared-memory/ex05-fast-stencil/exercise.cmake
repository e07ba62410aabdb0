# SPDX-License-Identifier: MIT
# Exercise 2.5's contract (cmake/BookExerciseContract.cmake says what each setting
# means). The tests are tests/ch02-shared-memory/exercises/ex05-fast-stencil/: .cu
# test files make this a GPU exercise, which links book_cuda without asking.
set(EXERCISE_STUDENT_FILES fast_stencil.cu)
set(EXERCISE_POINTS visible 4 hidden 2)
set(EXERCISE_TIMEOUT 60)
# The tests' driver (stencil_check.cuh), run in the grader's worker: the student's
# stencil() on the device, its whole output allocation copied back.
set(EXERCISE_FUNCTIONS stencil_of)
# Speed points (tools/grader/speed.py), once both sets pass: the bridge's timed harness
# "stencil" calls stencil() 20 times per timed span on 2^24 fresh values each, the L2
# flushed before each call; the ratio is the reference's time (the solution: the
# chapter's tiled stencil with 16-byte loads) over the student's, on the grading GPU.
# Full points (4) at a ratio of 0.9 or more, none below 0.5, in proportion between
# (rounded down); a ratio above 1.5 is faster than the memory can be read and
# written, and earns nothing until read. Each call's outputs are read back at
# places drawn from the secret seed (about 4096 runs of 4, and both ends:
# tools/grader/judge/speed_inputs.hpp, sampled_output), and their digest must
# equal the reference's exactly (whole numbers: exact sums in any order).
set(EXERCISE_SPEED harness stencil points 4 full 0.9 none 0.5 calls 20 size 16777216
                   per_worker 3 max_rounds 12 rse 0.01 wall 180 plausible 1.5)
