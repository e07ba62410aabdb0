# SPDX-License-Identifier: MIT
# Chapter discovery: the chapter key (BOOK_CHAPTER_KEY_REGEX), the chapters
# of the source tree (book_chapter_keys), the build of a few chapters only
# (BOOK_CHAPTERS, book_select_chapter_paths), each chapter's code folder read
# (book_add_chapters), and the key of a call (_book_chapter: CHAPTER, or the
# folder's name).
# Tests: book.bad.chapters-unknown, book.bad.chapters-not-a-key,
# book.bad.cmake-not-a-chapter, book.whole-book, book.new-chapter.

set(BOOK_CHAPTER_KEY_REGEX "^ch[0-9][0-9]-[a-z0-9]+(-[a-z0-9]+)*$")

# For an author at work on one chapter: build only the chapters named here
# (BOOK_CHAPTERS=ch04-occupancy, or several separated by commas). Every tree is
# read for those keys alone: their programs, runs, tests, diagrams, plots,
# exercises, downloads and pages; the other chapters' pages are not in this
# build's book (the manifest lists its chapters). Empty: the whole book.
set(BOOK_CHAPTERS "" CACHE STRING
    "Build only these chapters (keys, separated by ',' or ';'); empty: every chapter")
string(REGEX REPLACE "[ \t]*[,;][ \t]*" ";" BOOK_CHAPTERS "${BOOK_CHAPTERS}")
string(STRIP "${BOOK_CHAPTERS}" BOOK_CHAPTERS)
list(REMOVE_ITEM BOOK_CHAPTERS "")

# The chapter keys found in every tree: chapters/<key>.md, and the folders
# code/<key>/, tests/<key>/, diagrams/<key>/, exercises/<key>/, solutions/<key>/;
# with BOOK_CHAPTERS, those it names.
function(book_chapter_keys out)
  _book_found_chapter_keys(keys)
  if(BOOK_CHAPTERS)
    _book_check_chapter_selection("${keys}")
    set(keys ${BOOK_CHAPTERS})
    list(REMOVE_DUPLICATES keys)
    list(SORT keys)
  endif()
  set(${out} "${keys}" PARENT_SCOPE)
endfunction()

# BOOK_CHAPTERS names only chapter keys, of chapters that exist.
function(_book_check_chapter_selection found)
  foreach(key IN LISTS BOOK_CHAPTERS)
    if(NOT key MATCHES "${BOOK_CHAPTER_KEY_REGEX}")
      message(FATAL_ERROR "BOOK_CHAPTERS: '${key}' is not a chapter key (chNN-name, for example "
                          "ch01-execution-model); separate several with commas")
    endif()
    if(NOT key IN_LIST found)
      string(REPLACE ";" ", " known "${found}")
      message(FATAL_ERROR "BOOK_CHAPTERS names ${key}, but no chapters/${key}.md nor a folder "
                          "code/${key}/, tests/${key}/, diagrams/${key}/, exercises/${key}/ or "
                          "solutions/${key}/ exists. The chapters: ${known}")
    endif()
  endforeach()
endfunction()

# Drops from the list variable <var> (paths in the source tree) those that
# belong to a chapter this build leaves out: <tree>/<key>/... or chapters/<key>.md.
# Other paths stay.
function(book_select_chapter_paths var)
  if(NOT BOOK_CHAPTERS)
    return()
  endif()
  set(kept "")
  foreach(p IN LISTS ${var})
    file(RELATIVE_PATH rel "${CMAKE_SOURCE_DIR}" "${p}")
    if(rel MATCHES "^[^/]+/(ch[0-9][0-9]-[a-z0-9-]+)(\\.md)?(/|$)"
       AND NOT CMAKE_MATCH_1 IN_LIST BOOK_CHAPTERS)
      continue()
    endif()
    list(APPEND kept "${p}")
  endforeach()
  set(${var} "${kept}" PARENT_SCOPE)
endfunction()

# Every chapter key of the source tree (BOOK_CHAPTERS aside).
function(_book_found_chapter_keys out)
  file(GLOB found LIST_DIRECTORIES true CONFIGURE_DEPENDS
       "${CMAKE_SOURCE_DIR}/chapters/ch[0-9][0-9]-*.md"
       "${CMAKE_SOURCE_DIR}/code/ch[0-9][0-9]-*"
       "${CMAKE_SOURCE_DIR}/tests/ch[0-9][0-9]-*"
       "${CMAKE_SOURCE_DIR}/diagrams/ch[0-9][0-9]-*"
       "${CMAKE_SOURCE_DIR}/exercises/ch[0-9][0-9]-*"
       "${CMAKE_SOURCE_DIR}/solutions/ch[0-9][0-9]-*")
  set(keys "")
  foreach(f IN LISTS found)
    get_filename_component(key "${f}" NAME)
    string(REGEX REPLACE "\\.md$" "" key "${key}")
    if(NOT key MATCHES "${BOOK_CHAPTER_KEY_REGEX}")
      file(RELATIVE_PATH rel "${CMAKE_SOURCE_DIR}" "${f}")
      message(FATAL_ERROR "${rel}: '${key}' is not a chapter key: chNN-name, in lower case "
                          "letters, digits and single hyphens (for example ch04-memory-coalescing)")
    endif()
    list(APPEND keys "${key}")
  endforeach()
  list(REMOVE_DUPLICATES keys)
  list(SORT keys)
  set(${out} "${keys}" PARENT_SCOPE)
endfunction()

# add_subdirectory for every <tree>/chNN-name/ that has a CMakeLists.txt (of the
# chapters this build has: BOOK_CHAPTERS).
function(book_add_chapters tree)
  file(GLOB list_files CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/${tree}/ch[0-9][0-9]-*/CMakeLists.txt")
  book_select_chapter_paths(list_files)
  list(SORT list_files)
  foreach(f IN LISTS list_files)
    get_filename_component(dir "${f}" DIRECTORY)
    add_subdirectory("${dir}")
  endforeach()
  # A chapter's folder makes no cache entry of its own (cmake/BookInputsSettled.cmake).
  _book_check_cache_settled("^(CMAKE|BOOK)_")
endfunction()

if(BOOK_CHAPTERS)  # an unknown key stops here, before any chapter is read
  _book_found_chapter_keys(_book_found)
  _book_check_chapter_selection("${_book_found}")
  string(REPLACE ";" ", " _book_found "${BOOK_CHAPTERS}")
  message(STATUS "Book: only the chapters ${_book_found} (BOOK_CHAPTERS); "
                 "configure with -DBOOK_CHAPTERS= for the whole book")
endif()

# The chapter key of a call: CHAPTER if given, else the folder's name.
function(_book_chapter out given caller)
  if(given)
    set(key "${given}")
  else()
    get_filename_component(key "${CMAKE_CURRENT_SOURCE_DIR}" NAME)
    if(NOT key MATCHES "${BOOK_CHAPTER_KEY_REGEX}")
      message(FATAL_ERROR "${caller}: no CHAPTER given, and this folder "
                          "(${CMAKE_CURRENT_SOURCE_DIR}) is not named after a chapter key "
                          "(chNN-name): give CHAPTER <key>")
    endif()
  endif()
  if(NOT key MATCHES "${BOOK_CHAPTER_KEY_REGEX}")
    message(FATAL_ERROR "${caller}: CHAPTER '${key}' is not a chapter key (chNN-name)")
  endif()
  set(${out} "${key}" PARENT_SCOPE)
endfunction()
