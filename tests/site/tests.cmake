# SPDX-License-Identifier: MIT
# The reader's site and the PDF edition (included from tests/CMakeLists.txt at
# the end of the top folder, once cmake/BookSite.cmake has declared them; each
# test runs in <build>/tests/site). Labels: book, site (and pdf).
#
#   site.browser            every page of the built book in headless Chromium at 1280 px
#                           and 390 px, in the light theme and (the front page and the
#                           chapters) dark, auto in a light and a dark system, and print
#                           (check_site.py: each page loaded once, resized and its theme
#                           toggled for its other views; two browsers side by side);
#                           screenshots go to <build>/site-test/shots
#   site.browser.bad.<case> the same check on a copy of the book broken on purpose must
#                           fail and name the fault: the theme's script as Debian ships
#                           it, a diagram with text too small, an output block with an
#                           inner scroll, a broken anchor, a missing image, an output
#                           block without "Run it yourself", a front page without a
#                           section it needs, a page not linking the glossary, "On this
#                           page" hidden at 1280 px, no skip link, "Back to top" and the
#                           copy button over the text on a phone, an index listing a
#                           term twice, and the
#                           faults the cases below name
#   site.downloads          each chapter's exercises archive holds the starters and the
#                           visible tests, and no solution and no hidden test
#   site.downloads.build    the download chapter 1's page links is the bytes tools/grade
#                           --bundle writes from these sources; unpacked in an empty
#                           folder it builds, its starters fail their visible tests and
#                           the solutions pass them (tools/grader/tests/check_bundle.py)
#   site.downloads.programs chapter 1's programs as its page offers them, unpacked in an
#                           empty folder, built and run by their README's commands alone
#   site.downloads.source   the source archive the front page links holds no solution,
#                           hidden test or grader test, and configures as the reader's source
#   site.pytest             the site's Python parts (theme fixes, plots, downloads, ...)
#   site.pdf.build          builds the PDF edition (the `pdf` target) for:
#   site.pdf                its pages rendered to PNG: as many as XeLaTeX wrote, none
#                           blank, no glyph missing, every chapter's title in its text,
#                           the site's glossary (every term, in order) as its last chapter
#                           and the book's structure: front matter, then the chapters at the
#                           outline's top, each opening a page; metadata; web links
#   site.pdf.bad.structure  the structure check on a PDF without it must fail
#   site.pdf.bad.blank-page the page check on a PDF with a blank page must fail
#   site.pdf.bad.broken-number the check on a PDF whose wrapped line splits a number must fail
#   site.pdf.bad.no-glossary the glossary check on a PDF without one must fail
set(_py ${BOOK_PY})
set(_here "${CMAKE_CURRENT_LIST_DIR}")
set(_site_bin "${CMAKE_BINARY_DIR}/tests/site")
file(MAKE_DIRECTORY "${_site_bin}")
set(_check "${_here}/check_site.py")
set(_html "${CMAKE_BINARY_DIR}/html")
set(_expect "${CMAKE_SOURCE_DIR}/tests/book/expect_failure.py")
set(_scratch "${_site_bin}/scratch")

add_test(NAME site.browser WORKING_DIRECTORY "${_site_bin}"
         COMMAND ${_py} "${_check}" --html "${_html}" --out "${CMAKE_BINARY_DIR}/site-test")
# (A page per section: about 50 chapters' pages, each opened in its views.)
set_tests_properties(site.browser PROPERTIES LABELS "book;site" TIMEOUT 360
                     RESOURCE_LOCK book_html)

# book_site_bad(<case> <page> [THEMES <themes>] <expect_failure.py steps and checks>...):
# check_site.py on one page of a copy of the built book (at 1280 px, in the light
# theme unless THEMES names others), changed by the steps, must fail as expected.
function(book_site_bad case page)
  cmake_parse_arguments(B "" "THEMES;WIDTHS" "" ${ARGN})
  if(NOT B_THEMES)
    set(B_THEMES light)
  endif()
  if(NOT B_WIDTHS)
    set(B_WIDTHS 1280)
  endif()
  add_test(NAME "site.browser.bad.${case}" WORKING_DIRECTORY "${_site_bin}"
           COMMAND ${_py} "${_expect}" --scratch "${_scratch}/${case}" --copy "${_html}" html
                   ${B_UNPARSED_ARGUMENTS}
                   -- ${_py} "${_check}" --html html --pages "${page}" --widths "${B_WIDTHS}"
                      --themes "${B_THEMES}")
  set_tests_properties("site.browser.bad.${case}" PROPERTIES LABELS "book;site" TIMEOUT 120
                       RESOURCE_LOCK book_html)
endfunction()
# The theme's script as Debian ships it (an ES module loaded as a plain script).
book_site_bad(theme-script index.html
  --copy /usr/lib/python3/dist-packages/furo/theme/furo/static/scripts/furo.js
         html/_static/scripts/furo.js
  --expect "console error: .*furo\\.js.*Cannot use import statement outside a module"
  --expect "the theme's script did not run")
# The theme's stylesheet as Debian ships it: an @import no site has, and no dark
# colours for a dark system in "auto".
book_site_bad(theme-stylesheet index.html THEMES auto-dark
  --copy /usr/lib/python3/dist-packages/furo/theme/furo/static/styles/furo.css
         html/_static/styles/furo.css
  --expect "a request got status 404: .*/javascript/normalize\.css/normalize\.css"
  --expect "the dark theme shows a light page")
# A diagram drawn for a page twice as wide: its text shrinks under 12 px.
# (book.js would draw it wider, so that its text is 12 px again: its sizing is
# left out here, as where it cannot measure the figure.)
book_site_bad(tiny-diagram ch01-execution-model/04-divergence.html
  --replace html/_images/divergence.svg "font-size:16px" "font-size:7px"
  --replace html/_static/book.js "    readableFigures();" "    void 0;"
  --expect "a figure's smallest text is [0-9.]+ px at the column width \\(under 12 px\\): \\.\\./_images/divergence\\.svg")
# An output block that scrolls inside its own box. (No ';' in
# the CSS: CMake would split the argument there.)
book_site_bad(inner-scroll ch01-execution-model/05-measuring-divergence.html
  --replace html/_static/book.css "/* The sidebar's editions. */"
            ".book-run .highlight pre { max-height: 12em !important } .book-run .highlight pre { overflow: auto !important }"
  --expect "a block scrolls inside \\([0-9]+ px of content in [0-9]+ px\\): pre")
# A link to an anchor the page does not have, and an image that is not there.
book_site_bad(broken-anchor index.html
  --replace html/index.html "href=\"ch01-execution-model.html\"" "href=\"ch01-execution-model.html#no-such-section\""
  --expect "index\\.html: a link names an anchor that ch01-execution-model\\.html does not have: #no-such-section")
book_site_bad(missing-image index.html
  --replace html/index.html "<h1>" "<img src=\"_images/not-there.svg\" alt=\"gone\"><h1>"
  --expect "an image did not load: _images/not-there\\.svg"
  --expect "a request got status 404: .*not-there\\.svg")

# A chapter made one page again (every section's page added to the chapter's):
# a reader would scroll the whole chapter (check_site.py, MAX_PAGE_PX).
book_site_bad(chapter-one-page ch04-latency.html
  --before ${_py} "${_here}/make_one_page_chapter.py" html ch04-latency --before-end
  --expect "ch04-latency\\.html \\[light 1280px\\]: the page is [0-9]+ px tall at 1280 px, over [0-9]+ px: a whole chapter on one page")

# The dark rules written "@media not print and (prefers-color-scheme: dark)":
# "not" negates the whole query, so they match every light screen and every print
# on a light system.
book_site_bad(not-print-dark ch01-execution-model/04-divergence.html THEMES auto-light,print
  --replace html/_static/book.css "@media screen and (prefers-color-scheme: dark)"
            "@media not print and (prefers-color-scheme: dark)"
  --replace html/_static/styles/furo.css "@media screen and (prefers-color-scheme: dark)"
            "@media not print and (prefers-color-scheme: dark)"
  --expect "\\[auto-light 1280px\\]: the light theme shows a dark page"
  --expect "\\[print 1280px\\]: the light theme shows a dark page"
  --expect "a diagram is filtered in the light theme")
# An output's table whose cells may wrap: its rows break over lines on a phone.
book_site_bad(output-table-wraps ch02-shared-memory/05-as-fast-as-a-copy.html WIDTHS 390
  --replace html/_static/book.css "  white-space: nowrap" "  white-space: normal"
  --expect "an output table breaks [0-9]+ of its [0-9]+ rows over two lines or more")
# Output blocks wrapped like running text: a table's rows break on a phone.
book_site_bad(output-wraps ch01-execution-model/05-measuring-divergence.html WIDTHS 390
  --replace html/_static/book.css "article div.book-output > .highlight pre {\n  white-space: pre"
            "article div.book-output > .highlight pre {\n  white-space: pre-wrap"
  --expect "an output block breaks its lines \\([0-9]+ lines shown in [0-9]+ rows")
# A listing's lines not split by book.js: a wrapped line has no mark.
book_site_bad(unmarked-wrap ch01-execution-model/05-measuring-divergence.html WIDTHS 390
  --replace html/_static/book.js "      splitIntoLines(pre)" "      void (pre)"
  --expect "a code block wraps lines that are not marked")
# A listing's caption as furo sets it (centred, "Listing" and its number in a
# column of their own), its path broken inside a name.
book_site_bad(listing-caption ch01-execution-model/05-measuring-divergence.html WIDTHS 390
  --replace html/_static/book.css "article .code-block-caption {\n  display: block" "article .code-block-caption {\n  display: flex"
  --replace html/_static/book.css "text-align: left" "text-align: center"
  --replace html/_static/book.css "span.pre.book-path-part { white-space: nowrap" "span.pre.book-path-part { white-space: normal"
  --expect "a listing's caption is centred"
  --expect "a listing's caption breaks a name after")
# The students' bundle with the statements' MyST as written (2{sup}`20`).
book_site_bad(raw-myst ch01-execution-model/08-exercises.html
  --before ${_py} "${_here}/make_bad_bundle.py" html "${CMAKE_SOURCE_DIR}" --before-end
  --expect "exercises\\.tar\\.gz: .*README\\.md:[0-9]+: MyST markup a student would see raw: \\{sup\\}`")
# A theme toggled on a loaded page without book.js marking its blocks again: on
# a phone the light drawing of a plot, hidden when the page loaded dark, scrolls
# sideways with no cue. (A plot's phone drawing fits the phone: its wide one is
# shown here, as a drawing for one theme that scrolls.)
book_site_bad(theme-toggle ch01-execution-model/05-measuring-divergence.html WIDTHS 390 THEMES dark,light
  --replace html/_static/book.js "new MutationObserver(later)" "new MutationObserver(Object)"
  --replace html/_static/book.css "a.book-zoom.book-wide { display: none" "a.book-zoom.book-wide { opacity: 1"
  --expect "\\[light 390px\\]: content is hidden sideways \\([0-9]+ px of content in [0-9]+ px, overflow auto\\): img")
# An output block without its "Run it yourself" (the fold left out).
book_site_bad(no-run-yourself ch01-execution-model/05-measuring-divergence.html
  --replace html/ch01-execution-model/05-measuring-divergence.html "<summary>Run it yourself</summary>" "<summary>Details</summary>"
  --expect "a run's block has no \"Run it yourself\" with its command")
# A front page without its section on what works without a GPU, and a chapter
# that does not link the glossary.
book_site_bad(front-page index.html
  --replace html/index.html "<h2>What works without a GPU" "<h2>Notes"
  --expect "index\\.html: the front page has no section on what works without a GPU")
book_site_bad(no-glossary-link ch01-execution-model.html
  --replace html/ch01-execution-model.html "href=\"glossary.html\"" "href=\"index.html\""
  --expect "ch01-execution-model\\.html: the page does not link the glossary")
# "On this page" as furo shows it (hidden below 1312 px), no skip link, and on a
# phone "Back to top" and the copy buttons where furo puts them.
book_site_bad(on-this-page ch01-execution-model/05-measuring-divergence.html
  --replace html/_static/book.css "@media (min-width: 75em) and (max-width: 88em)" "@media (min-width: 999em)"
  --expect "\"On this page\" is not shown at 1280 px")
book_site_bad(no-skip-link ch01-execution-model.html
  --replace html/ch01-execution-model.html "class=\"book-skip-link\"" "class=\"x\""
  --expect "the page has no link to skip to its content")
book_site_bad(phone-overlaps ch01-execution-model/05-measuring-divergence.html WIDTHS 390
  --replace html/_static/book.css ".back-to-top { top: auto !important" ".back-to-top { top: 4rem !important"
  --replace html/_static/book.css "article .highlight pre { padding-top: 2.4rem" "article .highlight pre { padding-top: 0.5rem"
  --expect "on a phone \"Back to top\" covers the top of the screen"
  --expect "on a phone the copy button covers a code block's first line")
# A plot whose run awaits a GPU (ext/plots.py, book-plot-waiting) has no drawing and
# shows its note where the drawing would be: accepted as such. One that hides its
# note, a real plot marked as waiting, and a real plot with no drawing shown fail.
set(_fig "<figure class=\"book-plot align-default\" id=\"fig-ch01-divergence-sweep\">")
set(_waiting "<figure class=\"book-plot book-plot-waiting align-default\" id=\"fig-waits\"><div class=\"book-gpu-state admonition warning\"><p><strong>Not yet drawn: not yet run on the H100. </strong>This plot draws a run that waits for the H100.</p></div><figcaption><p>A plot whose run waits.</p></figcaption></figure>")
add_test(NAME site.browser.good.plot-waiting WORKING_DIRECTORY "${_site_bin}"
         COMMAND ${_py} "${_expect}" --scratch "${_scratch}/plot-waiting" --copy "${_html}" html
                 --replace html/ch01-execution-model/05-measuring-divergence.html "${_fig}" "${_waiting}${_fig}"
                 --code 0 --reject "a plot"
                 -- ${_py} "${_check}" --html html --pages ch01-execution-model/05-measuring-divergence.html
                    --widths 1280 --themes light)
set_tests_properties(site.browser.good.plot-waiting PROPERTIES LABELS "book;site" TIMEOUT 120
                     RESOURCE_LOCK book_html)
string(REPLACE "Not yet drawn: not yet run on the H100. " "Soon. " _silent "${_waiting}")
book_site_bad(plot-waiting-silent ch01-execution-model/05-measuring-divergence.html
  --replace html/ch01-execution-model/05-measuring-divergence.html "${_fig}" "${_silent}${_fig}"
  --expect "a plot marked as awaiting a GPU run does not show its note \"Not yet drawn: not yet run on the \.\.\.\": fig-waits")
book_site_bad(plot-waiting-drawn ch01-execution-model/05-measuring-divergence.html
  --replace html/ch01-execution-model/05-measuring-divergence.html "${_fig}"
            "<figure class=\"book-plot book-plot-waiting align-default\" id=\"fig-ch01-divergence-sweep\">"
  --expect "a plot marked as awaiting a GPU run holds a drawing: fig-ch01-divergence-sweep")
book_site_bad(plot-not-drawn ch01-execution-model/05-measuring-divergence.html
  --replace html/_static/book.css "/* The sidebar's editions. */"
            "figure.book-plot img { display: none !important }"
  --expect "a plot shows 0 drawings")
# An index that lists a term twice, once as its plural ("warp" and "Warps").
book_site_bad(index-twice genindex.html
  --replace html/genindex.html ">warp</a>" ">warp</a></li><li><a href=\"ch01-execution-model.html\">Warps</a>"
  --expect "genindex\\.html: the index lists 'warp' and 'Warps' as two terms")
# A figure's caption left open (an unclosed element).
book_site_bad(unclosed-element ch01-execution-model/05-measuring-divergence.html
  --replace html/ch01-execution-model/05-measuring-divergence.html "</figcaption>\n</figure>" "</figure>"
  --expect "ch01-execution-model/05-measuring-divergence\\.html: invalid HTML: line [0-9]+: <figcaption> is never closed")

# A text column as narrow as furo's: chapter 1's listings wrap at 1280 px.
book_site_bad(listing-wraps-desktop ch01-execution-model/05-measuring-divergence.html
  --replace html/_static/book.css ".content { width: 52em" ".content { width: 40em"
  --expect "at 1280 px a listing wraps [0-9]+ line")
# A wrapped line's continuation rows at the left margin, not inside its indentation.
book_site_bad(continuation-indent ch03-reductions/03-more-work-per-thread.html WIDTHS 390
  --replace html/_static/book.js "if (indent) line.style.setProperty" "if (false) line.style.setProperty"
  --expect "wrapped line\\(s\\) whose continuation rows start left of the line's own indentation")
# Figures shrunk to a phone's column, their text under 12 px.
book_site_bad(figure-phone-text ch03-reductions/02-a-tree-in-shared-memory.html WIDTHS 390
  --replace html/_static/book.js "    readableFigures();" "    void 0;"
  --expect "a figure's smallest text is [0-9.]+ px on a phone \\(under 12 px\\)")
# A phone shown a plot's wide drawing (its panels side by side, drawn no smaller
# than its text allows): the right-hand panel, which the caption describes, is
# past the screen's edge. The phone's drawing stacks them.
book_site_bad(plot-panel-hidden ch01-execution-model/05-measuring-divergence.html WIDTHS 390
  --replace html/_static/book.css "a.book-zoom.book-wide { display: none" "a.book-zoom.book-wide { opacity: 1"
  --expect "on a phone a plot is wider than the column \\([0-9]+ px in [0-9]+ px\\), a part of it off the screen: \\.\\./_images/divergence-sweep\\.svg")
# A plot's phone drawing shown beside its wide one on a desktop.
book_site_bad(plot-two-drawings ch01-execution-model/05-measuring-divergence.html
  --replace html/_static/book.css "@media not screen and (max-width: 46em)" "@media print"
  --expect "a plot shows 2 drawings: \\.\\./_images/divergence-sweep\\.svg, \\.\\./_images/divergence-sweep-phone\\.svg")
# A plot's caption naming its panels by their place, which the phone's drawing
# (panels stacked) does not keep.
book_site_bad(plot-caption-place ch01-execution-model/05-measuring-divergence.html
  --replace html/ch01-execution-model/05-measuring-divergence.html "(b) The divergent/uniform ratio" "Right: the divergent/uniform ratio"
  --expect "a plot's caption or alt text names a panel by its place \\(\"Right:\"\\)")
# Every output naming its machine in full (GPU, driver, runtime, toolchain), as
# the same three lines under every output once did.
book_site_bad(provenance-repeated ch01-execution-model/05-measuring-divergence.html
  --replace html/ch01-execution-model/05-measuring-divergence.html " set up as above" " GPU"
  --expect "ch01-execution-model/05-measuring-divergence\\.html: states the machine its outputs ran on [0-9]+ times in full")
# Printed with the copy buttons showing.
book_site_bad(print-copy-buttons ch01-execution-model/05-measuring-divergence.html THEMES print
  --replace html/_static/book.css "button.copybtn, .book-scroll-cue { display: none" ".book-scroll-cue { display: none"
  --expect "\\[print 1280px\\]: printed, the page shows [0-9]+ copy button")
# Printed with the folds (answers, hints) closed.
book_site_bad(print-folds-closed ch01-execution-model/09-check-yourself.html THEMES print
  --replace html/_static/book.js "addEventListener(\"beforeprint\"" "addEventListener(\"x-beforeprint\""
  --expect "\\[print 1280px\\]: printed, [0-9]+ fold\\(s\\) \\(answers, hints\\) stay closed")
# No way in: a footer without the licences, a Sources entry without its link,
# and the sentence on the missing public address on more than one page.
book_site_bad(footer-licence index.html
  --replace html/index.html "class=\"book-licence-line\"" "class=\"x\""
  --expect "index\\.html: the footer does not name the licences")
book_site_bad(sources-unlinked ch01-execution-model/10-sources.html
  --replace html/ch01-execution-model/10-sources.html "<a class=\"reference external\" href=\"https://docs.nvidia.com/cuda/hopper-tuning-guide/\">" "<a href=\"#sources\">"
  --expect "ch01-execution-model/10-sources\\.html: a Sources entry links no document: NVIDIA, Hopper Tuning Guide")
book_site_bad(no-address-twice index.html,ch01-execution-model/05-measuring-divergence.html
  --replace html/ch01-execution-model/05-measuring-divergence.html "<summary>Run it yourself</summary>" "<summary>Run it yourself</summary><p>This copy was built without its public address.</p>"
  --expect "the site says it was built without a public address on 2 pages")
book_site_bad(no-programs-download ch01-execution-model.html
  --replace html/ch01-execution-model.html "ch01-execution-model-programs.tar.gz" "programs.tar.gz"
  --expect "does not link its programs' download")

add_test(NAME site.downloads WORKING_DIRECTORY "${_site_bin}"
         COMMAND ${_py} "${_here}/check_downloads.py" --repo "${CMAKE_SOURCE_DIR}"
                 --list "${BOOK_DOWNLOADS_DIR}/downloads.json")
set_tests_properties(site.downloads PROPERTIES LABELS "book;site" TIMEOUT 60)
add_test(NAME site.downloads.build WORKING_DIRECTORY "${_site_bin}"
         COMMAND ${_py} "${CMAKE_SOURCE_DIR}/tools/grader/tests/check_bundle.py"
                 --site "${_html}" --chapter ch01-execution-model
                 --grade "${CMAKE_SOURCE_DIR}/tools/grade" --kit "${CMAKE_BINARY_DIR}"
                 --work "${_scratch}/downloads-build" --catch2-include "${BOOK_CATCH2_INCLUDE}"
                 --cmake "${CMAKE_COMMAND}" --ctest "${CMAKE_CTEST_COMMAND}")
set_tests_properties(site.downloads.build PROPERTIES LABELS "book;site;exercises" TIMEOUT 600
                     RESOURCE_LOCK book_html)

# Chapter 1's programs as its page offers them, unpacked in an empty folder and
# built and run by the commands of their README alone.
add_test(NAME site.downloads.programs WORKING_DIRECTORY "${_site_bin}"
         COMMAND ${_py} "${_here}/check_programs.py" --html "${_html}" --chapter ch01-execution-model
                 --work "${_scratch}/programs-build")
set_tests_properties(site.downloads.programs PROPERTIES LABELS "book;site" TIMEOUT 900
                     RESOURCE_LOCK book_html)

# The source archive the front page links (a build without a public address):
# unpacked in an empty folder, it holds no solution, hidden test or grader test,
# and it configures as the reader's source.
add_test(NAME site.downloads.source WORKING_DIRECTORY "${_site_bin}"
         COMMAND ${_py} "${_here}/check_source.py" --html "${_html}" --work "${_scratch}/source-build"
                 --cmake "${CMAKE_COMMAND}")
set_tests_properties(site.downloads.source PROPERTIES LABELS "book;site" TIMEOUT 600
                     RESOURCE_LOCK book_html)

add_test(NAME site.pytest WORKING_DIRECTORY "${_site_bin}"
         COMMAND ${_py} -m pytest -q -p no:cacheprovider "${_here}")
set_tests_properties(site.pytest PROPERTIES LABELS "unit;book;site" TIMEOUT 180
                     ENVIRONMENT "PYTHONDONTWRITEBYTECODE=1")

# The PDF edition: built by its own target (not part of the default build), then
# checked page by page. The PDF is a release: while runs wait for the lead GPU
# (recordings/pending.json) it cannot be made, and both tests report skipped,
# naming them (bookpy.records.gpustates --skip-pending).
if(TARGET pdf AND BOOK_PDFTOPPM)
  set(_release ${BOOK_PY} -m bookpy.records.gpustates --manifest "${BOOK_MANIFEST}" --release
               --skip-pending --)
  add_test(NAME site.pdf.build WORKING_DIRECTORY "${_site_bin}"
           COMMAND ${_release} "${CMAKE_COMMAND}" --build "${CMAKE_BINARY_DIR}" --target pdf)
  set_tests_properties(site.pdf.build PROPERTIES LABELS "book;site;pdf" TIMEOUT 600
                       FIXTURES_SETUP book_pdf RESOURCE_LOCK book_html SKIP_RETURN_CODE 77)
  add_test(NAME site.pdf WORKING_DIRECTORY "${_site_bin}"
           COMMAND ${_release} ${_py} "${_here}/check_pdf.py" --pdf "${BOOK_PDF}"
                   --log "${CMAKE_BINARY_DIR}/latex-stage/book.log"
                   --titles-from "${CMAKE_SOURCE_DIR}/chapters"
                   --glossary-of "${_html}/glossary.html"
                   --bookmark Glossary --bookmark Index
                   --structure "About this book" --not-top "What you need" --not-top "Where to start"
                   --out "${CMAKE_BINARY_DIR}/site-test/pdf-pages")
  set_tests_properties(site.pdf PROPERTIES LABELS "book;site;pdf" TIMEOUT 120
                       FIXTURES_REQUIRED book_pdf SKIP_RETURN_CODE 77)
  # A PDF without the bookmarks a reader finds the index and glossary by.
  add_test(NAME site.pdf.bad.no-bookmarks WORKING_DIRECTORY "${_site_bin}"
           COMMAND ${_py} "${_expect}" --scratch "${_scratch}/no-bookmarks"
                   --before ${_py} "${_here}/make_test_pdf.py" two-pages.pdf --before-end
                   --expect "the PDF's bookmarks do not hold \"Index\""
                   -- ${_py} "${_here}/check_pdf.py" --pdf two-pages.pdf --bookmark Index)
  set_tests_properties(site.pdf.bad.no-bookmarks PROPERTIES LABELS "book;site;pdf" TIMEOUT 60)
  add_test(NAME site.pdf.bad.blank-page WORKING_DIRECTORY "${_site_bin}"
           COMMAND ${_py} "${_expect}" --scratch "${_scratch}/blank-page"
                   --before ${_py} "${_here}/make_test_pdf.py" two-pages.pdf --blank 2 --before-end
                   --expect "page 2 is blank"
                   -- ${_py} "${_here}/check_pdf.py" --pdf two-pages.pdf)
  set_tests_properties(site.pdf.bad.blank-page PROPERTIES LABELS "book;site;pdf" TIMEOUT 60)
  # A number split by a wrapped line ("99." / "↪2%", LaTeX's verbatimforcewraps can).
  add_test(NAME site.pdf.bad.broken-number WORKING_DIRECTORY "${_site_bin}"
           COMMAND ${_py} "${_expect}" --scratch "${_scratch}/broken-number"
                   --before ${_py} "${_here}/make_test_pdf.py" two-pages.pdf
                            --line "efficiency=     99." --line "↪2%" --before-end
                   --expect "a line is wrapped inside a number: \"efficiency= +99\\.\""
                   -- ${_py} "${_here}/check_pdf.py" --pdf two-pages.pdf)
  set_tests_properties(site.pdf.bad.broken-number PROPERTIES LABELS "book;site;pdf" TIMEOUT 60)
  # A PDF without the book's structure: no front matter, no chapter at the
  # outline's top, no metadata, no web link.
  add_test(NAME site.pdf.bad.structure
           COMMAND ${_py} "${_expect}" --scratch "${_scratch}/structure"
                   --before ${_py} "${_here}/make_test_pdf.py" two-pages.pdf --before-end
                   --expect "the outline's top level does not hold \"About this book\""
                   --expect "the PDF has no Title in its metadata"
                   --expect "the PDF has no web links"
                   -- ${_py} "${_here}/check_pdf.py" --pdf two-pages.pdf --structure "About this book")
  set_tests_properties(site.pdf.bad.structure PROPERTIES LABELS "book;site;pdf" TIMEOUT 60)
  # A PDF without the site's glossary (the glossary in the HTML only).
  add_test(NAME site.pdf.bad.no-glossary WORKING_DIRECTORY "${_site_bin}"
           COMMAND ${_py} "${_expect}" --scratch "${_scratch}/no-glossary"
                   --before ${_py} "${_here}/make_test_pdf.py" two-pages.pdf --before-end
                   --expect "the PDF has no glossary"
                   -- ${_py} "${_here}/check_pdf.py" --pdf two-pages.pdf --glossary-of "${_html}/glossary.html")
  set_tests_properties(site.pdf.bad.no-glossary PROPERTIES LABELS "book;site;pdf" TIMEOUT 60
                       RESOURCE_LOCK book_html)
endif()
