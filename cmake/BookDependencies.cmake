# SPDX-License-Identifier: MIT
# What the build runs and includes besides the compilers: Python, and the
# header libraries of the book's C++: nlohmann-json, CLI11, fmt (header-only
# mode where its compiled library is absent) and Catch2 v2.
#
# Each library comes from exactly one folder, for every target:
#   1. the system's copy, where a folder the compilers search anyway holds one
#      (BOOK_SYSTEM_INCLUDE_DIRS: the C++ compiler's implicit include folders,
#      /usr/include among them). It must win: every target sees it.
#   2. else a carried copy (a machine without Debian's packages: the GPU
#      machine). BOOK_HOST_INCLUDE lists folders; each library is looked for in
#      <folder>/<library>/ (`tools/book carry` puts each library in a folder of
#      its own: nlohmann-json/, cli11/, fmt/, catch2/) and then in <folder>/.
# Configure fails, naming both files and versions, where two versions of one
# library could mix: where the folder a library is taken from also holds
# another library's headers in another version than the one that library is
# taken from (a target using the first would compile against the wrong one).
#
# In script mode (cmake -P, the tests of this logic) only the functions are defined.

set(BOOK_HOST_INCLUDE "" CACHE STRING
    "Folders holding carried copies of the header libraries (<folder>/<library>/ or <folder>/) where the Debian packages are absent")

# name;header;Debian package;carried folder name;file with the version;how to read it
set(_book_libs json cli11 fmt catch2)
set(_book_lib_json    "nlohmann-json" "nlohmann/json.hpp" "nlohmann-json3-dev" "nlohmann-json")
set(_book_lib_cli11   "CLI11"         "CLI/CLI.hpp"       "libcli11-dev"       "cli11")
set(_book_lib_fmt     "fmt"           "fmt/format.h"      "libfmt-dev"         "fmt")
set(_book_lib_catch2  "Catch2"        "catch2/catch.hpp"  "catch2"             "catch2")

# "<major>.<minor>.<patch>" from the first of `files` that defines
# <prefix>MAJOR, <prefix>MINOR and <prefix>PATCH ("" if none does).
function(_book_version_triplet out prefix)
  set(${out} "" PARENT_SCOPE)
  foreach(f IN LISTS ARGN)
    if(EXISTS "${f}")
      file(STRINGS "${f}" lines REGEX "^#define ${prefix}(MAJOR|MINOR|PATCH) ")
      if(lines)
        set(parts "")
        foreach(x MAJOR MINOR PATCH)
          string(REGEX MATCH "${prefix}${x} ([0-9]+)" m "${lines}")
          list(APPEND parts "${CMAKE_MATCH_1}")
        endforeach()
        string(JOIN "." v ${parts})
        set(${out} "${v}" PARENT_SCOPE)
        return()
      endif()
    endif()
  endforeach()
endfunction()

# The version of library `lib` whose headers lie under folder `dir` ("?" if unread).
function(book_header_lib_version out lib dir)
  set(v "")
  if(lib STREQUAL "json")
    _book_version_triplet(v NLOHMANN_JSON_VERSION_
                          "${dir}/nlohmann/detail/abi_macros.hpp" "${dir}/nlohmann/json.hpp")
  elseif(lib STREQUAL "catch2")
    _book_version_triplet(v CATCH_VERSION_ "${dir}/catch2/catch.hpp")
  elseif(lib STREQUAL "cli11")
    foreach(f "${dir}/CLI/Version.hpp" "${dir}/CLI/CLI.hpp")
      if(EXISTS "${f}")
        file(STRINGS "${f}" lines REGEX "^#define CLI11_VERSION \"")
        if(lines MATCHES "\"([^\"]+)\"")
          set(v "${CMAKE_MATCH_1}")
          break()
        endif()
      endif()
    endforeach()
  elseif(lib STREQUAL "fmt")
    foreach(f "${dir}/fmt/core.h" "${dir}/fmt/base.h" "${dir}/fmt/format.h")
      if(EXISTS "${f}")
        file(STRINGS "${f}" lines REGEX "^#define FMT_VERSION [0-9]+")
        if(lines MATCHES "FMT_VERSION ([0-9]+)")
          math(EXPR major "${CMAKE_MATCH_1} / 10000")
          math(EXPR minor "(${CMAKE_MATCH_1} / 100) % 100")
          math(EXPR patch "${CMAKE_MATCH_1} % 100")
          set(v "${major}.${minor}.${patch}")
          break()
        endif()
      endif()
    endforeach()
  endif()
  if(NOT v)
    set(v "?")
  endif()
  set(${out} "${v}" PARENT_SCOPE)
endfunction()

# Decide where each library in `libs` comes from. Sets, in the caller's scope,
# BOOK_<LIB>_INCLUDE (the folder), BOOK_<LIB>_VERSION and BOOK_<LIB>_FROM
# (system or carried) for each, and fails (FATAL_ERROR) on a missing library
# or on two versions that could mix. `system_dirs` are the C++ compiler's own
# include folders, `carried` the folders of BOOK_HOST_INCLUDE, and the optional
# `also_searched` folders that some compiler searches besides (nvcc's own).
function(book_resolve_header_libs libs system_dirs carried)
  set(also_searched "${ARGV3}")
  foreach(lib IN LISTS libs)
    _book_header_lib_folder(dir from version ${lib} "${system_dirs}" "${carried}")
    string(TOUPPER "${lib}" LIB)
    set(BOOK_${LIB}_INCLUDE "${dir}" PARENT_SCOPE)
    set(BOOK_${LIB}_VERSION "${version}" PARENT_SCOPE)
    set(BOOK_${LIB}_FROM "${from}" PARENT_SCOPE)
    set(_dir_${lib} "${dir}")
    set(_ver_${lib} "${version}")
    set(_from_${lib} "${from}")
  endforeach()
  _book_header_libs_unmixed("${libs}")
  _book_header_libs_unmixed_with("${libs}" "${also_searched}")
endfunction()

# The folder library `lib` comes from (<dir>), system or carried (<from>), and
# its version there; a library found nowhere is an error naming its package.
function(_book_header_lib_folder dir_out from_out version_out lib system_dirs carried)
  list(GET _book_lib_${lib} 0 title)
  list(GET _book_lib_${lib} 1 header)
  list(GET _book_lib_${lib} 2 package)
  list(GET _book_lib_${lib} 3 folder)
  set(dir "")
  set(from "")
  foreach(d IN LISTS system_dirs)
    if(EXISTS "${d}/${header}")
      set(dir "${d}")
      set(from system)
      break()
    endif()
  endforeach()
  set(carried_dir "")
  foreach(d IN LISTS carried)
    foreach(c "${d}/${folder}" "${d}")
      if(EXISTS "${c}/${header}")
        set(carried_dir "${c}")
        break()
      endif()
    endforeach()
    if(carried_dir)
      break()
    endif()
  endforeach()
  if(NOT dir AND carried_dir)
    set(dir "${carried_dir}")
    set(from carried)
  endif()
  if(NOT dir)
    message(FATAL_ERROR
      "Missing ${header} (${title}, Debian package ${package}). Install it with\n"
      "  apt-get install ${package}\n"
      "or, on a machine without Debian's packages, carry a copy: `tools/book carry` on a "
      "machine that has them writes .carry/${folder}/, and BOOK_HOST_INCLUDE names .carry.")
  endif()
  book_header_lib_version(version ${lib} "${dir}")
  if(carried_dir AND NOT carried_dir STREQUAL dir)
    book_header_lib_version(cv ${lib} "${carried_dir}")
    if(NOT cv STREQUAL version)
      message(STATUS "Book: ${title} ${version} from ${dir} (the system's); the carried copy "
                     "${carried_dir} (${cv}) is not used")
    endif()
  endif()
  set(${dir_out} "${dir}" PARENT_SCOPE)
  set(${from_out} "${from}" PARENT_SCOPE)
  set(${version_out} "${version}" PARENT_SCOPE)
endfunction()

# A folder added for one library (-isystem) must not show a target another
# version of another library than the one that library comes from. Reads
# book_resolve_header_libs' _dir_<lib>, _ver_<lib> and _from_<lib>.
function(_book_header_libs_unmixed libs)
  foreach(lib IN LISTS libs)
    if(_from_${lib} STREQUAL "system")
      continue()  # searched by every target anyway, and preferred for every library
    endif()
    list(GET _book_lib_${lib} 0 title)
    foreach(other IN LISTS libs)
      if(other STREQUAL lib)
        continue()
      endif()
      list(GET _book_lib_${other} 0 other_title)
      list(GET _book_lib_${other} 1 other_header)
      if(EXISTS "${_dir_${lib}}/${other_header}" AND NOT _dir_${lib} STREQUAL _dir_${other})
        book_header_lib_version(stray ${other} "${_dir_${lib}}")
        if(NOT stray STREQUAL _ver_${other})
          message(FATAL_ERROR
            "Two versions of ${other_title} could mix: ${_dir_${other}}/${other_header} "
            "(${other_title} ${_ver_${other}}) is the one the book uses, but "
            "${_dir_${lib}}/${other_header} (${other_title} ${stray}) lies in "
            "${_dir_${lib}}, the folder ${title} is taken from, so every target using "
            "${title} would compile against ${other_title} ${stray} and the rest against "
            "${_ver_${other}} (their objects do not link together). Give each carried library a "
            "folder of its own (`tools/book carry` writes .carry/<library>/), or remove one copy.")
        endif()
      endif()
    endforeach()
  endforeach()
endfunction()

# A folder some compiler searches besides (`also_searched`: nvcc's own) must not
# hold another version of a library than the one the book uses. Reads
# book_resolve_header_libs' _dir_<lib> and _ver_<lib>.
function(_book_header_libs_unmixed_with libs also_searched)
  foreach(d IN LISTS also_searched)
    foreach(lib IN LISTS libs)
      list(GET _book_lib_${lib} 0 title)
      list(GET _book_lib_${lib} 1 header)
      if(EXISTS "${d}/${header}" AND NOT d STREQUAL _dir_${lib})
        book_header_lib_version(stray ${lib} "${d}")
        if(NOT stray STREQUAL _ver_${lib})
          message(FATAL_ERROR
            "Two versions of ${title} could mix: ${_dir_${lib}}/${header} (${title} "
            "${_ver_${lib}}) is the one the book uses, but the CUDA compiler also searches "
            "${d}, which holds ${d}/${header} (${title} ${stray}). Remove one copy.")
        endif()
      endif()
    endforeach()
  endforeach()
endfunction()

if(CMAKE_SCRIPT_MODE_FILE)
  return()
endif()

# A tool a test needs is missing: where tools/book set this machine up
# (BOOK_REQUIRE_TOOLS, which `tools/book build`, `test`, `pdf` and `bench` pass)
# that is an error naming the Debian package that provides it, for every test
# must run on a machine the README's commands set up; elsewhere (a GPU machine
# without Debian's packages) the test is left out, and configure says so.
#   book_tool_missing(<what is missing> <Debian package> <what is left out>)
option(BOOK_REQUIRE_TOOLS "Fail to configure when a tool a test needs is missing" OFF)
function(book_tool_missing what package consequence)
  if(BOOK_REQUIRE_TOOLS)
    message(FATAL_ERROR "${what} is missing, so ${consequence} cannot run. The Debian package ${package} "
                        "provides it: `tools/book deps` installs it (it is in tools/book's "
                        "package list); configured without BOOK_REQUIRE_TOOLS, the test is left "
                        "out instead.")
  endif()
  message(STATUS "Book: ${what} is missing (${package}): ${consequence} is left out")
endfunction()

# Python (Debian's, with Sphinx): for the build's scripts.
find_program(BOOK_PYTHON python3 PATHS /usr/bin NO_DEFAULT_PATH)
if(NOT BOOK_PYTHON)
  find_program(BOOK_PYTHON python3)
endif()
# That Python with the book's package (tools/bookpy) importable: every Python
# step and test runs as ${BOOK_PY} -m bookpy.<sub-package>.<module> (or a test
# file that imports bookpy), never by a script's path.
get_filename_component(BOOK_PY_PATH "${CMAKE_CURRENT_LIST_DIR}/../tools" ABSOLUTE)
set(BOOK_PY "${CMAKE_COMMAND}" -E env "PYTHONPATH=${BOOK_PY_PATH}" "${BOOK_PYTHON}")

set(BOOK_SYSTEM_INCLUDE_DIRS "" CACHE STRING
    "The folders the C++ compiler searches by itself (default: its implicit include folders)")
set(_system_dirs ${BOOK_SYSTEM_INCLUDE_DIRS})
if(NOT _system_dirs)
  set(_system_dirs ${CMAKE_CXX_IMPLICIT_INCLUDE_DIRECTORIES})
endif()
set(_cuda_dirs "")
foreach(_d IN LISTS CMAKE_CUDA_IMPLICIT_INCLUDE_DIRECTORIES)
  if(NOT _d IN_LIST _system_dirs)
    list(APPEND _cuda_dirs "${_d}")
  endif()
endforeach()
set(_wanted json cli11 fmt)
if(BOOK_TESTS)
  list(APPEND _wanted catch2)
endif()
book_resolve_header_libs("${_wanted}" "${_system_dirs}" "${BOOK_HOST_INCLUDE}" "${_cuda_dirs}")

add_library(book_json INTERFACE)
add_library(book_cli11 INTERFACE)
add_library(book_fmt INTERFACE)
foreach(_lib json cli11 fmt)
  string(TOUPPER "${_lib}" _LIB)
  if(BOOK_${_LIB}_FROM STREQUAL "carried")
    target_include_directories(book_${_lib} SYSTEM INTERFACE "${BOOK_${_LIB}_INCLUDE}")
  endif()
endforeach()
# fmt's compiled library where the headers found are those of the installed
# package (Debian's libfmt-dev): every file that includes fmt then skips compiling
# fmt's implementation. Where only copies of the headers exist, fmt is header-only.
find_package(fmt CONFIG QUIET)
set(_fmt_inc "")
if(TARGET fmt::fmt)
  get_target_property(_fmt_inc fmt::fmt INTERFACE_INCLUDE_DIRECTORIES)
endif()
if(_fmt_inc AND _fmt_inc STREQUAL BOOK_FMT_INCLUDE)
  target_link_libraries(book_fmt INTERFACE fmt::fmt)
else()
  target_compile_definitions(book_fmt INTERFACE FMT_HEADER_ONLY=1)
endif()

# They stand for the machine's libraries: the flags they give a compile (a carried
# folder, FMT_HEADER_ONLY) are the machine's, as an imported library's are, and no
# run hashes them (tools/bookpy/inputs/compile_check.py reads this property).
set_target_properties(book_json book_cli11 book_fmt PROPERTIES BOOK_SYSTEM_LIBRARY ON)
if(BOOK_TESTS)
  add_library(book_catch2 INTERFACE)
  if(BOOK_CATCH2_FROM STREQUAL "carried")
    target_include_directories(book_catch2 SYSTEM INTERFACE "${BOOK_CATCH2_INCLUDE}")
  endif()
  # Test code (Catch2's runners and the tests) is compiled for a quick build,
  # not for speed: -O0 after the build type's -O3. The tests check answers and
  # models on small inputs; the code they test is compiled in the chapters'
  # libraries with the book's flags, and the check-yourself programs are part of
  # the book's build, whose time they add to. The
  # exercises' code is compiled the same way (BOOK_EXERCISE_CXX_OPTIONS, which the
  # grader's kit uses too), so that it can share the tests' precompiled header.
  # The programs the book measures never link Catch2 and keep their flags.
  target_compile_options(book_catch2 INTERFACE "$<$<COMPILE_LANGUAGE:CXX>:-O0>")
endif()
