# SPDX-License-Identifier: MIT
# Included from tests/book/CMakeLists.txt, in its scope (book_bad_test, fx, root, sx):
# the check-yourself tags and the Catch2 programs that carry them (tools/bookpy/build/cy_tags.py,
# tools/bookpy/build/catch_run.py).
# ---- the check-yourself tags (tools/bookpy/build/cy_tags.py, cy-tags.json) -----------------------
# (A GPU machine without Debian's packages leaves it out and says so; on a
# machine tools/book set up, a missing pytest is a configure error.)
execute_process(COMMAND ${BOOK_PY} -c "import pytest"
                RESULT_VARIABLE _book_no_pytest OUTPUT_QUIET ERROR_QUIET)
if(_book_no_pytest EQUAL 0)
  add_test(NAME book.cy-tags
           COMMAND ${BOOK_PY} -m pytest -q -p no:cacheprovider
                   "${CMAKE_CURRENT_SOURCE_DIR}/test_cy_tags.py")
  set_tests_properties(book.cy-tags PROPERTIES LABELS "unit;book" TIMEOUT 120
                       ENVIRONMENT "PYTHONDONTWRITEBYTECODE=1")
  # tools/bookpy/build/check_claims.py (the GPU machine's check of the chapters' claims).
  add_test(NAME book.check-claims.units
           COMMAND ${BOOK_PY} -m pytest -q -p no:cacheprovider
                   "${CMAKE_CURRENT_SOURCE_DIR}/test_check_claims.py")
  set_tests_properties(book.check-claims.units PROPERTIES LABELS "unit;book" TIMEOUT 120
                       ENVIRONMENT "PYTHONDONTWRITEBYTECODE=1")
  # tools/bookpy/bench/build.py's report of a build's steps, and its cold clean build.
  add_test(NAME book.bench-build
           COMMAND ${BOOK_PY} -m pytest -q -p no:cacheprovider
                   "${CMAKE_CURRENT_SOURCE_DIR}/test_bench_build.py")
  set_tests_properties(book.bench-build PROPERTIES LABELS "unit;book" TIMEOUT 120
                       ENVIRONMENT "PYTHONDONTWRITEBYTECODE=1")
else()
  book_tool_missing("pytest for ${BOOK_PYTHON}" python3-pytest
                    "the tests book.cy-tags, book.check-claims.units and book.bench-build")
endif()
# Every claim of the chapters holds in this build's records, read without Sphinx
# as tools/book record reads them on the GPU machine (tools/bookpy/build/check_claims.py);
# a claim on a run pending on this build's GPU (the manifest) is listed, not checked.
add_test(NAME book.check-claims
         COMMAND ${BOOK_PY} -m bookpy.build.check_claims
                 --records "${CMAKE_BINARY_DIR}/records" --chapters "${root}/chapters"
                 --manifest "${CMAKE_BINARY_DIR}/book-manifest.json")
set_tests_properties(book.check-claims PROPERTIES LABELS book TIMEOUT 120)
# With a real Catch2 program: a tag in a comment, a string or code compiled out
# is no test's tag (questions-tested); only the TEST_CASE's own tag is listed.
add_executable(book_fixture_cy_comment fixtures/cy_comment.test.cpp)
target_link_libraries(book_fixture_cy_comment PRIVATE book_catch_main)
set_target_properties(book_fixture_cy_comment PROPERTIES
                      RUNTIME_OUTPUT_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}/bin")
add_test(NAME book.cy-tags.real-catch2
         COMMAND ${BOOK_PY} "${CMAKE_CURRENT_SOURCE_DIR}/expect_failure.py" --code 0
                 --scratch "${CMAKE_CURRENT_BINARY_DIR}/scratch/book.cy-tags.real-catch2"
                 --has cy-tags.json "tags>ch90-tagged>0>case" "^a tagged test case$"
                 --lacks cy-tags.json "tags>ch90-in-a-comment"
                 --lacks cy-tags.json "tags>ch90-in-a-string"
                 --lacks cy-tags.json "tags>ch90-compiled-out"
                 -- ${BOOK_PY} -m bookpy.build.cy_tags --out cy-tags.json
                    --stamp cy-tags.stamp
                    -- "test.ch90-fixture=$<TARGET_FILE:book_fixture_cy_comment>")
set_tests_properties(book.cy-tags.real-catch2 PROPERTIES LABELS "unit;book" TIMEOUT 60)

# A test case tagged to pass when it fails stops the build where the tags are
# listed, at the test case's file and line; one that makes no assertion, and a
# program with its own main that never runs its test cases, fail their CTest
# run, which reads Catch2's report (tools/bookpy/build/catch_run.py).
set(_cf "${CMAKE_CURRENT_SOURCE_DIR}/fixtures/catch")
foreach(tag shouldfail mayfail)
  add_executable(book_fixture_${tag} "${_cf}/passing_failure.test.cpp")
  target_link_libraries(book_fixture_${tag} PRIVATE "$<LINK_LIBRARY:WHOLE_ARCHIVE,book_catch_main>")
  if(tag STREQUAL "shouldfail")
    target_compile_definitions(book_fixture_${tag} PRIVATE BOOK_FIXTURE_SHOULDFAIL)
  endif()
  set_target_properties(book_fixture_${tag} PROPERTIES
                        RUNTIME_OUTPUT_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}/bin")
  book_bad_test(catch-${tag}
    --expect "^.*fixtures/catch/passing_failure\\.test\\.cpp:[0-9]+: error: test case \"a block of 48 threads is three warps\" of test test\\.ch90-fixture is tagged \\[!${tag}\\]"
    --absent cy-tags.json
    -- ${BOOK_PY} -m bookpy.build.cy_tags --out cy-tags.json --stamp cy-tags.stamp
       -- "test.ch90-fixture=$<TARGET_FILE:book_fixture_${tag}>")
endforeach()
add_executable(book_fixture_no_assertion "${_cf}/no_assertion.test.cpp")
target_link_libraries(book_fixture_no_assertion PRIVATE "$<LINK_LIBRARY:WHOLE_ARCHIVE,book_catch_main>")
add_executable(book_fixture_own_main "${_cf}/own_main.test.cpp")
target_link_libraries(book_fixture_own_main PRIVATE book_catch2)
set_target_properties(book_fixture_no_assertion book_fixture_own_main PROPERTIES
                      RUNTIME_OUTPUT_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}/bin")
set(_catch_run ${BOOK_PY} -m bookpy.build.catch_run --source-root "${root}")
# The test book.catch-tags (bookpy.build.cy_tags --none) over a program that carries a
# check-yourself tag, as a program other than a check-yourself one would.
book_bad_test(catch-tags-elsewhere
  --expect "test ch90-fixture\\.claims, test case .a tagged test case., is tagged\\s+\\[cy:ch90-tagged\\]"
  -- ${BOOK_PY} -m bookpy.build.cy_tags --none
     -- "ch90-fixture.claims=$<TARGET_FILE:book_fixture_cy_comment>")
book_bad_test(catch-no-assertion
  --expect "^tests/book/fixtures/catch/no_assertion\\.test\\.cpp:11: error: test case \"a block of 96 threads is four warps\" of test t made no assertion"
  --expect "test t failed: test case \"a block of 96 threads is four warps\" ran no assertion"
  -- ${_catch_run} --test t -- $<TARGET_FILE:book_fixture_no_assertion>)
add_executable(book_fixture_unread_answer "${_cf}/unread_answer.test.cpp")
target_link_libraries(book_fixture_unread_answer PRIVATE book_test_support
                      "$<LINK_LIBRARY:WHOLE_ARCHIVE,book_catch_main>")
target_compile_definitions(book_fixture_unread_answer PRIVATE
                           "BOOK_TEST_ANSWERS=\"${_cf}/answers.json\"")
set_target_properties(book_fixture_unread_answer PROPERTIES
                      RUNTIME_OUTPUT_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}/bin")
book_bad_test(catch-unread-answer
  --expect "^.*fixtures/catch/answers\\.json:4: error: the figure 'idle_lanes' of the answer to ch90-q1 is read by no test case of test t"
  --reject "idle_lanes.*\n.*warps' of the answer"
  -- ${_catch_run} --test t --answers "${_cf}/answers.json" -- $<TARGET_FILE:book_fixture_unread_answer>)
book_bad_test(catch-own-main
  --expect "test t failed: (no report: the program ended before Catch2 wrote one|.*test case \"a block of 48 threads is three warps\" did not run)"
  -- ${_catch_run} --test t -- $<TARGET_FILE:book_fixture_own_main>)


# ---- each figure an answer states is one its test would catch if it were wrong ----
# bookpy.build.answer_mutations raises each figure of every check-yourself answer (a
# value of tests/<key>/answers.json, or a recorded figure the answer cites), one at a
# time, and runs the chapter's check-yourself program on the question's tag: it must
# fail. A survivor is an error unless the module's SURVIVORS lists it with its reason.
add_test(NAME book.answer-mutations
         COMMAND ${BOOK_PY} -m bookpy.build.answer_mutations --build "${CMAKE_BINARY_DIR}")
set_tests_properties(book.answer-mutations PROPERTIES LABELS "book" TIMEOUT 900
                     ENVIRONMENT "PYTHONDONTWRITEBYTECODE=1")
