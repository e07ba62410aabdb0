# SPDX-License-Identifier: MIT
# Included from tests/book/CMakeLists.txt, in its scope (book_bad_test, fx, root, sx):
# code style: clang-format, flake8, shellcheck, cmake-lint and codespell over the
# tracked files, and the Python's import path and function length (python_code).
# ---- code style ---------------------------------------------------------------------
# Every tracked C/C++/CUDA file is formatted as .clang-format says (clang-format 14).
find_program(BOOK_CLANG_FORMAT NAMES clang-format-14 clang-format)
if(BOOK_CLANG_FORMAT)
  add_test(NAME book.clang-format
           COMMAND ${BOOK_PY} "${CMAKE_CURRENT_SOURCE_DIR}/check_format.py"
                   "${BOOK_CLANG_FORMAT}" "${root}")
else()
  book_tool_missing("clang-format 14" clang-format "the test book.clang-format")
  add_test(NAME book.clang-format COMMAND bookrun skip "no clang-format 14 (Debian: clang-format)")
endif()
set_tests_properties(book.clang-format PROPERTIES LABELS book TIMEOUT 120 SKIP_RETURN_CODE 77)
# Every tracked Python file passes flake8 (settings: .flake8), every tracked shell
# script shellcheck (tools/book included): tests/book/lint.py finds them.
execute_process(COMMAND ${BOOK_PY} -m flake8 --version
                RESULT_VARIABLE _book_no_flake8 OUTPUT_QUIET ERROR_QUIET)
if(_book_no_flake8 EQUAL 0)
  add_test(NAME book.flake8
           COMMAND ${BOOK_PY} "${CMAKE_CURRENT_SOURCE_DIR}/lint.py" flake8 "${BOOK_PYTHON}" "${root}")
else()
  book_tool_missing("flake8 for ${BOOK_PYTHON}" python3-flake8 "the test book.flake8")
  add_test(NAME book.flake8 COMMAND bookrun skip "no flake8 for ${BOOK_PYTHON} (Debian: python3-flake8)")
endif()
# book.<tool>: tests/book/lint.py runs <tool> (found as <program>) over the files it
# finds; where the program is missing, the test is skipped naming Debian's <package>.
function(_book_lint_test tool program package)
  string(TOUPPER "BOOK_LINT_${tool}" var)
  string(MAKE_C_IDENTIFIER "${var}" var)
  find_program(${var} NAMES ${program})
  if(${var})
    add_test(NAME book.${tool} COMMAND ${BOOK_PY} "${CMAKE_CURRENT_SOURCE_DIR}/lint.py" ${tool}
                                       "${${var}}" "${root}")
  else()
    book_tool_missing("${program}" ${package} "the test book.${tool}")
    add_test(NAME book.${tool} COMMAND bookrun skip "no ${program} (Debian: ${package})")
  endif()
  set_tests_properties(book.${tool} PROPERTIES LABELS book TIMEOUT 120 SKIP_RETURN_CODE 77)
endfunction()
_book_lint_test(shellcheck shellcheck shellcheck)
set_tests_properties(book.flake8 PROPERTIES LABELS book TIMEOUT 120 SKIP_RETURN_CODE 77)
# Every tracked CMakeLists.txt and *.cmake file passes cmake-lint (settings:
# .cmake-format.yaml), and the book's text and code pass codespell (settings:
# .codespellrc): tests/book/lint.py finds them.
_book_lint_test(cmake-lint cmake-lint cmake-format)
_book_lint_test(codespell codespell codespell)

# The book's Python is one importable package: no script changes the import path
# or loads another by its path, and no function is over 80 lines
# (bookpy.lint.python_code, each finding at its file and line). The bad tests: a
# tree holding each way of changing the path, and one holding a function of 81
# lines beside one of 80.
add_test(NAME book.python-code COMMAND ${BOOK_PY} -m bookpy.lint.python_code "${root}")
set_tests_properties(book.python-code PROPERTIES LABELS book TIMEOUT 120)
book_bad_test(python-import-path --copy "${fx}/python-code/path-insert.txt" tree/tools/insert.py
  --expect "tools/insert\\.py:9: sys\\.path\\.insert\\(\\): import from the package"
  --expect "tools/insert\\.py:10: importlib\\.util\\.spec_from_file_location\\(\\)"
  --expect "tools/insert\\.py:11: SourceFileLoader\\(\\)"
  --expect "python_code: 3 findings in 1 files"
  -- ${BOOK_PY} -m bookpy.lint.python_code tree)
book_bad_test(python-long-function --copy "${fx}/python-code/long-function.txt" tree/tools/long.py
  --expect "tools/long\\.py:88: function over_the_limit is 81 lines, over 80"
  --expect "python_code: 1 findings in 1 files"
  -- ${BOOK_PY} -m bookpy.lint.python_code tree)

# The GitHub Actions workflows (.github/workflows) against GitHub's workflow schema,
# with action-validator (npm, package-lock.json: `tools/book deps` installs it); an
# error names its file and line. Nothing here runs them: they need GPU runners.
set(_validator "${root}/node_modules/.bin/action-validator")
if(EXISTS "${_validator}")
  add_test(NAME book.workflows
           COMMAND ${BOOK_PY} -m bookpy.lint.workflows "${root}/.github/workflows")
  book_bad_test(workflow-unknown-key
    --expect "bad-key\\.yml:30: Additional property 'runs-onn' is not allowed \\(at /jobs/gpus\\)"
    -- ${BOOK_PY} -m bookpy.lint.workflows "${fx}/workflows/bad-key.yml")
else()
  message(STATUS "Book: action-validator is not installed (npm @action-validator/cli, "
                 "package-lock.json): run `tools/book deps`; book.workflows reports skipped")
  add_test(NAME book.workflows COMMAND bookrun skip
           "action-validator is not installed (npm @action-validator/cli): run `tools/book deps`")
endif()
set_tests_properties(book.workflows PROPERTIES LABELS book TIMEOUT 120 SKIP_RETURN_CODE 77)
