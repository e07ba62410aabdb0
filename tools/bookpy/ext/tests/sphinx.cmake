# SPDX-License-Identifier: MIT
# The book's Sphinx extension (tools/bookpy/ext): its bad-input cases and its
# pytest suite, which live with it (tools/bookpy/ext/tests). Included from
# tests/book/CMakeLists.txt, after book_bad_test(), so that the tests are run
# in tests/book/scratch like the book's other bad-input tests.
#
# Each case copies the fixture chapter tree (tools/bookpy/ext/tests/fixtures/repo)
# and its build folder (.../build: manifest, records, cy-tags.json,
# exercises.json), puts one chapter from .../cases in place of the good one,
# and checks that Sphinx (warnings as errors) fails naming the file and line.
if(NOT BOOK_DOCS)
  return()
endif()
set(_sx "${CMAKE_SOURCE_DIR}/tools/bookpy/ext/tests/fixtures")
set(_sx_sphinx -- ${BOOK_PY} -m sphinx -W --keep-going -q -b html -d doctrees
    -D book_source_root=repo -D book_build_dir=build -c "${CMAKE_SOURCE_DIR}/book" repo/chapters html)

# book_sphinx_test(<name> <expect_failure.py args>...): book.bad.sphinx.<name>, Sphinx
# on a copy of the fixture tree and its build folder, changed as the arguments say.
function(book_sphinx_test name)
  book_bad_test("book.bad.sphinx.${name}" TIMEOUT 60
    --copy "${_sx}/repo" repo --copy "${_sx}/build" build ${ARGN} ${_sx_sphinx})
endfunction()

# book_sphinx_case(<case> [CHAPTER_PAGE] <expect_failure.py args>...): cases/<case>.md as
# a section's page of the chapter, chapters/ch90-fixture/01-case.md, as the book's
# chapters are split (its chapter's page, fixtures/split/ch90-fixture.md, lists
# it); with CHAPTER_PAGE, as the chapter's own page, chapters/ch90-fixture.md.
# Each expectation names the file the case is in: ${_ch} (or ${_chp}).
# The good chapter's question ch90-q1 has a tagged test; a case that does not ask
# it drops that tag too, so that the case's own error is the build's only one.
function(book_sphinx_case case)
  cmake_parse_arguments(C "CHAPTER_PAGE" "" "" ${ARGN})
  file(READ "${_sx}/cases/${case}.md" _text)
  set(_untag "")
  if(NOT _text MATCHES "ch90-q1")
    set(_untag --json-del build/cy-tags.json "tags>ch90-q1")
  endif()
  if(C_CHAPTER_PAGE)
    set(_place --copy "${_sx}/cases/${case}.md" repo/chapters/ch90-fixture.md)
  else()
    set(_place --copy "${_sx}/split/ch90-fixture.md" repo/chapters/ch90-fixture.md
               --copy "${_sx}/cases/${case}.md" repo/chapters/ch90-fixture/01-case.md)
  endif()
  book_sphinx_test(${case} ${_place} ${_untag} ${C_UNPARSED_ARGUMENTS})
endfunction()
set(_ch "ch90-fixture/01-case\\.md")
set(_chp "ch90-fixture\\.md")

# records-declared: only records of runs declared now are shown.
book_sphinx_case(leftover-record
  --expect "${_ch}:5: ERROR: no run record for program run 'ch90-fixture/orphan': no book_run\\(\\) declares it.*orphan\\.json is left over")
# values-from-records: a {value} with a '|format' in a table cell (the table splits it) is an error.
book_sphinx_case(table-pipe
  --expect "${_ch}:5: WARNING: role text '\\{value\\}`hello:ratio' was not parsed")
# questions-tested: a question with no registered, built test; two questions with one id;
# a tagged test with no question.
book_sphinx_case(untested-question
  --expect "${_ch}:3: WARNING: check-yourself 'ch90-untested' has no Catch2 test tagged \\[cy:ch90-untested\\] among the registered, built tests")
book_sphinx_case(duplicate-question
  --expect "${_ch}:9: WARNING: check-yourself id 'ch90-q1' is used twice: first at .*${_ch}:3")
book_sphinx_test(orphan-tag
  --json-set build/cy-tags.json "tags>ch90-nobody" "[{\"test\": \"test.ch90-extra\", \"case\": \"asks nothing\"}]"
  --expect "WARNING: test test\\.ch90-extra \\(TEST_CASE \"asks nothing\"\\) is tagged \\[cy:ch90-nobody\\], but no chapter asks")
# listings-compiled: listing markers out of order, and listings of files outside the tree.
book_sphinx_case(markers-twice
  --expect "${_ch}:3: ERROR: code/ch90-fixture/bad/twice\\.cpp:4: listing 'a' appears twice \\(first at lines 1-3\\)")
book_sphinx_case(markers-reopened
  --expect "${_ch}:3: ERROR: code/ch90-fixture/bad/reopened\\.cpp:3: listing 'a' is opened again before its close \\(opened at line 1\\)")
book_sphinx_case(markers-crossed
  --expect "${_ch}:3: ERROR: code/ch90-fixture/bad/crossed\\.cpp:4: listing 'a' is closed while 'b', opened inside it at line 2, is still open")
book_sphinx_case(markers-unclosed
  --expect "${_ch}:3: ERROR: code/ch90-fixture/bad/unclosed\\.cpp: listing 'a' opened at line 1 is never closed")
book_sphinx_case(markers-stray
  --expect "${_ch}:3: ERROR: code/ch90-fixture/bad/stray\\.cpp:2: '\\[/listing:a\\]' closes no open listing")
book_sphinx_case(markers-malformed
  --expect "${_ch}:3: ERROR: code/ch90-fixture/bad/malformed\\.cpp:1: not a well-formed listing marker")
book_sphinx_case(outside-absolute
  --expect "${_ch}:3: ERROR: listing: /etc/hostname is outside the repository's source tree")
book_sphinx_case(outside-dotdot
  --expect "${_ch}:3: ERROR: listing: \\.\\./\\.\\./\\.\\./etc/os-release is outside the repository's source tree")
# listings-compiled: a :match: that does not compile: an error at the directive, no traceback.
book_sphinx_case(bad-match
  --expect "${_ch}:3: ERROR: :match: /BSSY\\|\\(IMAD/ is not a regular expression: missing \\)")
# values-from-records: a {ref} error names the role's own line (5), not its paragraph's (3).
book_sphinx_case(ref-line
  --expect "${_ch}:5: WARNING: undefined label: 'no-such-label'")
# An exercise the build does not know.
book_sphinx_case(missing-exercise
  --expect "${_ch}:3: ERROR: exercise 'ch90-fixture/ex99-nope' is not in .*exercises\\.json")

# Text that reads otherwise than it is (hidden.py): a bidirectional override or a
# zero-width character in the prose, a listing or a run's output.
book_sphinx_case(trojan-prose
  --expect "${_ch}:3: WARNING: column 25: U\\+202E RIGHT-TO-LEFT OVERRIDE: a bidirectional or invisible character")
book_sphinx_case(zero-width-prose
  --expect "${_ch}:3: WARNING: column 18: U\\+200B ZERO WIDTH SPACE")
book_sphinx_case(trojan-listing
  --expect "${_ch}:3: ERROR: listing file code/ch90-fixture/bad/trojan\\.cpp:5, column 7: U\\+202E RIGHT-TO-LEFT OVERRIDE")
book_sphinx_test(trojan-output
  --json-set build/records/ch90-fixture/hello.json stdout "\"count 3 ratio 0.\\u202e21\\n\""
  --expect "${_chp}:5: ERROR: run record 'ch90-fixture/hello': line 2 of its output shown \\(line 1 is the command\\), column 17: U\\+202E RIGHT-TO-LEFT OVERRIDE")
# A value's format rounds and groups; it never scales a count or pads a number.
book_sphinx_case(percent-count
  --expect "${_ch}:3: ERROR: result 'count' of 'ch90-fixture/hello': format '\\.0%' multiplies the value by 100, but it has unit 'x'")
book_sphinx_case(padded-value
  --expect "${_ch}:3: ERROR: result 'ratio' of 'ch90-fixture/hello': format '08\\.2f' pads, aligns or changes the base")
# units-from-record: the unit typed right after a {value} is the one its record gives.
book_sphinx_case(unit-mismatch
  --expect "${_ch}:4: ERROR: \\{value\\}`hello:ratio`: the text after it types 'µs', but the record gives the figure in 'x'")
# ... and the unit its table column's header types.
book_sphinx_case(unit-header
  --expect "${_ch}:5: ERROR: \\{value\\}`hello:ratio`: its column's header types 'µs', but the record gives the figure in 'x'")
# ... and the unit typed right before it ("in ms, {value}`...`").
book_sphinx_case(unit-before
  --expect "${_ch}:5: ERROR: \\{value\\}`hello:ratio`: the text before it types 'ms', but the record gives the figure in 'x'")
# ... and one unit typed after (or before) several figures listed together, each one's.
book_sphinx_case(unit-listed
  --expect "${_ch}:4: ERROR: \\{value\\}`hello:count`: the text after \\{value\\}`hello:ratio`, which it is listed with, types 'µs', but the record gives the figure in 'x'")
# The book's structure (structure.py): one title per page, a chapter's number its key's,
# no two chapters with one number.
book_sphinx_case(two-titles
  --expect "${_ch}:9: WARNING: a second level-one heading '# A second title' \\(the page's title is at line 1\\)")
book_sphinx_case(title-number CHAPTER_PAGE
  --expect "${_chp}:1: WARNING: chapter ch90-fixture is titled '2\\. Fixture: a title numbered otherwise than its key', but its key numbers it 90")
book_sphinx_test(duplicate-number
  --copy "${_sx}/cases/title-number.md" repo/chapters/ch90-ghost.md
  --replace repo/chapters/ch90-ghost.md "# 2. " "# 90. "
  --json-set build/book-manifest.json chapters "[\"ch90-fixture\", \"ch90-ghost\"]"
  --expect "ch90-ghost\\.md:1: WARNING: chapter ch90-ghost has the number 90, as ch90-fixture \\(ch90-fixture\\.md\\) has")

# A listing of a file that no program of the build compiles (listings.py).
book_sphinx_case(uncompiled-listing
  --expect "${_ch}:3: ERROR: listing: code/ch90-fixture/uncompiled\\.cu is compiled by no program of this build")
# Sphinx's own file-reading directives are refused, in every builder (an {only} latex
# block too); a {download} or a Markdown image of a solution is refused (confine.py),
# from a section's page one folder down as well (../../solutions/).
book_sphinx_case(literalinclude-host
  --expect "${_ch}:3: ERROR: the \\{literalinclude\\} directive reads files past the book's checks, and is refused")
book_sphinx_case(literalinclude-solution
  --expect "${_ch}:4: ERROR: the \\{literalinclude\\} directive reads files past the book's checks")
book_sphinx_case(include-solution
  --expect "${_ch}:3: ERROR: the \\{include\\} directive reads files past the book's checks")
book_sphinx_case(raw-html
  --expect "${_ch}:3: ERROR: the \\{raw\\} directive reads files past the book's checks")
book_sphinx_case(download-solution
  --replace repo/chapters/ch90-fixture/01-case.md "../solutions/" "../../solutions/"
  --expect "${_ch}:3: ERROR: \\.\\./\\.\\./solutions/ch90-fixture/ex01-fixture/answer\\.cpp: a page may not show or link this file: it is a solution"
  --absent "html/_downloads/*")
book_sphinx_case(image-solution
  --replace repo/chapters/ch90-fixture/01-case.md "../solutions/" "../../solutions/"
  --expect "${_ch}:3: ERROR: \\.\\./\\.\\./solutions/ch90-fixture/ex01-fixture/answer\\.cpp: a page may not show or link this file: it is a solution"
  --absent "html/_images/*")

# An answer's figures come from tests/<key>/answers.json, which its test reads
# ({answer}, checkyourself.py): a figure typed into the answer, a figure the file
# does not give, and one the file gives that the answer leaves out are errors.
book_sphinx_case(typed-answer
  --expect "${_ch}:6: ERROR: check-yourself 'ch90-q1': the answer types the figure 'Three' itself")
book_sphinx_case(typed-answer-digit
  --expect "${_ch}:6: ERROR: check-yourself 'ch90-q1': the answer types the figure '0' itself")
# A figure hidden in code in the answer is typed too, unless the code is quoted
# as it stands in the chapter's sources (code/<key>/), which the build compiles.
book_sphinx_case(code-span-figure
  --expect "${_ch}:6: ERROR: check-yourself 'ch90-q1': the answer's code 'threadIdx\\.x < 32' holds the figure '32', which no test checks")
book_bad_test(book.sphinx.code-span-quoted TIMEOUT 60 --code 0
  --copy "${_sx}/repo" repo --copy "${_sx}/build" build
  --copy "${_sx}/cases/code-span-quoted.md" repo/chapters/ch90-fixture.md ${_sx_sphinx})
book_sphinx_case(unknown-answer-value
  --expect "${_ch}:6: ERROR: the answer to ch90-q1 has no figure 'warps_per_block' in .*answers\\.json")
book_sphinx_case(unstated-answer-value
  --expect "${_ch}:3: ERROR: check-yourself 'ch90-q1': tests/ch90-fixture/answers\\.json gives its answer the figure\\(s\\) lanes, which the answer never states")

# The extension's parsing and formatting, and what must work (pytest).
execute_process(COMMAND ${BOOK_PY} -c "import pytest"
                RESULT_VARIABLE _sphinx_no_pytest OUTPUT_QUIET ERROR_QUIET)
if(NOT _sphinx_no_pytest EQUAL 0)
  book_tool_missing("pytest for ${BOOK_PYTHON}" python3-pytest
                    "the tests book.sphinx.pytest and site.pytest")
endif()
add_test(NAME book.sphinx.pytest
         COMMAND ${BOOK_PY} -m pytest -q -p no:cacheprovider
                 --ignore "${CMAKE_SOURCE_DIR}/tools/bookpy/ext/tests/test_incremental.py"
                 "${CMAKE_SOURCE_DIR}/tools/bookpy/ext/tests")
set_tests_properties(book.sphinx.pytest PROPERTIES LABELS "unit;book" TIMEOUT 300
                     ENVIRONMENT "PYTHONDONTWRITEBYTECODE=1")
# incremental-equals-clean: the HTML step's incremental build after edits (a title and a
# heading reverted, a record, a listed line) publishes what a clean build does.
add_test(NAME book.incremental-equals-clean
         COMMAND ${BOOK_PY} -m pytest -q -p no:cacheprovider
                 "${CMAKE_SOURCE_DIR}/tools/bookpy/ext/tests/test_incremental.py")
set_tests_properties(book.incremental-equals-clean PROPERTIES LABELS "book" TIMEOUT 300
                     ENVIRONMENT "PYTHONDONTWRITEBYTECODE=1")

# What the reader reads (readertext.py), on the resolved page of each builder: a typed
# numeral or number word, or a comparison with no {check}, in any node, after the
# format characters are dropped and NFKC folds look-alikes.
book_sphinx_case(reader-note
  --expect "${_ch}:4: WARNING: paragraph: 'outpaces' compares, and no \\{check\\} holds the sentence")
book_sphinx_case(reader-heading
  --expect "${_ch}:3: WARNING: title: 'beats' compares")
book_sphinx_case(reader-question
  --expect "${_ch}:3: WARNING: paragraph: 'twice' is typed, not printed by a role")
book_sphinx_case(reader-bold
  --expect "${_ch}:3: WARNING: paragraph: '4\\.9' is typed, not printed by a role")
book_sphinx_case(reader-only
  --expect "${_ch}:4: WARNING: paragraph: '99' is typed, not printed by a role")
book_sphinx_case(reader-caption
  --expect "${_ch}:3: WARNING: caption: '144' is typed, not printed by a role")
book_sphinx_case(reader-alt
  --expect "${_ch}:3: WARNING: alt text: 'ahead' compares")
book_sphinx_case(reader-soft-hyphen
  --expect "${_ch}:3: WARNING: paragraph: U\\+00AD SOFT HYPHEN: a format character"
  --expect "${_ch}:3: WARNING: paragraph: 'faster' compares")
book_sphinx_case(reader-fullwidth
  --expect "${_ch}:3: WARNING: paragraph: '4\\.9' is typed, not printed by a role")
book_sphinx_test(reader-index
  --copy "${_sx}/cases/reader-index.md" repo/chapters/index.md
  --expect "index\\.md:3: WARNING: paragraph: '2\\.3' is typed, not printed by a role")
book_sphinx_test(reader-mermaid-label
  --replace build/diagrams/ch90-fixture/pic.svg "a→b" "256 KB per SM"
  --expect "${_chp}:27: WARNING: the drawing pic\\.svg: '256' is typed, not printed by a role")
book_sphinx_test(reader-readme-trojan
  --copy "${_sx}/cases/reader-readme-trojan.md" repo/exercises/ch90-fixture/ex01-fixture/README.md
  --expect "README\\.md:3: WARNING: paragraph: U\\+202E RIGHT-TO-LEFT OVERRIDE: a format character")
