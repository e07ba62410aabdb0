# The exercises: starter code in exercises/<key>/exNN-name/ (compiles, fails its
# tests), solved code in solutions/<key>/exNN-name/ (passes), and one Catch2 test
# for both in tests/<key>/exercises/exNN-name.test.cpp (or .test.cu).
#
# Every folder exercises/<key>/exNN-name/ is an exercise: nothing here names one.
# Its sources are the *.cpp files of the folder (and *.cu for a GPU exercise),
# its headers come from the folder too. An exercise whose test is a .cu file is
# a GPU exercise: built where nvcc is, and skipped (exit 77) where no GPU is.
# An optional exercise.cmake in the starter's folder may set:
#   EXERCISE_TITLE    one line, shown by tools/grade
#   EXERCISE_LIBS     targets the test links besides the exercise's sources
#                     (a GPU exercise gets book_cuda without asking)
#   EXERCISE_POINTS   points in tools/grade (default 10)
#   EXERCISE_TIMEOUT  seconds the test may run (default 60)
# It is read from exercises/, never from the folder under test, so that a
# student's copy cannot change how it is graded.
#
# Each exercise is built twice and gives two tests, each one process with a timeout:
#   exercises.<key>.<ex>          built against ${BOOK_EXERCISES_DIR}/<key>/<ex>
#                                 (solutions/ by default, a student's folder when
#                                 grading); passes when the exercise is solved.
#                                 Labels: exercises (and gpu).
#   exercises.starter.<key>.<ex>  built against exercises/<key>/<ex>; passes when
#                                 the starter runs and fails its assertions
#                                 (tests/book/expect_failure.py).
# The programs are the targets exercise.<key>.<ex> (build/<preset>/exercises/<key>.<ex>)
# and exercise-starter.<key>.<ex> (build/<preset>/exercises/starter/<key>.<ex>); a
# GPU exercise's starter test is labelled gpu too, and needs a GPU like its test.
# And one more test, exercises.grade-starters: tools/grade on exercises/ scores 0
# and lists every exercise (tests/exercises/check_grade_starters.py).
#
# ${CMAKE_BINARY_DIR}/exercises.json lists the exercises, their targets, tests,
# programs and points: tools/grade reads it.

set(BOOK_EXERCISES_CATCH_MAIN "" CACHE FILEPATH
    "A Catch2 main library already built (libbook_catch_main.a of another build with the same compiler) for the exercise tests to link instead of building one; tools/grade --reuse sets it")
set(BOOK_EXERCISES_GPU_MAIN "" CACHE FILEPATH
    "Likewise for the GPU exercise tests' main (libbook_exercise_gpu_main.a)")
set(BOOK_EXERCISES_RUNNER "" CACHE FILEPATH
    "A bookrun already built (by another build on this machine) for the tests that report skipped; tools/grade --reuse sets it")
option(BOOK_EXERCISES_GRADE_TEST "Add the test exercises.grade-starters (tools/grade on exercises/)" ON)
find_program(BOOK_EXERCISES_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH)  # as BookDocs does
find_program(BOOK_EXERCISES_PYTHON python3)

set(_bx_starters "${CMAKE_SOURCE_DIR}/exercises")
set(_bx_out "${CMAKE_BINARY_DIR}/exercises")
get_filename_component(_bx_graded "${BOOK_EXERCISES_DIR}" ABSOLUTE BASE_DIR "${CMAKE_BINARY_DIR}")
if(NOT IS_DIRECTORY "${_bx_graded}")
  message(STATUS "Exercises: BOOK_EXERCISES_DIR (${_bx_graded}) is no folder; "
                 "only the starters are tested")
endif()
if(NOT BOOK_EXERCISES_PYTHON)
  message(STATUS "Exercises: no python3; the starters' tests and exercises.grade-starters are left out")
endif()

# What runs `bookrun skip` for a GPU exercise where nvcc is missing.
if(BOOK_EXERCISES_RUNNER)
  set(_bx_runner "${BOOK_EXERCISES_RUNNER}")
  set(_bx_runner_file "${BOOK_EXERCISES_RUNNER}")
  set(_bx_runner_target "")
else()
  set(_bx_runner bookrun)
  set(_bx_runner_file "$<TARGET_FILE:bookrun>")
  set(_bx_runner_target bookrun)
endif()

# The Catch2 mains the exercise tests link: built here, or taken from another build.
# Labels and a timeout for an exercise test; a GPU one reports 77 as skipped
# and takes one GPU slot.
function(_book_exercise_test_properties test labels timeout gpu)
  set_tests_properties(${test} PROPERTIES LABELS "${labels}" TIMEOUT ${timeout})
  if(gpu)
    set_tests_properties(${test} PROPERTIES SKIP_RETURN_CODE 77 RESOURCE_GROUPS "gpus:1")
  endif()
endfunction()

function(_book_exercise_main name built source_target)
  if(TARGET ${name})
    return()
  endif()
  if(built)
    if(NOT EXISTS "${built}")
      message(FATAL_ERROR "Exercises: no ${built} (set by tools/grade --reuse?)")
    endif()
    add_library(${name} STATIC IMPORTED)
    set_target_properties(${name} PROPERTIES IMPORTED_LOCATION "${built}"
                                             INTERFACE_LINK_LIBRARIES book_catch2)
  elseif(source_target STREQUAL "")
    # The GPU main: Catch2's runner behind a check for a GPU (exit 77 without one).
    add_library(${name} STATIC "${CMAKE_SOURCE_DIR}/tests/exercises/catch_gpu_main.cpp")
    target_include_directories(${name} PRIVATE ${CMAKE_CUDA_TOOLKIT_INCLUDE_DIRECTORIES})
    target_link_libraries(${name} PUBLIC book_catch2)
  else()
    add_library(${name} ALIAS ${source_target})
  endif()
endfunction()

# One test program: the exercise's test and the sources of one copy of it.
function(_book_exercise_program tgt out_dir out_name src_dir test_src gpu libs)
  if(gpu)
    file(GLOB srcs CONFIGURE_DEPENDS "${src_dir}/*.cpp" "${src_dir}/*.cu")
  else()
    file(GLOB srcs CONFIGURE_DEPENDS "${src_dir}/*.cpp")
  endif()
  # A missing folder gives a program without the exercise: it fails to build,
  # which tools/grade scores as "did not compile".
  add_executable(${tgt} "${test_src}" ${srcs})
  target_include_directories(${tgt} PRIVATE "${src_dir}")
  target_link_libraries(${tgt} PRIVATE ${libs})
  if(gpu)
    _book_exercise_main(book_exercise_gpu_main "${BOOK_EXERCISES_GPU_MAIN}" "")
    target_link_libraries(${tgt} PRIVATE book_exercise_gpu_main book_cuda)
    target_compile_options(${tgt} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:${BOOK_CUDA_FLAGS}>)
  else()
    _book_exercise_main(book_exercise_catch_main "${BOOK_EXERCISES_CATCH_MAIN}" book_catch_main)
    target_link_libraries(${tgt} PRIVATE book_exercise_catch_main)
  endif()
  set_target_properties(${tgt} PROPERTIES OUTPUT_NAME "${out_name}"
                                          RUNTIME_OUTPUT_DIRECTORY "${out_dir}")
endfunction()

function(_book_json_string out value)
  string(REPLACE "\\" "\\\\" value "${value}")
  string(REPLACE "\"" "\\\"" value "${value}")
  set(${out} "\"${value}\"" PARENT_SCOPE)
endfunction()

# One exercise, <key>/<ex>: its two programs, its tests and its manifest entry.
function(book_exercise key ex)
  set(starter_dir "${_bx_starters}/${key}/${ex}")
  set(graded_dir "${_bx_graded}/${key}/${ex}")
  set(test_dir "${CMAKE_SOURCE_DIR}/tests/${key}/exercises")
  if(EXISTS "${test_dir}/${ex}.test.cu")
    set(test_src "${test_dir}/${ex}.test.cu")
    set(gpu ON)
  elseif(EXISTS "${test_dir}/${ex}.test.cpp")
    set(test_src "${test_dir}/${ex}.test.cpp")
    set(gpu OFF)
  else()
    message(FATAL_ERROR "Exercise ${key}/${ex} has no test: write ${test_dir}/${ex}.test.cpp (or .test.cu)")
  endif()
  set(EXERCISE_TITLE "${ex}")
  set(EXERCISE_LIBS "")
  set(EXERCISE_POINTS 10)
  set(EXERCISE_TIMEOUT 60)
  if(EXISTS "${starter_dir}/exercise.cmake")
    include("${starter_dir}/exercise.cmake")
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${starter_dir}/exercise.cmake")
  endif()

  set(id "${key}.${ex}")
  set(graded_test "exercises.${id}")
  set(starter_test "exercises.starter.${id}")
  set(labels exercises)
  if(gpu)
    list(APPEND labels gpu)
  endif()
  set(built ON)
  if(gpu AND NOT BOOK_HAVE_CUDA)
    set(built OFF)
  endif()
  set(catch_args --order decl --use-colour no)

  # The copy under test: must pass.
  set(graded_target "")
  set(graded_exe "")
  if(IS_DIRECTORY "${_bx_graded}")
    if(built)
      set(graded_target "exercise.${id}")
      _book_exercise_program(${graded_target} "${_bx_out}" "${id}" "${graded_dir}" "${test_src}"
                             ${gpu} "${EXERCISE_LIBS}")
      set(graded_exe "$<TARGET_FILE:${graded_target}>")
      add_test(NAME ${graded_test} COMMAND ${graded_target} ${catch_args})
    else()
      add_test(NAME ${graded_test} COMMAND ${_bx_runner} skip "no CUDA compiler: ${key}/${ex} was not built")
    endif()
    _book_exercise_test_properties(${graded_test} "${labels}" ${EXERCISE_TIMEOUT} ${gpu})
  endif()

  # The starter: must compile, run, and fail its assertions.
  if(BOOK_EXERCISES_PYTHON)
    set(starter_timeout ${EXERCISE_TIMEOUT})
    math(EXPR ctest_timeout "${EXERCISE_TIMEOUT} + 30")
    if(built)
      set(starter_target "exercise-starter.${id}")
      _book_exercise_program(${starter_target} "${_bx_out}/starter" "${id}" "${starter_dir}"
                             "${test_src}" ${gpu} "${EXERCISE_LIBS}")
      # A starter fails cleanly: a non-zero exit (no signal, no timeout) with
      # Catch2's summary of failed test cases; a GPU starter without a GPU skips.
      set(skip "")
      if(gpu)
        set(skip --skip-code 77 --skip-expect "skipped: no CUDA GPU")
      endif()
      add_test(NAME ${starter_test}
               COMMAND "${BOOK_EXERCISES_PYTHON}" "${CMAKE_SOURCE_DIR}/tests/book/expect_failure.py"
                       --scratch "${CMAKE_CURRENT_BINARY_DIR}/exercise-scratch/${id}"
                       --timeout ${starter_timeout} ${skip}
                       --expect "^test cases:[ ]*[0-9]+([ ]*[|][ ]*[0-9]+ passed)?[ ]*[|][ ]*[1-9][0-9]* failed"
                       -- $<TARGET_FILE:${starter_target}> ${catch_args})
    else()
      add_test(NAME ${starter_test} COMMAND ${_bx_runner} skip "no CUDA compiler: ${key}/${ex} was not built")
    endif()
    _book_exercise_test_properties(${starter_test} "${labels}" ${ctest_timeout} ${gpu})
  endif()

  # The manifest entry.
  set(fields "")
  foreach(f IN ITEMS "id=${key}/${ex}" "chapter=${key}" "name=${ex}" "title=${EXERCISE_TITLE}"
                     "test=${graded_test}" "starter_test=${starter_test}" "target=${graded_target}"
                     "executable=${graded_exe}" "source_dir=${graded_dir}")
    string(FIND "${f}" "=" eq)
    string(SUBSTRING "${f}" 0 ${eq} k)
    math(EXPR eq "${eq} + 1")
    string(SUBSTRING "${f}" ${eq} -1 v)
    _book_json_string(v "${v}")
    string(APPEND fields "\"${k}\": ${v}, ")
  endforeach()
  if(gpu)
    set(gpu_json true)
  else()
    set(gpu_json false)
  endif()
  if(built)
    set(built_json true)
  else()
    set(built_json false)
  endif()
  string(APPEND fields "\"gpu\": ${gpu_json}, \"built\": ${built_json}, "
                       "\"points\": ${EXERCISE_POINTS}, \"timeout\": ${EXERCISE_TIMEOUT}")
  set_property(GLOBAL APPEND PROPERTY BOOK_EXERCISE_ENTRIES "    {${fields}}")
endfunction()

# Find the exercises: every exercises/<key>/exNN-name/ folder.
set_property(GLOBAL PROPERTY BOOK_EXERCISE_ENTRIES "")
file(GLOB _bx_dirs LIST_DIRECTORIES true CONFIGURE_DEPENDS "${_bx_starters}/*/ex[0-9][0-9]-*")
set(_bx_count 0)
foreach(_bx_dir IN LISTS _bx_dirs)
  if(IS_DIRECTORY "${_bx_dir}")
    get_filename_component(_bx_ex "${_bx_dir}" NAME)
    get_filename_component(_bx_key "${_bx_dir}" DIRECTORY)
    get_filename_component(_bx_key "${_bx_key}" NAME)
    book_exercise(${_bx_key} ${_bx_ex})
    math(EXPR _bx_count "${_bx_count} + 1")
  endif()
endforeach()

if(BOOK_EXERCISES_GRADE_TEST AND BOOK_EXERCISES_PYTHON AND _bx_count GREATER 0)
  # Grades exercises/ in a build of its own under this one, linking this build's
  # Catch2 mains: the first run compiles the exercises and their libraries
  # (about two minutes on two cores), later runs only relink.
  add_test(NAME exercises.grade-starters
           COMMAND "${BOOK_EXERCISES_PYTHON}" "${CMAKE_SOURCE_DIR}/tests/exercises/check_grade_starters.py"
                   --grade "${CMAKE_SOURCE_DIR}/tools/grade"
                   --exercises "${_bx_starters}"
                   --manifest "${CMAKE_BINARY_DIR}/exercises.json"
                   --build-dir "${CMAKE_BINARY_DIR}/grade-starters/build"
                   --out "${CMAKE_BINARY_DIR}/grade-starters/out"
                   --reuse "${CMAKE_BINARY_DIR}")
  set_tests_properties(exercises.grade-starters PROPERTIES LABELS exercises TIMEOUT 600 RUN_SERIAL TRUE)
endif()

# The manifest tools/grade reads.
get_property(_bx_entries GLOBAL PROPERTY BOOK_EXERCISE_ENTRIES)
string(REPLACE ";" ",\n" _bx_entries "${_bx_entries}")
set(_bx_catch_main "")
if(TARGET book_exercise_catch_main)
  set(_bx_catch_main "$<TARGET_FILE:book_exercise_catch_main>")
endif()
set(_bx_gpu_main "")
if(TARGET book_exercise_gpu_main)
  set(_bx_gpu_main "$<TARGET_FILE:book_exercise_gpu_main>")
endif()
if(BOOK_HAVE_CUDA)
  set(_bx_cuda true)
else()
  set(_bx_cuda false)
endif()
_book_json_string(_bx_graded_json "${_bx_graded}")
file(GENERATE OUTPUT "${CMAKE_BINARY_DIR}/exercises.json" CONTENT "{
  \"exercises_dir\": ${_bx_graded_json},
  \"have_cuda\": ${_bx_cuda},
  \"catch_main\": \"${_bx_catch_main}\",
  \"gpu_main\": \"${_bx_gpu_main}\",
  \"runner\": \"${_bx_runner_file}\",
  \"runner_target\": \"${_bx_runner_target}\",
  \"exercises\": [
${_bx_entries}
  ]
}
")
