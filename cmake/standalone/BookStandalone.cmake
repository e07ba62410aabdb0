# SPDX-License-Identifier: MIT
# The book's CMake functions, as a chapter's program download needs them
# (cmake/standalone/CMakeLists.txt includes this file): the same calls that
# code/<key>/CMakeLists.txt makes in the book's own build, here meaning only
# "build this program" and "this is a run of it". The book's runner, its
# records, checks, recordings, sanitizers and profiles are left out; a run
# becomes a CTest test that runs the program with the run's arguments, where
# this machine can (a CPU program always, a GPU program where nvidia-smi lists
# a GPU).
include_guard(GLOBAL)

# C++20, and CUDA where nvcc is (/usr/local/cuda/bin by default) for the GPU
# programs: the book's own settings (cmake/BookLanguages.cmake, shipped beside
# this file), for the compute capabilities BOOK_CUDA_ARCHITECTURES names.
set(BOOK_CUDA_ARCHITECTURES "90" CACHE STRING
    "Compute capabilities to compile for, without the dot (86 for 8.6); ';' between several")
set(CMAKE_CUDA_ARCHITECTURES ${BOOK_CUDA_ARCHITECTURES})
include(BookLanguages)
if(BOOK_HAVE_CUDA)
  find_package(CUDAToolkit REQUIRED)  # cudart, for the host code that calls CUDA
  message(STATUS "GPU programs: compiled for compute capability ${BOOK_CUDA_ARCHITECTURES} "
                 "(another: -DBOOK_CUDA_ARCHITECTURES=86)")
else()
  message(STATUS "No CUDA compiler (nvcc): the GPU programs are left out")
endif()
set(BOOK_GPU_FOUND OFF)
set(BOOK_GPU_CC "")  # the first GPU's compute capability without the dot (75 for 7.5)
find_program(BOOK_NVIDIA_SMI nvidia-smi)
if(BOOK_HAVE_CUDA AND BOOK_NVIDIA_SMI)
  execute_process(COMMAND "${BOOK_NVIDIA_SMI}" -L OUTPUT_VARIABLE _smi RESULT_VARIABLE _rc ERROR_QUIET)
  if(_rc EQUAL 0 AND _smi MATCHES "GPU [0-9]+:")
    set(BOOK_GPU_FOUND ON)
    execute_process(COMMAND "${BOOK_NVIDIA_SMI}" --query-gpu=compute_cap --format=csv,noheader
                    OUTPUT_VARIABLE _cc RESULT_VARIABLE _rc ERROR_QUIET)
    if(_rc EQUAL 0 AND _cc MATCHES "^([0-9]+)\\.([0-9])")
      set(BOOK_GPU_CC "${CMAKE_MATCH_1}${CMAKE_MATCH_2}")
    endif()
  endif()
endif()

# The header libraries the book's library uses (Debian and Ubuntu:
# nlohmann-json3-dev, libcli11-dev, libfmt-dev).
foreach(pair "nlohmann/json.hpp:json:nlohmann-json3-dev" "CLI/CLI.hpp:cli11:libcli11-dev"
             "fmt/format.h:fmt:libfmt-dev")
  string(REPLACE ":" ";" pair "${pair}")
  list(GET pair 0 header)
  list(GET pair 1 lib)
  list(GET pair 2 package)
  find_path(BOOK_${lib}_INCLUDE "${header}")
  if(NOT BOOK_${lib}_INCLUDE)
    message(FATAL_ERROR "${header} is missing: apt-get install ${package}")
  endif()
  add_library(book_${lib} INTERFACE)
  target_include_directories(book_${lib} SYSTEM INTERFACE "${BOOK_${lib}_INCLUDE}")
endforeach()
target_compile_definitions(book_fmt INTERFACE FMT_HEADER_ONLY=1)

# The keywords of the book's calls (cmake/BookCalls.cmake, shipped beside this file).
include(BookCalls)

# Whether `sources` or `libs` need CUDA where there is none: <out> names why.
function(_book_left_out out sources libs)
  set(why "")
  foreach(s IN LISTS sources)
    if(s MATCHES "\\.cu$" AND NOT BOOK_HAVE_CUDA)
      set(why "a CUDA source, ${s}, and no nvcc")
    endif()
  endforeach()
  foreach(l IN LISTS libs)
    get_property(lw GLOBAL PROPERTY "BOOK_LEFT_OUT_${l}")
    if(lw)
      set(why "${l}: ${lw}")
    endif()
  endforeach()
  set(${out} "${why}" PARENT_SCOPE)
endfunction()

function(book_library name)
  cmake_parse_arguments(L "" "${BOOK_LIBRARY_ONE}" "${BOOK_LIBRARY_MULTI}" ${ARGN})
  _book_left_out(why "${L_SOURCES}" "${L_LIBS};${L_PRIVATE_LIBS}")
  if(why)
    set_property(GLOBAL PROPERTY "BOOK_LEFT_OUT_${name}" "${why}")
    return()
  endif()
  if(NOT L_INCLUDE_DIRS)
    set(L_INCLUDE_DIRS .)
  endif()
  add_library(${name} STATIC ${L_SOURCES})
  foreach(d IN LISTS L_INCLUDE_DIRS)
    target_include_directories(${name} PUBLIC "${CMAKE_CURRENT_SOURCE_DIR}/${d}")
  endforeach()
  if(NOT name STREQUAL "book_common")
    target_link_libraries(${name} PUBLIC book_common)
  endif()
  target_link_libraries(${name} PUBLIC ${L_LIBS} PRIVATE ${L_PRIVATE_LIBS})
  if(L_SOURCES MATCHES "\\.cu(;|$)")
    target_link_libraries(${name} PUBLIC CUDA::cudart)
  endif()
  target_compile_options(${name} PRIVATE ${L_OPTIONS})
  target_compile_definitions(${name} PRIVATE ${L_DEFINITIONS})
  set_target_properties(${name} PROPERTIES CUDA_SEPARABLE_COMPILATION OFF POSITION_INDEPENDENT_CODE ON)
endfunction()

# NEEDS_CC <cc>: the compute capability the program needs (90 for clusters and
# programmatic dependent launch): it is compiled only for the entries of
# BOOK_CUDA_ARCHITECTURES that reach it (90a counts as 90), left out where none
# does, and its runs are skipped, with the reason, on a GPU below it.
function(book_program name)
  cmake_parse_arguments(P "" "${BOOK_PROGRAM_ONE}" "${BOOK_PROGRAM_MULTI}" ${ARGN})
  set(libs ${P_LIBS})
  foreach(s IN LISTS P_SOURCES)
    if(s MATCHES "\\.cu$")
      list(PREPEND libs book_cuda)
    endif()
  endforeach()
  _book_left_out(why "${P_SOURCES}" "${libs}")
  _book_program_archs(archs "${P_NEEDS_CC}")
  if(NOT why AND P_NEEDS_CC AND NOT archs)
    set(why "it needs compute capability ${P_NEEDS_CC}, and this build compiles for ${BOOK_CUDA_ARCHITECTURES}")
  endif()
  if(why)
    set_property(GLOBAL PROPERTY "BOOK_LEFT_OUT_${name}" "${why}")
    message(STATUS "${name}: left out (${why})")
    return()
  endif()
  add_executable(${name} ${P_SOURCES})
  target_include_directories(${name} PRIVATE "${CMAKE_CURRENT_SOURCE_DIR}")
  target_link_libraries(${name} PRIVATE book_common ${libs})
  target_compile_options(${name} PRIVATE ${P_OPTIONS})
  target_compile_definitions(${name} PRIVATE ${P_DEFINITIONS})
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bin")
  if(P_NEEDS_CC)
    set_target_properties(${name} PROPERTIES CUDA_ARCHITECTURES "${archs}")
    set_property(GLOBAL PROPERTY "BOOK_NEEDS_CC_${name}" "${P_NEEDS_CC}")
  endif()
  get_property(cuda GLOBAL PROPERTY BOOK_CUDA_PROGRAMS)
  if(libs MATCHES "(^|;)book_cuda(;|$)")
    set_property(GLOBAL APPEND PROPERTY BOOK_CUDA_PROGRAMS ${name})
  endif()
endfunction()

# A run: a test of the program with the run's arguments and environment; a
# run under compute-sanitizer, or one that reads SASS or profiles, is the
# book's own and is left out.
function(book_run run)
  cmake_parse_arguments(R "" "${BOOK_RUN_ONE}" "${BOOK_RUN_MULTI}" ${ARGN})
  if(NOT TARGET ${R_PROGRAM} OR R_SANITIZER OR R_SASS_FUNCTION)
    return()
  endif()
  get_property(cuda GLOBAL PROPERTY BOOK_CUDA_PROGRAMS)
  if(R_PROGRAM IN_LIST cuda AND NOT BOOK_GPU_FOUND)
    return()  # (configure said so once)
  endif()
  get_property(needs GLOBAL PROPERTY "BOOK_NEEDS_CC_${R_PROGRAM}")
  if(needs AND BOOK_GPU_CC AND BOOK_GPU_CC LESS needs)
    add_test(NAME ${run} COMMAND "${CMAKE_COMMAND}" -E echo
             "skipped: ${R_PROGRAM} needs compute capability ${needs}; this GPU has ${BOOK_GPU_CC}")
    set_tests_properties(${run} PROPERTIES SKIP_REGULAR_EXPRESSION "skipped: ")
    return()
  endif()
  add_test(NAME ${run} COMMAND ${R_PROGRAM} ${R_ARGS})
  if(R_ENV)
    set_tests_properties(${run} PROPERTIES ENVIRONMENT "${R_ENV}")
  endif()
  if(NOT R_TIMEOUT)
    set(R_TIMEOUT 120)
  endif()
  if(R_REPEATS)  # a run that measures: one repeat here
    math(EXPR R_TIMEOUT "${R_TIMEOUT} * 2")
  endif()
  set_tests_properties(${run} PROPERTIES TIMEOUT ${R_TIMEOUT})
endfunction()
