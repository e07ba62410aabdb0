# SPDX-License-Identifier: MIT
# The documentation half of the graph: Mermaid diagrams -> SVG, Doxygen -> XML,
# and Sphinx (MyST chapters, Breathe, the book's extension) -> HTML.
execute_process(COMMAND ${BOOK_PY} -c "import sphinx, myst_parser, breathe, furo"
                RESULT_VARIABLE _py_ok OUTPUT_QUIET ERROR_QUIET)
find_program(BOOK_DOXYGEN doxygen)
set(BOOK_MMDC "${CMAKE_SOURCE_DIR}/node_modules/.bin/mmdc")
set(_missing "")
if(NOT _py_ok EQUAL 0)
  list(APPEND _missing "python3-sphinx python3-myst-parser python3-breathe furo (for ${BOOK_PYTHON})")
endif()
if(NOT BOOK_DOXYGEN)
  list(APPEND _missing "doxygen")
endif()
if(NOT EXISTS /usr/bin/chromium)
  list(APPEND _missing "chromium")
endif()
if(NOT EXISTS "${BOOK_MMDC}")
  list(APPEND _missing "Mermaid CLI (npm ci in ${CMAKE_SOURCE_DIR})")
endif()
if(_missing)
  string(REPLACE ";" ", " _missing "${_missing}")
  message(FATAL_ERROR "The book's HTML needs: ${_missing}. `tools/book deps` installs them "
                      "(or configure with -DBOOK_DOCS=OFF for the programs alone).")
endif()

set(BOOK_DOCS_DIR "${CMAKE_BINARY_DIR}")
set(BOOK_DIAGRAMS_OUT "${CMAKE_BINARY_DIR}/diagrams")
set(BOOK_DOXYGEN_DIR "${CMAKE_BINARY_DIR}/doxygen")

# Diagrams: one SVG per diagrams/<chapter>/<name>.mmd (the HTML book) and one
# PDF (the PDF edition: cmake/BookSite.cmake), written to
# BOOK_DIAGRAMS_OUT/<chapter>/<name>.svg and .pdf. One step renders every SVG of
# the build in one browser session (tools/bookpy/build/render_diagram.py), and another every
# PDF, which only the PDF edition (the target pdf, not the default build) asks
# for: Chromium starts once per format, not once per diagram (a start costs
# more than a diagram). A diagram's error still names its file and line; a diagram edited
# re-renders the others of its format.
#   book_render_diagrams(<svg var> <pdf var> <sources>...)
# adds those steps and sets the two variables to their outputs.
function(book_render_diagrams out_svg out_pdf)
  set(svgs "")
  set(pdfs "")
  list(LENGTH ARGN n)
  foreach(format svg pdf)
    set(args "")
    set(outs "")
    foreach(src IN LISTS ARGN)
      file(RELATIVE_PATH rel "${CMAKE_SOURCE_DIR}/diagrams" "${src}")
      string(REGEX REPLACE "\\.mmd$" "" rel "${rel}")
      list(APPEND args "${src}" "${BOOK_DIAGRAMS_OUT}/${rel}.${format}")
      list(APPEND outs "${BOOK_DIAGRAMS_OUT}/${rel}.${format}")
    endforeach()
    if(n GREATER 0)
      string(TOUPPER "${format}" shown)
      add_custom_command(
        OUTPUT ${outs}
        COMMAND ${BOOK_PY} -m bookpy.build.render_diagram
                "${CMAKE_SOURCE_DIR}" ${args}
        DEPENDS ${ARGN} "${CMAKE_SOURCE_DIR}/tools/bookpy/build/render_diagram.py"
                "${CMAKE_SOURCE_DIR}/tools/mermaid-batch.mjs"
                "${CMAKE_SOURCE_DIR}/tools/mermaid.json" "${CMAKE_SOURCE_DIR}/tools/puppeteer.json"
        COMMENT "Rendering diagrams/: ${n} diagrams (${shown}, one browser)"
        VERBATIM)
    endif()
    list(APPEND ${format}s ${outs})
  endforeach()
  set(${out_svg} "${svgs}" PARENT_SCOPE)
  set(${out_pdf} "${pdfs}" PARENT_SCOPE)
endfunction()

file(GLOB_RECURSE _mmd CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/diagrams/*.mmd")
book_select_chapter_paths(_mmd)  # BOOK_CHAPTERS
list(SORT _mmd)
book_render_diagrams(_svgs BOOK_DIAGRAM_PDFS ${_mmd})
# Rendered before any GPU run starts, so that no browser shares the host with one.
set_property(GLOBAL APPEND PROPERTY BOOK_BEFORE_GPU_OUTPUTS ${_svgs})

# Doxygen: the shared library's headers, as XML for Breathe.
file(GLOB_RECURSE _headers CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/code/common/include/*")
configure_file("${CMAKE_SOURCE_DIR}/book/Doxyfile.in" "${CMAKE_BINARY_DIR}/Doxyfile" @ONLY)
add_custom_command(
  OUTPUT "${BOOK_DOXYGEN_DIR}/xml/index.xml"
  COMMAND "${CMAKE_COMMAND}" -E rm -rf "${BOOK_DOXYGEN_DIR}/xml"
  COMMAND "${BOOK_DOXYGEN}" "${CMAKE_BINARY_DIR}/Doxyfile"
  # Breathe caches which XML files each page read: after a class is renamed
  # it would look for the old file and fail once. Sphinx reads every page again.
  COMMAND "${CMAKE_COMMAND}" -E rm -f "${CMAKE_BINARY_DIR}/sphinx-doctrees/environment.pickle"
  DEPENDS ${_headers} "${CMAKE_SOURCE_DIR}/book/Doxyfile.in"
  COMMENT "Doxygen: code/common/include -> XML"
  VERBATIM)

# Sphinx: re-runs when a chapter, the configuration, a record, a diagram, the
# API XML, the build manifest or the check-yourself tags change, or any other
# file a page read (a listing's source, an exercise's text: the depfile
# bookpy.build.html writes from what the pages noted). Not when a test's code
# changes: cy-tags.json is rewritten only when a tag moves.
file(GLOB_RECURSE _chapters CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/chapters/*")
file(GLOB_RECURSE _bookconf CONFIGURE_DEPENDS "${CMAKE_SOURCE_DIR}/book/*")
list(FILTER _bookconf EXCLUDE REGEX "/__pycache__/|\\.pyc$")
# The extension and the package it is part of (tools/bookpy), its tests left out.
file(GLOB_RECURSE _bookpy CONFIGURE_DEPENDS "${BOOK_PY_PATH}/bookpy/*.py")
list(FILTER _bookpy EXCLUDE REGEX "/tests/")
if(NOT BOOK_EDITION MATCHES "^(reader|instructor)$")
  message(FATAL_ERROR "BOOK_EDITION must be reader or instructor, not '${BOOK_EDITION}'")
endif()
set(_tags "")
if(BOOK_TESTS)
  set(_tags "${BOOK_CY_TAGS}")
endif()
get_property(_runs GLOBAL PROPERTY BOOK_RUNS)
set(_records "")
# Each run's record on every GPU the pages show (none for a run that waits for
# a GPU and was never recorded there).
foreach(_run IN LISTS _runs)
  get_property(_made GLOBAL PROPERTY "BOOK_R_${_run}_MADE")
  get_property(_r GLOBAL PROPERTY "BOOK_R_${_run}_RECORD")
  if(_made)
    list(APPEND _records "${_r}")
  endif()
  get_property(_gpus GLOBAL PROPERTY "BOOK_R_${_run}_GPUS")
  foreach(_gpu IN LISTS _gpus)
    if(NOT _gpu STREQUAL BOOK_GPU_MODEL)
      book_gpu_slug(_slug "${_gpu}")
      get_property(_r GLOBAL PROPERTY "BOOK_R_${_run}_GPU_RECORD_${_slug}")
      list(APPEND _records ${_r})
    endif()
  endforeach()
endforeach()
# The reader's GPU (tools/book mine): its index changes whenever mine runs again
# (the pages read each record it names as their dependency).
if(BOOK_READER_RECORDS)
  list(APPEND _records "${BOOK_READER_RECORDS}/mine.json")
endif()
set(BOOK_HTML_STAMP "${CMAKE_BINARY_DIR}/html.stamp")
add_custom_command(
  OUTPUT "${BOOK_HTML_STAMP}"
  COMMAND ${BOOK_PY} -m bookpy.build.html
          "${CMAKE_SOURCE_DIR}" "${CMAKE_BINARY_DIR}" "${BOOK_HTML_STAMP}" "${BOOK_EDITION}"
  DEPENDS ${_chapters} ${_bookconf} ${_bookpy} ${_records} ${_svgs} ${_tags}
          "${BOOK_MANIFEST}" "${BOOK_DOXYGEN_DIR}/xml/index.xml"
  DEPFILE "${BOOK_HTML_STAMP}.d"
  COMMENT "Sphinx: chapters -> HTML"
  USES_TERMINAL
  VERBATIM)
add_custom_target(book ALL DEPENDS "${BOOK_HTML_STAMP}")
include(BookSite)  # the reader's site and the PDF edition: cmake/BookSite.cmake
