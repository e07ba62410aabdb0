# SPDX-License-Identifier: MIT
# Exercise 4.3's contract (cmake/BookExerciseContract.cmake says what each setting
# means). The tests are tests/ch04-latency/exercises/ex03-fewer-warps/: .cu
# test files make this a GPU exercise, which links book_cuda without asking.
set(EXERCISE_STUDENT_FILES read_sum.cu)
set(EXERCISE_POINTS visible 4 hidden 2)
set(EXERCISE_TIMEOUT 120)
# The functions the grader's worker exposes to the tests (its bridge: the tests'
# bridge.cu); the tests call them in another process.
# launch_read is the tests' own (read_check.cuh): the student's kernel launched by
# the tests' driver, so that the sums come from the kernel.
set(EXERCISE_FUNCTIONS launch_read)
# Speed points (tools/grader/speed.py), once both sets pass: the bridge's timed harness
# "quarter" launches read_sum with 4 blocks of 128 threads per SM (16 warps, a
# quarter of an SM's 64) over 2^24 fresh vectors (256 MiB), 20 times per timed span,
# the L2 flushed before each launch; the ratio is the reference's time (the
# solution: four independent loads per lane, launched the same way) over the
# student's, on the grading GPU. Full points (4) at a ratio of 0.9 or more, none
# below 0.5, in proportion between (rounded down); a ratio above 1.5 is faster than
# the memory can be read, and earns nothing until read. Each launch's sum must
# equal the reference's exactly.
set(EXERCISE_SPEED harness quarter points 4 full 0.9 none 0.5 calls 20 size 16777216
                   per_worker 3 max_rounds 12 rse 0.01 wall 180 plausible 1.5)
