# How cmake/BookExercises.cmake builds and grades this exercise. The test is
# tests/ch01-execution-model/exercises/ex02-simt-efficiency.test.cpp; the
# sources are every *.cpp of this folder.
set(EXERCISE_TITLE "SIMT efficiency: loops, branches, and sorting work into uniform warps")
set(EXERCISE_LIBS ch01_warp_model)  # the test checks you against the chapter's model
set(EXERCISE_POINTS 10)
set(EXERCISE_TIMEOUT 60)
