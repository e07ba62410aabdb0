# SPDX-License-Identifier: MIT
# Included from tests/book/CMakeLists.txt, in its scope (book_bad_test, fx, root, sx):
# what a build publishes: the reader's edition without solutions, and plots that draw
# only the records the build hands them.
# The reader's edition holds no solution and no hidden test in any output
# (tools/grader/tests/check_reader_edition.py): a solution published under
# _downloads/, however short, and one packed in an exercise bundle.
set(_re_tree --copy "${sx}/repo" . --copy "${sx}/build" build
    --json-set build/exercises.json "exercises>0>sets" "{}"
    --copy "${sx}/repo/chapters/index.md" html/index.html)
set(_re_check ${BOOK_PY} "${root}/tools/grader/tests/check_reader_edition.py" --build build
    --html html --bundles bundles)
book_bad_test(reader-edition-download ${_re_tree}
  --copy solutions/ch90-fixture/ex01-fixture/answer.cpp html/_downloads/0a1b/answer.cpp
  --expect "FAILED: _downloads/0a1b/answer\\.cpp is ch90-fixture/ex01-fixture: the whole file of the solution answer\\.cpp"
  -- ${_re_check})
book_bad_test(reader-edition-bundle ${_re_tree}
  --before "${CMAKE_COMMAND}" -E make_directory bundles --before-end
  --before "${CMAKE_COMMAND}" -E tar czf bundles/ch90-fixture-exercises.tar.gz solutions --before-end
  --expect "FAILED: ch90-fixture-exercises\\.tar\\.gz:solutions/ch90-fixture/ex01-fixture/answer\\.cpp is ch90-fixture/ex01-fixture: the whole file of the solution answer\\.cpp"
  -- ${_re_check})

# A plot draws only the records the build hands it (tools/bookpy/build/plotting.py):
# data typed into the spec (even where draw() reads its run for something else),
# a recording opened by path, a module imported to read one are errors naming the
# spec and its line; no figure is written. plots-from-records: drawn again from
# perturbed records, an element that did not move (a series that multiplies its
# data away, a constant mark the legend names, a constant area) is an error
# naming the spec and the element.
set(_plots "${fx}/plots")
# (They need the book's Sphinx extension and matplotlib, which a GPU machine
# without Debian's packages may lack: there they are left out, and said so.)
execute_process(COMMAND ${BOOK_PY} -c "import docutils, matplotlib"
                RESULT_VARIABLE _book_no_plots OUTPUT_QUIET ERROR_QUIET)
set(_plot_cases hard-coded hard-coded-after-read other-recording imports ignores-data
                constant-mark constant-fill)
if(NOT _book_no_plots EQUAL 0)
  book_tool_missing("docutils and matplotlib for ${BOOK_PYTHON}" "python3-docutils python3-matplotlib"
                    "the tests book.bad.plot-hard-coded, -hard-coded-after-read, -other-recording and -imports")
  set(_plot_cases "")
endif()
foreach(case IN LISTS _plot_cases)
  set(_line "")
  if(case STREQUAL "other-recording" OR case STREQUAL "hard-coded")
    set(_line ":8")
  elseif(case STREQUAL "hard-coded-after-read")
    set(_line ":10")
  elseif(case STREQUAL "imports")
    set(_line ":2")
  endif()
  book_bad_test(plot-${case}
    --expect "^diagrams/ch90-fixture/${case}\\.plot\\.py${_line}: error: (plot\\(\\) draws data of the spec's own: none of its data comes from the runs|a plot spec (may not call open|imports nothing)|(the line labelled '(measured|CUB)'( \\(in no legend\\))?|a bar or area \\(no label\\)) in axes 1 is drawn the same from perturbed records)"
    --absent "out/*"
    -- ${BOOK_PY} -m bookpy.build.render_plot draw "${_plots}"
       "${_plots}/diagrams/ch90-fixture/${case}.plot.py" out
       "--record" "ch90-fixture/hello=${sx}/build/records/ch90-fixture/hello.json")
endforeach()
# A legend label names the series whose data it draws (plotting.py: SERIES): the
# records of one series alone are perturbed, and the element labelled with it must
# move, and no element labelled with another series' results. And every drawn
# element is data that moves, or a reference a legend names by a label REFERENCES
# gives: a constant line in no legend, a declared reference in no legend, or one
# declared and not drawn, is an error naming the spec and the element.
set(_plot_expect_swapped-labels "the line labelled 'ratio' in axes 1 does not move when only the results its label names move \\(SERIES: /ratio/\\): its label names a series it does not draw")
set(_plot_expect_unnamed-series "the line labelled 'step 8' in axes 1 names no series: SERIES gives each legend label of data")
set(_plot_expect_reference-unlabelled "a line \\(no label\\) in axes 1 is drawn the same from perturbed records: its data are not the records' \\(a plot draws its records. an element that is no data, a reference mark such as axhline\\(\\) included, is labelled in the legend and named in REFERENCES with why\\)")
set(_plot_expect_reference-not-in-legend "the line labelled 'the ceiling' \\(in no legend\\) in axes 1 is a reference REFERENCES declares, but no legend names it")
set(_plot_expect_reference-undrawn "REFERENCES declares 'the ceiling', but no element drawn is labelled so in a legend")
set(_plot_label_cases swapped-labels unnamed-series reference-unlabelled reference-not-in-legend
                      reference-undrawn)
if(NOT _book_no_plots EQUAL 0)
  set(_plot_label_cases "")
endif()
# ... a GPU's series labelled with another GPU's name, too (two GPUs' records).
if(_plot_label_cases)
  book_bad_test(plot-gpu-swapped
    --expect "^diagrams/ch90-fixture/gpu-swapped\\.plot\\.py: error: the line labelled 'H100: ratio' in axes 1 does not move when only the results its label names move \\(SERIES: /ratio/ on the H100\\)"
    --absent "out/*"
    -- ${BOOK_PY} -m bookpy.build.render_plot draw "${_plots}"
       "${_plots}/diagrams/ch90-fixture/gpu-swapped.plot.py" out
       "--record" "ch90-fixture/hello=${sx}/build/records/ch90-fixture/hello.json"
       "--gpu-record" "ch90-fixture/hello=H200=${sx}/build/records/ch90-fixture/hello.json"
       "--gpu-record" "ch90-fixture/hello=H100=${_plots}/records/hello-other-gpu.json")
endif()
foreach(case IN LISTS _plot_label_cases)
  book_bad_test(plot-${case}
    --expect "^diagrams/ch90-fixture/${case}\\.plot\\.py: error: ${_plot_expect_${case}}"
    --absent "out/*"
    -- ${BOOK_PY} -m bookpy.build.render_plot draw "${_plots}"
       "${_plots}/diagrams/ch90-fixture/${case}.plot.py" out
       "--record" "ch90-fixture/hello=${sx}/build/records/ch90-fixture/hello.json")
endforeach()

