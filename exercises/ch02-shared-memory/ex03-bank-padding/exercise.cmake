# Exercise 2.3's contract (cmake/BookExerciseContract.cmake says what each setting
# means). The tests are tests/ch02-shared-memory/exercises/ex03-bank-padding/.
set(EXERCISE_STUDENT_FILES banks.cpp)
set(EXERCISE_POINTS visible 7 hidden 3)
set(EXERCISE_TIMEOUT 60)
