# SPDX-License-Identifier: MIT
# A chapter's programs as a download of their own (cmake -P; cmake/BookSite.cmake
# runs it for each chapter):
#
#   cmake -DKEY=<chapter key> -DROOT=<repository> -DOUT=<archive .tar.gz> -P BookPackPrograms.cmake
#
# The archive holds <key>-programs/: the chapter's folder code/<key>/ as it is
# (sources, checks, its CMakeLists.txt), the book's library code/common/, the
# top-level CMakeLists.txt and cmake/BookStandalone.cmake of cmake/standalone/
# (the book's CMake calls, meaning "build this" and "this is a run"), the
# book's cmake/BookLanguages.cmake (C++20, and CUDA where nvcc is) and
# cmake/BookCalls.cmake (the keywords of the calls, which this script parses
# them by too), the MIT
# licence, and a README.md written here from the chapter's own book_program and
# book_run calls: what to install, the build commands, and the command of every
# run the chapter shows. Members are sorted, with no dates. The test
# site.downloads.programs unpacks chapter 1's and builds it by its README alone.
cmake_minimum_required(VERSION 3.18)
foreach(v KEY ROOT OUT)
  if(NOT ${v})
    message(FATAL_ERROR "BookPackPrograms.cmake: -D${v}=... is required")
  endif()
endforeach()
set(top "${KEY}-programs")
set(stage "${OUT}.stage")
set(dest "${stage}/${top}")
file(REMOVE_RECURSE "${stage}")
file(MAKE_DIRECTORY "${dest}/cmake" "${dest}/code" "${dest}/LICENSES")
file(COPY "${ROOT}/code/common" "${ROOT}/code/${KEY}" DESTINATION "${dest}/code")
file(COPY "${ROOT}/cmake/standalone/BookStandalone.cmake" "${ROOT}/cmake/BookLanguages.cmake"
     "${ROOT}/cmake/BookCalls.cmake" DESTINATION "${dest}/cmake")
file(COPY "${ROOT}/cmake/standalone/CMakeLists.txt" DESTINATION "${dest}")
file(COPY "${ROOT}/LICENSES/MIT.txt" DESTINATION "${dest}/LICENSES")

# ---- the README, from the chapter's own calls --------------------------------------
include("${ROOT}/cmake/BookCalls.cmake")
set(_cuda_libs "")
set(_programs "")
set(_runs "")
# (The chapter's own find_package calls find nothing here: this script only
# reads its book_* calls.)
# cmake-lint: disable=C0103
macro(find_package)
endmacro()
function(book_library name)
  cmake_parse_arguments(L "" "${BOOK_LIBRARY_ONE}" "${BOOK_LIBRARY_MULTI}" ${ARGN})
  foreach(x IN LISTS L_SOURCES L_LIBS)
    if(x MATCHES "\\.cu$" OR x IN_LIST _cuda_libs OR x STREQUAL "book_cuda")
      set(_cuda_libs ${_cuda_libs} ${name} PARENT_SCOPE)
    endif()
  endforeach()
endfunction()
function(book_program name)
  cmake_parse_arguments(P "" "${BOOK_PROGRAM_ONE}" "${BOOK_PROGRAM_MULTI}" ${ARGN})
  set(gpu OFF)
  foreach(x IN LISTS P_SOURCES P_LIBS)
    if(x MATCHES "\\.cu$" OR x IN_LIST _cuda_libs)
      set(gpu ON)
    endif()
  endforeach()
  set(_programs ${_programs} ${name} PARENT_SCOPE)
  set(_gpu_${name} ${gpu} PARENT_SCOPE)
endfunction()
function(book_run run)
  cmake_parse_arguments(R "" "${BOOK_RUN_ONE}" "${BOOK_RUN_MULTI}" ${ARGN})
  list(JOIN R_ARGS " " args)
  list(JOIN R_ENV " " run_env)
  set(command "build/bin/${R_PROGRAM}")
  if(args)
    string(APPEND command " ${args}")
  endif()
  if(run_env)
    set(command "${run_env} ${command}")
  endif()
  if(R_SANITIZER)
    set(command "compute-sanitizer --tool ${R_SANITIZER} ${command}")
  elseif(R_SASS_FUNCTION)
    set(command "cuobjdump -sass build/bin/${R_PROGRAM}")
  endif()
  set(what "")
  if(R_REPEATS)
    set(what " (the book's figures are the median of ${R_REPEATS} runs)")
  endif()
  set(_runs "${_runs}| `${run}` | `${command}`${what} |\n" PARENT_SCOPE)
endfunction()
include("${ROOT}/code/${KEY}/CMakeLists.txt")

file(STRINGS "${ROOT}/chapters/${KEY}.md" _title LIMIT_COUNT 1 REGEX "^# ")
string(REGEX REPLACE "^# +" "" _title "${_title}")
set(_gpu_list "")
set(_cpu_list "")
foreach(p IN LISTS _programs)
  if(_gpu_${p})
    list(APPEND _gpu_list "`${p}`")
  else()
    list(APPEND _cpu_list "`${p}`")
  endif()
endforeach()
list(JOIN _gpu_list ", " _gpu_text)
list(JOIN _cpu_list ", " _cpu_text)
if(NOT _gpu_text)
  set(_gpu_text "none")
endif()
if(NOT _cpu_text)
  set(_cpu_text "none")
endif()
# (Its build commands are the exercises' bundle's too, tools/grader/bundle.py's
# _readme: two downloads, each a README of its own, written by this script and
# by Python.)
file(WRITE "${dest}/README.md" "# The programs of chapter ${_title}

From *How GPUs Run Code*, an executable CUDA textbook: every program of this
chapter, with the book's small library (`code/common/`), to build and run on
your own machine. The code is under the MIT licence (`LICENSES/MIT.txt`).

- Programs that run on the CPU: ${_cpu_text}.
- Programs that need an NVIDIA GPU and the CUDA toolkit: ${_gpu_text}.

## What you need

CMake 3.18 or later, a C++20 compiler and the headers the book's library uses;
on Debian 12 or Ubuntu 22.04 and 24.04:

```
apt-get install cmake g++ nlohmann-json3-dev libcli11-dev libfmt-dev
```

For the GPU programs, the CUDA toolkit 12.0 or later, with `nvcc` in
`/usr/local/cuda/bin` (where NVIDIA's packages put it), and a GPU to run them.
They compile for compute capability 9.0 (the H100 and H200 the book was
recorded on); for another GPU, add `-DBOOK_CUDA_ARCHITECTURES=86` (its own,
without the dot) to the first command below.

## Build and run

From this folder:

```sh
cmake -B build
cmake --build build
ctest --test-dir build --output-on-failure
```

The programs are in `build/bin/`. `ctest` runs each run below that this
machine can: the CPU programs always, the GPU programs where `nvidia-smi` lists
a GPU. Without `nvcc` the GPU programs are left out, and the first command
says so.

## The runs the chapter shows

Each output block of the chapter was printed by one of these commands, from
this folder after the build. A GPU's times differ from the book's.

| run | command |
|---|---|
${_runs}")

# ---- the archive: members sorted, no dates ---------------------------------------------
# (Compressed by gzip -n, not by cmake -E tar cfz, whose gzip header holds the time
# of packing: two builds of one tree would offer different bytes. book.incremental-cmake)
file(GLOB_RECURSE _files LIST_DIRECTORIES false RELATIVE "${stage}" "${dest}/*")
list(SORT _files)
file(REMOVE "${OUT}.tmp" "${OUT}.tar.tmp")
execute_process(COMMAND "${CMAKE_COMMAND}" -E tar cf "${OUT}.tar.tmp" --format=gnutar "--mtime=1970-01-01 00:00:00 UTC"
                        -- ${_files}
                WORKING_DIRECTORY "${stage}" RESULT_VARIABLE _rc)
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "BookPackPrograms.cmake: cmake -E tar failed (${_rc}) for ${OUT}")
endif()
execute_process(COMMAND gzip -n -9 -c "${OUT}.tar.tmp" OUTPUT_FILE "${OUT}.tmp" RESULT_VARIABLE _rc)
file(REMOVE "${OUT}.tar.tmp")
if(NOT _rc EQUAL 0)
  message(FATAL_ERROR "BookPackPrograms.cmake: gzip -n failed (${_rc}) for ${OUT}")
endif()
file(RENAME "${OUT}.tmp" "${OUT}")
file(REMOVE_RECURSE "${stage}")
