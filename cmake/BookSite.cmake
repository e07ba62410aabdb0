# SPDX-License-Identifier: MIT
# The reader's site and the PDF edition, on top of cmake/BookDocs.cmake (which
# includes this file last):
#
#   - the site's settings for Sphinx (BUILD/site/site.json): where listings link,
#     and the toolchain the page "How this book was built" lists;
#   - plots: every diagrams/<key>/<name>.plot.py drawn from the records of the
#     runs it names (BUILD/plots/<key>/<name>.svg, -dark.svg, .pdf), drawn again
#     when the spec or one of those records changes; a plot of a run that waits
#     for this build's GPU and has no record here (recordings/pending.json) is
#     not drawn, and its page says that it waits;
#   - the exercises' downloads: one archive per chapter with exercises
#     (BUILD/downloads/<key>-exercises.tar.gz), the grader's student bundle of
#     that chapter (tools/grade --bundle), listed in downloads.json;
#   - the PDF edition: target `pdf` (not in the default build): the diagrams as
#     vector PDFs, Sphinx's LaTeX builder and XeLaTeX -> BUILD/pdf/book.pdf, then
#     the HTML book published again with a link to it;
#   - the site's tests (tests/site): the browser test, its failure cases, the
#     downloads' content and, after `pdf`, the PDF's pages.
#
# The HTML step gets the plots, the downloads and the settings as dependencies
# (add_custom_command(APPEND) on its stamp).
set(BOOK_REPOSITORY_URL "" CACHE STRING
    "Where a listing's caption links (https://github.com/<owner>/<repo>); empty: to a page of the site that shows the file")
set(BOOK_REPOSITORY_REF "" CACHE STRING
    "The branch, tag or commit those links name (empty: main)")

set(BOOK_SITE_DIR "${CMAKE_BINARY_DIR}/site")
set(BOOK_PLOTS_DIR "${CMAKE_BINARY_DIR}/plots")
set(BOOK_DOWNLOADS_DIR "${CMAKE_BINARY_DIR}/downloads")
set(BOOK_PDF "${CMAKE_BINARY_DIR}/pdf/book.pdf")

# The record file of every declared run: <key>/<run> -> path (today's Book.cmake
# lists the files; a later one names the runs).
function(_book_site_records out_keys)
  set(keys "")
  get_property(runs GLOBAL PROPERTY BOOK_RUNS)
  if(runs)
    foreach(run IN LISTS runs)
      get_property(rec GLOBAL PROPERTY "BOOK_R_${run}_RECORD")
      get_property(made GLOBAL PROPERTY "BOOK_R_${run}_MADE")
      if(NOT made)
        continue()
      endif()
      list(APPEND keys "${run}")
      set_property(GLOBAL PROPERTY "BOOK_SITE_RECORD_${run}" "${rec}")
    endforeach()
  else()
    get_property(files GLOBAL PROPERTY BOOK_RECORD_FILES)
    foreach(rec IN LISTS files)
      file(RELATIVE_PATH key "${BOOK_RECORDS_DIR}" "${rec}")
      string(REGEX REPLACE "\\.json$" "" key "${key}")
      list(APPEND keys "${key}")
      set_property(GLOBAL PROPERTY "BOOK_SITE_RECORD_${key}" "${rec}")
    endforeach()
  endif()
  set(${out_keys} "${keys}" PARENT_SCOPE)
endfunction()
_book_site_records(_site_runs)

# ---- the site's settings and the toolchain (at configure time) -----------------------
function(_book_tool_version out)
  execute_process(COMMAND ${ARGN} OUTPUT_VARIABLE text ERROR_VARIABLE err RESULT_VARIABLE rc
                  TIMEOUT 20)
  set(line "")
  if(rc EQUAL 0)
    string(REPLACE "\n" ";" lines "${text}")
    foreach(l IN LISTS lines)
      if(l MATCHES "[0-9]+\\.[0-9]+")
        string(STRIP "${l}" line)
        break()
      endif()
    endforeach()
  endif()
  if(NOT line)
    set(line "not found")
  endif()
  set(${out} "${line}" PARENT_SCOPE)
endfunction()

# _book_json_string (a JSON string of a CMake value): cmake/BookHelpers.cmake.
set(_tc "{}")
macro(_book_tc name value)
  _book_json_string(_q "${value}")
  string(JSON _tc SET "${_tc}" "${name}" "${_q}")
endmacro()
_book_tc("CMake" "${CMAKE_VERSION} (${CMAKE_GENERATOR})")
_book_tc("C++ compiler" "${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}")
if(CMAKE_CUDA_COMPILER_VERSION)
  _book_tc("CUDA compiler (nvcc)" "${CMAKE_CUDA_COMPILER_VERSION}")
else()
  _book_tc("CUDA compiler (nvcc)" "not found: GPU programs come from recordings")
endif()
_book_tool_version(_v "${BOOK_DOXYGEN}" --version)
_book_tc("Doxygen" "${_v}")
_book_tool_version(_v /usr/bin/chromium --version)
_book_tc("Chromium" "${_v}")
find_program(BOOK_NODE node)
if(BOOK_NODE)
  _book_tool_version(_v "${BOOK_NODE}" --version)
  _book_tc("Node.js" "${_v}")
endif()
foreach(_pkg "@mermaid-js/mermaid-cli:Mermaid CLI" "mermaid:Mermaid")
  string(REPLACE ":" ";" _pkg "${_pkg}")
  list(GET _pkg 0 _dir)
  list(GET _pkg 1 _label)
  set(_json "${CMAKE_SOURCE_DIR}/node_modules/${_dir}/package.json")
  if(EXISTS "${_json}")
    file(READ "${_json}" _text)
    string(JSON _v ERROR_VARIABLE _err GET "${_text}" version)
    _book_tc("${_label}" "${_v}")
  endif()
endforeach()
find_program(BOOK_XELATEX xelatex)
find_program(BOOK_LATEXMK latexmk)
if(BOOK_XELATEX)
  _book_tool_version(_v "${BOOK_XELATEX}" --version)
  _book_tc("XeLaTeX (the PDF edition)" "${_v}")
endif()
find_program(BOOK_PDFTOPPM pdftoppm)
set(_settings "{}")
_book_json_string(_q "${BOOK_REPOSITORY_URL}")
string(JSON _settings SET "${_settings}" repository_url "${_q}")
_book_json_string(_q "${BOOK_REPOSITORY_REF}")
string(JSON _settings SET "${_settings}" repository_ref "${_q}")
string(JSON _settings SET "${_settings}" toolchain "${_tc}")
file(GENERATE OUTPUT "${BOOK_SITE_DIR}/site.json" CONTENT "${_settings}\n")

# ---- plots -------------------------------------------------------------------------------
file(GLOB_RECURSE _plot_specs CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/diagrams/*.plot.py")
book_select_chapter_paths(_plot_specs)  # BOOK_CHAPTERS
set(_plots_html "")
set(_plots_pdf "")
foreach(spec IN LISTS _plot_specs)
  file(RELATIVE_PATH rel "${CMAKE_SOURCE_DIR}" "${spec}")
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${spec}")
  execute_process(COMMAND ${BOOK_PY} -m bookpy.build.render_plot runs
                          "${CMAKE_SOURCE_DIR}" "${spec}"
                  OUTPUT_VARIABLE _runs ERROR_VARIABLE _err RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    string(STRIP "${_err}" _err)
    message(FATAL_ERROR "${_err}")
  endif()
  string(STRIP "${_runs}" _runs)
  string(REPLACE "\n" ";" _runs "${_runs}")
  string(REGEX REPLACE "^diagrams/(.*)\\.plot\\.py$" "\\1" key "${rel}")
  get_filename_component(_dir "${BOOK_PLOTS_DIR}/${key}" DIRECTORY)
  set(_recs "")
  set(_args "")
  set(_waits_for "")
  get_property(_declared GLOBAL PROPERTY BOOK_RUNS)
  foreach(run IN LISTS _runs)
    if(NOT run IN_LIST _site_runs)
      # A declared run with no record here because it waits for this build's GPU
      # (recordings/pending.json): the plot is not drawn, and its page says that
      # it waits (plots.py), as an output block of the run does.
      book_pending_reason(_waits "${run}" "${BOOK_GPU_MODEL}")
      if(run IN_LIST _declared AND _waits)
        list(APPEND _waits_for "${run}")
        continue()
      endif()
      message(FATAL_ERROR "${rel}: the plot reads run ${run}, which no book_run() declares "
                          "(code/<chapter>/CMakeLists.txt)")
    endif()
    get_property(_rec GLOBAL PROPERTY "BOOK_SITE_RECORD_${run}")
    list(APPEND _recs "${_rec}")
    list(APPEND _args --record "${run}=${_rec}")
    # A GPU run's record on every GPU (a series per GPU): the build's own, and each
    # other GPU's where the run waits for none (a stale one plotting.py leaves out).
    get_property(_gpus GLOBAL PROPERTY "BOOK_R_${run}_GPUS")
    foreach(_gpu IN LISTS _gpus)
      book_gpu_slug(_slug "${_gpu}")
      get_property(_grec GLOBAL PROPERTY "BOOK_R_${run}_GPU_RECORD_${_slug}")
      book_pending_reason(_waits "${run}" "${_gpu}")
      set(_label "${_gpu}")
      if(DEFINED BOOK_GPU_SHORT_${_slug})
        set(_label "${BOOK_GPU_SHORT_${_slug}}")
      endif()
      if(_grec AND (NOT _waits OR _gpu STREQUAL BOOK_GPU_MODEL))
        list(APPEND _recs "${_grec}")
        list(APPEND _args --gpu-record "${run}=${_label}=${_grec}")
      endif()
    endforeach()
  endforeach()
  if(_waits_for)
    continue()
  endif()
  set(_out "${BOOK_PLOTS_DIR}/${key}")
  add_custom_command(
    OUTPUT "${_out}.svg" "${_out}-dark.svg" "${_out}.pdf" "${_out}-phone.svg" "${_out}-phone-dark.svg"
    COMMAND ${BOOK_PY} -m bookpy.build.render_plot draw
            "${CMAKE_SOURCE_DIR}" "${spec}" "${_dir}" ${_args}
    DEPENDS "${spec}" ${_recs} "${CMAKE_SOURCE_DIR}/tools/bookpy/build/render_plot.py"
            "${CMAKE_SOURCE_DIR}/tools/bookpy/build/plotting.py"
    COMMENT "Drawing ${rel}"
    VERBATIM)
  list(APPEND _plots_html "${_out}.svg" "${_out}-dark.svg" "${_out}-phone.svg" "${_out}-phone-dark.svg")
  list(APPEND _plots_pdf "${_out}.pdf")
endforeach()

# ---- the exercises' downloads ---------------------------------------------------------
# Each chapter's archive is the grader's student bundle of that chapter alone,
# written from this build's kit description (BUILD/exercises/kit.json, written at
# generate time; nothing of the kit is compiled for it). Its inputs: the files
# under exercises/<key>/ and tests/<key>/exercises/ (found again when one is
# added), and, through the depfile tools/grade writes, every other file and
# folder it read: the libraries it ships, the build template, kit.json and the
# grader's own code. The same inputs give the same bytes.
set(_downloads "")
if(BOOK_TESTS AND TARGET exercise-kit)
  set(_kit_json "${CMAKE_BINARY_DIR}/exercises/kit.json")
  file(GLOB _ex_chapters LIST_DIRECTORIES true "${CMAKE_SOURCE_DIR}/exercises/ch[0-9][0-9]-*")
  book_select_chapter_paths(_ex_chapters)  # BOOK_CHAPTERS
  set(_list "{}")
  foreach(dir IN LISTS _ex_chapters)
    if(NOT IS_DIRECTORY "${dir}")
      continue()
    endif()
    get_filename_component(key "${dir}" NAME)
    file(GLOB_RECURSE _files CONFIGURE_DEPENDS "${dir}/*" "${CMAKE_SOURCE_DIR}/tests/${key}/exercises/*")
    file(GLOB _exs LIST_DIRECTORIES true "${dir}/ex*")
    set(_names "[]")
    set(_i 0)
    foreach(ex IN LISTS _exs)
      if(IS_DIRECTORY "${ex}")
        get_filename_component(_n "${ex}" NAME)
        _book_json_string(_q "${_n}")
        string(JSON _names SET "${_names}" ${_i} "${_q}")
        math(EXPR _i "${_i} + 1")
      endif()
    endforeach()
    set(_archive "${BOOK_DOWNLOADS_DIR}/${key}-exercises.tar.gz")
    add_custom_command(
      OUTPUT "${_archive}"
      COMMAND ${BOOK_PY} "${CMAKE_SOURCE_DIR}/tools/grade" --bundle "${_archive}"
              --chapter "${key}" --kit "${CMAKE_BINARY_DIR}" --depfile "${_archive}.d"
      DEPENDS ${_files} "${_kit_json}" "${CMAKE_SOURCE_DIR}/tools/grade"
      DEPFILE "${_archive}.d"
      WORKING_DIRECTORY "${CMAKE_SOURCE_DIR}"
      COMMENT "Packing the exercises of ${key} for download (tools/grade --bundle)"
      VERBATIM)
    list(APPEND _downloads "${_archive}")
    _book_json_string(_q "${_archive}")
    string(JSON _list SET "${_list}" "${key}" "{\"archive\": ${_q}, \"exercises\": ${_names}}")
  endforeach()
  file(GENERATE OUTPUT "${BOOK_DOWNLOADS_DIR}/downloads.json" CONTENT "{\"chapters\": ${_list}}\n")
  list(APPEND _downloads "${BOOK_DOWNLOADS_DIR}/downloads.json")
else()
  # The student bundle is written from the kit's description, which a build with
  # the tests makes: without them the site offers no downloads (and shows none
  # of an earlier configuration).
  file(REMOVE "${BOOK_DOWNLOADS_DIR}/downloads.json")
  message(STATUS "Site: no exercise downloads (they are written from the grader's kit "
                 "description, which a build with BOOK_TESTS=ON makes)")
endif()

# ---- each chapter's programs, and the source archive ------------------------------------
# A chapter's programs are a download of their own (cmake/BookPackPrograms.cmake:
# the chapter's folder, the book's library, a standalone CMakeLists.txt and a
# README with the commands; site.downloads.programs builds chapter 1's by its
# README alone), listed in programs.json. The source archive of the commit the
# book is built from (cmake/BookPackSource.cmake, run by every build, which
# rewrites the archive only when the commit changes) is what the pages offer
# where the book has no public address.
file(GLOB _code_chapters LIST_DIRECTORIES true "${CMAKE_SOURCE_DIR}/code/ch[0-9][0-9]-*")
book_select_chapter_paths(_code_chapters)  # BOOK_CHAPTERS
file(GLOB_RECURSE _common_files CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/code/common/*")
file(GLOB _standalone CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/cmake/standalone/*")
set(_programs_list "{}")
foreach(dir IN LISTS _code_chapters)
  get_filename_component(key "${dir}" NAME)
  if(NOT IS_DIRECTORY "${dir}" OR NOT EXISTS "${CMAKE_SOURCE_DIR}/chapters/${key}.md")
    continue()
  endif()
  file(GLOB_RECURSE _files CONFIGURE_DEPENDS "${dir}/*")
  set(_archive "${BOOK_DOWNLOADS_DIR}/${key}-programs.tar.gz")
  add_custom_command(
    OUTPUT "${_archive}"
    COMMAND "${CMAKE_COMMAND}" "-DKEY=${key}" "-DROOT=${CMAKE_SOURCE_DIR}" "-DOUT=${_archive}"
            -P "${CMAKE_SOURCE_DIR}/cmake/BookPackPrograms.cmake"
    DEPENDS ${_files} ${_common_files} ${_standalone} "${CMAKE_SOURCE_DIR}/cmake/BookPackPrograms.cmake"
            "${CMAKE_SOURCE_DIR}/cmake/BookLanguages.cmake" "${CMAKE_SOURCE_DIR}/cmake/BookCalls.cmake"
            "${CMAKE_SOURCE_DIR}/chapters/${key}.md" "${CMAKE_SOURCE_DIR}/LICENSES/MIT.txt"
    COMMENT "Packing the programs of ${key} for download"
    VERBATIM)
  list(APPEND _downloads "${_archive}")
  _book_json_string(_q "${_archive}")
  string(JSON _programs_list SET "${_programs_list}" "${key}" "${_q}")
endforeach()
file(GENERATE OUTPUT "${BOOK_DOWNLOADS_DIR}/programs.json"
     CONTENT "{\"programs\": ${_programs_list}, \"source\": \"${BOOK_DOWNLOADS_DIR}/source.json\"}\n")
list(APPEND _downloads "${BOOK_DOWNLOADS_DIR}/programs.json")
add_custom_target(book_source_archive
  COMMAND "${CMAKE_COMMAND}" "-DROOT=${CMAKE_SOURCE_DIR}" "-DOUTDIR=${BOOK_DOWNLOADS_DIR}"
          -P "${CMAKE_SOURCE_DIR}/cmake/BookPackSource.cmake"
  BYPRODUCTS "${BOOK_DOWNLOADS_DIR}/source.json"
  COMMENT "The source archive of this commit (git archive HEAD), for the pages to offer"
  VERBATIM)
list(APPEND _downloads "${BOOK_DOWNLOADS_DIR}/source.json")

# The lines of code/, exercises/ and solutions/ that a compiler kept: every
# translation unit there preprocessed with its own command, each conditional
# group marked (tools/bookpy/build/kept_lines.py). A listing shows no line of a
# group no unit compiled (an #if 0 region) and no file no unit included. Run
# again when a source there or a compile command changes; it preprocesses again
# only the units whose command or included files changed.
file(GLOB_RECURSE _kept_sources CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/code/*"
     "${CMAKE_SOURCE_DIR}/exercises/*" "${CMAKE_SOURCE_DIR}/solutions/*")
add_custom_command(
  OUTPUT "${CMAKE_BINARY_DIR}/kept-lines.json"
  COMMAND ${BOOK_PY} -m bookpy.build.kept_lines --root "${CMAKE_SOURCE_DIR}"
          --compile-commands "${CMAKE_BINARY_DIR}/compile_commands.json"
          --out "${CMAKE_BINARY_DIR}/kept-lines.json"
  DEPENDS ${_kept_sources} "${CMAKE_BINARY_DIR}/compile_commands.json"
          "${CMAKE_SOURCE_DIR}/tools/bookpy/build/kept_lines.py"
  COMMENT "The lines of the book's code that a compiler kept (preprocessed)"
  VERBATIM)
list(APPEND _downloads "${CMAKE_BINARY_DIR}/kept-lines.json")

# The HTML step reads all of these. (The APPEND form adds DEPENDS alone, with no
# COMMAND; cmake-lint's E1125 does not know that form.)
# cmake-lint: disable=E1125
add_custom_command(OUTPUT "${BOOK_HTML_STAMP}" APPEND
                   DEPENDS ${_plots_html} ${_downloads} "${BOOK_SITE_DIR}/site.json")

# ---- the PDF edition (target pdf) -----------------------------------------------------------
# The diagrams' PDFs come from the step that renders their SVGs (cmake/BookDocs.cmake).
set(_diagram_pdfs ${BOOK_DIAGRAM_PDFS})
set(_pdf_missing "")
foreach(_tool BOOK_XELATEX BOOK_LATEXMK)
  if(NOT ${_tool})
    list(APPEND _pdf_missing "${_tool}")
  endif()
endforeach()
if(_pdf_missing)
  add_custom_target(pdf
    COMMAND "${CMAKE_COMMAND}" -E echo "The PDF edition needs XeLaTeX and latexmk (Debian: texlive-xetex latexmk); `tools/book deps` installs them"
    COMMAND "${CMAKE_COMMAND}" -E false
    VERBATIM)
else()
  # The PDF is a release: it refuses a recording of the lead GPU that is stale
  # or pending (bookpy.records.gpustates --release), as tools/book build --release does.
  add_custom_command(
    OUTPUT "${BOOK_PDF}"
    COMMAND ${BOOK_PY} -m bookpy.records.gpustates --manifest "${BOOK_MANIFEST}" --release
    COMMAND ${BOOK_PY} -m bookpy.build.pdf
            "${CMAKE_SOURCE_DIR}" "${CMAKE_BINARY_DIR}" "${BOOK_PDF}" "${BOOK_EDITION}"
    DEPENDS "${BOOK_HTML_STAMP}" ${_diagram_pdfs} ${_plots_pdf}
            "${CMAKE_SOURCE_DIR}/tools/bookpy/build/pdf.py"
            "${CMAKE_SOURCE_DIR}/tools/bookpy/records/gpustates.py"
    DEPFILE "${BOOK_PDF}.d"
    COMMENT "Sphinx and XeLaTeX: chapters -> PDF"
    USES_TERMINAL
    VERBATIM)
  add_custom_target(pdf DEPENDS "${BOOK_PDF}")
endif()
