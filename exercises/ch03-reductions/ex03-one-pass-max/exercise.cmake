# Exercise 3.3's contract (cmake/BookExerciseContract.cmake says what each setting
# means). The tests are tests/ch03-reductions/exercises/ex03-one-pass-max/: .cu
# test files make this a GPU exercise, which links book_cuda without asking.
set(EXERCISE_STUDENT_FILES one_pass_max.cu)
set(EXERCISE_POINTS visible 7 hidden 3)
set(EXERCISE_TIMEOUT 60)
