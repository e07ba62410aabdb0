# SPDX-License-Identifier: MIT
# The header libraries come from one folder each (cmake/BookDependencies.cmake),
# tested on made-up folders: `cmake -DSCENARIO=<s> -DWORK=<dir> -DSOURCE=<root> -P header_libs.cmake`.
#
#   prepare      only write the folders under WORK: sys/ (plays /usr/include on the
#                GPU machine: nlohmann-json 3.11.3 alone), old-carry/ (all four
#                libraries in one folder, Debian 12's versions: nlohmann-json 3.11.2,
#                one folder for all, which `tools/book carry` must not make), carry/<library>/ (one folder
#                each, the same versions), full-sys/ (all four, 3.11.2),
#                cuda-include/ (an nvcc folder with another fmt)
#   gpu-machine  sys/ + carry/: nlohmann-json from sys/ (3.11.3), the rest carried
#   mixed        sys/ + old-carry/: fails, naming both nlohmann-json files and versions
#   missing      no folder holds CLI11: fails, naming the header and the package
#   cuda-mixed   full-sys/, and nvcc also searches cuda-include/: fails
cmake_minimum_required(VERSION 3.25)
get_filename_component(WORK "${WORK}" ABSOLUTE)
include("${SOURCE}/cmake/BookDependencies.cmake")

function(fake_json dir major minor patch)
  file(WRITE "${dir}/nlohmann/json.hpp" "#include <nlohmann/detail/abi_macros.hpp>\n")
  file(WRITE "${dir}/nlohmann/detail/abi_macros.hpp"
       "#define NLOHMANN_JSON_VERSION_MAJOR ${major}   // NOLINT\n"
       "#define NLOHMANN_JSON_VERSION_MINOR ${minor}   // NOLINT\n"
       "#define NLOHMANN_JSON_VERSION_PATCH ${patch}   // NOLINT\n")
endfunction()
function(fake_cli11 dir)
  file(WRITE "${dir}/CLI/CLI.hpp" "#include \"Version.hpp\"\n")
  file(WRITE "${dir}/CLI/Version.hpp" "#define CLI11_VERSION \"2.1.2\"\n")
endfunction()
function(fake_fmt dir version)
  file(WRITE "${dir}/fmt/format.h" "#include \"core.h\"\n")
  file(WRITE "${dir}/fmt/core.h" "#define FMT_VERSION ${version}\n")
endfunction()
function(fake_catch2 dir)
  file(WRITE "${dir}/catch2/catch.hpp"
       "#define CATCH_VERSION_MAJOR 2\n#define CATCH_VERSION_MINOR 13\n#define CATCH_VERSION_PATCH 10\n")
endfunction()

if(SCENARIO STREQUAL "prepare" OR NOT EXISTS "${WORK}/sys")
  file(REMOVE_RECURSE "${WORK}")
  fake_json("${WORK}/sys" 3 11 3)
  foreach(d old-carry full-sys)
    fake_json("${WORK}/${d}" 3 11 2)
    fake_cli11("${WORK}/${d}")
    fake_fmt("${WORK}/${d}" 90100)
    fake_catch2("${WORK}/${d}")
  endforeach()
  fake_json("${WORK}/carry/nlohmann-json" 3 11 2)
  fake_cli11("${WORK}/carry/cli11")
  fake_fmt("${WORK}/carry/fmt" 90100)
  fake_catch2("${WORK}/carry/catch2")
  fake_fmt("${WORK}/cuda-include" 100201)
  if(SCENARIO STREQUAL "prepare")
    return()
  endif()
endif()

set(libs json cli11 fmt catch2)
if(SCENARIO STREQUAL "gpu-machine")
  book_resolve_header_libs("${libs}" "${WORK}/sys" "${WORK}/carry")
elseif(SCENARIO STREQUAL "mixed")
  book_resolve_header_libs("${libs}" "${WORK}/sys" "${WORK}/old-carry")
elseif(SCENARIO STREQUAL "missing")
  book_resolve_header_libs("${libs}" "${WORK}/sys" "${WORK}/nowhere")
elseif(SCENARIO STREQUAL "cuda-mixed")
  book_resolve_header_libs("${libs}" "${WORK}/full-sys" "" "${WORK}/cuda-include")
else()
  message(FATAL_ERROR "header_libs.cmake: unknown SCENARIO '${SCENARIO}'")
endif()
foreach(lib IN LISTS libs)
  string(TOUPPER "${lib}" LIB)
  file(RELATIVE_PATH rel "${WORK}" "${BOOK_${LIB}_INCLUDE}")
  message("${lib}: ${BOOK_${LIB}_VERSION} from ${BOOK_${LIB}_FROM} ${rel}")
endforeach()
