# Exercise 2.2's contract (cmake/BookExerciseContract.cmake says what each setting
# means). The tests are tests/ch02-shared-memory/exercises/ex02-stencil-2d/:
# .cu test files make this a GPU exercise, which links book_cuda without asking.
set(EXERCISE_STUDENT_FILES stencil_2d.cu)
set(EXERCISE_POINTS visible 7 hidden 3)
set(EXERCISE_TIMEOUT 60)
