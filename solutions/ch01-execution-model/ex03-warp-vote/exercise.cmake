# How cmake/BookExercises.cmake builds and grades this exercise. The test is
# tests/ch01-execution-model/exercises/ex03-warp-vote.test.cu: a .cu test makes
# this a GPU exercise (built where nvcc is, skipped where no GPU is). The
# sources are every *.cu and *.cpp of this folder; book_cuda is linked for you.
set(EXERCISE_TITLE "Warp vote: counting with __ballot_sync and __popc (GPU)")
set(EXERCISE_LIBS "")
set(EXERCISE_POINTS 10)
set(EXERCISE_TIMEOUT 60)
