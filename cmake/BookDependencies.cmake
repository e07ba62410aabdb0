# Header libraries the book's C++ uses: nlohmann-json, CLI11, fmt (header-only
# mode) and Catch2 v2. They come from Debian's packages; on a machine without
# them (the GPU machine) BOOK_HOST_INCLUDE names a folder that holds copies.
function(_book_header_dep var header package)
  find_path(${var} ${header} HINTS ${BOOK_HOST_INCLUDE} PATHS /usr/include)
  if(NOT ${var})
    message(FATAL_ERROR
      "Missing ${header} (Debian package ${package}). Install it with\n"
      "  apt-get install ${package}\n"
      "or set BOOK_HOST_INCLUDE to a folder that holds ${header}.")
  endif()
endfunction()

_book_header_dep(BOOK_JSON_INCLUDE nlohmann/json.hpp nlohmann-json3-dev)
_book_header_dep(BOOK_CLI11_INCLUDE CLI/CLI.hpp libcli11-dev)
_book_header_dep(BOOK_FMT_INCLUDE fmt/format.h libfmt-dev)

add_library(book_json INTERFACE)
target_include_directories(book_json SYSTEM INTERFACE ${BOOK_JSON_INCLUDE})
add_library(book_cli11 INTERFACE)
target_include_directories(book_cli11 SYSTEM INTERFACE ${BOOK_CLI11_INCLUDE})
add_library(book_fmt INTERFACE)
target_include_directories(book_fmt SYSTEM INTERFACE ${BOOK_FMT_INCLUDE})
# fmt's compiled library where the headers found are those of the installed
# package (Debian's libfmt-dev): every file that includes fmt then skips compiling
# fmt's implementation. Where only copies of the headers exist (BOOK_HOST_INCLUDE),
# fmt is header-only.
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

if(BOOK_TESTS)
  _book_header_dep(BOOK_CATCH2_INCLUDE catch2/catch.hpp catch2)
  add_library(book_catch2 INTERFACE)
  target_include_directories(book_catch2 SYSTEM INTERFACE ${BOOK_CATCH2_INCLUDE})
  # Test code (Catch2's runners, the tests, the exercises they build) is compiled
  # for a quick build, not for speed: -O1 after the build type's -O3, and -O0 for
  # the static libraries that hold Catch2's runner (the heaviest files of the
  # build, with no test logic in them). The programs the book measures never
  # link Catch2 and keep their flags.
  target_compile_options(book_catch2 INTERFACE
    "$<$<COMPILE_LANGUAGE:CXX>:$<IF:$<STREQUAL:$<TARGET_PROPERTY:TYPE>,STATIC_LIBRARY>,-O0,-O1>>")
endif()
