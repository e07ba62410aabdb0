# SPDX-License-Identifier: MIT
# The exercises' programs (cmake/BookExercises.cmake reads the exercises and
# calls these, with BOOK_TESTS): the mains and the GPU probe (_bx_add_mains),
# and per exercise (_bx_declare_exercise) where its code is built and its test
# programs are linked (_bx_where_built), its code, solved and as a starter
# (_bx_code_targets), and a bridged exercise's bridge and workers
# (_bx_bridge_targets). Its test sets are cmake/BookExerciseSets.cmake's, its
# kit entry cmake/BookExerciseKit.cmake's. These read the directory's _bx_root,
# _bx_graded and _bx_out (cmake/BookExercises.cmake) and append what the kit
# builds to the global _BX_KIT_DEPS.
# Tests: exercises.<key>.<ex>.<set>, exercises.starter.<key>.<ex>.<set>,
# exercises.grade.* (tools/grader/tests/tests.cmake).

# ---- the mains and the probe --------------------------------------------------
# The CPU main is the book's (book_catch_main, tests/CMakeLists.txt).
# An exercise with a bridge (EXERCISE_FUNCTIONS, tools/grader/judge/grade_bridge.hpp)
# is judged in two processes: the judge (its test set, the bridge's judge side and
# book_exercise_judge_main: trusted, compiled once into the kit) and the worker
# (the student's code, the bridge's worker side and book_exercise_worker_main).
function(_bx_add_mains)
  add_library(book_exercise_grade_bridge INTERFACE)
  target_include_directories(book_exercise_grade_bridge INTERFACE "${_bx_root}/tools/grader/judge")
  target_link_libraries(book_exercise_grade_bridge INTERFACE book_json)
  # Its archive carries Catch2's implementation, compiled once (book_catch_session,
  # tests/CMakeLists.txt), as book_catch_main's does.
  add_library(book_exercise_judge_main STATIC EXCLUDE_FROM_ALL "${_bx_root}/tools/grader/judge/judge_main.cpp"
                                              $<TARGET_OBJECTS:book_catch_session>)
  target_include_directories(book_exercise_judge_main PRIVATE "${_bx_root}/tests/support/include")
  target_link_libraries(book_exercise_judge_main PUBLIC book_catch2 book_exercise_grade_bridge)
  add_library(book_exercise_worker_main STATIC EXCLUDE_FROM_ALL
              "${_bx_root}/tools/grader/judge/worker_main.cpp")
  target_link_libraries(book_exercise_worker_main PUBLIC book_exercise_grade_bridge)
  # Speed grading's judge (tools/grader/speed.py): generic, trusted, one for every
  # exercise with EXERCISE_SPEED; it holds the clock and never loads student code.
  add_executable(book_exercise_speed_judge EXCLUDE_FROM_ALL
                 "${_bx_root}/tools/grader/judge/speed_judge.cpp")
  target_link_libraries(book_exercise_speed_judge PRIVATE book_exercise_grade_bridge)
  set_target_properties(book_exercise_speed_judge PROPERTIES
                        RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/exercises")
  set_property(GLOBAL APPEND PROPERTY _BX_KIT_DEPS book_exercise_speed_judge)
  # The GPU main links a GPU exercise's code with a set in one process: the kit
  # needs it only for a GPU exercise without a bridge (none now); the programs that
  # use it are built on demand (tools/grader/tests/gpu_check.sh).
  if(BOOK_HAVE_CUDA)
    # The book's GPU main (tests/support), its archive carrying Catch2's implementation.
    add_library(book_exercise_gpu_main STATIC EXCLUDE_FROM_ALL
                "${_bx_root}/tests/support/catch_gpu_main.cpp" $<TARGET_OBJECTS:book_catch_session>)
    target_include_directories(book_exercise_gpu_main PRIVATE "${_bx_root}/tests/support/include"
                                                              ${CMAKE_CUDA_TOOLKIT_INCLUDE_DIRECTORIES})
    target_link_libraries(book_exercise_gpu_main PUBLIC book_catch2 book_cuda)
    add_executable(book_exercise_gpu_probe EXCLUDE_FROM_ALL "${_bx_root}/tools/grader/judge/gpu_probe.cu")
    set_target_properties(book_exercise_gpu_probe PROPERTIES
                          RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/exercises")
  endif()
endfunction()

# ---- what every exercise target shares ------------------------------------------
# The usage requirements and flags of an exercise's code and tests.
function(_bx_target_setup tgt contract_dir gpu libs)
  target_include_directories(${tgt} BEFORE PRIVATE "${contract_dir}")
  target_link_libraries(${tgt} PRIVATE ${libs})
  target_compile_options(${tgt} PRIVATE $<$<COMPILE_LANGUAGE:CXX>:${BOOK_EXERCISE_CXX_OPTIONS}>)
  if(gpu)
    target_compile_options(${tgt} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:${BOOK_CUDA_FLAGS}>)
  endif()
endfunction()

# _bx_host_code(<target> <source>): a GPU exercise's test set or bridge, which is
# host code (the contract checks it holds no <<<...>>> launch:
# cmake/BookExerciseSettings.cmake): it calls the contract's functions and launches
# its kernels through the CUDA runtime API. The host compiler compiles it, with
# cuda_runtime.h included first as nvcc includes it, at BOOK_EXERCISE_CXX_OPTIONS
# like a CPU exercise's tests: nvcc's front end (cudafe++, cicc) parses all of
# Catch2 (and nlohmann's JSON, in a bridge) for no device code, several times
# slower than g++ for the same file. The student bundle still compiles the visible set with nvcc (exercises.bundle).
# With PRECOMPILED (a test set, a judge's bridge: Catch2 code), cuda_runtime.h
# comes first through the tests' precompiled headers (book_test_headers,
# tests/CMakeLists.txt), with Catch2's and JSON's after it.
function(_bx_host_code tgt src)
  set_source_files_properties("${src}" PROPERTIES LANGUAGE CXX)
  target_include_directories(${tgt} SYSTEM PRIVATE ${CMAKE_CUDA_TOOLKIT_INCLUDE_DIRECTORIES})
  if(ARGN STREQUAL "PRECOMPILED")
    book_test_headers(${tgt} CUDA)
  else()
    target_compile_options(${tgt} PRIVATE "SHELL:-include cuda_runtime.h")
  endif()
endfunction()

# _bx_link_language(<program> <gpu>): a program of objects only links as the
# exercise's sources are written (a GPU one with nvcc, which links the CUDA runtime).
function(_bx_link_language prog gpu)
  if(gpu)
    set_target_properties(${prog} PROPERTIES LINKER_LANGUAGE CUDA)
  else()
    set_target_properties(${prog} PROPERTIES LINKER_LANGUAGE CXX)
  endif()
endfunction()

# ---- per exercise ---------------------------------------------------------------
# _bx_declare_exercise(<key>/<ex>): the targets and tests of one exercise and its
# kit entry, from the BX_<tid>_* variables book_exercise_read set (<tid> = <key>.<ex>).
function(_bx_declare_exercise id)
  book_exercise_id_parts("${id}" key ex)
  string(REPLACE "/" "." tid "${id}")
  set(p "BX_${tid}")
  set(gpu ${${p}_GPU})
  set(libs ${${p}_LIBS})
  if(gpu)
    list(APPEND libs book_cuda)
  endif()
  _bx_where_built(built live why ${gpu})
  set(main "")
  if(built)
    _bx_code_targets(main "${id}" ${p} ${gpu} "${libs}")
  endif()
  if(live)
    # Every program below is a test program: not in ALL, built with exercise-kit
    # before the tests run. A bridged exercise is judged by its judge and worker;
    # the programs that link its code with a set directly are built on demand only.
    if(NOT ${p}_BRIDGE AND gpu)
      set_property(GLOBAL PROPERTY _BX_NEED_GPU_MAIN ON)  # tools/grade links this exercise's sets with it
    endif()
    if(${p}_BRIDGE)
      _bx_bridge_targets(${tid} ${p} ${gpu} "${libs}")
    endif()
    foreach(s IN LISTS ${p}_SETS)
      _bx_set_targets(${key} ${ex} ${s} ${p} ${gpu} "${libs}" "${main}")
    endforeach()
  else()
    _bx_skipped_tests("${id}" ${key} ${ex} ${p} "${why}")
  endif()
  _bx_kit_entry("${id}" ${p} ${gpu} ${live} "${why}" "${libs}")
endfunction()

# _bx_where_built(<built> <live> <why> <gpu>): built: its code compiles here (a
# GPU exercise needs nvcc). Live: its test programs are built too, which for a
# GPU exercise needs a GPU (BOOK_GPU_LIVE): where none is, nothing is linked that
# could not run (the sets report skipped, tools/grade leaves them out), but the
# starter and the solution still compile. <why> says why not, or is empty.
function(_bx_where_built built_out live_out why_out gpu)
  set(built ON)
  set(live ON)
  set(why "")
  if(gpu AND NOT BOOK_HAVE_CUDA)
    set(built OFF)
    set(live OFF)
    set(why "no CUDA compiler (nvcc) where the kit was built")
  elseif(gpu AND NOT BOOK_GPU_LIVE)
    set(live OFF)
    set(why "no GPU where the kit was built (its code compiles, and its tests are built where configure finds a GPU or BOOK_GPU=ON)")
  endif()
  set(${built_out} ${built} PARENT_SCOPE)
  set(${live_out} ${live} PARENT_SCOPE)
  set(${why_out} "${why}" PARENT_SCOPE)
endfunction()

# _bx_code_targets(<main> <key>/<ex> <prefix> <gpu> <libs>): the exercise's
# code, solved and as a starter: one OBJECT library each; <main> is the Catch2
# main its sets link with it in one process.
function(_bx_code_targets main_out id p gpu libs)
  string(REPLACE "/" "." tid "${id}")
  set(solution_srcs "")
  set(starter_srcs "")
  foreach(f IN LISTS ${p}_SOURCES)
    list(APPEND solution_srcs "${_bx_graded}/${id}/${f}")
    list(APPEND starter_srcs "${${p}_DIR}/${f}")
  endforeach()
  # The code is compiled before the tests run (with exercise-kit); only where the
  # book shows it (the solution, in the instructor edition) is it compiled with the
  # book too, as every listing is.
  set(solution_all EXCLUDE_FROM_ALL)
  if(BOOK_EDITION STREQUAL "instructor")
    set(solution_all "")
  endif()
  add_library(exercise-code.${tid} OBJECT ${solution_all} ${solution_srcs})
  add_library(exercise-starter-code.${tid} OBJECT EXCLUDE_FROM_ALL ${starter_srcs})
  foreach(t exercise-code.${tid} exercise-starter-code.${tid})
    _bx_target_setup(${t} "${${p}_DIR}" ${gpu} "${libs}")
    set_property(GLOBAL APPEND PROPERTY _BX_KIT_DEPS ${t})  # compiled (and where live, linked) before the tests
  endforeach()
  if(gpu)
    set(${main_out} book_exercise_gpu_main PARENT_SCOPE)
  else()
    set(${main_out} book_catch_main PARENT_SCOPE)
  endif()
endfunction()

# _bx_bridge_targets(<tid> <prefix> <gpu> <libs>): the bridge, both sides; the
# workers: solved and starter code, each with the bridge's worker side and the driver.
function(_bx_bridge_targets tid p gpu libs)
  string(REPLACE ";" "," fns "${${p}_FUNCTIONS}")
  add_library(exercise-judge-bridge.${tid} OBJECT EXCLUDE_FROM_ALL "${${p}_BRIDGE}")
  _bx_target_setup(exercise-judge-bridge.${tid} "${${p}_DIR}" ${gpu}
                   "${libs};book_catch2;book_exercise_grade_bridge")
  target_compile_definitions(exercise-judge-bridge.${tid} PRIVATE
                             "BOOK_GRADE_FUNCTIONS=\"${fns}\"")
  add_library(exercise-worker-bridge.${tid} OBJECT EXCLUDE_FROM_ALL "${${p}_BRIDGE}")
  _bx_target_setup(exercise-worker-bridge.${tid} "${${p}_DIR}" ${gpu}
                   "${libs};book_exercise_grade_bridge")
  target_compile_definitions(exercise-worker-bridge.${tid} PRIVATE BOOK_GRADE_WORKER)
  # BOOK_GRADE_BRIDGED: the test sets' code (and the bridge's, both sides) is
  # linked with a bridge, so test helpers that touch the student's code (a
  # guarded launch of the student's kernel) are declared there and defined in
  # the bridge, where they run in the worker. The programs that link the
  # student's code with a set directly link the bridge's worker side for them.
  foreach(t exercise-judge-bridge.${tid} exercise-worker-bridge.${tid})
    target_compile_definitions(${t} PRIVATE BOOK_GRADE_BRIDGED)
  endforeach()
  if(gpu)
    _bx_host_code(exercise-judge-bridge.${tid} "${${p}_BRIDGE}" PRECOMPILED)
    _bx_host_code(exercise-worker-bridge.${tid} "${${p}_BRIDGE}")
  else()
    book_test_headers(exercise-judge-bridge.${tid})
  endif()
  set_property(GLOBAL APPEND PROPERTY _BX_KIT_DEPS exercise-worker-bridge.${tid} book_exercise_worker_main)
  foreach(side solution starter)
    if(side STREQUAL "solution")
      set(prog exercise-worker.${tid})
      set(code exercise-code.${tid})
      set(dir "${_bx_out}/worker")
    else()
      set(prog exercise-starter-worker.${tid})
      set(code exercise-starter-code.${tid})
      set(dir "${_bx_out}/starter/worker")
    endif()
    add_executable(${prog} EXCLUDE_FROM_ALL $<TARGET_OBJECTS:${code}>
                   $<TARGET_OBJECTS:exercise-worker-bridge.${tid}>)
    set_property(GLOBAL APPEND PROPERTY _BX_KIT_DEPS ${prog})  # the exercise tests run it
    target_link_libraries(${prog} PRIVATE ${libs} book_exercise_worker_main)
    set_target_properties(${prog} PROPERTIES OUTPUT_NAME "${tid}" RUNTIME_OUTPUT_DIRECTORY "${dir}")
    _bx_link_language(${prog} ${gpu})
  endforeach()
endfunction()
