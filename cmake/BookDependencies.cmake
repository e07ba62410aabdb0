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
target_compile_definitions(book_fmt INTERFACE FMT_HEADER_ONLY=1)

if(BOOK_TESTS)
  _book_header_dep(BOOK_CATCH2_INCLUDE catch2/catch.hpp catch2)
  add_library(book_catch2 INTERFACE)
  target_include_directories(book_catch2 SYSTEM INTERFACE ${BOOK_CATCH2_INCLUDE})
endif()
