# SPDX-License-Identifier: MIT
# Exercise 3.5's contract (cmake/BookExerciseContract.cmake says what each setting
# means). The tests are tests/ch03-reductions/exercises/ex05-fast-sum/: .cu test
# files make this a GPU exercise, which links book_cuda without asking.
set(EXERCISE_STUDENT_FILES fast_sum.cu)
set(EXERCISE_POINTS visible 4 hidden 2)
set(EXERCISE_TIMEOUT 60)
# The tests' driver (sum_check.hpp), run in the grader's worker: the student's sum()
# on the device, its result copied back.
set(EXERCISE_FUNCTIONS sum_of)
# Speed points (tools/grader/speed.py), once both sets pass: the bridge's timed harness
# "sum" calls sum() 20 times per timed span on 2^24 fresh values each, the L2 flushed
# before each call; the ratio is the reference's time (the solution: the chapter's
# two-pass reduction) over the student's, on the grading GPU. Full points (4) at a
# ratio of 0.9 or more, none below 0.5, in proportion between (rounded down); a ratio
# above 1.5 is faster than the memory can be read, and earns nothing until read.
# Outputs must equal the reference's exactly (whole numbers: exact in any order).
set(EXERCISE_SPEED harness sum points 4 full 0.9 none 0.5 calls 20 size 16777216
                   per_worker 3 max_rounds 12 rse 0.01 wall 180 plausible 1.5)
