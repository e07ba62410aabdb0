# The book's programs and libraries: book_library and book_program (what they
# build, and what they note for their runs' input hash: cmake/BookInputs.cmake).
# Tests: book.cmake-good, book.bad.cmake-ch92-unknown-lib,
# book.bad.cmake-not-a-chapter (tests/book/fixtures/cmake); every chapter's
# build.
#
#   book_library(<name> SOURCES <files>... [LIBS <targets>...] [INCLUDE_DIRS <dirs>...])
#       A library of a chapter (or of the shared code): a static library whose
#       headers are found in INCLUDE_DIRS (default: its folder). A program that
#       links it counts its sources, and those of the book libraries it links,
#       as the inputs of its runs, so they are compiled once, here. A library
#       with a .cu source is built only where nvcc is, and still counted.
#
#   book_program(<name> SOURCES <files>... [LIBS <targets>...] [OPTIONS <flags>...]
#                [DEFINITIONS <defs>...] [CHAPTER <key>])
#       One program of a chapter. A program with a .cu source, or one that links
#       a book library with one (its kernels in the library, its main in C++),
#       is a CUDA program: compiled only where nvcc exists, run live only where
#       a GPU exists.
#       OPTIONS and DEFINITIONS are its own compile options and definitions:
#       give them here (not with target_compile_options) so that they count
#       as its runs' inputs.
#
# A CUDA program or library is left out where nvcc is not (BOOK_LEFT_OUT,
# which book_summary reports); its sources still count.
set_property(GLOBAL PROPERTY BOOK_LEFT_OUT "")
set_property(GLOBAL PROPERTY BOOK_PROGRAMS "")

function(book_library name)
  _book_parse(L "book_library(${name})" "" "SOURCES;LIBS;INCLUDE_DIRS" SOURCES ${ARGN})
  if(NOT L_INCLUDE_DIRS)
    set(L_INCLUDE_DIRS "${CMAKE_CURRENT_SOURCE_DIR}")
  endif()
  _book_absolute(sources ${L_SOURCES})
  _book_absolute(includes ${L_INCLUDE_DIRS})
  _book_has_cuda(cuda ${sources})
  set_property(GLOBAL PROPERTY "BOOK_L_${name}_DEFINED" ON)
  set_property(GLOBAL PROPERTY "BOOK_L_${name}_SOURCES" "${sources}")
  set_property(GLOBAL PROPERTY "BOOK_L_${name}_LIBS" "${L_LIBS}")
  set_property(GLOBAL PROPERTY "BOOK_L_${name}_INCLUDE_DIRS" "${includes}")
  set_property(GLOBAL PROPERTY "BOOK_L_${name}_CUDA" ${cuda})
  set_property(GLOBAL APPEND PROPERTY BOOK_COMPILED_SOURCES ${sources})
  if(cuda AND NOT BOOK_HAVE_CUDA)
    return()  # not built, still counted by the programs that link it
  endif()
  add_library(${name} STATIC ${sources})
  target_include_directories(${name} PUBLIC ${includes})
  target_link_libraries(${name} PUBLIC ${L_LIBS})
  if(cuda)
    # Its C++ files may include the CUDA runtime's headers too.
    target_include_directories(${name} SYSTEM PUBLIC ${CMAKE_CUDA_TOOLKIT_INCLUDE_DIRECTORIES})
    target_compile_options(${name} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:${BOOK_CUDA_FLAGS}>)
  endif()
endfunction()

# ON in `out` if one of the book libraries `libs` reach (through the book
# libraries they link) has a .cu source.
function(_book_links_cuda out)
  set(queue ${ARGN})
  set(seen "")
  set(cuda OFF)
  while(queue)
    list(POP_FRONT queue lib)
    if(lib IN_LIST seen)
      continue()
    endif()
    list(APPEND seen "${lib}")
    get_property(defined GLOBAL PROPERTY "BOOK_L_${lib}_DEFINED")
    if(defined)
      get_property(c GLOBAL PROPERTY "BOOK_L_${lib}_CUDA")
      get_property(l GLOBAL PROPERTY "BOOK_L_${lib}_LIBS")
      if(c)
        set(cuda ON)
      endif()
      list(APPEND queue ${l})
    endif()
  endwhile()
  set(${out} ${cuda} PARENT_SCOPE)
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
  _book_parse(P "book_program(${name})" CHAPTER "SOURCES;LIBS;OPTIONS;DEFINITIONS" SOURCES ${ARGN})
  _book_chapter(key "${P_CHAPTER}" "book_program(${name})")
  _book_absolute(sources ${P_SOURCES})
  _book_has_cuda(cuda ${sources})
  if(NOT cuda)
    _book_links_cuda(cuda ${P_LIBS})
  endif()
  set(id "${key}/${name}")
  get_property(again GLOBAL PROPERTY "BOOK_P_${id}_DEFINED")
  if(again)
    message(FATAL_ERROR "book_program(${name}): chapter ${key} already has a program ${name}")
  endif()
  # The libraries every program links: the shared library (its CUDA part too
  # for a CUDA program), then its own.
  set(libs book_common ${P_LIBS})
  if(cuda)
    set(libs book_cuda ${libs})
  endif()
  # Its flags identity: the project's, and what this folder and the call add.
  get_directory_property(dir_options COMPILE_OPTIONS)
  get_directory_property(dir_definitions COMPILE_DEFINITIONS)
  if(cuda)
    set(flags "${BOOK_CUDA_FLAGS_ID}")
  else()
    set(flags "${BOOK_CXX_FLAGS_ID}")
  endif()
  if(dir_options OR P_OPTIONS)
    _book_portable(o ${dir_options} ${P_OPTIONS})
    string(APPEND flags " options=[${o}]")
  endif()
  if(dir_definitions OR P_DEFINITIONS)
    _book_portable(d ${dir_definitions} ${P_DEFINITIONS})
    string(APPEND flags " definitions=[${d}]")
  endif()
  set_property(GLOBAL PROPERTY "BOOK_P_${id}_DEFINED" ON)
  set_property(GLOBAL PROPERTY "BOOK_P_${id}_SOURCES" "${sources}")
  set_property(GLOBAL PROPERTY "BOOK_P_${id}_LIBS" "${libs}")
  set_property(GLOBAL PROPERTY "BOOK_P_${id}_CUDA" "${cuda}")
  set_property(GLOBAL PROPERTY "BOOK_P_${id}_FLAGS" "${flags}")
  set_property(GLOBAL PROPERTY "BOOK_P_${id}_DIR" "${CMAKE_CURRENT_SOURCE_DIR}")
  set_property(GLOBAL APPEND PROPERTY BOOK_PROGRAMS "${id}")
  set_property(GLOBAL APPEND PROPERTY BOOK_COMPILED_SOURCES ${sources})
  if(cuda AND NOT BOOK_HAVE_CUDA)
    set_property(GLOBAL APPEND PROPERTY BOOK_LEFT_OUT "${id}")
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
    target_compile_options(${tgt} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:${BOOK_CUDA_FLAGS}>)
    # Its C++ files may include the CUDA runtime's headers too.
    target_include_directories(${tgt} SYSTEM PRIVATE ${CMAKE_CUDA_TOOLKIT_INCLUDE_DIRECTORIES})
  endif()
  set_property(GLOBAL PROPERTY "BOOK_P_${id}_TARGET" "${tgt}")
  # What the hash saw; checked again once every folder is read (book_finish).
  foreach(p IN LISTS _BOOK_WATCHED_TARGET_PROPERTIES)
    get_target_property(v ${tgt} ${p})
    if(NOT v)
      set(v "")
    endif()
    set_property(GLOBAL PROPERTY "BOOK_P_${id}_SEEN_${p}" "${v}")
  endforeach()
  foreach(p IN LISTS _BOOK_WATCHED_DIRECTORY_PROPERTIES)
    get_directory_property(v ${p})
    set_property(GLOBAL PROPERTY "BOOK_P_${id}_SEEN_DIR_${p}" "${v}")
  endforeach()
endfunction()
