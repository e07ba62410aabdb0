# SPDX-License-Identifier: MIT
# Comparisons are checks (tools/bookpy/ext/claims.py): a {check} that the
# records, or one of their repeats, make false fails the build at its line;
# and every comparative sentence of the chapters carries one (bookpy.lint.claims_checked).
# Included from tests/book/CMakeLists.txt after sphinx.cmake (book_sphinx_case).
if(BOOK_DOCS)
  # The record's median makes the sentence's comparison false.
  book_sphinx_case(check-flipped
    --expect "${_ch}:5: ERROR: check 'hello:ratio < 0\\.5' does not hold in the medians \\('results'\\) of 'ch90-fixture/hello': hello:ratio = 0\\.5")
  # A re-record whose second repeat flips the comparison, though its median holds.
  book_sphinx_case(check-repeat
    --json-set build/records/ch90-fixture/hello.json repeats
      "[{\"results\": {\"ratio\": {\"value\": 0.5, \"unit\": \"x\"}}}, {\"results\": {\"ratio\": {\"value\": 0.55, \"unit\": \"x\"}}}]"
    --expect "${_ch}:5: ERROR: check 'hello:ratio <= 0\\.5 and hello:count == 3' does not hold in repeat 2 of 2 of 'ch90-fixture/hello': hello:ratio = 0\\.55, hello:count = 3")
  # checks-can-fail: a check that still holds with each figure it reads perturbed
  # (halved, doubled, towards zero and infinity) claims nothing of the figures.
  book_sphinx_case(check-vacuous
    --expect "${_ch}:5: ERROR: check 'hello:ratio >= hello:ratio' holds whatever the figures are: 'hello:ratio >= hello:ratio' still holds with each figure it reads scaled by")
endif()
# book_prose_lint(<test> <module> <fixture> <bad test> <expect_failure.py args>...):
# book.<test> runs <module> --counts over the chapters; the bad test runs it on
# the chapters with fixtures/<fixture>/ch90-fixture.md added as a section's page
# of a chapter, chapters/ch90-fixture/03-fixture.md (bookpy.chapters), and the
# arguments say what it must report, at that file's lines.
function(book_prose_lint test module fixture bad)
  set(py ${BOOK_PY} -m ${module})
  add_test(NAME book.${test} COMMAND ${py} --counts "${CMAKE_SOURCE_DIR}/chapters")
  set_tests_properties(book.${test} PROPERTIES LABELS "unit;book" TIMEOUT 60
                       ENVIRONMENT "PYTHONDONTWRITEBYTECODE=1")
  book_bad_test(${bad}
    --copy "${CMAKE_CURRENT_SOURCE_DIR}/fixtures/${fixture}/ch90-fixture.md"
           chapters/ch90-fixture/03-fixture.md
    ${ARGN} -- ${py} chapters)
endfunction()

# Every comparative sentence of every chapter carries a {check} (or is on the
# short list of sentences that compare no recorded figure, each with its reason),
# and a sentence that asks the reader to predict gives no answer in it. The bad
# test: an unchecked comparative sentence and an answer given in the sentence that
# asks for a prediction each fail it, at their lines.
book_prose_lint(claims-checked bookpy.lint.claims_checked claims claims-unchecked
  --expect "ch90-fixture/03-fixture\\.md:5: a comparative sentence \\(slower\\) carries no \\{check\\}: The unchecked kernel"
  --expect "ch90-fixture/03-fixture\\.md:10: a sentence that asks the reader to predict gives the answer in it"
  --expect "ch90-fixture +2 +1 +0 +1"
  --reject "ch90-fixture/03-fixture\\.md:3:")
# No figure with a unit is typed into a sentence that cites a run, beside the
# recorded ones (or it is on the short list of settings and cited figures, each
# with its reason): bookpy.lint.typed_figures. The bad test: a typed time beside a recorded
# one fails it at its line; a bound its check holds, a size written as a power, a
# step's number and a sentence that cites no run do not; a check's number that is
# no bound of it (5.3 in "x > 5.3 - 10", 1 in "abs(x - 1)") gives no permission.
# A named expectation's bound (run:check:id, its min 0.97 in the run's checks file)
# permits "within 3%" beside it, not "within 4%".
book_prose_lint(typed-figures bookpy.lint.typed_figures typed typed-figure
  --copy "${CMAKE_CURRENT_SOURCE_DIR}/fixtures/typed/code/hello.checks.json"
         code/ch90-fixture/hello.checks.json
  --expect "ch90-fixture/03-fixture\\.md:3: a figure typed beside recorded ones \\(0\\.8 ms\\)"
  --expect "ch90-fixture/03-fixture\\.md:13: a figure typed beside recorded ones \\(5\\.3 TB/s\\)"
  --expect "ch90-fixture/03-fixture\\.md:15: a figure typed beside recorded ones \\(1 GiB\\)"
  --expect "ch90-fixture/03-fixture\\.md:19: a figure typed beside recorded ones \\(4%\\)"
  --expect "ch90-fixture +8 +0 +4"
  --reject "ch90-fixture/03-fixture\\.md:[579]:"
  --reject "ch90-fixture/03-fixture\\.md:1[17]:")
# No sentence of a chapter says whether its runs are recorded yet: the build says
# it on each waiting output, figure and plot, and a sentence saying it would be
# false once the run is recorded (bookpy.lint.recording_state). The bad test: two
# such sentences fail at their lines; "did not run at these settings" does not.
book_prose_lint(recording-state bookpy.lint.recording_state recording-state recording-state-stated
  --expect "ch90-fixture/03-fixture\\.md:3: a sentence says whether runs are recorded \\(At the time of writing\\)"
  --expect "ch90-fixture/03-fixture\\.md:7: a sentence says whether runs are recorded \\(waits for a GPU\\)"
  --reject "ch90-fixture/03-fixture\\.md:5:")
# No expectation of a program and no check of a chapter bounds a measured figure
# that carries a physical unit (a time, a rate, a size, a count of the hardware's,
# how busy a unit was) by a written constant, one GPU's number, unless it is scoped
# to the GPUs it holds on ("gpus") or is a property the chapter explains as such:
# bookpy.lint.one_gpu_bounds, the test of "Every GPU" in docs/architecture.md. The bad
# test: a fixture chapter whose checks file bounds a time in µs and whose text bounds
# a rate in TB/s, each reported at its file and line; a ratio to the same run's copy,
# a scoped bound and a count of zero are not.
add_test(NAME book.one-gpu-bounds
         COMMAND ${BOOK_PY} -m bookpy.lint.one_gpu_bounds --counts
                 --recordings "${CMAKE_SOURCE_DIR}/recordings")
set_tests_properties(book.one-gpu-bounds PROPERTIES LABELS "unit;book" TIMEOUT 60
                     ENVIRONMENT "PYTHONDONTWRITEBYTECODE=1")
book_bad_test(one-gpu-bound
  --copy "${CMAKE_CURRENT_SOURCE_DIR}/fixtures/one-gpu" tree
  --expect "code/ch90-fixture/bench\\.checks\\.json:3: expectation 'fast' bounds kernel_us \\(us\\)"
  --expect "chapters/ch90-fixture/01-fixture\\.md:4: 4 bounds a figure in TB/s"
  --reject "near-copy|fast-here|'correct'|ch90-fixture/01-fixture\\.md:7"
  -- ${BOOK_PY} -m bookpy.lint.one_gpu_bounds --recordings tree/recordings --code tree/code
     --chapters tree/chapters)
