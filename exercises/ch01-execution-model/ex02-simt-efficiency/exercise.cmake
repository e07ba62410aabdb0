# Exercise 1.2's contract (cmake/BookExerciseContract.cmake says what each setting
# means). The tests are tests/ch01-execution-model/exercises/ex02-simt-efficiency/.
set(EXERCISE_STUDENT_FILES simt_efficiency.cpp)
set(EXERCISE_POINTS visible 7 hidden 3)
set(EXERCISE_TIMEOUT 60)
set(EXERCISE_LIBS ch01_warp_model)  # the tests check you against the chapter's warp model
