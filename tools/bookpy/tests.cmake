# SPDX-License-Identifier: MIT
# The book's Python package's own tests (tools/bookpy), beside the modules they
# test. Included from tests/CMakeLists.txt. The Sphinx extension's tests
# (ext/tests/sphinx.cmake) are included from tests/book/CMakeLists.txt, whose
# book_bad_test they use.
set(_bookpy "${CMAKE_CURRENT_LIST_DIR}")
set(_bookpy_scratch "${CMAKE_BINARY_DIR}/tests/bookpy")

# The Python reader of records (records/schema.py) against bookrun's records.
add_test(NAME unit.runner.python-reader
         COMMAND ${BOOK_PY} "${_bookpy}/records/tests/test_schema.py"
                 $<TARGET_FILE:bookrun> "${CMAKE_SOURCE_DIR}" "${_bookpy_scratch}/python-reader")
set_tests_properties(unit.runner.python-reader PROPERTIES LABELS unit TIMEOUT 120)

# The Python reader writes a double as bookrun's JSON library does (records/jsonfloat.py),
# so that the digest it computes is bookrun's: float_text.cpp is that library.
add_executable(bookpy_float_text "${_bookpy}/records/tests/float_text.cpp")
target_link_libraries(bookpy_float_text PRIVATE book_json)
add_test(NAME unit.records.float-text
         COMMAND ${BOOK_PY} "${_bookpy}/records/tests/test_float_text.py" $<TARGET_FILE:bookpy_float_text>)
set_tests_properties(unit.records.float-text PROPERTIES LABELS unit TIMEOUT 300)

# The compile database against what the runs hash (inputs/compile_check.py):
# every flag this build gives a book program's compile, or a book library's it
# links, is one its runs' input hash accounts for.
add_test(NAME book.compile-commands-hashed
         COMMAND ${BOOK_PY} -m bookpy.inputs.compile_check
                 --inputs "${CMAKE_BINARY_DIR}/compile-inputs.json"
                 --commands "${CMAKE_BINARY_DIR}/compile_commands.json"
                 --bookrun $<TARGET_FILE:bookrun>)
set_tests_properties(book.compile-commands-hashed PROPERTIES LABELS book TIMEOUT 60
                     PASS_REGULAR_EXPRESSION "hold only flags their runs hash")

# A committed recording edited with its digest recomputed fails the next GPU run:
# records/drift.py fails on an exact figure (book_run EXACT) that differs from this GPU's.
add_test(NAME book.drift-exact
         COMMAND ${BOOK_PY} "${_bookpy}/records/tests/test_drift.py"
                 "${CMAKE_SOURCE_DIR}" "${_bookpy_scratch}/drift-exact")
set_tests_properties(book.drift-exact PROPERTIES LABELS book TIMEOUT 120)

# What tools/book record does to recordings/pending.json once a GPU has recorded runs.
add_test(NAME book.pending-recorded
         COMMAND ${BOOK_PY} "${_bookpy}/records/tests/test_pending.py" "${_bookpy_scratch}/pending")
set_tests_properties(book.pending-recorded PROPERTIES LABELS book TIMEOUT 60)

# tools/book mine on a GPU nobody here has: a Tesla T4 made from the H100's recordings
# (records/tests/make_reader_gpu.py), its verdicts against them, its runs that need 9.0
# skipped (this build's manifest: book_program's NEEDS_CC), and bad input (records/mine.py).
add_test(NAME book.reader-gpu
         COMMAND ${BOOK_PY} "${_bookpy}/records/tests/test_mine.py" "${CMAKE_SOURCE_DIR}"
                 "${BOOK_MANIFEST}" "${_bookpy_scratch}/reader-gpu")
set_tests_properties(book.reader-gpu PROPERTIES LABELS book TIMEOUT 120 SKIP_RETURN_CODE 77
                     SKIP_REGULAR_EXPRESSION "^skipped: ")

# What a build says of each GPU run on each GPU, and a release's refusal of a lead
# GPU's run that is not fresh (records/gpustates.py).
add_test(NAME book.gpu-states
         COMMAND ${BOOK_PY} "${_bookpy}/records/tests/test_gpustates.py" "${_bookpy_scratch}/gpu-states")
set_tests_properties(book.gpu-states PROPERTIES LABELS book TIMEOUT 60)

# The lines of the book's code a compiler kept (build/kept_lines.py), which a
# listing may show: an #if 0 region, a group of a macro never defined and a
# header no unit includes are found on a small tree the host compiler preprocesses.
add_test(NAME book.kept-lines
         COMMAND ${BOOK_PY} "${_bookpy}/build/tests/test_kept_lines.py" "${_bookpy_scratch}/kept-lines")
set_tests_properties(book.kept-lines PROPERTIES LABELS book TIMEOUT 120)
