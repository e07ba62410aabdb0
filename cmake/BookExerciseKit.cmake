# SPDX-License-Identifier: MIT
# The grading kit, what tools/grade needs to build and judge a student's files
# (cmake/BookExercises.cmake calls these, with BOOK_TESTS): how it compiles and
# links them (_bx_grade_compilers), each exercise's entry (_bx_kit_entry, with
# _bx_kit_links and _bx_kit_sets), and the kit itself (_bx_write_kit): the
# target exercise-kit, which builds everything in the global _BX_KIT_DEPS, and
# ${CMAKE_BINARY_DIR}/exercises/kit.json (tools/grader/kit.py reads it).
# Tests: exercises.grade.*, exercises.bundle, exercises.grader-units.

# ---- how tools/grade compiles and links a student's files ---------------------
# _bx_grade_compilers(<cxx compile> <cxx link> <cuda>): the same flags CMake
# gives the exercise's code (cmake/BookExerciseTargets.cmake), spelt out for a
# compiler called directly (inside the grader's sandbox), as JSON: two arrays,
# and {"compile", "link"} or null where there is no nvcc.
function(_bx_grade_compilers cxx_compile_out cxx_link_out cuda_out)
  string(TOUPPER "${CMAKE_BUILD_TYPE}" cfg)
  separate_arguments(cxx_flags UNIX_COMMAND "${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${cfg}}")
  separate_arguments(ld_flags UNIX_COMMAND "${CMAKE_EXE_LINKER_FLAGS} ${CMAKE_EXE_LINKER_FLAGS_${cfg}}")
  set(cxx_compile "${CMAKE_CXX_COMPILER}" ${cxx_flags} ${BOOK_EXERCISE_CXX_OPTIONS}
                  ${CMAKE_CXX20_STANDARD_COMPILE_OPTION})
  set(cxx_link "${CMAKE_CXX_COMPILER}" ${cxx_flags} ${ld_flags})
  _bx_json_array(_j_cxx_compile ${cxx_compile})
  _bx_json_array(_j_cxx_link ${cxx_link})
  set(_j_cuda null)
  if(BOOK_HAVE_CUDA)
    separate_arguments(cuda_flags UNIX_COMMAND "${CMAKE_CUDA_FLAGS} ${CMAKE_CUDA_FLAGS_${cfg}}")
    set(arch "")
    foreach(a IN LISTS CMAKE_CUDA_ARCHITECTURES)
      if(a MATCHES "^([0-9]+a?)-real$")
        list(APPEND arch "--generate-code=arch=compute_${CMAKE_MATCH_1},code=[sm_${CMAKE_MATCH_1}]")
      elseif(a MATCHES "^([0-9]+a?)-virtual$")
        list(APPEND arch "--generate-code=arch=compute_${CMAKE_MATCH_1},code=[compute_${CMAKE_MATCH_1}]")
      elseif(a MATCHES "^([0-9]+a?)$")
        list(APPEND arch "--generate-code=arch=compute_${a},code=[compute_${a},sm_${a}]")
      else()
        message(FATAL_ERROR "Exercises: cannot spell CUDA architecture '${a}' for tools/grade")
      endif()
    endforeach()
    set(cuda_compile "${CMAKE_CUDA_COMPILER}" -forward-unknown-to-host-compiler
                     "-ccbin=${CMAKE_CUDA_HOST_COMPILER}" ${cuda_flags} ${arch}
                     ${BOOK_CUDA_FLAGS} -std=c++20 -x cu)
    # nvcc as the link driver: the CUDA runtime, statically, as CMake links it.
    set(cuda_link "${CMAKE_CUDA_COMPILER}" "-ccbin=${CMAKE_CUDA_HOST_COMPILER}")
    _bx_json_array(_j_a ${cuda_compile})
    _bx_json_array(_j_b ${cuda_link})
    set(_j_cuda "{\"compile\": ${_j_a}, \"link\": ${_j_b}}")
  endif()
  set(${cxx_compile_out} "${_j_cxx_compile}" PARENT_SCOPE)
  set(${cxx_link_out} "${_j_cxx_link}" PARENT_SCOPE)
  set(${cuda_out} "${_j_cuda}" PARENT_SCOPE)
endfunction()

# ---- per exercise ---------------------------------------------------------------
# _bx_kit_entry(<key>/<ex> <prefix> <gpu> <live> <why> <libs>): the kit entry,
# what tools/grade needs to build and judge this exercise, appended to the
# global _BX_KIT_ENTRIES.
function(_bx_kit_entry id p gpu live why libs)
  string(REPLACE "/" "." tid "${id}")
  _bx_kit_links(link incs defs ${live} "${libs}")
  _bx_kit_sets(_j_sets ${tid} ${p} ${live})
  _book_json_string(_j_id "${id}")
  _book_json_string(_j_title "${${p}_TITLE}")
  _book_json_string(_j_dir "${${p}_DIR}")
  _bx_json_array(_j_files ${${p}_STUDENT_FILES})
  _bx_json_array(_j_sources ${${p}_SOURCES})
  _bx_json_array(_j_contract ${${p}_CONTRACT_FILES})
  set(_j_support "")
  foreach(f IN LISTS ${p}_TEST_SUPPORT)
    list(APPEND _j_support "${${p}_TESTS_DIR}/${f}")
  endforeach()
  _bx_json_array(_j_support ${_j_support})
  _bx_json_array(_j_libs ${libs})
  _bx_json_genex_array(_j_link ${link})
  _bx_json_genex_array(_j_incs ${incs})
  _bx_json_genex_array(_j_defs ${defs})
  _book_json_bool(_j_gpu "${gpu}")
  _book_json_bool(_j_built "${live}")
  _book_json_string(_j_why "${why}")
  set(_j_worker "[]")
  if(live AND ${p}_BRIDGE)
    _bx_json_genex_array(_j_worker "$<TARGET_OBJECTS:exercise-worker-bridge.${tid}>")
  endif()
  _bx_json_array(_j_functions ${${p}_FUNCTIONS})
  # Speed grading: EXERCISE_SPEED as an object of strings, and the reference's
  # worker (the solution's: the book's reference), which the grader times.
  set(_j_speed "{}")
  set(_j_reference "\"\"")
  if(${p}_SPEED)
    set(_j_pairs "")
    set(_j_list ${${p}_SPEED})
    list(LENGTH _j_list _j_n)
    math(EXPR _j_last "${_j_n} - 1")
    foreach(i RANGE 0 ${_j_last} 2)
      math(EXPR j "${i} + 1")
      list(GET _j_list ${i} _j_k)
      list(GET _j_list ${j} _j_v)
      list(APPEND _j_pairs "\"${_j_k}\": \"${_j_v}\"")
    endforeach()
    list(JOIN _j_pairs ", " _j_pairs)
    set(_j_speed "{${_j_pairs}}")
    if(live AND ${p}_BRIDGE)
      set(_j_reference "\"$<TARGET_FILE:exercise-worker.${tid}>\"")
    endif()
  endif()
  set_property(GLOBAL APPEND PROPERTY _BX_KIT_ENTRIES "    {\"id\": ${_j_id}, \"title\": ${_j_title}, \"gpu\": ${_j_gpu}, \"built\": ${_j_built}, \"not_built\": ${_j_why}, \"timeout\": ${${p}_TIMEOUT},
     \"dir\": ${_j_dir}, \"student_files\": ${_j_files}, \"sources\": ${_j_sources}, \"contract_files\": ${_j_contract},
     \"test_support\": ${_j_support},
     \"functions\": ${_j_functions},
     \"speed\": ${_j_speed}, \"reference_worker\": ${_j_reference},
     \"worker_objects\": ${_j_worker},
     \"libraries\": ${_j_libs},
     \"include_dirs\": ${_j_incs},
     \"defines\": ${_j_defs},
     \"link\": ${_j_link},
     \"sets\": [\n${_j_sets}]}")
endfunction()

# _bx_kit_links(<link> <include dirs> <defines> <live> <libs>): what the
# exercise's libraries give a student's program, as generator expressions: the
# files to link, their include folders and definitions. Where it is not live
# (a GPU exercise where nvcc is missing), its libraries are still described:
# the student bundle ships them for a student who has nvcc.
function(_bx_kit_links link_out incs_out defs_out live libs)
  set(targets "")
  set(raw "")
  if(live)
    _bx_closure(targets raw ${libs})
  else()
    _bx_describe_unbuilt(${libs})
  endif()
  set(link "")
  set(incs "")
  set(defs "")
  foreach(t IN LISTS targets)
    get_target_property(type ${t} TYPE)
    if(type MATCHES "^(STATIC|SHARED)_LIBRARY$")
      list(APPEND link "$<TARGET_LINKER_FILE:${t}>")
      get_property(kit_deps GLOBAL PROPERTY _BX_KIT_DEPS)
      if(NOT t IN_LIST kit_deps)
        get_target_property(imported ${t} IMPORTED)
        if(NOT imported)
          set_property(GLOBAL APPEND PROPERTY _BX_KIT_DEPS ${t})
        endif()
      endif()
    endif()
    list(APPEND incs "$<TARGET_PROPERTY:${t},INTERFACE_INCLUDE_DIRECTORIES>")
    list(APPEND defs "$<TARGET_PROPERTY:${t},INTERFACE_COMPILE_DEFINITIONS>")
    _bx_describe(${t})
  endforeach()
  list(APPEND link ${raw})
  set(${link_out} "${link}" PARENT_SCOPE)
  set(${incs_out} "${incs}" PARENT_SCOPE)
  set(${defs_out} "${defs}" PARENT_SCOPE)
endfunction()

# _bx_kit_sets(<out> <tid> <prefix> <live>): the entry's "sets", as JSON: each
# set's points, credit rule, test file, judge, test objects and test names.
function(_bx_kit_sets out tid p live)
  set(_j_sets "")
  foreach(s IN LISTS ${p}_SETS)
    _bx_json_array(_j_names ${${p}_${s}_NAMES})
    _book_json_string(_j_file "${${p}_${s}_TEST}")
    set(_j_judge "\"\"")
    if(live)
      _bx_json_genex_array(_j_objs "$<TARGET_OBJECTS:exercise-tests.${tid}.${s}>")
      if(${p}_BRIDGE)
        set(_j_judge "\"$<TARGET_FILE:exercise-judge.${tid}.${s}>\"")
      endif()
    else()
      set(_j_objs "[]")
    endif()
    if(s STREQUAL "hidden")
      set(_j_hidden true)
    else()
      set(_j_hidden false)
    endif()
    list(APPEND _j_sets "        {\"name\": \"${s}\", \"points\": ${${p}_${s}_POINTS}, \"credit\": \"${${p}_${s}_CREDIT}\", \"hidden\": ${_j_hidden}, \"test_file\": ${_j_file},\n         \"judge\": ${_j_judge},\n         \"objects\": ${_j_objs},\n         \"tests\": ${_j_names}}")
  endforeach()
  list(JOIN _j_sets ",\n" _j_sets)
  set(${out} "${_j_sets}" PARENT_SCOPE)
endfunction()

# ---- the kit ------------------------------------------------------------------
# _bx_write_kit(<cxx compile> <cxx link> <cuda>): the target exercise-kit and
# kit.json, with _bx_grade_compilers' JSON.
function(_bx_write_kit cxx_compile cxx_link cuda)
  set(_j_gpu_main "\"\"")
  set(_j_probe "\"\"")
  if(BOOK_HAVE_CUDA)
    set_property(GLOBAL APPEND PROPERTY _BX_KIT_DEPS book_exercise_gpu_probe)
    set(_j_probe "\"$<TARGET_FILE:book_exercise_gpu_probe>\"")
    get_property(need_gpu_main GLOBAL PROPERTY _BX_NEED_GPU_MAIN)
    if(need_gpu_main)
      set_property(GLOBAL APPEND PROPERTY _BX_KIT_DEPS book_exercise_gpu_main)
      set(_j_gpu_main "\"$<TARGET_FILE:book_exercise_gpu_main>\"")
    endif()
  endif()
  get_property(kit_deps GLOBAL PROPERTY _BX_KIT_DEPS)
  if(TARGET book_exercise_speed_judge)  # the kit names it (speed_judge below)
    list(APPEND kit_deps book_exercise_speed_judge)
  endif()
  list(REMOVE_DUPLICATES kit_deps)
  add_custom_target(exercise-kit)  # built before tests run (cmake/Book.cmake)
  add_dependencies(exercise-kit ${kit_deps})
  get_property(entries GLOBAL PROPERTY _BX_KIT_ENTRIES)
  list(JOIN entries ",\n" entries)
  get_property(libraries GLOBAL PROPERTY _BX_LIBRARIES)
  list(JOIN libraries ",\n" libraries)
  _book_json_string(_j_root "${_bx_root}")
  _book_json_string(_j_build "${CMAKE_BINARY_DIR}")
  file(GENERATE OUTPUT "${_bx_out}/kit.json" CONTENT "{
  \"version\": 1,
  \"source_root\": ${_j_root},
  \"build_dir\": ${_j_build},
  \"cxx\": {\"compile\": ${cxx_compile}, \"link\": ${cxx_link}},
  \"cuda\": ${cuda},
  \"catch_main\": \"$<TARGET_FILE:book_catch_main>\",
  \"worker_main\": \"$<TARGET_FILE:book_exercise_worker_main>\",
  \"speed_judge\": \"$<TARGET_FILE:book_exercise_speed_judge>\",
  \"gpu_main\": ${_j_gpu_main},
  \"gpu_probe\": ${_j_probe},
  \"exercises\": [
${entries}
  ],
  \"libraries\": {
${libraries}
  }
}
")
endfunction()
