# SPDX-License-Identifier: MIT
# The book's programs and libraries: book_library and book_program (what they
# build, and what they note for their runs' input hash: cmake/BookInputs.cmake).
# Tests: book.cmake-good, book.bad.cmake-ch92-unknown-lib,
# book.bad.cmake-not-a-chapter (tests/book/fixtures/cmake); every chapter's
# build.
#
#   book_library(<name> SOURCES <files>... [LIBS <targets>...]
#                [PRIVATE_LIBS <targets>...] [INCLUDE_DIRS <dirs>...]
#                [OPTIONS <flags>...] [DEFINITIONS <defs>...])
#       A library of a chapter (or of the shared code): a static library whose
#       headers are found in INCLUDE_DIRS (default: its folder). A program that
#       links it counts its sources, and those of the book libraries it links,
#       as the inputs of its runs, so they are compiled once, here. A library
#       with a .cu source is built only where nvcc is, and still counted.
#       LIBS are linked PUBLIC, PRIVATE_LIBS PRIVATE. OPTIONS and DEFINITIONS
#       are its own (PRIVATE) compile options and definitions; they enter the
#       flags identity of every program that links the library, directly or
#       through another book library, as `<name>=[...]`.
#
#   book_program(<name> SOURCES <files>... [LIBS <targets>...] [OPTIONS <flags>...]
#                [DEFINITIONS <defs>...] [NEEDS_CC <cc>] [CHAPTER <key>])
#       One program of a chapter. A program with a .cu source, or one that links
#       a book library with one (its kernels in the library, its main in C++),
#       is a CUDA program: compiled only where nvcc exists, run live only where
#       a GPU exists.
#       OPTIONS and DEFINITIONS are its own compile options and definitions:
#       give them here (not with target_compile_options) so that they count
#       as its runs' inputs. What a library target of the project that is no
#       book library gives its compile through LIBS (an INTERFACE library's
#       usage requirements, a plain library's own options) counts too, as
#       `<target>=[iface-options=[...] ...]` in its flags identity.
#       NEEDS_CC is the compute capability the program needs, without the dot
#       (90: thread block clusters, distributed shared memory, programmatic
#       dependent launch), where it needs more than the book's floor, 7.5 (every
#       other CUDA program builds and runs from there). It is compiled only for
#       the entries of BOOK_CUDA_ARCHITECTURES that reach it (its flags identity
#       names those), and left out, with the reason, where none does; its runs
#       are skipped with the reason on a GPU below it (cmake/BookRuns.cmake).
#       The need is no input of the runs: declaring it leaves their recordings
#       fresh.
#
# A CUDA program or library is left out where nvcc is not (BOOK_LEFT_OUT,
# which book_summary reports); its sources still count. A program whose
# NEEDS_CC no entry of BOOK_CUDA_ARCHITECTURES reaches is left out too
# (BOOK_LEFT_OUT_CC, "<id>=<cc>").
set_property(GLOBAL PROPERTY BOOK_LEFT_OUT "")
set_property(GLOBAL PROPERTY BOOK_PROGRAMS "")
set_property(GLOBAL PROPERTY BOOK_LEFT_OUT_CC "")

function(book_library name)
  _book_parse(L "book_library(${name})" "${BOOK_LIBRARY_ONE}" "${BOOK_LIBRARY_MULTI}" SOURCES ${ARGN})
  if(NOT L_INCLUDE_DIRS)
    set(L_INCLUDE_DIRS "${CMAKE_CURRENT_SOURCE_DIR}")
  endif()
  get_property(again GLOBAL PROPERTY "BOOK_L_${name}_DEFINED")
  if(again)
    message(FATAL_ERROR "book_library(${name}): a book library ${name} is already defined")
  endif()
  _book_absolute(sources ${L_SOURCES})
  _book_absolute(includes ${L_INCLUDE_DIRS})
  _book_has_cuda(cuda ${sources})
  # Its own flags, as the programs that link it hash them: what its folder and
  # the call add to the project's.
  _book_own_flags(flags vars "${L_OPTIONS}" "${L_DEFINITIONS}")
  set_property(GLOBAL PROPERTY "BOOK_L_${name}_DEFINED" ON)
  set_property(GLOBAL PROPERTY "BOOK_L_${name}_SOURCES" "${sources}")
  set_property(GLOBAL PROPERTY "BOOK_L_${name}_LIBS" "${L_LIBS};${L_PRIVATE_LIBS}")
  # Its folder's include_directories() reach its compile: the header scan must
  # search them too (first, as the compiler does).
  get_directory_property(dir_includes INCLUDE_DIRECTORIES)
  set_property(GLOBAL PROPERTY "BOOK_L_${name}_SCAN_INCLUDES" ${dir_includes} ${includes})
  set_property(GLOBAL PROPERTY "BOOK_L_${name}_INCLUDE_DIRS" "${includes}")
  set_property(GLOBAL PROPERTY "BOOK_L_${name}_CUDA" ${cuda})
  set_property(GLOBAL PROPERTY "BOOK_L_${name}_FLAGS" "${flags}")
  set_property(GLOBAL PROPERTY "BOOK_L_${name}_SEEN_VARS" "${vars}")
  set_property(GLOBAL PROPERTY "BOOK_L_${name}_DIR" "${CMAKE_CURRENT_SOURCE_DIR}")
  set_property(GLOBAL APPEND PROPERTY BOOK_LIBRARIES "${name}")
  set_property(GLOBAL APPEND PROPERTY BOOK_COMPILED_SOURCES ${sources})
  if(cuda AND NOT BOOK_HAVE_CUDA)
    return()  # not built, still counted by the programs that link it
  endif()
  add_library(${name} STATIC ${sources})
  target_include_directories(${name} PUBLIC ${includes})
  target_link_libraries(${name} PUBLIC ${L_LIBS})
  if(L_PRIVATE_LIBS)
    target_link_libraries(${name} PRIVATE ${L_PRIVATE_LIBS})
  endif()
  target_compile_options(${name} PRIVATE ${L_OPTIONS})
  target_compile_definitions(${name} PRIVATE ${L_DEFINITIONS})
  if(cuda)
    # Its C++ files may include the CUDA runtime's headers too.
    target_include_directories(${name} SYSTEM PUBLIC ${CMAKE_CUDA_TOOLKIT_INCLUDE_DIRECTORIES})
    target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:${BOOK_CUDA_FLAGS}>)
  endif()
  set_property(GLOBAL PROPERTY "BOOK_L_${name}_TARGET" "${name}")
  _book_note_settings("BOOK_L_${name}" ${name})
endfunction()

# What the input hash saw of target `tgt` and its folder, under <prefix>_SEEN_*:
# checked again once every folder is read (book_finish).
function(_book_note_settings prefix tgt)
  foreach(p IN LISTS _BOOK_WATCHED_TARGET_PROPERTIES)
    get_target_property(v ${tgt} ${p})
    if(NOT v)
      set(v "")
    endif()
    set_property(GLOBAL PROPERTY "${prefix}_SEEN_${p}" "${v}")
  endforeach()
  foreach(p IN LISTS _BOOK_WATCHED_DIRECTORY_PROPERTIES)
    get_directory_property(v ${p})
    set_property(GLOBAL PROPERTY "${prefix}_SEEN_DIR_${p}" "${v}")
  endforeach()
endfunction()

# A program's or library's own flags identity (empty when it has none): the
# compile options and definitions its folder and its call add.
function(_book_own_flags out vars_out options definitions)
  get_directory_property(dir_options COMPILE_OPTIONS)
  get_directory_property(dir_definitions COMPILE_DEFINITIONS)
  set(flags "")
  if(dir_options OR options)
    _book_portable(o ${dir_options} ${options})
    string(APPEND flags " options=[${o}]")
  endif()
  if(dir_definitions OR definitions)
    _book_portable(d ${dir_definitions} ${definitions})
    string(APPEND flags " definitions=[${d}]")
  endif()
  # The folder's link options, and its variables that differ from the
  # project's (a set() of CMAKE_CXX_FLAGS, CMAKE_CXX_STANDARD, ... in this folder
  # or a parent, _book_folder_settings): CMake gives the compiler and the linker
  # what they say, so the identity holds them.
  get_directory_property(dir_link LINK_OPTIONS)
  if(dir_link)
    _book_portable(l ${dir_link})
    string(APPEND flags " link=[${l}]")
  endif()
  _book_folder_settings(vars)
  string(APPEND flags "${vars}")
  string(STRIP "${flags}" flags)
  set(${out} "${flags}" PARENT_SCOPE)
  set(${vars_out} "${vars}" PARENT_SCOPE)
endfunction()

# A program's compile settings as text without machine paths.
function(_book_portable out)
  set(text "${ARGN}")
  string(REPLACE "${CMAKE_SOURCE_DIR}" "<source>" text "${text}")
  string(REPLACE "${CMAKE_BINARY_DIR}" "<build>" text "${text}")
  string(REPLACE ";" " " text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

function(book_program name)
  _book_parse(P "book_program(${name})" "${BOOK_PROGRAM_ONE}" "${BOOK_PROGRAM_MULTI}" SOURCES ${ARGN})
  _book_chapter(key "${P_CHAPTER}" "book_program(${name})")
  _book_absolute(sources ${P_SOURCES})
  set(id "${key}/${name}")
  get_property(again GLOBAL PROPERTY "BOOK_P_${id}_DEFINED")
  if(again)
    message(FATAL_ERROR "book_program(${name}): chapter ${key} already has a program ${name}")
  endif()
  # The libraries every program links: the shared library (its CUDA part too
  # for a CUDA program: one with a .cu source, or that links a book library with
  # one), then its own.
  set(libs book_common ${P_LIBS})
  _book_link_walk(walk "book_program(${id})" ${libs})
  _book_has_cuda(cuda ${sources})
  if(cuda OR walk_CUDA)
    set(cuda ON)
    set(libs book_cuda ${libs})
    _book_link_walk(walk "book_program(${id})" ${libs})
  endif()
  # Its flags identity: the project's, what this folder and the call add, and
  # the own flags of the book libraries it links.
  set(archs "")
  if(cuda)
    _book_program_archs(archs "${P_NEEDS_CC}")  # (cmake/BookCalls.cmake)
    _book_cuda_flags_id(flags "${archs}")
  else()
    set(flags "${BOOK_CXX_FLAGS_ID}")
  endif()
  _book_own_flags(own vars "${P_OPTIONS}" "${P_DEFINITIONS}")
  if(own)
    string(APPEND flags " ${own}")
  endif()
  # ... and what the project's other library targets it links add to its compile.
  string(APPEND flags "${walk_OWN}${walk_USAGE}")
  set_property(GLOBAL PROPERTY "BOOK_P_${id}_DEFINED" ON)
  set_property(GLOBAL PROPERTY "BOOK_P_${id}_SOURCES" "${sources}")
  set_property(GLOBAL PROPERTY "BOOK_P_${id}_LIBS" "${libs}")
  set_property(GLOBAL PROPERTY "BOOK_P_${id}_CUDA" "${cuda}")
  set_property(GLOBAL PROPERTY "BOOK_P_${id}_ARCHS" "${archs}")
  _book_program_needs_cc("${name}" "${id}" "${cuda}" "${P_NEEDS_CC}")
  set_property(GLOBAL PROPERTY "BOOK_P_${id}_FLAGS" "${flags}")
  set_property(GLOBAL PROPERTY "BOOK_P_${id}_SEEN_VARS" "${vars}")
  set_property(GLOBAL PROPERTY "BOOK_P_${id}_DIR" "${CMAKE_CURRENT_SOURCE_DIR}")
  # The folder's include_directories() (its compile searches them first).
  get_directory_property(dir_includes INCLUDE_DIRECTORIES)
  set_property(GLOBAL PROPERTY "BOOK_P_${id}_DIR_INCLUDES" "${dir_includes}")
  set_property(GLOBAL APPEND PROPERTY BOOK_PROGRAMS "${id}")
  set_property(GLOBAL APPEND PROPERTY BOOK_COMPILED_SOURCES ${sources})
  if(cuda AND NOT BOOK_HAVE_CUDA)
    set_property(GLOBAL APPEND PROPERTY BOOK_LEFT_OUT "${id}")
    return()
  endif()
  if(cuda AND NOT archs)
    set_property(GLOBAL APPEND PROPERTY BOOK_LEFT_OUT_CC "${id}=${P_NEEDS_CC}")
    return()
  endif()
  set(tgt "${key}.${name}")
  add_executable(${tgt} ${sources})
  set_target_properties(${tgt} PROPERTIES
    OUTPUT_NAME "${name}"
    RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/bin/${key}")
  target_link_libraries(${tgt} PRIVATE ${libs})
  target_compile_options(${tgt} PRIVATE ${P_OPTIONS})
  target_compile_definitions(${tgt} PRIVATE ${P_DEFINITIONS})
  if(cuda)
    _book_program_cuda_target(${tgt} "${archs}")
  endif()
  set_property(GLOBAL PROPERTY "BOOK_P_${id}_TARGET" "${tgt}")
  _book_note_settings("BOOK_P_${id}" ${tgt})
  _book_note_compile_inputs("${id}" ${tgt} "${walk_TARGETS}" "${walk_SYSTEM}")
endfunction()

# NEEDS_CC <needs> of program <id>: a compute capability without the dot, and
# only for a CUDA program (<cuda>); noted for its runs (cmake/BookRuns.cmake).
function(_book_program_needs_cc name id cuda needs)
  if(NOT "${needs}" STREQUAL "" AND NOT needs MATCHES "^[0-9][0-9][0-9]?$")
    message(FATAL_ERROR "book_program(${name}): NEEDS_CC is a compute capability without the "
                        "dot (90 for 9.0), not '${needs}'")
  endif()
  if(cuda)
    set_property(GLOBAL PROPERTY "BOOK_P_${id}_NEEDS_CC" "${needs}")
  elseif(needs)
    message(FATAL_ERROR "book_program(${name}): NEEDS_CC is for CUDA programs; ${id} has no .cu "
                        "source and links no book library with one")
  endif()
endfunction()

# A CUDA program's target: the book's CUDA flags, the CUDA runtime's headers for
# its C++ files too, and the architectures <archs> where they are not all of
# BOOK_CUDA_ARCHITECTURES (a NEEDS_CC the others do not reach).
function(_book_program_cuda_target tgt archs)
  target_compile_options(${tgt} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:${BOOK_CUDA_FLAGS}>)
  target_include_directories(${tgt} SYSTEM PRIVATE ${CMAKE_CUDA_TOOLKIT_INCLUDE_DIRECTORIES})
  if(NOT archs STREQUAL BOOK_CUDA_ARCHITECTURES)
    _book_cuda_architectures(a "${archs}")
    set_target_properties(${tgt} PROPERTIES CUDA_ARCHITECTURES "${a}")
  endif()
endfunction()
