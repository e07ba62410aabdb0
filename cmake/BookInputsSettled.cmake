# SPDX-License-Identifier: MIT
# The guard that keeps a run's input hash true (cmake/BookInputs.cmake): the
# flags a program's runs hash are those book_program (or book_library) saw, so
# book_finish refuses any compile or link setting of a program, of a book
# library or of their folder that changed after that call, and a cache setting
# a folder made (_book_check_programs_settled), each at the line that made it.
# Tests: the book.bad.cmake-* cases of tests/book/configure.cmake (a setting
# changed late, a cache entry forced or created by a chapter's folder).

# What shapes a program's compile and link, besides its sources' text: the
# target's properties, its folder's (add_compile_definitions, add_compile_options,
# include_directories, add_link_options), and its sources' own properties. A
# program's runs hash its flags as book_program saw them, so book_finish refuses
# a change of any of these after book_program, and any compile property on one
# of its sources (book_program gives no way to set one, so none is counted).
set(_BOOK_WATCHED_TARGET_PROPERTIES COMPILE_OPTIONS COMPILE_DEFINITIONS LINK_LIBRARIES SOURCES
    INCLUDE_DIRECTORIES LINK_OPTIONS CUDA_ARCHITECTURES COMPILE_FLAGS LINK_FLAGS
    CXX_STANDARD CUDA_STANDARD CUDA_SEPARABLE_COMPILATION PRECOMPILE_HEADERS)
set(_BOOK_WATCHED_DIRECTORY_PROPERTIES COMPILE_OPTIONS COMPILE_DEFINITIONS INCLUDE_DIRECTORIES
    LINK_OPTIONS)
set(_BOOK_WATCHED_SOURCE_PROPERTIES COMPILE_OPTIONS COMPILE_DEFINITIONS COMPILE_FLAGS
    INCLUDE_DIRECTORIES)

# The line of <file> that made a change after book_program: the first call of a
# command that sets compile or link properties (0 when none is found).
function(_book_first_line_of out file)
  file(READ "${file}" text)
  _book_line_of(line "${text}" "(^|\n)[ \t]*(set_source_files_properties|set_target_properties|set_property|target_compile_[a-z]+|target_link_[a-z]+|target_include_directories|target_sources|target_precompile_headers|add_compile_[a-z]+|add_link_options|include_directories|add_definitions|link_libraries)[ \t]*\\(")
  set(${out} ${line} PARENT_SCOPE)
endfunction()

# book_finish: no program's or book library's compile or link settings changed
# after book_program or book_library (a change made after it would be compiled
# but not hashed); refused at the line of its folder's CMakeLists.txt that made it.
function(_book_check_programs_settled)
  _book_check_cache_settled("^CMAKE_")
  get_property(programs GLOBAL PROPERTY BOOK_PROGRAMS)
  foreach(id IN LISTS programs)
    _book_check_variables_settled("BOOK_P_${id}" "program ${id}" book_program)
    _book_check_settled("BOOK_P_${id}" "program ${id}" book_program)
  endforeach()
  get_property(libraries GLOBAL PROPERTY BOOK_LIBRARIES)
  foreach(name IN LISTS libraries)
    _book_check_variables_settled("BOOK_L_${name}" "library ${name}" book_library)
    _book_check_settled("BOOK_L_${name}" "library ${name}" book_library)
  endforeach()
endfunction()

# The cache's setting variables are the project's: a set(... CACHE ... FORCE) in
# a folder would reach every folder's compile, and the hash of none. So none may
# be changed once the first folder has declared a program or library, nor one
# created whose name matches `created` (book_add_chapters: a chapter's folder may
# create none; book_finish: no CMAKE_ one, as the tests' folder adds BOOK_ entries
# for its tools, which no program's compile reads). The cache is put back before
# the error, so that configuring again refuses again.
function(_book_check_cache_settled created)
  get_property(taken GLOBAL PROPERTY BOOK_BASE_TAKEN)
  if(NOT taken)
    return()
  endif()
  get_property(base GLOBAL PROPERTY BOOK_BASE_CACHE_NAMES)
  get_cmake_property(cache CACHE_VARIABLES)
  _book_setting_names(names ${cache} ${base})
  foreach(name IN LISTS names)
    get_property(was GLOBAL PROPERTY "BOOK_BASE_CACHE_${name}")
    get_property(in_base GLOBAL PROPERTY "BOOK_BASE_CACHE_${name}" SET)
    if(NOT in_base AND name MATCHES "${created}")
      unset(${name} CACHE)
      set(what "was created")
    elseif(in_base AND NOT "$CACHE{${name}}" STREQUAL "${was}")
      set(now "$CACHE{${name}}")
      get_property(type CACHE "${name}" PROPERTY TYPE)
      set(${name} "${was}" CACHE ${type} "" FORCE)
      set(what "was changed (now '${now}', was '${was}')")
    else()
      continue()
    endif()
    _book_setting_line(where "${name}")
    message(FATAL_ERROR
      "${where}: the cache variable ${name} ${what} by a folder read after the project's "
      "settings. It would reach the compile of every program, and the input hash of none: "
      "set it in a chapter's folder as a normal variable (which its programs' runs count), "
      "or as the project's, in the top CMakeLists.txt.")
  endforeach()
endfunction()

# The file:line of the first set() or option() of variable `name` in a folder
# that declares programs or libraries ("CMakeLists.txt" when none is found).
function(_book_setting_line out name)
  get_property(programs GLOBAL PROPERTY BOOK_PROGRAMS)
  get_property(libraries GLOBAL PROPERTY BOOK_LIBRARIES)
  set(dirs "")
  foreach(id IN LISTS programs)
    get_property(d GLOBAL PROPERTY "BOOK_P_${id}_DIR")
    list(APPEND dirs "${d}")
  endforeach()
  foreach(lib IN LISTS libraries)
    get_property(d GLOBAL PROPERTY "BOOK_L_${lib}_DIR")
    list(APPEND dirs "${d}")
  endforeach()
  list(REMOVE_DUPLICATES dirs)
  foreach(d IN LISTS dirs)
    file(READ "${d}/CMakeLists.txt" text)
    _book_line_of(line "${text}" "(^|\n)[ \t]*(set|option|unset)[ \t]*\\([ \t\n]*${name}[ \t\n)]")
    if(line GREATER 0)
      set(${out} "${d}/CMakeLists.txt:${line}" PARENT_SCOPE)
      return()
    endif()
  endforeach()
  set(${out} "CMakeLists.txt" PARENT_SCOPE)
endfunction()

# The setting variables of a program's or library's folder, once every folder
# is read, are those its call saw (CMake compiles with the folder's last values).
# The top folder's are the project's, its later ones too.
function(_book_check_variables_settled prefix what call)
  get_property(dir GLOBAL PROPERTY "${prefix}_DIR")
  if(dir STREQUAL CMAKE_SOURCE_DIR)
    return()
  endif()
  get_property(seen GLOBAL PROPERTY "${prefix}_SEEN_VARS")
  get_property(known GLOBAL PROPERTY "BOOK_FINAL_VARS_${dir}" SET)
  if(NOT known)  # once per folder: its last values are fixed by now
    _book_folder_settings(final "${dir}")
    set_property(GLOBAL PROPERTY "BOOK_FINAL_VARS_${dir}" "${final}")
  endif()
  get_property(now GLOBAL PROPERTY "BOOK_FINAL_VARS_${dir}")
  if("${now}" STREQUAL "${seen}")
    return()
  endif()
  string(STRIP "${now}" n)
  string(STRIP "${seen}" s)
  # The line of the first variable whose entry is in one and not the other.
  string(REGEX MATCHALL "set:[A-Za-z0-9_]+=\\[[^]]*\\]" now_entries "${now}")
  string(REGEX MATCHALL "set:[A-Za-z0-9_]+=\\[[^]]*\\]" seen_entries "${seen}")
  set(differ ${now_entries})
  list(REMOVE_ITEM differ ${seen_entries})
  if(NOT differ)
    set(differ ${seen_entries})
    list(REMOVE_ITEM differ ${now_entries})
  endif()
  list(GET differ 0 first)
  string(REGEX MATCH "^set:([A-Za-z0-9_]+)=" first "${first}")
  _book_setting_line(where "${CMAKE_MATCH_1}")
  message(FATAL_ERROR
    "${where}: the folder's variables changed after ${call} of ${what} (now '${n}', was "
    "'${s}'), and its compile would count them. The runs it builds would not: set them "
    "before ${call}.")
endfunction()

# One program or library (its global properties under <prefix>_*).
function(_book_check_settled prefix what call)
  get_property(tgt GLOBAL PROPERTY "${prefix}_TARGET")
  if(NOT tgt)
    return()  # not built here
  endif()
  get_property(dir GLOBAL PROPERTY "${prefix}_DIR")
  set(changed "")
  foreach(p IN LISTS _BOOK_WATCHED_TARGET_PROPERTIES)
    get_target_property(now ${tgt} ${p})
    if(NOT now)
      set(now "")
    endif()
    get_property(seen GLOBAL PROPERTY "${prefix}_SEEN_${p}")
    if(NOT "${now}" STREQUAL "${seen}")
      string(CONCAT changed "the ${p} of ${what} (target ${tgt}) were changed after "
                            "${call} (now '${now}', was '${seen}')")
      break()
    endif()
  endforeach()
  foreach(p IN LISTS _BOOK_WATCHED_DIRECTORY_PROPERTIES)
    if(changed)
      break()
    endif()
    get_directory_property(now DIRECTORY "${dir}" ${p})
    get_property(seen GLOBAL PROPERTY "${prefix}_SEEN_DIR_${p}")
    if(NOT "${now}" STREQUAL "${seen}")
      string(CONCAT changed "the folder's ${p} changed after ${call} of ${what} (now "
                            "'${now}', was '${seen}'), and its compile would count it")
    endif()
  endforeach()
  get_property(sources GLOBAL PROPERTY "${prefix}_SOURCES")
  foreach(src IN LISTS sources)
    foreach(p IN LISTS _BOOK_WATCHED_SOURCE_PROPERTIES)
      if(changed)
        break()
      endif()
      get_source_file_property(v "${src}" DIRECTORY "${dir}" ${p})
      if(v AND NOT v STREQUAL "NOTFOUND")
        file(RELATIVE_PATH rel "${CMAKE_SOURCE_DIR}" "${src}")
        set(changed "the source ${rel} of ${what} has its own ${p} ('${v}')")
      endif()
    endforeach()
  endforeach()
  if(changed)
    _book_first_line_of(line "${dir}/CMakeLists.txt")
    message(FATAL_ERROR
      "${dir}/CMakeLists.txt:${line}: ${changed}. The runs it builds would not count the "
      "change as an input: give SOURCES, LIBS, OPTIONS and DEFINITIONS to ${call} itself.")
  endif()
endfunction()
