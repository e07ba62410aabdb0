# The exercises: every folder exercises/<key>/exNN-name/ is one, its contract in
# its exercise.cmake (cmake/BookExerciseContract.cmake describes the layout and
# checks both sides: a drift between exercises/ and solutions/ stops here).
#
# Always written (also without BOOK_TESTS), at generate time:
#   ${CMAKE_BINARY_DIR}/exercises.json   what the book's {exercise} directive shows:
#       {"exercises": [{"id", "chapter", "name", "title", "points", "gpu", "dir",
#         "solution_dir", "student_files", "visible_tests", "hidden_tests",
#         "contract_files", "timeout", "sets": {"<set>": {"points", "test_file",
#         "tests"}}}]}; test names are TEST_CASE names (the test
#         exercises.test-names checks them against the built programs).
#
# With BOOK_TESTS, per exercise <key>/<ex> (<tid> = <key>.<ex>) and test set <set>:
#   exercise-tests.<tid>.<set>   the set's test objects (an OBJECT library, compiled
#                                once; tools/grade links the same objects)
#   exercise-judge.<tid>.<set>   the judge (the set + the bridge's judge side), and
#   exercise-worker.<tid>,       the workers (the solution's, BOOK_EXERCISES_DIR or
#   exercise-starter-worker.<tid> solutions/, and the starter's, each + the bridge's
#                                worker side); CTest test exercises.<key>.<ex>.<set>
#                                passes when the solution's worker passes the judge,
#                                exercises.starter.<key>.<ex>.<set> when the
#                                starter's fails it
#   exercise.<tid>.<set>,        the solution (or the starter) and the set in one
#   exercise-starter.<tid>.<set> process, as the student bundle builds them: for a
#                                bridged exercise built on demand only (not in ALL)
# Programs land in build/<preset>/exercises/ (judge/, worker/, starter/).
# Every target here is built before the tests run (exercise-kit, which `ctest`
# builds first: cmake/Book.cmake), not with the book, except the solutions in the
# instructor edition, whose listings the book shows. A GPU exercise's code (the
# starter and the solution) compiles where nvcc is; its test programs are built
# where a GPU is too (BOOK_GPU_LIVE); elsewhere its tests report skipped, never passed. Their tests and bridge are host code,
# which the host compiler compiles (_bx_host_code); nvcc compiles the student's files.
#   exercise-kit                 everything tools/grade links: the test objects, the
#                                Catch2 mains, the libraries, the GPU probe; and
#   ${CMAKE_BINARY_DIR}/exercises/kit.json, which tells tools/grade where they
#                                are and how to compile and link a student's files.
# The grader's own tests are in tools/grader/tests/tests.cmake.
include(BookExerciseContract)

set(BOOK_EXERCISE_CXX_OPTIONS -O1 CACHE STRING
    "Options for an exercise's code (starter, solution, a student's files), as for test code")
mark_as_advanced(BOOK_EXERCISE_CXX_OPTIONS)
find_program(BOOK_EXERCISES_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH)  # as BookDocs does
find_program(BOOK_EXERCISES_PYTHON python3)

# A JSON array of the strings of a CMake list.
function(_bx_json_array out)
  set(items "")
  foreach(v IN LISTS ARGN)
    _book_json_string(q "${v}")
    list(APPEND items "${q}")
  endforeach()
  list(JOIN items ", " joined)
  set(${out} "[${joined}]" PARENT_SCOPE)
endfunction()

# A JSON array of what generator expressions give (each may give a list): an
# empty string marks an empty expression, which tools/grade drops.
function(_bx_json_genex_array out)
  set(items "")
  foreach(g IN LISTS ARGN)
    list(APPEND items "\"$<JOIN:${g},\"$<COMMA> \">\"")
  endforeach()
  list(JOIN items ", " joined)
  set(${out} "[${joined}]" PARENT_SCOPE)
endfunction()

# ---- discovery and the layout check (both sides) -----------------------------
set(_bx_root "${CMAKE_SOURCE_DIR}")
book_exercise_list("${_bx_root}" _bx_ids)
if(BOOK_CHAPTERS)  # only the exercises of the chapters this build has (cmake/BookChapters.cmake)
  set(_bx_kept "")
  foreach(_bx_id IN LISTS _bx_ids)
    string(REGEX REPLACE "/.*" "" _bx_key "${_bx_id}")
    if(_bx_key IN_LIST BOOK_CHAPTERS)
      list(APPEND _bx_kept "${_bx_id}")
    endif()
  endforeach()
  set(_bx_ids "${_bx_kept}")
endif()
file(GLOB _bx_keys LIST_DIRECTORIES true "${_bx_root}/exercises/*" "${_bx_root}/solutions/*"
                                         "${_bx_root}/tests/*/exercises")
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
             "${_bx_root}/cmake/BookExerciseContract.cmake" "${_bx_root}/exercises"
             "${_bx_root}/solutions" ${_bx_keys})
set(_bx_book_entries "")
foreach(_bx_id IN LISTS _bx_ids)
  string(REPLACE "/" ";" _bx_parts "${_bx_id}")
  list(GET _bx_parts 0 _bx_key)
  list(GET _bx_parts 1 _bx_ex)
  string(REPLACE "/" "." _bx_tid "${_bx_id}")
  book_exercise_read("${_bx_root}" ${_bx_key} ${_bx_ex} "BX_${_bx_tid}")
  book_exercise_check_solution("${_bx_root}" ${_bx_key} ${_bx_ex} "${BX_${_bx_tid}_STUDENT_FILES}")
  # What configure read re-runs it: the contract, the title, the test names, and
  # the folders (a file added or removed). Editing a starter or a solution does not.
  set(_bx_watch "${_bx_root}/exercises/${_bx_id}/exercise.cmake"
                "${_bx_root}/exercises/${_bx_id}/README.md"
                "${_bx_root}/exercises/${_bx_id}" "${_bx_root}/solutions/${_bx_id}"
                "${_bx_root}/tests/${_bx_key}/exercises/${_bx_ex}")
  foreach(_bx_set IN LISTS BX_${_bx_tid}_SETS)
    list(APPEND _bx_watch "${BX_${_bx_tid}_${_bx_set}_TEST}")
  endforeach()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${_bx_watch})

  set(_p "BX_${_bx_tid}")
  _book_json_string(_j_id "${_bx_id}")
  _book_json_string(_j_title "${${_p}_TITLE}")
  _book_json_string(_j_dir "${${_p}_DIR}")
  _book_json_string(_j_sdir "${_bx_root}/solutions/${_bx_id}")
  _bx_json_array(_j_files ${${_p}_STUDENT_FILES})
  _bx_json_array(_j_contract ${${_p}_CONTRACT_FILES})
  set(_j_visible "[]")
  set(_j_hidden "[]")
  set(_j_sets "")
  foreach(_bx_set IN LISTS ${_p}_SETS)
    _bx_json_array(_j_names ${${_p}_${_bx_set}_NAMES})
    set(_j_${_bx_set} "${_j_names}")
    _book_json_string(_j_file "${${_p}_${_bx_set}_TEST}")
    list(APPEND _j_sets "\"${_bx_set}\": {\"points\": ${${_p}_${_bx_set}_POINTS}, \"test_file\": ${_j_file}, \"tests\": ${_j_names}}")
  endforeach()
  list(JOIN _j_sets ", " _j_sets)
  if(${_p}_GPU)
    set(_j_gpu true)
  else()
    set(_j_gpu false)
  endif()
  list(APPEND _bx_book_entries
       "    {\"id\": ${_j_id}, \"chapter\": \"${_bx_key}\", \"name\": \"${_bx_ex}\", \"title\": ${_j_title}, \"points\": ${${_p}_POINTS}, \"gpu\": ${_j_gpu}, \"timeout\": ${${_p}_TIMEOUT},\n     \"dir\": ${_j_dir}, \"solution_dir\": ${_j_sdir},\n     \"student_files\": ${_j_files}, \"contract_files\": ${_j_contract},\n     \"visible_tests\": ${_j_visible},\n     \"hidden_tests\": ${_j_hidden},\n     \"sets\": {${_j_sets}}}")
endforeach()
list(JOIN _bx_book_entries ",\n" _bx_book_entries)
file(GENERATE OUTPUT "${CMAKE_BINARY_DIR}/exercises.json" CONTENT
     "{\n  \"exercises\": [\n${_bx_book_entries}\n  ]\n}\n")
list(LENGTH _bx_ids _bx_count)
message(STATUS "Exercises: ${_bx_count}, both sides checked (cmake/BookExerciseContract.cmake)")

if(NOT BOOK_TESTS)
  return()
endif()

# ---- the libraries an exercise's tests link ----------------------------------
# _bx_visit(<target>): depth first through what a target links, appending each
# target after everything that links it (the global _BX_ORDER, reversed later).
function(_bx_visit t)
  get_property(visited GLOBAL PROPERTY _BX_VISITED)
  if(t IN_LIST visited)
    return()
  endif()
  set_property(GLOBAL APPEND PROPERTY _BX_VISITED "${t}")
  get_target_property(type ${t} TYPE)
  get_target_property(imported ${t} IMPORTED)
  set(deps "")
  if(NOT imported AND NOT type STREQUAL "INTERFACE_LIBRARY")
    get_target_property(l ${t} LINK_LIBRARIES)
    if(l)
      list(APPEND deps ${l})
    endif()
  endif()
  get_target_property(l ${t} INTERFACE_LINK_LIBRARIES)
  if(l)
    list(APPEND deps ${l})
  endif()
  foreach(d IN LISTS deps)
    string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" d "${d}")
    if(TARGET "${d}")
      get_target_property(aliased ${d} ALIASED_TARGET)
      if(aliased)
        set(d "${aliased}")
      endif()
      _bx_visit("${d}")
    elseif(d MATCHES "^-l[A-Za-z0-9_.+-]+$" OR IS_ABSOLUTE "${d}")
      set_property(GLOBAL APPEND PROPERTY _BX_RAW "${d}")
    elseif(NOT d STREQUAL "")
      message(FATAL_ERROR "Exercises: ${t} links '${d}', which tools/grade cannot follow "
                          "(exercise libraries link targets, -l<name> or absolute paths)")
    endif()
  endforeach()
  set_property(GLOBAL APPEND PROPERTY _BX_ORDER "${t}")
endfunction()

# _bx_closure(<out targets> <out raw> <targets>...): every target the given ones
# need, each before what it needs (a link order), and the raw link items.
function(_bx_closure out_targets out_raw)
  set_property(GLOBAL PROPERTY _BX_VISITED "")
  set_property(GLOBAL PROPERTY _BX_ORDER "")
  set_property(GLOBAL PROPERTY _BX_RAW "")
  foreach(t IN LISTS ARGN)
    if(NOT TARGET "${t}")
      message(FATAL_ERROR "Exercises: EXERCISE_LIBS names '${t}', which is no target of the book")
    endif()
    get_target_property(aliased ${t} ALIASED_TARGET)
    if(aliased)
      set(t "${aliased}")
    endif()
    _bx_visit("${t}")
  endforeach()
  get_property(order GLOBAL PROPERTY _BX_ORDER)
  get_property(raw GLOBAL PROPERTY _BX_RAW)
  list(REVERSE order)
  list(REMOVE_DUPLICATES raw)
  set(${out_targets} "${order}" PARENT_SCOPE)
  set(${out_raw} "${raw}" PARENT_SCOPE)
endfunction()

# ---- the mains and the probe --------------------------------------------------
# The CPU main is the book's (book_catch_main, tests/CMakeLists.txt).
# An exercise with a bridge (EXERCISE_FUNCTIONS, tools/grader/judge/grade_bridge.hpp)
# is judged in two processes: the judge (its test set, the bridge's judge side and
# book_exercise_judge_main: trusted, compiled once into the kit) and the worker
# (the student's code, the bridge's worker side and book_exercise_worker_main).
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
# The GPU main links a GPU exercise's code with a set in one process: the kit
# needs it only for a GPU exercise without a bridge (none now); the programs that
# use it are built on demand (tools/grader/tests/gpu_check.sh).
if(BOOK_HAVE_CUDA)
  add_library(book_exercise_gpu_main STATIC EXCLUDE_FROM_ALL
              "${_bx_root}/tools/grader/judge/catch_gpu_main.cpp")
  target_include_directories(book_exercise_gpu_main PRIVATE ${CMAKE_CUDA_TOOLKIT_INCLUDE_DIRECTORIES})
  target_link_libraries(book_exercise_gpu_main PUBLIC book_catch2 book_cuda)
  add_executable(book_exercise_gpu_probe EXCLUDE_FROM_ALL "${_bx_root}/tools/grader/judge/gpu_probe.cu")
  set_target_properties(book_exercise_gpu_probe PROPERTIES
                        RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/exercises")
endif()

# ---- how tools/grade compiles and links a student's files ---------------------
# The same flags CMake gives the exercise's code below, spelt out for a compiler
# called directly (inside the grader's sandbox).
string(TOUPPER "${CMAKE_BUILD_TYPE}" _bx_cfg)
separate_arguments(_bx_cxx_flags UNIX_COMMAND "${CMAKE_CXX_FLAGS} ${CMAKE_CXX_FLAGS_${_bx_cfg}}")
separate_arguments(_bx_ld_flags UNIX_COMMAND "${CMAKE_EXE_LINKER_FLAGS} ${CMAKE_EXE_LINKER_FLAGS_${_bx_cfg}}")
set(_bx_cxx_compile "${CMAKE_CXX_COMPILER}" ${_bx_cxx_flags} ${BOOK_EXERCISE_CXX_OPTIONS}
                    ${CMAKE_CXX20_STANDARD_COMPILE_OPTION})
set(_bx_cxx_link "${CMAKE_CXX_COMPILER}" ${_bx_cxx_flags} ${_bx_ld_flags})
_bx_json_array(_j_cxx_compile ${_bx_cxx_compile})
_bx_json_array(_j_cxx_link ${_bx_cxx_link})
set(_j_cuda null)
if(BOOK_HAVE_CUDA)
  separate_arguments(_bx_cuda_flags UNIX_COMMAND "${CMAKE_CUDA_FLAGS} ${CMAKE_CUDA_FLAGS_${_bx_cfg}}")
  set(_bx_arch "")
  foreach(a IN LISTS CMAKE_CUDA_ARCHITECTURES)
    if(a MATCHES "^([0-9]+a?)-real$")
      list(APPEND _bx_arch "--generate-code=arch=compute_${CMAKE_MATCH_1},code=[sm_${CMAKE_MATCH_1}]")
    elseif(a MATCHES "^([0-9]+a?)-virtual$")
      list(APPEND _bx_arch "--generate-code=arch=compute_${CMAKE_MATCH_1},code=[compute_${CMAKE_MATCH_1}]")
    elseif(a MATCHES "^([0-9]+a?)$")
      list(APPEND _bx_arch "--generate-code=arch=compute_${a},code=[compute_${a},sm_${a}]")
    else()
      message(FATAL_ERROR "Exercises: cannot spell CUDA architecture '${a}' for tools/grade")
    endif()
  endforeach()
  set(_bx_cuda_compile "${CMAKE_CUDA_COMPILER}" -forward-unknown-to-host-compiler
                       "-ccbin=${CMAKE_CUDA_HOST_COMPILER}" ${_bx_cuda_flags} ${_bx_arch}
                       ${BOOK_CUDA_FLAGS} -std=c++20 -x cu)
  # nvcc as the link driver: the CUDA runtime, statically, as CMake links it.
  set(_bx_cuda_link "${CMAKE_CUDA_COMPILER}" "-ccbin=${CMAKE_CUDA_HOST_COMPILER}")
  _bx_json_array(_j_a ${_bx_cuda_compile})
  _bx_json_array(_j_b ${_bx_cuda_link})
  set(_j_cuda "{\"compile\": ${_j_a}, \"link\": ${_j_b}}")
endif()

# ---- per exercise: test objects, programs, CTest tests, kit entries -----------
get_filename_component(_bx_graded "${BOOK_EXERCISES_DIR}" ABSOLUTE BASE_DIR "${CMAKE_BINARY_DIR}")
set(_bx_out "${CMAKE_BINARY_DIR}/exercises")
set(_bx_kit_deps book_catch_main book_exercise_worker_main)
set(_bx_kit_entries "")
set(_bx_need_gpu_main OFF)
set(_bx_catch_args --order decl --use-colour no)
set_property(GLOBAL PROPERTY _BX_DESCRIBED "")
set_property(GLOBAL PROPERTY _BX_LIBRARIES "")

# _bx_describe_entry(<name> <type> <sources> <links> <include genex> <defines genex>):
# one library's entry of the kit's "libraries", for the student bundle.
function(_bx_describe_entry name type sources links incs defs)
  _book_json_string(_j_name "${name}")
  _bx_json_array(_j_srcs ${sources})
  _bx_json_array(_j_links ${links})
  _bx_json_genex_array(_j_incs "${incs}")
  _bx_json_genex_array(_j_defs "${defs}")
  set_property(GLOBAL APPEND PROPERTY _BX_DESCRIBED "${name}")
  set_property(GLOBAL APPEND PROPERTY _BX_LIBRARIES "    ${_j_name}: {\"type\": \"${type}\", \"sources\": ${_j_srcs}, \"include_dirs\": ${_j_incs}, \"defines\": ${_j_defs}, \"links\": ${_j_links}}")
endfunction()

# _bx_describe(<target>): a library target's own description (once).
function(_bx_describe t)
  get_property(described GLOBAL PROPERTY _BX_DESCRIBED)
  if("${t}" IN_LIST described)
    return()
  endif()
  get_target_property(type ${t} TYPE)
  get_target_property(srcs ${t} SOURCES)
  get_target_property(sdir ${t} SOURCE_DIR)
  set(abs "")
  if(srcs AND NOT type STREQUAL "INTERFACE_LIBRARY")
    foreach(s IN LISTS srcs)
      get_filename_component(s "${s}" ABSOLUTE BASE_DIR "${sdir}")
      list(APPEND abs "${s}")
    endforeach()
  endif()
  set(links "")
  foreach(prop LINK_LIBRARIES INTERFACE_LINK_LIBRARIES)
    if(prop STREQUAL "LINK_LIBRARIES" AND type STREQUAL "INTERFACE_LIBRARY")
      continue()
    endif()
    get_target_property(l ${t} ${prop})
    if(l)
      foreach(d IN LISTS l)
        string(REGEX REPLACE "^\\$<LINK_ONLY:(.*)>$" "\\1" d "${d}")
        list(APPEND links "${d}")
      endforeach()
    endif()
  endforeach()
  list(REMOVE_DUPLICATES links)
  _bx_describe_entry(${t} "${type}" "${abs}" "${links}"
                     "$<TARGET_PROPERTY:${t},INTERFACE_INCLUDE_DIRECTORIES>"
                     "$<TARGET_PROPERTY:${t},INTERFACE_COMPILE_DEFINITIONS>")
endfunction()

# _bx_describe_unbuilt(<libs>...): the libraries an exercise that is not built
# here links, described all the same: a book_library that is no target (a CUDA
# one where nvcc is missing) from what book_library() recorded, a target as above.
function(_bx_describe_unbuilt)
  foreach(lib IN LISTS ARGN)
    get_property(described GLOBAL PROPERTY _BX_DESCRIBED)
    if("${lib}" IN_LIST described)
      continue()
    endif()
    if(TARGET "${lib}")
      _bx_closure(targets raw ${lib})
      foreach(t IN LISTS targets)
        _bx_describe(${t})
      endforeach()
      continue()
    endif()
    get_property(defined GLOBAL PROPERTY "BOOK_L_${lib}_DEFINED")
    if(NOT defined)
      message(FATAL_ERROR "Exercises: EXERCISE_LIBS names '${lib}', which is no library of the book")
    endif()
    get_property(srcs GLOBAL PROPERTY "BOOK_L_${lib}_SOURCES")
    get_property(incs GLOBAL PROPERTY "BOOK_L_${lib}_INCLUDE_DIRS")
    get_property(links GLOBAL PROPERTY "BOOK_L_${lib}_LIBS")
    _bx_describe_entry(${lib} STATIC_LIBRARY "${srcs}" "${links}" "${incs}" "")
    _bx_describe_unbuilt(${links})
  endforeach()
endfunction()

# The labels and timeout of an exercise test; a GPU one reports 77 as skipped
# and takes one GPU slot.
function(_bx_test_properties test timeout gpu)
  set(labels exercises)
  if(gpu)
    list(APPEND labels gpu)
  endif()
  set_tests_properties(${test} PROPERTIES LABELS "${labels}" TIMEOUT ${timeout})
  if(gpu)
    set_tests_properties(${test} PROPERTIES SKIP_RETURN_CODE 77 RESOURCE_GROUPS "gpus:1")
  endif()
endfunction()

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
# cmake/BookExerciseContract.cmake): it calls the contract's functions and launches
# its kernels through the CUDA runtime API. The host compiler compiles it, with
# cuda_runtime.h included first as nvcc includes it, at BOOK_EXERCISE_CXX_OPTIONS
# like a CPU exercise's tests: nvcc's front end (cudafe++, cicc) parses all of
# Catch2 (and nlohmann's JSON, in a bridge) for no device code, at about 15 s of
# CPU for a test set and 35 s for a bridge, against 4 s and 7 s for g++. The
# student bundle still compiles the visible set with nvcc (exercises.bundle).
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

foreach(_bx_id IN LISTS _bx_ids)
  string(REPLACE "/" ";" _bx_parts "${_bx_id}")
  list(GET _bx_parts 0 _bx_key)
  list(GET _bx_parts 1 _bx_ex)
  string(REPLACE "/" "." _bx_tid "${_bx_id}")
  set(_p "BX_${_bx_tid}")
  set(_bx_gpu ${${_p}_GPU})
  set(_bx_libs ${${_p}_LIBS})
  if(_bx_gpu)
    list(APPEND _bx_libs book_cuda)
  endif()
  # Built: its code compiles here (a GPU exercise needs nvcc). Live: its test
  # programs are built too, which for a GPU exercise needs a GPU (BOOK_GPU_LIVE):
  # where none is, nothing is linked that could not run (the sets report skipped,
  # tools/grade leaves them out), but the starter and the solution still compile.
  set(_bx_built ON)
  set(_bx_live ON)
  set(_bx_why "")
  if(_bx_gpu AND NOT BOOK_HAVE_CUDA)
    set(_bx_built OFF)
    set(_bx_live OFF)
    set(_bx_why "no CUDA compiler (nvcc) where the kit was built")
  elseif(_bx_gpu AND NOT BOOK_GPU_LIVE)
    set(_bx_live OFF)
    set(_bx_why "no GPU where the kit was built (its code compiles, and its tests are built where configure finds a GPU or BOOK_GPU=ON)")
  endif()

  set(_j_sets "")
  if(_bx_built)
    # The exercise's code, solved and as a starter: one OBJECT library each.
    set(_bx_solution_srcs "")
    set(_bx_starter_srcs "")
    foreach(f IN LISTS ${_p}_SOURCES)
      list(APPEND _bx_solution_srcs "${_bx_graded}/${_bx_id}/${f}")
      list(APPEND _bx_starter_srcs "${${_p}_DIR}/${f}")
    endforeach()
    # The code is compiled before the tests run (with exercise-kit); only where the
    # book shows it (the solution, in the instructor edition) is it compiled with the
    # book too, as every listing is.
    set(_bx_solution_all EXCLUDE_FROM_ALL)
    if(BOOK_EDITION STREQUAL "instructor")
      set(_bx_solution_all "")
    endif()
    add_library(exercise-code.${_bx_tid} OBJECT ${_bx_solution_all} ${_bx_solution_srcs})
    add_library(exercise-starter-code.${_bx_tid} OBJECT EXCLUDE_FROM_ALL ${_bx_starter_srcs})
    foreach(t exercise-code.${_bx_tid} exercise-starter-code.${_bx_tid})
      _bx_target_setup(${t} "${${_p}_DIR}" ${_bx_gpu} "${_bx_libs}")
      list(APPEND _bx_kit_deps ${t})  # compiled (and where live, linked) before the tests
    endforeach()
    if(_bx_gpu)
      set(_bx_main book_exercise_gpu_main)
    else()
      set(_bx_main book_catch_main)
    endif()
  endif()
  if(_bx_live)
    # Every program below is a test program: not in ALL, built with exercise-kit
    # before the tests run. A bridged exercise is judged by its judge and worker;
    # the programs that link its code with a set directly are built on demand only.
    if(NOT ${_p}_BRIDGE AND _bx_gpu)
      set(_bx_need_gpu_main ON)  # tools/grade links this exercise's sets with it
    endif()

    if(${_p}_BRIDGE)
      # The bridge, both sides; the workers: solved and starter code, each with the
      # bridge's worker side and the driver.
      string(REPLACE ";" "," _bx_fns "${${_p}_FUNCTIONS}")
      add_library(exercise-judge-bridge.${_bx_tid} OBJECT EXCLUDE_FROM_ALL "${${_p}_BRIDGE}")
      _bx_target_setup(exercise-judge-bridge.${_bx_tid} "${${_p}_DIR}" ${_bx_gpu}
                       "${_bx_libs};book_catch2;book_exercise_grade_bridge")
      target_compile_definitions(exercise-judge-bridge.${_bx_tid} PRIVATE
                                 "BOOK_GRADE_FUNCTIONS=\"${_bx_fns}\"")
      add_library(exercise-worker-bridge.${_bx_tid} OBJECT EXCLUDE_FROM_ALL "${${_p}_BRIDGE}")
      _bx_target_setup(exercise-worker-bridge.${_bx_tid} "${${_p}_DIR}" ${_bx_gpu}
                       "${_bx_libs};book_exercise_grade_bridge")
      target_compile_definitions(exercise-worker-bridge.${_bx_tid} PRIVATE BOOK_GRADE_WORKER)
      # BOOK_GRADE_BRIDGED: the test sets' code (and the bridge's, both sides) is
      # linked with a bridge, so test helpers that touch the student's code (a
      # guarded launch of the student's kernel) are declared there and defined in
      # the bridge, where they run in the worker. The programs that link the
      # student's code with a set directly link the bridge's worker side for them.
      foreach(t exercise-judge-bridge.${_bx_tid} exercise-worker-bridge.${_bx_tid})
        target_compile_definitions(${t} PRIVATE BOOK_GRADE_BRIDGED)
      endforeach()
      if(_bx_gpu)
        _bx_host_code(exercise-judge-bridge.${_bx_tid} "${${_p}_BRIDGE}" PRECOMPILED)
        _bx_host_code(exercise-worker-bridge.${_bx_tid} "${${_p}_BRIDGE}")
      else()
        book_test_headers(exercise-judge-bridge.${_bx_tid})
      endif()
      list(APPEND _bx_kit_deps exercise-worker-bridge.${_bx_tid} book_exercise_worker_main)
      foreach(side solution starter)
        if(side STREQUAL "solution")
          set(prog exercise-worker.${_bx_tid})
          set(code exercise-code.${_bx_tid})
          set(dir "${_bx_out}/worker")
        else()
          set(prog exercise-starter-worker.${_bx_tid})
          set(code exercise-starter-code.${_bx_tid})
          set(dir "${_bx_out}/starter/worker")
        endif()
        add_executable(${prog} EXCLUDE_FROM_ALL $<TARGET_OBJECTS:${code}>
                       $<TARGET_OBJECTS:exercise-worker-bridge.${_bx_tid}>)
        list(APPEND _bx_kit_deps ${prog})  # the exercise tests run it
        target_link_libraries(${prog} PRIVATE ${_bx_libs} book_exercise_worker_main)
        set_target_properties(${prog} PROPERTIES OUTPUT_NAME "${_bx_tid}" RUNTIME_OUTPUT_DIRECTORY "${dir}")
        if(_bx_gpu)
          set_target_properties(${prog} PROPERTIES LINKER_LANGUAGE CUDA)
        else()
          set_target_properties(${prog} PROPERTIES LINKER_LANGUAGE CXX)
        endif()
      endforeach()
    endif()
    foreach(_bx_set IN LISTS ${_p}_SETS)
      set(_bx_objs exercise-tests.${_bx_tid}.${_bx_set})
      add_library(${_bx_objs} OBJECT EXCLUDE_FROM_ALL "${${_p}_${_bx_set}_TEST}")
      _bx_target_setup(${_bx_objs} "${${_p}_DIR}" ${_bx_gpu} "${_bx_libs};book_catch2")
      set(_bx_direct_extra "")
      if(${_p}_BRIDGE)
        target_compile_definitions(${_bx_objs} PRIVATE BOOK_GRADE_BRIDGED)
        set(_bx_direct_extra $<TARGET_OBJECTS:exercise-worker-bridge.${_bx_tid}>)
      endif()
      if(_bx_gpu)
        _bx_host_code(${_bx_objs} "${${_p}_${_bx_set}_TEST}" PRECOMPILED)
      else()
        book_test_headers(${_bx_objs})
      endif()
      list(APPEND _bx_kit_deps ${_bx_objs})
      foreach(side solution starter)
        if(side STREQUAL "solution")
          set(prog exercise.${_bx_tid}.${_bx_set})
          set(code exercise-code.${_bx_tid})
          set(dir "${_bx_out}")
        else()
          set(prog exercise-starter.${_bx_tid}.${_bx_set})
          set(code exercise-starter-code.${_bx_tid})
          set(dir "${_bx_out}/starter")
        endif()
        add_executable(${prog} EXCLUDE_FROM_ALL $<TARGET_OBJECTS:${code}>
                       $<TARGET_OBJECTS:${_bx_objs}> ${_bx_direct_extra})
        if(NOT ${_p}_BRIDGE)
          list(APPEND _bx_kit_deps ${prog})  # the exercise tests run it
        endif()
        target_link_libraries(${prog} PRIVATE ${_bx_libs} ${_bx_main})
        set_target_properties(${prog} PROPERTIES OUTPUT_NAME "${_bx_tid}.${_bx_set}"
                                                 RUNTIME_OUTPUT_DIRECTORY "${dir}")
        # Objects only: the language links as the exercise's sources are written.
        if(_bx_gpu)
          set_target_properties(${prog} PROPERTIES LINKER_LANGUAGE CUDA)
        else()
          set_target_properties(${prog} PROPERTIES LINKER_LANGUAGE CXX)
        endif()
      endforeach()

      # The judge of the set (a bridged exercise): the set's objects and the
      # bridge's judge side, never the student's code.
      set(_bx_run_solution exercise.${_bx_tid}.${_bx_set})
      set(_bx_run_starter $<TARGET_FILE:exercise-starter.${_bx_tid}.${_bx_set}>)
      if(${_p}_BRIDGE)
        set(judge exercise-judge.${_bx_tid}.${_bx_set})
        add_executable(${judge} EXCLUDE_FROM_ALL $<TARGET_OBJECTS:${_bx_objs}>
                       $<TARGET_OBJECTS:exercise-judge-bridge.${_bx_tid}>)
        target_link_libraries(${judge} PRIVATE ${_bx_libs} book_exercise_judge_main)
        set_target_properties(${judge} PROPERTIES OUTPUT_NAME "${_bx_tid}.${_bx_set}"
                              RUNTIME_OUTPUT_DIRECTORY "${_bx_out}/judge")
        if(_bx_gpu)  # book_cuda is nvcc's: nvcc links the CUDA runtime (the judge needs no GPU)
          set_target_properties(${judge} PROPERTIES LINKER_LANGUAGE CUDA)
          set(_bx_skip --skip-without-gpu $<TARGET_FILE:book_exercise_gpu_probe>)
        else()
          set_target_properties(${judge} PROPERTIES LINKER_LANGUAGE CXX)
          set(_bx_skip "")
        endif()
        list(APPEND _bx_kit_deps ${judge})
        # Fresh inputs each run (--rng-seed time), as in grading.
        set(_bx_run_solution ${judge} --worker $<TARGET_FILE:exercise-worker.${_bx_tid}>
                             ${_bx_skip} --rng-seed time)
        set(_bx_run_starter $<TARGET_FILE:${judge}> --worker
                            $<TARGET_FILE:exercise-starter-worker.${_bx_tid}> ${_bx_skip}
                            --rng-seed time)
      endif()

      # The two-sided check: the solution passes the set, the starter fails it.
      set(test "exercises.${_bx_key}.${_bx_ex}.${_bx_set}")
      add_test(NAME ${test} COMMAND ${_bx_run_solution} ${_bx_catch_args})
      _bx_test_properties(${test} ${${_p}_TIMEOUT} ${_bx_gpu})
      if(BOOK_EXERCISES_PYTHON)
        set(skip "")
        if(_bx_gpu)
          set(skip --skip-code 77 --skip-expect "skipped: no CUDA GPU")
        endif()
        set(test "exercises.starter.${_bx_key}.${_bx_ex}.${_bx_set}")
        math(EXPR ctest_timeout "${${_p}_TIMEOUT} + 30")
        add_test(NAME ${test}
                 COMMAND "${BOOK_EXERCISES_PYTHON}" "${_bx_root}/tests/book/expect_failure.py"
                         --scratch "${CMAKE_CURRENT_BINARY_DIR}/exercise-scratch/${_bx_tid}.${_bx_set}"
                         --timeout ${${_p}_TIMEOUT} ${skip}
                         --expect "^test cases:[ ]*[0-9]+([ ]*[|][ ]*[0-9]+ passed)?[ ]*[|][ ]*[1-9][0-9]* failed"
                         -- ${_bx_run_starter} ${_bx_catch_args})
        _bx_test_properties(${test} ${ctest_timeout} ${_bx_gpu})
      endif()
    endforeach()
  else()
    foreach(_bx_set IN LISTS ${_p}_SETS)
      foreach(test "exercises.${_bx_key}.${_bx_ex}.${_bx_set}" "exercises.starter.${_bx_key}.${_bx_ex}.${_bx_set}")
        add_test(NAME ${test} COMMAND bookrun skip "${_bx_id}: ${_bx_why}")
        _bx_test_properties(${test} 60 ON)
      endforeach()
    endforeach()
  endif()

  # The kit entry: what tools/grade needs to build and judge this exercise.
  set(_bx_targets "")
  set(_bx_raw "")
  if(_bx_live)
    _bx_closure(_bx_targets _bx_raw ${_bx_libs})
  else()
    # Not built here (a GPU exercise where nvcc is missing), but its libraries are
    # still described: the student bundle ships them for a student who has nvcc.
    _bx_describe_unbuilt(${_bx_libs})
  endif()
  set(_bx_link "")
  set(_bx_incs "")
  set(_bx_defs "")
  foreach(t IN LISTS _bx_targets)
    get_target_property(type ${t} TYPE)
    if(type MATCHES "^(STATIC|SHARED)_LIBRARY$")
      list(APPEND _bx_link "$<TARGET_LINKER_FILE:${t}>")
      if(NOT t IN_LIST _bx_kit_deps)
        get_target_property(imported ${t} IMPORTED)
        if(NOT imported)
          list(APPEND _bx_kit_deps ${t})
        endif()
      endif()
    endif()
    list(APPEND _bx_incs "$<TARGET_PROPERTY:${t},INTERFACE_INCLUDE_DIRECTORIES>")
    list(APPEND _bx_defs "$<TARGET_PROPERTY:${t},INTERFACE_COMPILE_DEFINITIONS>")
    _bx_describe(${t})
  endforeach()
  list(APPEND _bx_link ${_bx_raw})
  foreach(_bx_set IN LISTS ${_p}_SETS)
    _bx_json_array(_j_names ${${_p}_${_bx_set}_NAMES})
    _book_json_string(_j_file "${${_p}_${_bx_set}_TEST}")
    set(_j_judge "\"\"")
    if(_bx_live)
      _bx_json_genex_array(_j_objs "$<TARGET_OBJECTS:exercise-tests.${_bx_tid}.${_bx_set}>")
      if(${_p}_BRIDGE)
        set(_j_judge "\"$<TARGET_FILE:exercise-judge.${_bx_tid}.${_bx_set}>\"")
      endif()
    else()
      set(_j_objs "[]")
    endif()
    if(_bx_set STREQUAL "hidden")
      set(_j_hidden true)
    else()
      set(_j_hidden false)
    endif()
    list(APPEND _j_sets "        {\"name\": \"${_bx_set}\", \"points\": ${${_p}_${_bx_set}_POINTS}, \"hidden\": ${_j_hidden}, \"test_file\": ${_j_file},\n         \"judge\": ${_j_judge},\n         \"objects\": ${_j_objs},\n         \"tests\": ${_j_names}}")
  endforeach()
  list(JOIN _j_sets ",\n" _j_sets)
  _book_json_string(_j_id "${_bx_id}")
  _book_json_string(_j_title "${${_p}_TITLE}")
  _book_json_string(_j_dir "${${_p}_DIR}")
  _bx_json_array(_j_files ${${_p}_STUDENT_FILES})
  _bx_json_array(_j_sources ${${_p}_SOURCES})
  _bx_json_array(_j_contract ${${_p}_CONTRACT_FILES})
  set(_j_support "")
  foreach(f IN LISTS ${_p}_TEST_SUPPORT)
    list(APPEND _j_support "${${_p}_TESTS_DIR}/${f}")
  endforeach()
  _bx_json_array(_j_support ${_j_support})
  _bx_json_array(_j_libs ${_bx_libs})
  _bx_json_genex_array(_j_link ${_bx_link})
  _bx_json_genex_array(_j_incs ${_bx_incs})
  _bx_json_genex_array(_j_defs ${_bx_defs})
  if(_bx_gpu)
    set(_j_gpu true)
  else()
    set(_j_gpu false)
  endif()
  if(_bx_live)
    set(_j_built true)
  else()
    set(_j_built false)
  endif()
  _book_json_string(_j_why "${_bx_why}")
  set(_j_worker "[]")
  if(_bx_live AND ${_p}_BRIDGE)
    _bx_json_genex_array(_j_worker "$<TARGET_OBJECTS:exercise-worker-bridge.${_bx_tid}>")
  endif()
  _bx_json_array(_j_functions ${${_p}_FUNCTIONS})
  list(APPEND _bx_kit_entries "    {\"id\": ${_j_id}, \"title\": ${_j_title}, \"gpu\": ${_j_gpu}, \"built\": ${_j_built}, \"not_built\": ${_j_why}, \"timeout\": ${${_p}_TIMEOUT},
     \"dir\": ${_j_dir}, \"student_files\": ${_j_files}, \"sources\": ${_j_sources}, \"contract_files\": ${_j_contract},
     \"test_support\": ${_j_support},
     \"functions\": ${_j_functions},
     \"worker_objects\": ${_j_worker},
     \"libraries\": ${_j_libs},
     \"include_dirs\": ${_j_incs},
     \"defines\": ${_j_defs},
     \"link\": ${_j_link},
     \"sets\": [\n${_j_sets}]}")
endforeach()

# ---- the kit ------------------------------------------------------------------
set(_j_gpu_main "\"\"")
set(_j_probe "\"\"")
if(BOOK_HAVE_CUDA)
  list(APPEND _bx_kit_deps book_exercise_gpu_probe)
  set(_j_probe "\"$<TARGET_FILE:book_exercise_gpu_probe>\"")
  if(_bx_need_gpu_main)
    list(APPEND _bx_kit_deps book_exercise_gpu_main)
    set(_j_gpu_main "\"$<TARGET_FILE:book_exercise_gpu_main>\"")
  endif()
endif()
list(REMOVE_DUPLICATES _bx_kit_deps)
add_custom_target(exercise-kit)  # built before tests run (cmake/Book.cmake)
add_dependencies(exercise-kit ${_bx_kit_deps})
list(JOIN _bx_kit_entries ",\n" _bx_kit_entries)
get_property(_bx_libraries GLOBAL PROPERTY _BX_LIBRARIES)
list(JOIN _bx_libraries ",\n" _bx_libraries)
_book_json_string(_j_root "${_bx_root}")
_book_json_string(_j_build "${CMAKE_BINARY_DIR}")
file(GENERATE OUTPUT "${_bx_out}/kit.json" CONTENT "{
  \"version\": 1,
  \"source_root\": ${_j_root},
  \"build_dir\": ${_j_build},
  \"cxx\": {\"compile\": ${_j_cxx_compile}, \"link\": ${_j_cxx_link}},
  \"cuda\": ${_j_cuda},
  \"catch_main\": \"$<TARGET_FILE:book_catch_main>\",
  \"worker_main\": \"$<TARGET_FILE:book_exercise_worker_main>\",
  \"gpu_main\": ${_j_gpu_main},
  \"gpu_probe\": ${_j_probe},
  \"exercises\": [
${_bx_kit_entries}
  ],
  \"libraries\": {
${_bx_libraries}
  }
}
")

include("${_bx_root}/tools/grader/tests/tests.cmake" OPTIONAL)
