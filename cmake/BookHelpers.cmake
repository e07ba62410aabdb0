# SPDX-License-Identifier: MIT
# The small helpers every cmake/Book*.cmake file uses: argument parsing that
# names the call (_book_parse), the line of a match in a file's text
# (_book_line_of, for errors that name file:line), absolute paths and "has a .cu
# source" (_book_absolute, _book_has_cuda), and JSON strings and string arrays
# (_book_json_string, _book_json_string_array).
# Tests: every book.bad.cmake-* case (fixtures/cmake) goes through _book_parse
# and _book_line_of; the manifest's JSON is read by book.sphinx.pytest and
# book.whole-book.

# Parses a function's arguments (cmake_parse_arguments into <prefix>_*) and
# fails, naming the call, on an argument it does not know or a missing one of
# `required`.
macro(_book_parse prefix caller one multi required)
  cmake_parse_arguments(${prefix} "" "${one}" "${multi}" ${ARGN})
  if(${prefix}_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "${caller}: unknown arguments: ${${prefix}_UNPARSED_ARGUMENTS}")
  endif()
  foreach(_book_required IN ITEMS ${required})
    if(NOT ${prefix}_${_book_required})
      message(FATAL_ERROR "${caller}: ${_book_required} is required")
    endif()
  endforeach()
endmacro()

# The line of the first match of `regex` in `text`, in <out> (0: none).
function(_book_line_of out text regex)
  set(line 0)
  string(REGEX MATCH "${regex}" hit "${text}")
  if(hit)
    string(FIND "${text}" "${hit}" at)
    string(SUBSTRING "${text}" 0 ${at} before)
    string(REGEX MATCHALL "\n" nl "${before}")
    list(LENGTH nl n)
    math(EXPR line "${n} + 1")
    # The match may begin with the newline before the line it is about.
    if(hit MATCHES "^\n")
      math(EXPR line "${line} + 1")
    endif()
  endif()
  set(${out} ${line} PARENT_SCOPE)
endfunction()

function(_book_absolute out)
  set(abs "")
  foreach(s IN LISTS ARGN)
    get_filename_component(a "${s}" ABSOLUTE)
    list(APPEND abs "${a}")
  endforeach()
  set(${out} "${abs}" PARENT_SCOPE)
endfunction()

function(_book_has_cuda out)
  set(cuda OFF)
  foreach(s IN LISTS ARGN)
    if(s MATCHES "\\.cu$")
      set(cuda ON)
    endif()
  endforeach()
  set(${out} ${cuda} PARENT_SCOPE)
endfunction()

function(_book_json_string out value)
  string(REPLACE "\\" "\\\\" value "${value}")
  string(REPLACE "\"" "\\\"" value "${value}")
  string(REPLACE "\n" "\\n" value "${value}")
  string(REPLACE "\t" "\\t" value "${value}")
  set(${out} "\"${value}\"" PARENT_SCOPE)
endfunction()

# JSON true or false: whether <value> is true as if() takes it.
function(_book_json_bool out value)
  if(value)
    set(${out} true PARENT_SCOPE)
  else()
    set(${out} false PARENT_SCOPE)
  endif()
endfunction()

# <value> as a JSON string, or null where it is false as if() takes it (empty).
function(_book_json_string_or_null out value)
  set(v null)
  if(value)
    _book_json_string(v "${value}")
  endif()
  set(${out} "${v}" PARENT_SCOPE)
endfunction()

# A JSON array of the given strings.
function(_book_json_string_array out)
  set(list "[]")
  set(i 0)
  foreach(item IN LISTS ARGN)
    _book_json_string(v "${item}")
    string(JSON list SET "${list}" ${i} "${v}")
    math(EXPR i "${i} + 1")
  endforeach()
  set(${out} "${list}" PARENT_SCOPE)
endfunction()
