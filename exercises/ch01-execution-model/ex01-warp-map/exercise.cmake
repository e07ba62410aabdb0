# Exercise 1.1's contract (cmake/BookExerciseContract.cmake says what each setting
# means). The tests are tests/ch01-execution-model/exercises/ex01-warp-map/.
set(EXERCISE_STUDENT_FILES warp_map.cpp)
set(EXERCISE_POINTS visible 7 hidden 3)
set(EXERCISE_TIMEOUT 60)
set(EXERCISE_LIBS ch01_warp_model)  # the tests check you against the chapter's warp model
