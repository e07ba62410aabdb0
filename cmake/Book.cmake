# The book's programs, their libraries and their runs.
#
# Chapters are found, not listed: every code/chNN-name/CMakeLists.txt is read
# (book_add_chapters), and inside it the chapter key defaults to the folder's
# name. book/STYLE.md shows the steps; this is the reference.
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
#       One program of a chapter. A program with a .cu source is a CUDA program:
#       compiled only where nvcc exists, run live only where a GPU exists.
#       OPTIONS and DEFINITIONS are its own compile options and definitions:
#       give them here (not with target_compile_options) so that they count
#       as its runs' inputs.
#
#   book_run(<run> PROGRAM <name> [ARGS <args>...] [ENV <K=V>...] [TIMEOUT <s>]
#            [CHECKS <file>] [SASS_FUNCTIONS <kernel>...]
#            [NCU_KERNELS <regex>...] [NCU_LABELS <label>...] [NCU_METRICS <m>...]
#            [NCU_ARGS <args>...] [SANITIZER <tool> SANITIZER_EXPECT errors|warnings|clean]
#            [SANITIZE_ARGS <args>...] [CHAPTER <key>])
#       One run of a program whose output the book shows. It writes the run
#       record <build>/records/<key>/<run>.json, which chapters cite as <run>
#       (or <key>/<run> from another chapter). CHECKS names the run's
#       expectations (a JSON file). ENV sets the program's environment.
#       SASS_FUNCTIONS records each kernel's SASS as the text sass:<kernel>;
#       NCU_KERNELS profiles every launch of a kernel matching one of the
#       regexes (in launch order, one ncu run; NCU_ARGS are the program's
#       arguments for it) and NCU_LABELS names those launches: the results
#       ncu:<label>:<metric>. SANITIZER runs the program under compute-sanitizer
#       (memcheck, racecheck, synccheck or initcheck): the tool's report becomes
#       the text sanitizer:<tool>, its counts the results sanitizer_errors and
#       sanitizer_warnings, and SANITIZER_EXPECT says whether the run must find
#       errors (a chapter showing a wrong kernel), errors or warnings (racecheck
#       files a hazard between lanes of one warp as a warning), or neither. SANITIZE_ARGS adds the tests
#       sanitize.<key>.<run>.<tool> for all four tools, with these arguments.
#       CUDA runs come from recordings/<gpu>/<key>/<run>.json where no GPU runs.
#       (SASS_FUNCTION and NCU_KERNEL, one value each, are read as before.)
#
# What a run depends on (its input hash, which says whether a recording is
# stale): the program's sources and those of every book library it links, the
# project headers they include, the flags identity (language standard, build
# type, CUDA architectures and flags, the program's OPTIONS and DEFINITIONS),
# its arguments and environment, and where nvcc exists its version and the
# CUDA flags CMake passes (compared only where nvcc exists). No absolute path
# enters the hash, so a recording's hash is the same on every machine.
set(BOOK_RECORDS_DIR "${CMAKE_BINARY_DIR}/records")
set(BOOK_RECORDINGS_ROOT "${CMAKE_SOURCE_DIR}/recordings" CACHE PATH
    "Where the committed GPU recordings are (recordings/<gpu>/<key>/<run>.json)")
set(BOOK_RECORDINGS_DIR "${BOOK_RECORDINGS_ROOT}/${BOOK_GPU_SLUG}")
set(BOOK_SCHEMA "${CMAKE_SOURCE_DIR}/book/record-schema.json")
set(BOOK_MANIFEST "${CMAKE_BINARY_DIR}/book-manifest.json")
set(BOOK_CY_TAGS "${CMAKE_BINARY_DIR}/cy-tags.json")
set(BOOK_CHAPTER_KEY_REGEX "^ch[0-9][0-9]-[a-z0-9]+(-[a-z0-9]+)*$")
# Flags that shape the programs' code, hashed into every run record's inputs.
# Kept as project settings (not the compilers' full command lines, which hold
# machine paths) so that a recording's hash is the same on every machine.
set(BOOK_CXX_FLAGS_ID "c++20 ${CMAKE_BUILD_TYPE}")
set(BOOK_CUDA_FLAGS "-lineinfo")
string(REPLACE ";" "," _archs_id "${BOOK_CUDA_ARCHITECTURES}")
set(BOOK_CUDA_FLAGS_ID "c++20 ${CMAKE_BUILD_TYPE} arch=${_archs_id} ${BOOK_CUDA_FLAGS}")
# Where nvcc exists: its version and the flags CMake gives it besides the
# project's (CMAKE_CUDA_FLAGS, CMAKE_CUDA_FLAGS_<CONFIG>: a toolkit or a
# CUDAFLAGS change shows), as toolchain entries: a recording compares them
# only where the build has nvcc, so a machine without it does not call every
# recording stale.
set(BOOK_CUDA_TOOLCHAIN "")
if(BOOK_HAVE_CUDA)
  string(TOUPPER "${CMAKE_BUILD_TYPE}" _config)
  set(_cuda_used "${CMAKE_CUDA_FLAGS} ${CMAKE_CUDA_FLAGS_${_config}}")
  string(REPLACE "${CMAKE_SOURCE_DIR}" "<source>" _cuda_used "${_cuda_used}")
  string(REPLACE "${CMAKE_BINARY_DIR}" "<build>" _cuda_used "${_cuda_used}")
  string(REGEX REPLACE "[ \t\n]+" " " _cuda_used "${_cuda_used}")
  string(STRIP "${_cuda_used}" _cuda_used)
  set(BOOK_CUDA_TOOLCHAIN --toolchain "nvcc=${CMAKE_CUDA_COMPILER_VERSION}"
                          --toolchain "nvcc-flags=${_cuda_used}")
endif()
set_property(GLOBAL PROPERTY BOOK_LEFT_OUT "")
set_property(GLOBAL PROPERTY BOOK_RUNS "")
set_property(GLOBAL PROPERTY BOOK_PROGRAMS "")
set_property(GLOBAL PROPERTY BOOK_CATCH2_TESTS "")
# GPU runs time kernels: never two at once on one GPU (a Ninja pool of one).
set_property(GLOBAL APPEND PROPERTY JOB_POOLS book_gpu=1 book_gpu_shared=4)

# ---- chapters ------------------------------------------------------------------

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
  file(GLOB lists CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/${tree}/ch[0-9][0-9]-*/CMakeLists.txt")
  book_select_chapter_paths(lists)
  list(SORT lists)
  foreach(f IN LISTS lists)
    get_filename_component(dir "${f}" DIRECTORY)
    add_subdirectory("${dir}")
  endforeach()
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

# ---- libraries -------------------------------------------------------------------

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

# The sources and include folders of the book libraries that `libs` reach (a
# book_library, or a library target of this project: its SOURCES), through the
# libraries they link in turn. Imported and interface libraries hold no
# sources of the book (their headers lie outside it).
function(_book_library_inputs sources_out includes_out caller)
  set(queue ${ARGN})
  set(seen "")
  set(sources "")
  set(includes "")
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
      get_property(s GLOBAL PROPERTY "BOOK_L_${lib}_SOURCES")
      get_property(i GLOBAL PROPERTY "BOOK_L_${lib}_INCLUDE_DIRS")
      get_property(l GLOBAL PROPERTY "BOOK_L_${lib}_LIBS")
      list(APPEND sources ${s})
      list(APPEND includes ${i})
      list(APPEND queue ${l})
      continue()
    endif()
    if(NOT TARGET "${lib}")
      message(FATAL_ERROR "${caller}: LIBS names '${lib}', which is no target (yet): define a "
                          "library with book_library() before the program that links it, or "
                          "link a system library as -l<name>")
    endif()
    get_target_property(imported "${lib}" IMPORTED)
    get_target_property(aliased "${lib}" ALIASED_TARGET)
    if(aliased)
      list(APPEND queue "${aliased}")
      continue()
    endif()
    if(imported)
      continue()
    endif()
    get_target_property(type "${lib}" TYPE)
    get_target_property(dir "${lib}" SOURCE_DIR)
    set(props INTERFACE_LINK_LIBRARIES)
    if(NOT type STREQUAL "INTERFACE_LIBRARY")
      list(APPEND props LINK_LIBRARIES)
      get_target_property(s "${lib}" SOURCES)
      foreach(f IN LISTS s)
        if(NOT f MATCHES "^\\$<")
          get_filename_component(f "${f}" ABSOLUTE BASE_DIR "${dir}")
          list(APPEND sources "${f}")
        endif()
      endforeach()
      get_target_property(i "${lib}" INTERFACE_INCLUDE_DIRECTORIES)
      foreach(f IN LISTS i)
        if(f AND NOT f MATCHES "^\\$<")
          list(APPEND includes "${f}")
        endif()
      endforeach()
    endif()
    foreach(p IN LISTS props)
      get_target_property(l "${lib}" ${p})
      if(l)
        list(APPEND queue ${l})
      endif()
    endforeach()
  endwhile()
  # Only the book's own files count (generated files and system headers do not).
  set(kept "")
  foreach(f IN LISTS sources)
    string(FIND "${f}" "${CMAKE_SOURCE_DIR}/" at)
    if(at EQUAL 0)
      list(APPEND kept "${f}")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES kept)
  list(REMOVE_DUPLICATES includes)
  set(${sources_out} "${kept}" PARENT_SCOPE)
  set(${includes_out} "${includes}" PARENT_SCOPE)
endfunction()

# ---- programs ----------------------------------------------------------------------

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

# The runner arguments that describe a run's inputs (for the input hash).
function(_book_hash_args out id args env)
  get_property(sources GLOBAL PROPERTY "BOOK_P_${id}_SOURCES")
  get_property(libs GLOBAL PROPERTY "BOOK_P_${id}_LIBS")
  get_property(cuda GLOBAL PROPERTY "BOOK_P_${id}_CUDA")
  get_property(flags GLOBAL PROPERTY "BOOK_P_${id}_FLAGS")
  get_property(dir GLOBAL PROPERTY "BOOK_P_${id}_DIR")
  _book_library_inputs(lib_sources includes "book_program(${id})" ${libs})
  set(a --source-root "${CMAKE_SOURCE_DIR}" --cxx "${CMAKE_CXX_COMPILER}"
        --schema "${BOOK_SCHEMA}")
  foreach(i IN LISTS dir includes)
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
    foreach(arch IN LISTS BOOK_CUDA_ARCHITECTURES)
      list(APPEND a --cuda-arch "${arch}")
    endforeach()
    list(APPEND a ${BOOK_CUDA_TOOLCHAIN})
  endif()
  foreach(x IN LISTS args)
    list(APPEND a "--arg=${x}")
  endforeach()
  foreach(x IN LISTS env)
    list(APPEND a "--env=${x}")
  endforeach()
  set(${out} "${a}" PARENT_SCOPE)
endfunction()

# ---- runs ----------------------------------------------------------------------------

function(_book_json_string out value)
  string(REPLACE "\\" "\\\\" value "${value}")
  string(REPLACE "\"" "\\\"" value "${value}")
  string(REPLACE "\n" "\\n" value "${value}")
  string(REPLACE "\t" "\\t" value "${value}")
  set(${out} "\"${value}\"" PARENT_SCOPE)
endfunction()

function(book_run run)
  set(where "book_run(${run})")
  _book_parse(R "${where}"
    "CHAPTER;PROGRAM;TIMEOUT;REPEATS;CHECKS;SANITIZER;SANITIZER_EXPECT;SASS_FUNCTION;NCU_KERNEL"
    "ARGS;ENV;SASS_FUNCTIONS;NCU_KERNELS;NCU_METRICS;NCU_ARGS;NCU_LABELS;SANITIZE_ARGS"
    PROGRAM ${ARGN})
  if(NOT run MATCHES "^[a-z0-9][a-z0-9_.-]*$")
    message(FATAL_ERROR "${where}: a run's name is lower case letters, digits, '-', '_' and '.'")
  endif()
  _book_chapter(key "${R_CHAPTER}" "${where}")
  set(id "${key}/${R_PROGRAM}")
  get_property(defined GLOBAL PROPERTY "BOOK_P_${id}_DEFINED")
  if(NOT defined)
    message(FATAL_ERROR "${where}: no program ${id}; declare it with book_program first")
  endif()
  set(name "${key}/${run}")
  get_property(again GLOBAL PROPERTY "BOOK_R_${name}_RECORD")
  if(again)
    message(FATAL_ERROR "${where}: chapter ${key} already has a run ${run}")
  endif()
  if(NOT R_TIMEOUT)
    set(R_TIMEOUT 120)
  endif()
  if(NOT DEFINED R_REPEATS OR R_REPEATS STREQUAL "")
    set(R_REPEATS 1)
  endif()
  if(NOT R_REPEATS MATCHES "^[1-9][0-9]?$")
    message(FATAL_ERROR "${where}: REPEATS is how many times the run is made (1 to 99), "
                        "not '${R_REPEATS}'")
  endif()
  if(R_REPEATS GREATER 1 AND R_SANITIZER)
    message(FATAL_ERROR "${where}: REPEATS is for runs that measure; a run under "
                        "compute-sanitizer (SANITIZER) is made once")
  endif()
  list(APPEND R_SASS_FUNCTIONS ${R_SASS_FUNCTION})
  list(APPEND R_NCU_KERNELS ${R_NCU_KERNEL})
  foreach(kv IN LISTS R_ENV)
    if(NOT kv MATCHES "^[A-Za-z_][A-Za-z0-9_]*=")
      message(FATAL_ERROR "${where}: ENV takes NAME=VALUE, not '${kv}'")
    endif()
  endforeach()
  get_property(cuda GLOBAL PROPERTY "BOOK_P_${id}_CUDA")
  get_property(tgt GLOBAL PROPERTY "BOOK_P_${id}_TARGET")
  if(NOT cuda AND (R_SASS_FUNCTIONS OR R_NCU_KERNELS OR R_SANITIZER OR R_SANITIZE_ARGS))
    message(FATAL_ERROR "${where}: SASS_FUNCTIONS, NCU_KERNELS, SANITIZER and SANITIZE_ARGS "
                        "are for CUDA programs; ${id} has no .cu source")
  endif()
  if(R_NCU_LABELS AND NOT R_NCU_KERNELS)
    message(FATAL_ERROR "${where}: NCU_LABELS names the launches that NCU_KERNELS profiles; "
                        "give NCU_KERNELS")
  endif()
  if(R_NCU_KERNELS AND NOT R_NCU_METRICS)
    message(FATAL_ERROR "${where}: NCU_KERNELS needs NCU_METRICS (the metrics to record)")
  endif()
  set(sanitizer_id "")
  if(R_SANITIZER OR R_SANITIZER_EXPECT)
    if(NOT R_SANITIZER MATCHES "^(memcheck|racecheck|synccheck|initcheck)$")
      message(FATAL_ERROR "${where}: SANITIZER is memcheck, racecheck, synccheck or initcheck, "
                          "not '${R_SANITIZER}'")
    endif()
    if(NOT R_SANITIZER_EXPECT MATCHES "^(errors|warnings|clean)$")
      message(FATAL_ERROR "${where}: SANITIZER ${R_SANITIZER} needs SANITIZER_EXPECT errors "
                          "(the run must find at least one error), warnings (at least one error "
                          "or warning) or clean (neither)")
    endif()
    set(sanitizer_id --sanitizer-tool "${R_SANITIZER}" --sanitizer-expect "${R_SANITIZER_EXPECT}")
  endif()

  set(record "${BOOK_RECORDS_DIR}/${key}/${run}.json")
  _book_hash_args(hash_args "${id}" "${R_ARGS}" "${R_ENV}")
  set(common --name "${name}" ${hash_args} ${sanitizer_id} --repeats ${R_REPEATS})
  set(deps bookrun "${BOOK_SCHEMA}")
  if(R_CHECKS)
    get_filename_component(R_CHECKS "${R_CHECKS}" ABSOLUTE)
    if(NOT EXISTS "${R_CHECKS}")
      message(FATAL_ERROR "${where}: CHECKS file ${R_CHECKS} does not exist")
    endif()
    list(APPEND common --checks "${R_CHECKS}")
    list(APPEND deps "${R_CHECKS}")
  endif()
  set(prov --provenance "cxx=${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}")
  if(cuda AND BOOK_HAVE_CUDA)
    list(APPEND prov --provenance "nvcc=${CMAKE_CUDA_COMPILER_VERSION}")
  endif()
  set(tool_args "")
  if(cuda AND BOOK_NVIDIA_SMI)
    list(APPEND tool_args --nvidia-smi "${BOOK_NVIDIA_SMI}")
  endif()
  if(R_SANITIZER AND BOOK_HAVE_CUDA)
    if(BOOK_SANITIZER)
      list(APPEND tool_args --sanitizer "${BOOK_SANITIZER}")
    elseif(BOOK_GPU_LIVE)
      message(FATAL_ERROR "${where}: SANITIZER needs compute-sanitizer, which is not in the "
                          "CUDA Toolkit found (${CMAKE_CUDA_COMPILER})")
    endif()
  endif()

  set(live OFF)
  if(NOT cuda OR BOOK_GPU_LIVE)
    set(live ON)
  endif()
  set(recording "${BOOK_RECORDINGS_DIR}/${key}/${run}.json")
  if(live)
    set(extra "")
    if(cuda AND R_SASS_FUNCTIONS)
      if(NOT BOOK_CUOBJDUMP)
        message(FATAL_ERROR "${where}: SASS_FUNCTIONS needs cuobjdump, not found beside nvcc")
      endif()
      list(APPEND extra --cuobjdump "${BOOK_CUOBJDUMP}")
      foreach(f IN LISTS R_SASS_FUNCTIONS)
        list(APPEND extra --sass-function "${f}")
      endforeach()
    endif()
    if(cuda AND R_NCU_KERNELS)
      if(NOT BOOK_NCU)
        message(FATAL_ERROR "${where}: NCU_KERNELS needs Nsight Compute (ncu), not found")
      endif()
      list(JOIN R_NCU_METRICS "," metrics)
      list(APPEND extra --ncu "${BOOK_NCU}" --ncu-metrics "${metrics}")
      foreach(k IN LISTS R_NCU_KERNELS)
        list(APPEND extra --ncu-kernel "${k}")
      endforeach()
      if(R_NCU_LABELS)
        list(JOIN R_NCU_LABELS "," labels)
        list(APPEND extra --ncu-labels "${labels}")
      endif()
      foreach(x IN LISTS R_NCU_ARGS)
        list(APPEND extra "--ncu-arg=${x}")
      endforeach()
    endif()
    # A GPU run that measures (REPEATS, or profiled by Nsight Compute) has the
    # GPU and the host to itself (the pool book_gpu, of one); the others (checks
    # of correctness, sanitizer reports, SASS) share it, four at a time, once
    # the measuring runs are done. bookrun refuses a run that reports a time
    # without declaring REPEATS.
    set(timed OFF)
    if(cuda AND (R_REPEATS GREATER 1 OR R_NCU_KERNELS))
      set(timed ON)
    endif()
    set(pool "")
    if(timed)
      set(pool JOB_POOL book_gpu)
    elseif(cuda)
      set(pool JOB_POOL book_gpu_shared)
    endif()
    add_custom_command(
      OUTPUT "${record}"
      ${pool}
      COMMAND bookrun run ${common} ${prov} ${tool_args} ${extra} --timeout ${R_TIMEOUT}
              --out "${record}" --depfile "${record}.d" -- $<TARGET_FILE:${tgt}> ${R_ARGS}
      DEPENDS ${tgt} ${deps}
      DEPFILE "${record}.d"
      COMMENT "Running ${name}"
      VERBATIM)
  else()
    add_custom_command(
      OUTPUT "${record}"
      COMMAND bookrun import ${common} --gpu-model "${BOOK_GPU_MODEL}"
              --recording "${recording}" --out "${record}" --depfile "${record}.d"
      DEPENDS ${deps}
      DEPFILE "${record}.d"
      COMMENT "Using the recording of ${name} (${BOOK_GPU_MODEL})"
      VERBATIM)
  endif()
  set_property(GLOBAL APPEND PROPERTY BOOK_RUNS "${name}")
  set_property(GLOBAL PROPERTY "BOOK_R_${name}_RECORD" "${record}")
  set_property(GLOBAL PROPERTY "BOOK_R_${name}_PROGRAM" "${id}")
  set_property(GLOBAL PROPERTY "BOOK_R_${name}_GPU" "${cuda}")
  set_property(GLOBAL PROPERTY "BOOK_R_${name}_LIVE" "${live}")
  string(REPLACE "/" "." tname "${name}")
  # A target per run gives the record's rule a home, so the HTML step (in
  # another directory) can depend on the file itself.
  add_custom_target("record.${tname}" ALL DEPENDS "${record}")
  if(live AND timed)
    # A GPU run times kernels: _book_order_gpu_runs makes it wait until everything
    # else has been compiled and run, so that nothing competes with it for the host.
    set_property(GLOBAL APPEND PROPERTY BOOK_GPU_RECORD_TARGETS "record.${tname}")
  elseif(live AND cuda)
    # ... and the GPU runs that time nothing wait for those that do.
    set_property(GLOBAL APPEND PROPERTY BOOK_GPU_SHARED_TARGETS "record.${tname}")
  endif()

  if(NOT BOOK_TESTS)
    return()
  endif()
  if(cuda)
    # The committed recording: present, complete, for the right GPU, fresh, and its checks hold.
    add_test(NAME "records.${tname}"
             COMMAND bookrun verify ${common} --gpu-model "${BOOK_GPU_MODEL}"
                     --recording "${recording}")
    set_tests_properties("records.${tname}" PROPERTIES LABELS "records;book")
    # Where the build ran it live: the build's own record, checked (unedited, of
    # the sources as they are, every check holding in every repeat), never a second
    # run, which would be timed again beside other tests and thrown away.
    # Skipped (77) where the build took the recording instead.
    if(live)
      add_test(NAME "gpu.${tname}"
               COMMAND bookrun check ${common} --record "${record}")
    elseif(BOOK_HAVE_CUDA)
      add_test(NAME "gpu.${tname}" COMMAND bookrun skip "no GPU: ${name} came from its recording")
    else()
      add_test(NAME "gpu.${tname}" COMMAND bookrun skip "no CUDA compiler: ${name} was not built")
    endif()
    set_tests_properties("gpu.${tname}" PROPERTIES LABELS "gpu" SKIP_RETURN_CODE 77
                         TIMEOUT ${R_TIMEOUT})
    if(R_SANITIZE_ARGS)
      foreach(tool memcheck racecheck synccheck initcheck)
        if(BOOK_HAVE_CUDA AND BOOK_SANITIZER)
          set(env_args "")
          foreach(x IN LISTS R_ENV)
            list(APPEND env_args "--env=${x}")
          endforeach()
          add_test(NAME "sanitize.${tname}.${tool}"
                   COMMAND bookrun sanitize --sanitizer "${BOOK_SANITIZER}" --tool ${tool}
                           ${env_args} -- $<TARGET_FILE:${tgt}> ${R_SANITIZE_ARGS})
        else()
          add_test(NAME "sanitize.${tname}.${tool}"
                   COMMAND bookrun skip "no compute-sanitizer: ${name} was not sanitized")
        endif()
        set_tests_properties("sanitize.${tname}.${tool}" PROPERTIES LABELS "sanitize;gpu"
                             SKIP_RETURN_CODE 77 TIMEOUT 600 RESOURCE_GROUPS "gpus:1")
      endforeach()
    endif()
  else()
    # CPU runs: run again and re-check the expectations.
    add_test(NAME "run.${tname}"
             COMMAND bookrun run ${common} ${prov} --timeout ${R_TIMEOUT}
                     --out "${CMAKE_CURRENT_BINARY_DIR}/test-records/${run}.json"
                     -- $<TARGET_FILE:${tgt}> ${R_ARGS})
    set_tests_properties("run.${tname}" PROPERTIES LABELS "book")
  endif()
endfunction()

# ---- Catch2 tests ---------------------------------------------------------------------

# Every Catch2 program registered as a CTest test, for the check-yourself tags
# (cy-tags.json). book_catch_test registers its own; a module that adds Catch2
# tests by hand (the exercises) calls this for each.
function(book_register_catch2_test test target)
  set_property(GLOBAL APPEND PROPERTY BOOK_CATCH2_TESTS "${test}")
  set_property(GLOBAL PROPERTY "BOOK_CT_${test}_TARGET" "${target}")
endfunction()

# ---- the end of the configure step ------------------------------------------------------

# After every folder is read: the programs' settings are final (a change made
# after book_program would be compiled but not hashed), the build manifest
# (book-manifest.json) and the check-yourself tags (cy-tags.json).
# Every target that compiles something, in `dir` and below it.
function(_book_compile_targets out dir)
  set(found "")
  get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  foreach(t IN LISTS targets)
    get_target_property(type ${t} TYPE)
    if(type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|SHARED_LIBRARY|OBJECT_LIBRARY|MODULE_LIBRARY)$")
      list(APPEND found ${t})
    endif()
  endforeach()
  get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    _book_compile_targets(below "${sub}")
    list(APPEND found ${below})
  endforeach()
  set(${out} "${found}" PARENT_SCOPE)
endfunction()

# The line of <file> that made a change after book_program: the first call of a
# command that sets compile or link properties (0 when none is found).
function(_book_first_line_of out file)
  file(READ "${file}" text)
  _book_line_of(line "${text}" "(^|\n)[ \t]*(set_source_files_properties|set_target_properties|set_property|target_compile_[a-z]+|target_link_[a-z]+|target_include_directories|target_sources|target_precompile_headers|add_compile_[a-z]+|add_link_options|include_directories|add_definitions|link_libraries)[ \t]*\\(")
  set(${out} ${line} PARENT_SCOPE)
endfunction()

# GPU runs that measure time kernels on a quiet host: none starts before every
# program, test and library is compiled, every CPU run has run and every output
# registered in BOOK_BEFORE_GPU_OUTPUTS (the diagrams) is made; and they run one
# at a time (the pool book_gpu). The GPU runs that time nothing come after them.
# Targets: book_before_gpu (all of that), book_gpu_runs (every live GPU run that
# measures; `tools/book record` builds it alone with -j 1).
# Called at the end of the top-level CMakeLists.txt (book_finish defers it), when
# every target exists.
function(_book_order_gpu_runs)
  get_property(gpu_records GLOBAL PROPERTY BOOK_GPU_RECORD_TARGETS)
  if(NOT gpu_records)
    return()
  endif()
  _book_compile_targets(compiled "${CMAKE_SOURCE_DIR}")
  add_custom_target(book_compiled)
  add_dependencies(book_compiled ${compiled})
  get_property(outputs GLOBAL PROPERTY BOOK_BEFORE_GPU_OUTPUTS)
  add_custom_target(book_before_gpu DEPENDS ${outputs})
  add_dependencies(book_before_gpu book_compiled)
  get_property(names GLOBAL PROPERTY BOOK_RUNS)
  foreach(name IN LISTS names)
    get_property(gpu GLOBAL PROPERTY "BOOK_R_${name}_GPU")
    if(NOT gpu)
      string(REPLACE "/" "." tname "${name}")
      add_dependencies(book_before_gpu "record.${tname}")
    endif()
  endforeach()
  add_custom_target(book_gpu_runs)
  foreach(t IN LISTS gpu_records)
    add_dependencies(${t} book_before_gpu)
    add_dependencies(book_gpu_runs ${t})
  endforeach()
  get_property(shared GLOBAL PROPERTY BOOK_GPU_SHARED_TARGETS)
  foreach(t IN LISTS shared)
    add_dependencies(${t} book_gpu_runs)
  endforeach()
endfunction()

function(book_finish)
  cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _book_order_gpu_runs)
  get_property(programs GLOBAL PROPERTY BOOK_PROGRAMS)
  foreach(id IN LISTS programs)
    get_property(tgt GLOBAL PROPERTY "BOOK_P_${id}_TARGET")
    if(NOT tgt)
      continue()
    endif()
    get_property(dir GLOBAL PROPERTY "BOOK_P_${id}_DIR")
    set(changed "")
    foreach(p IN LISTS _BOOK_WATCHED_TARGET_PROPERTIES)
      get_target_property(now ${tgt} ${p})
      if(NOT now)
        set(now "")
      endif()
      get_property(seen GLOBAL PROPERTY "BOOK_P_${id}_SEEN_${p}")
      if(NOT "${now}" STREQUAL "${seen}")
        string(CONCAT changed "the ${p} of program ${id} (target ${tgt}) were changed after "
                              "book_program (now '${now}', was '${seen}')")
        break()
      endif()
    endforeach()
    foreach(p IN LISTS _BOOK_WATCHED_DIRECTORY_PROPERTIES)
      if(changed)
        break()
      endif()
      get_directory_property(now DIRECTORY "${dir}" ${p})
      get_property(seen GLOBAL PROPERTY "BOOK_P_${id}_SEEN_DIR_${p}")
      if(NOT "${now}" STREQUAL "${seen}")
        string(CONCAT changed "the folder's ${p} changed after book_program(${id}) (now "
                              "'${now}', was '${seen}'), and its compile would count it")
      endif()
    endforeach()
    get_property(sources GLOBAL PROPERTY "BOOK_P_${id}_SOURCES")
    foreach(src IN LISTS sources)
      foreach(p IN LISTS _BOOK_WATCHED_SOURCE_PROPERTIES)
        if(changed)
          break()
        endif()
        get_source_file_property(v "${src}" DIRECTORY "${dir}" ${p})
        if(v AND NOT v STREQUAL "NOTFOUND")
          file(RELATIVE_PATH rel "${CMAKE_SOURCE_DIR}" "${src}")
          set(changed "the source ${rel} of program ${id} has its own ${p} ('${v}')")
        endif()
      endforeach()
    endforeach()
    if(changed)
      _book_first_line_of(line "${dir}/CMakeLists.txt")
      message(FATAL_ERROR
        "${dir}/CMakeLists.txt:${line}: ${changed}. Its runs would not count the change as an "
        "input: give SOURCES, LIBS, OPTIONS and DEFINITIONS to book_program itself.")
    endif()
  endforeach()
  _book_write_manifest()
  _book_cy_tags_rule()
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

# book-manifest.json: what the build declares, for the book's extension.
function(_book_write_manifest)
  set(j "{}")
  foreach(k source_root records_dir diagrams_dir)
    if(k STREQUAL "source_root")
      set(v "${CMAKE_SOURCE_DIR}")
    elseif(k STREQUAL "records_dir")
      set(v "${BOOK_RECORDS_DIR}")
    else()
      set(v "${CMAKE_BINARY_DIR}/diagrams")
    endif()
    _book_json_string(v "${v}")
    string(JSON j SET "${j}" "${k}" "${v}")
  endforeach()
  _book_json_string(v "${BOOK_EDITION}")
  string(JSON j SET "${j}" edition "${v}")
  set(runs "{}")
  get_property(names GLOBAL PROPERTY BOOK_RUNS)
  foreach(name IN LISTS names)
    get_property(record GLOBAL PROPERTY "BOOK_R_${name}_RECORD")
    get_property(program GLOBAL PROPERTY "BOOK_R_${name}_PROGRAM")
    get_property(gpu GLOBAL PROPERTY "BOOK_R_${name}_GPU")
    get_property(live GLOBAL PROPERTY "BOOK_R_${name}_LIVE")
    _book_json_string(r "${record}")
    _book_json_string(p "${program}")
    set(g false)
    if(gpu)
      set(g true)
    endif()
    set(l false)
    if(live)
      set(l true)
    endif()
    _book_json_string(n "${name}")
    string(JSON runs SET "${runs}" "${name}"
           "{\"record\": ${r}, \"program\": ${p}, \"gpu\": ${g}, \"live\": ${l}}")
  endforeach()
  string(JSON j SET "${j}" runs "${runs}")
  book_chapter_keys(keys)
  _book_json_string_array(list ${keys})
  string(JSON j SET "${j}" chapters "${list}")
  # The sources every declared program and library compiles (a chapter lists only those,
  # and the headers its runs' records name as inputs).
  get_property(compiled GLOBAL PROPERTY BOOK_COMPILED_SOURCES)
  set(rels "")
  foreach(f IN LISTS compiled)
    file(RELATIVE_PATH rel "${CMAKE_SOURCE_DIR}" "${f}")
    if(NOT rel MATCHES "^\\.\\./")
      list(APPEND rels "${rel}")
    endif()
  endforeach()
  list(REMOVE_DUPLICATES rels)
  list(SORT rels)
  _book_json_string_array(list ${rels})
  string(JSON j SET "${j}" compiled "${list}")
  if(BOOK_TESTS)
    _book_json_string(v "${BOOK_CY_TAGS}")
    string(JSON j SET "${j}" cy_tags "${v}")
  else()
    string(JSON j SET "${j}" cy_tags null)
  endif()
  get_property(exercises GLOBAL PROPERTY BOOK_EXERCISES_MANIFEST)
  if(exercises)
    _book_json_string(v "${exercises}")
    string(JSON j SET "${j}" exercises "${v}")
  else()
    string(JSON j SET "${j}" exercises null)
  endif()
  # Written only when it changes, so that the HTML step re-runs only then.
  file(GENERATE OUTPUT "${BOOK_MANIFEST}" CONTENT "${j}\n")
endfunction()

# cy-tags.json: asks every registered, built Catch2 program for its tests and
# tags (tools/cy-tags.py). It is rewritten only when the tags change, so a
# test edit relinks and re-lists, and the HTML step runs again only if a tag moved.
function(_book_cy_tags_rule)
  if(NOT BOOK_TESTS)
    return()
  endif()
  get_property(tests GLOBAL PROPERTY BOOK_CATCH2_TESTS)
  set(args "")
  set(targets "")
  foreach(t IN LISTS tests)
    get_property(tgt GLOBAL PROPERTY "BOOK_CT_${t}_TARGET")
    if(TARGET "${tgt}")
      list(APPEND args "${t}=$<TARGET_FILE:${tgt}>")
      list(APPEND targets "${tgt}")
    endif()
  endforeach()
  add_custom_command(
    OUTPUT "${BOOK_CY_TAGS}.stamp"
    BYPRODUCTS "${BOOK_CY_TAGS}"
    COMMAND "${BOOK_PYTHON}" "${CMAKE_SOURCE_DIR}/tools/cy-tags.py" --out "${BOOK_CY_TAGS}"
            --stamp "${BOOK_CY_TAGS}.stamp" -- ${args}
    DEPENDS ${targets} "${CMAKE_SOURCE_DIR}/tools/cy-tags.py"
    COMMENT "Listing the check-yourself tags of ${CMAKE_BINARY_DIR}/cy-tags.json"
    VERBATIM)
  add_custom_target(book_cy_tags ALL DEPENDS "${BOOK_CY_TAGS}.stamp")
endfunction()

function(book_summary)
  get_property(left GLOBAL PROPERTY BOOK_LEFT_OUT)
  message(STATUS "Book: CUDA compiler: ${BOOK_HAVE_CUDA}; GPUs found: ${BOOK_GPU_COUNT}; GPU runs live: ${BOOK_GPU_LIVE}")
  if(left)
    string(REPLACE ";" ", " left "${left}")
    message(STATUS "Book: left out (no nvcc): ${left}; their outputs come from recordings/${BOOK_GPU_SLUG}")
    message(STATUS "Book: left out (no nvcc): the GPU, sanitizer and GPU-exercise tests, which report skipped")
  elseif(NOT BOOK_GPU_LIVE)
    message(STATUS "Book: GPU program outputs come from recordings/${BOOK_GPU_SLUG}")
  endif()
endfunction()
