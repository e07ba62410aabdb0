# SPDX-License-Identifier: MIT
# A run's input hash, which says whether a recording is stale: what CMake
# declares of it. The flags identity of the programs (with the own flags of the
# book libraries they link and the folder's settings), the sources of the book
# libraries a program links (_book_link_walk), and the runner's arguments that
# describe a run's inputs (_book_hash_args); bookrun computes the hash from these
# (tools/runner/inputs.cpp). What each program's compile hashes is written to
# compile-inputs.json for the cross-check against the real compile (test
# book.compile-commands-hashed). The guard that keeps the hash true, no setting
# changed after book_program or book_library, is cmake/BookInputsSettled.cmake.
# Tests: records.* (a committed recording is fresh for these inputs), the
# book.cmake-* and book.bad.cmake-* cases of tests/book/configure.cmake, and
# book.bad.runner-* (tools/runner/tests/runner.cmake: the runner's side).
#
# What a run depends on: the program's sources and those of every book library
# it links, the project headers they include, the flags identity (language
# standard, build type, CUDA architectures and flags, the program's OPTIONS and
# DEFINITIONS), its arguments and environment, and where nvcc exists its version
# and the CUDA flags CMake passes (compared only where nvcc exists). No absolute path
# enters the hash, so a recording's hash is the same on every machine.

# Flags that shape the programs' code, hashed into every run record's inputs.
# Kept as project settings (not the compilers' full command lines, which hold
# machine paths) so that a recording's hash is the same on every machine.
set(BOOK_CXX_FLAGS_ID "c++20 ${CMAKE_BUILD_TYPE}")
set(BOOK_CUDA_FLAGS "-lineinfo")
# The flags identity of a CUDA program compiled for <archs> (a list): the
# book's, BOOK_CUDA_FLAGS_ID, for BOOK_CUDA_ARCHITECTURES; a program that needs
# more (book_program's NEEDS_CC) is compiled for those of them that can run it.
function(_book_cuda_flags_id out archs)
  string(REPLACE ";" "," archs_id "${archs}")
  set(${out} "c++20 ${CMAKE_BUILD_TYPE} arch=${archs_id} ${BOOK_CUDA_FLAGS}" PARENT_SCOPE)
endfunction()
_book_cuda_flags_id(BOOK_CUDA_FLAGS_ID "${BOOK_CUDA_ARCHITECTURES}")
# Where nvcc exists: its version and the flags CMake gives nvcc and the host
# compiler besides the project's (CMAKE_CUDA_FLAGS, CMAKE_CXX_FLAGS and their
# _<CONFIG> forms: a toolkit, CUDAFLAGS or CXXFLAGS change shows), as toolchain
# entries: a recording compares them only where the build has nvcc, so a
# machine without it does not call every recording stale. (The host compiler's
# version is not one: the GPU machine's and a reader's differ, and a CUDA
# program's timed code is its kernels.)
function(_book_used_flags out lang)
  string(TOUPPER "${CMAKE_BUILD_TYPE}" config)
  set(used "${CMAKE_${lang}_FLAGS} ${CMAKE_${lang}_FLAGS_${config}}")
  string(REPLACE "${CMAKE_SOURCE_DIR}" "<source>" used "${used}")
  string(REPLACE "${CMAKE_BINARY_DIR}" "<build>" used "${used}")
  string(REGEX REPLACE "[ \t\n]+" " " used "${used}")
  string(STRIP "${used}" used)
  set(${out} "${used}" PARENT_SCOPE)
endfunction()
_book_used_flags(_cxx_used CXX)
set(BOOK_CXX_TOOLCHAIN --toolchain "cxx-flags=${_cxx_used}")
set(BOOK_CUDA_TOOLCHAIN "")
if(BOOK_HAVE_CUDA)
  _book_used_flags(_cuda_used CUDA)
  _book_used_flags(_cxx_used CXX)
  set(BOOK_CUDA_TOOLCHAIN --toolchain "nvcc=${CMAKE_CUDA_COMPILER_VERSION}"
                          --toolchain "nvcc-flags=${_cuda_used}"
                          --toolchain "cxx-flags=${_cxx_used}")
endif()

# A folder's variables: CMake reads many of them when it generates a compile or a
# link (CMAKE_<LANG>_FLAGS(_<CONFIG>), CMAKE_<LANG>_STANDARD, CMAKE_BUILD_TYPE,
# CMAKE_CUDA_ARCHITECTURES, CMAKE_INTERPROCEDURAL_OPTIMIZATION,
# CMAKE_POSITION_INDEPENDENT_CODE, CMAKE_EXE_LINKER_FLAGS, the rule variables,
# ...), and the book's functions read the BOOK_ ones. Rather than a list of those
# that matter, every CMAKE_ and BOOK_ variable counts: one whose value in a
# program's folder differs from the project's (the top folder's, when the first
# program or library is declared) enters that program's flags
# identity as `set:<name>=[<value>]`. Left out: what CMake sets per folder or per
# call (CMAKE_CURRENT_*, ...), and what its find and check modules report
# (CMAKE_HAVE_*, CMAKE_REQUIRED_*, the Threads results), which describe the
# machine, not a choice of the chapter. Cache variables are the project's: one
# that a folder creates or changes is refused (_book_check_cache_settled).
set(_BOOK_SETTING_VARIABLES "^(CMAKE|BOOK)_")
# CMAKE_WARN_DEPRECATED and CMAKE_ERROR_DEPRECATED steer CMake's own messages, not a
# compile, and a CMake with policy CMP0218 warns when they are read.
set(_BOOK_NOT_SETTING_VARIABLES
    "^CMAKE_(CURRENT_|PARENT_LIST_FILE$|MATCH_|ARGC$|ARGV[0-9]|HAVE_|REQUIRED_|USE_[A-Z0-9_]*THREADS_INIT$|THREAD_LIBS_INIT$|HP_PTHREADS_INIT$|WARN_DEPRECATED$|ERROR_DEPRECATED$)")

# The names of the setting variables among `names` (sorted, once each).
function(_book_setting_names out)
  set(names ${ARGN})
  list(FILTER names INCLUDE REGEX "${_BOOK_SETTING_VARIABLES}")
  list(FILTER names EXCLUDE REGEX "${_BOOK_NOT_SETTING_VARIABLES}")
  list(REMOVE_DUPLICATES names)
  list(SORT names)
  set(${out} "${names}" PARENT_SCOPE)
endfunction()

# The project's values of the setting variables (global properties, which no
# folder's variables shadow), taken from the top folder once, at the first
# book_library or book_program (the book's: code/common, read before any chapter).
function(_book_settings_baseline)
  get_property(taken GLOBAL PROPERTY BOOK_BASE_TAKEN)
  if(taken)
    return()
  endif()
  get_directory_property(normal DIRECTORY "${CMAKE_SOURCE_DIR}" VARIABLES)
  get_cmake_property(cache CACHE_VARIABLES)
  _book_setting_names(names ${normal} ${cache})
  foreach(name IN LISTS names)
    get_directory_property(v DIRECTORY "${CMAKE_SOURCE_DIR}" DEFINITION "${name}")
    set_property(GLOBAL PROPERTY "BOOK_BASE_${name}" "${v}")
  endforeach()
  _book_setting_names(cached ${cache})
  foreach(name IN LISTS cached)
    set_property(GLOBAL PROPERTY "BOOK_BASE_CACHE_${name}" "$CACHE{${name}}")
  endforeach()
  set_property(GLOBAL PROPERTY BOOK_BASE_NAMES "${names}")
  set_property(GLOBAL PROPERTY BOOK_BASE_CACHE_NAMES "${cached}")
  set_property(GLOBAL PROPERTY BOOK_BASE_TAKEN ON)
endfunction()

# The setting variables whose value in this folder (or, with a second argument,
# in that folder once it has been read) differ from the project's, as
# ` set:<name>=[<value>]` each, without machine paths (empty: none).
function(_book_folder_settings out)
  _book_settings_baseline()
  set(changed "")
  get_property(base GLOBAL PROPERTY BOOK_BASE_NAMES)
  if(ARGC GREATER 1)
    get_directory_property(here DIRECTORY "${ARGV1}" VARIABLES)
  else()
    get_cmake_property(here VARIABLES)
  endif()
  _book_setting_names(names ${here} ${base})
  foreach(name IN LISTS names)
    if(ARGC GREATER 1)
      get_directory_property(v DIRECTORY "${ARGV1}" DEFINITION "${name}")
    else()
      set(v "${${name}}")
    endif()
    get_property(was GLOBAL PROPERTY "BOOK_BASE_${name}")
    if("${v}" STREQUAL "${was}")
      continue()
    endif()
    # A cache entry made after the project's values were taken (by a find or
    # check module, or a tool's find_program) is no setting of this folder.
    get_property(in_base GLOBAL PROPERTY "BOOK_BASE_${name}" SET)
    if(NOT in_base AND DEFINED CACHE{${name}} AND "${v}" STREQUAL "$CACHE{${name}}")
      continue()
    endif()
    _book_portable(v ${v})
    string(APPEND changed " set:${name}=[${v}]")
  endforeach()
  set(${out} "${changed}" PARENT_SCOPE)
endfunction()

# What the libraries `libs` give a program that links them, through the libraries
# they link in turn, under <prefix>_*: SOURCES, the book's sources compiled into
# it (a book_library's, or a library target's of this project: its SOURCES);
# INCLUDES, the folders its header scan searches for them; TARGETS, the library
# targets compiled into it; CUDA, ON if a book library among them has a .cu
# source; OWN, the own flags of each book library among them that has any, as
# ` <name>=[...]` for its flags identity; USAGE, the compile settings the project's other
# library targets give it (an INTERFACE library's usage requirements, a plain
# library's own options), as ` <target>=[...]` for its flags identity; SYSTEM,
# the compile options, definitions (-D...) and
# include folders (-I...) of the imported libraries among them and of the book's
# stand-ins for the machine's (BOOK_SYSTEM_LIBRARY: cmake/BookDependencies.cmake),
# which are the machine's (tools/bookpy/inputs/compile_check.py allows them).
function(_book_link_walk prefix caller)
  set(queue ${ARGN})
  set(seen "")
  set(sources "")
  set(includes "")
  set(targets "")
  set(system "")
  set(usage "")
  set(cuda OFF)
  set(own "")
  while(queue)
    list(POP_FRONT queue lib)
    if(lib MATCHES "^\\$<LINK_ONLY:([^>]+)>$")
      set(lib "${CMAKE_MATCH_1}")
    endif()
    if(lib IN_LIST seen OR lib MATCHES "^\\$<" OR lib MATCHES "^-")
      continue()
    endif()
    list(APPEND seen "${lib}")
    get_property(defined GLOBAL PROPERTY "BOOK_L_${lib}_DEFINED")
    if(defined)
      _book_walk_book_library()
      continue()
    endif()
    if(NOT TARGET "${lib}")
      message(FATAL_ERROR "${caller}: LIBS names '${lib}', which is no target (yet): define a "
                          "library with book_library() before the program that links it, or "
                          "link a system library as -l<name>")
    endif()
    get_target_property(aliased "${lib}" ALIASED_TARGET)
    if(aliased)
      list(APPEND queue "${aliased}")
      continue()
    endif()
    get_target_property(imported "${lib}" IMPORTED)
    get_target_property(machine "${lib}" BOOK_SYSTEM_LIBRARY)
    get_target_property(type "${lib}" TYPE)
    set(props INTERFACE_LINK_LIBRARIES)
    if(imported OR machine)
      _book_usage_flags(f "${lib}")
      list(APPEND system ${f})
    else()
      _book_own_usage(u "${lib}" "${type}")
      string(APPEND usage "${u}")
    endif()
    if(NOT imported AND NOT machine AND NOT type STREQUAL "INTERFACE_LIBRARY")
      list(APPEND props LINK_LIBRARIES)
      list(APPEND targets "${lib}")
      _book_target_inputs(s i "${lib}")
      list(APPEND sources ${s})
      list(APPEND includes ${i})
    endif()
    if(imported)
      continue()  # what an imported library links is the machine's too
    endif()
    foreach(p IN LISTS props)
      get_target_property(l "${lib}" ${p})
      if(l)
        list(APPEND queue ${l})
      endif()
    endforeach()
  endwhile()
  _book_in_tree(kept ${sources})
  list(REMOVE_DUPLICATES includes)
  set(${prefix}_SOURCES "${kept}" PARENT_SCOPE)
  set(${prefix}_INCLUDES "${includes}" PARENT_SCOPE)
  set(${prefix}_TARGETS "${targets}" PARENT_SCOPE)
  set(${prefix}_SYSTEM "${system}" PARENT_SCOPE)
  set(${prefix}_USAGE "${usage}" PARENT_SCOPE)
  set(${prefix}_CUDA "${cuda}" PARENT_SCOPE)
  set(${prefix}_OWN "${own}" PARENT_SCOPE)
endfunction()

# One book library `lib` of _book_link_walk (a macro: it adds to the walk's lists).
macro(_book_walk_book_library)
  foreach(_book_k SOURCES SCAN_INCLUDES LIBS TARGET CUDA FLAGS)
    get_property(_book_${_book_k} GLOBAL PROPERTY "BOOK_L_${lib}_${_book_k}")
  endforeach()
  list(APPEND sources ${_book_SOURCES})
  list(APPEND includes ${_book_SCAN_INCLUDES})
  list(APPEND targets ${_book_TARGET})
  list(APPEND queue ${_book_LIBS})
  if(_book_CUDA)
    set(cuda ON)
  endif()
  if(_book_FLAGS)
    string(APPEND own " ${lib}=[${_book_FLAGS}]")
  endif()
endmacro()

# The files of the book's tree among the given ones, once each (generated files
# and system headers are no sources of the book).
function(_book_in_tree out)
  set(kept "")
  foreach(f IN LISTS ARGN)
    string(FIND "${f}" "${CMAKE_SOURCE_DIR}/" at)
    if(at EQUAL 0)
      list(APPEND kept "${f}")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES kept)
  set(${out} "${kept}" PARENT_SCOPE)
endfunction()

# A library target's sources (absolute) and the include folders it gives.
function(_book_target_inputs sources_out includes_out lib)
  get_target_property(dir "${lib}" SOURCE_DIR)
  get_target_property(s "${lib}" SOURCES)
  set(sources "")
  foreach(f IN LISTS s)
    if(NOT f MATCHES "^\\$<")
      get_filename_component(f "${f}" ABSOLUTE BASE_DIR "${dir}")
      list(APPEND sources "${f}")
    endif()
  endforeach()
  get_target_property(i "${lib}" INTERFACE_INCLUDE_DIRECTORIES)
  set(includes "")
  foreach(f IN LISTS i)
    if(f AND NOT f MATCHES "^\\$<")
      list(APPEND includes "${f}")
    endif()
  endforeach()
  set(${sources_out} "${sources}" PARENT_SCOPE)
  set(${includes_out} "${includes}" PARENT_SCOPE)
endfunction()

# What a library target of the project (not a book library) adds to the compile
# of a program that links it, as ` <lib>=[iface-options=[...] ...]` (empty: nothing).
function(_book_own_usage out lib type)
  set(props INTERFACE_COMPILE_OPTIONS INTERFACE_COMPILE_DEFINITIONS)
  if(NOT type STREQUAL "INTERFACE_LIBRARY")
    list(APPEND props COMPILE_OPTIONS COMPILE_DEFINITIONS)
  endif()
  set(text "")
  foreach(p IN LISTS props)
    get_target_property(v "${lib}" ${p})
    if(v)
      string(REGEX REPLACE "^INTERFACE_COMPILE_" "iface-" name "${p}")
      string(REGEX REPLACE "^COMPILE_" "" name "${name}")
      string(TOLOWER "${name}" name)
      _book_portable(t ${v})
      string(APPEND text " ${name}=[${t}]")
    endif()
  endforeach()
  if(text)
    string(STRIP "${text}" text)
    set(text " ${lib}=[${text}]")
  endif()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# The compile flags a library gives the targets that link it: its interface
# options, definitions as -D<def>, include folders as -I<dir>.
function(_book_usage_flags out lib)
  set(flags "")
  foreach(p INTERFACE_COMPILE_OPTIONS INTERFACE_COMPILE_DEFINITIONS INTERFACE_INCLUDE_DIRECTORIES)
    get_target_property(v "${lib}" ${p})
    if(NOT v)
      continue()
    endif()
    if(p STREQUAL "INTERFACE_COMPILE_DEFINITIONS")
      list(TRANSFORM v PREPEND "-D")
    elseif(p STREQUAL "INTERFACE_INCLUDE_DIRECTORIES")
      list(TRANSFORM v PREPEND "-I")
    endif()
    list(APPEND flags ${v})
  endforeach()
  set(${out} "${flags}" PARENT_SCOPE)
endfunction()

# The runner arguments that describe a run's inputs (for the input hash).
function(_book_hash_args out id args env)
  get_property(sources GLOBAL PROPERTY "BOOK_P_${id}_SOURCES")
  get_property(libs GLOBAL PROPERTY "BOOK_P_${id}_LIBS")
  get_property(cuda GLOBAL PROPERTY "BOOK_P_${id}_CUDA")
  get_property(flags GLOBAL PROPERTY "BOOK_P_${id}_FLAGS")
  get_property(dir GLOBAL PROPERTY "BOOK_P_${id}_DIR")
  get_property(dir_includes GLOBAL PROPERTY "BOOK_P_${id}_DIR_INCLUDES")
  _book_link_walk(linked "book_program(${id})" ${libs})
  set(lib_sources ${linked_SOURCES})
  set(includes ${linked_INCLUDES})
  # --scan-cache: the runs of one program share its header lists (not hashed).
  set(a --source-root "${CMAKE_SOURCE_DIR}" --cxx "${CMAKE_CXX_COMPILER}"
        --schema "${BOOK_SCHEMA}" --scan-cache "${CMAKE_BINARY_DIR}/records/.header-lists")
  set(search ${dir_includes} ${dir} ${includes})
  list(REMOVE_DUPLICATES search)
  foreach(i IN LISTS search)
    list(APPEND a --include-dir "${i}")
  endforeach()
  foreach(s IN LISTS sources)
    list(APPEND a --source "${s}")
  endforeach()
  foreach(s IN LISTS lib_sources)
    if(NOT s IN_LIST sources)
      list(APPEND a --lib-source "${s}")
    endif()
  endforeach()
  list(APPEND a --flags "${flags}")
  if(cuda)
    list(APPEND a --gpu)
    get_property(archs GLOBAL PROPERTY "BOOK_P_${id}_ARCHS")
    foreach(arch IN LISTS archs)
      list(APPEND a --cuda-arch "${arch}")
    endforeach()
    list(APPEND a ${BOOK_CUDA_TOOLCHAIN})
  else()
    # A CPU program's runs are made again by every build, so no recording can go
    # stale; its flags are still named, so that its record says what built it.
    list(APPEND a ${BOOK_CXX_TOOLCHAIN})
  endif()
  foreach(x IN LISTS args)
    list(APPEND a "--arg=${x}")
  endforeach()
  foreach(x IN LISTS env)
    list(APPEND a "--env=${x}")
  endforeach()
  set(${out} "${a}" PARENT_SCOPE)
endfunction()

# What each built program's runs hash of its compile, for the check that its
# compiler was given nothing else (tools/bookpy/inputs/compile_check.py, test
# book.compile-commands-hashed, reads it beside CMake's compile database): its
# target, the book library targets compiled into it, the runner arguments its
# runs hash, and the compile flags of the system (imported) libraries it links.
# Noted by book_program in its folder (where its imported libraries are seen),
# with the library targets and system flags of its link walk.
function(_book_note_compile_inputs id tgt linked system)
  _book_hash_args(args "${id}" "" "")
  _book_json_string(t "${tgt}")
  _book_json_string_array(a ${args})
  _book_json_string_array(l ${linked})
  _book_json_string_array(s ${system})
  set_property(GLOBAL PROPERTY "BOOK_P_${id}_COMPILE_INPUTS"
    "{\"target\": ${t}, \"hash_args\": ${a}, \"libraries\": ${l}, \"system_flags\": ${s}}")
endfunction()

function(_book_write_compile_inputs)
  set(programs_json "{}")
  get_property(programs GLOBAL PROPERTY BOOK_PROGRAMS)
  foreach(id IN LISTS programs)
    get_property(p GLOBAL PROPERTY "BOOK_P_${id}_COMPILE_INPUTS")
    if(p)  # built here
      string(JSON programs_json SET "${programs_json}" "${id}" "${p}")
    endif()
  endforeach()
  _book_json_string(src "${CMAKE_SOURCE_DIR}")
  _book_json_string(bin "${CMAKE_BINARY_DIR}")
  file(WRITE "${CMAKE_BINARY_DIR}/compile-inputs.json"
       "{\"source_root\": ${src}, \"build_root\": ${bin}, \"programs\": ${programs_json}}\n")
endfunction()
