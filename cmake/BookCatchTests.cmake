# SPDX-License-Identifier: MIT
# book_catch_test: the book's Catch2 tests, registered with CTest (included by
# tests/CMakeLists.txt, after the Catch2 mains book_catch_main and
# book_catch_gpu_main are defined).
#
#   book_catch_test(<name> SOURCES <files>... [LIBS <targets>...] [LABELS <labels>...]
#                   [PROGRAMS <program>...] [DEFINITIONS <defs>...] [TIMEOUT <s>])
#
# A book test can fail, and only through the book's own machinery:
# - it runs only through the book's Catch2 main: a source that defines its own
#   main (CATCH_CONFIG_MAIN, CATCH_CONFIG_RUNNER, int main) stops the configure
#   step at its line, and the main is linked whole, so a main that slipped past
#   would be a second definition at link time;
# - CTest judges it from Catch2's XML report (tools/bookpy/build/catch_run.py): every listed
#   test case ran, each made at least one assertion, none failed; and a test
#   tagged [cy:<qid>] read every figure tests/<key>/answers.json gives that
#   question's answer (book::test::answer), the figures its page states;
# - no test case is tagged [!shouldfail] or [!mayfail]: refused in its sources at
#   configure time, and in its listed tags when the build lists a check-yourself
#   program's (tools/bookpy/build/cy_tags.py) or the test book.catch-tags another's;
# - no property makes a failure pass: DISABLED, WILL_FAIL, PASS_REGULAR_EXPRESSION,
#   SKIP_REGULAR_EXPRESSION, or a SKIP_RETURN_CODE other than a GPU test's 77 stop
#   the configure step, naming the line that sets it.

# What a test's sources may not hold, each stopping the configure step at its
# line: a main of their own (the book's is linked, so that every test case runs
# and is judged from Catch2's report); a Catch2 tag that lets a failing test case
# pass; and, outside a check-yourself program, a check-yourself tag ([cy:<id>]):
# the others are built after the book, which lists the tags of its check-yourself
# programs alone. (Each program's listed tags are checked too: by cy-tags.json
# for the check-yourself programs, by the test book.catch-tags for the others.)
function(_book_catch_sources_can_fail name)
  foreach(s IN LISTS ARGN)
    get_filename_component(abs "${s}" ABSOLUTE)
    if(NOT EXISTS "${abs}" OR IS_DIRECTORY "${abs}")
      continue()
    endif()
    file(READ "${abs}" text)
    file(RELATIVE_PATH rel "${CMAKE_SOURCE_DIR}" "${abs}")
    foreach(re "(^|\n)[ \t]*#[ \t]*define[ \t]+CATCH_CONFIG_(MAIN|RUNNER)"
               "(^|\n)[ \t]*(int|auto)[ \t]+main[ \t]*\\(")
      _book_line_of(line "${text}" "${re}")
      if(line)
        message(FATAL_ERROR "${rel}:${line}: test ${name} defines its own main: the book's "
                            "tests run only through its Catch2 main (tests/support), which "
                            "book_catch_test links, so that every test case runs and is judged "
                            "from Catch2's report")
      endif()
    endforeach()
    foreach(tag "!shouldfail" "!mayfail")
      _book_line_of(line "${text}" "\\[${tag}\\]")
      if(line)
        message(FATAL_ERROR "${rel}:${line}: test ${name} tags a test case [${tag}], which "
                            "lets it pass when it fails: the book's tests must be able to fail")
      endif()
    endforeach()
    if(NOT name MATCHES "\\.check-yourself$")
      _book_line_of(line "${text}" "\\[cy:")
      if(line)
        message(FATAL_ERROR "${rel}:${line}: test ${name} carries a check-yourself tag "
                            "([cy:...]): a chapter's answers are tested in its check-yourself "
                            "program (tests/<key>/test_check_yourself.cpp), the one the book "
                            "lists")
      endif()
    endif()
  endforeach()
endfunction()

# At the end of the folder that registered test <name>: none of its properties
# turns a failure into a pass.
function(_book_catch_test_properties name gpu)
  set(problems "")
  foreach(p DISABLED WILL_FAIL PASS_REGULAR_EXPRESSION SKIP_REGULAR_EXPRESSION)
    get_test_property("${name}" ${p} v)
    if(v)
      list(APPEND problems "${p}")
    endif()
  endforeach()
  get_test_property("${name}" SKIP_RETURN_CODE v)
  if(v AND NOT (gpu AND v EQUAL 77))
    list(APPEND problems "SKIP_RETURN_CODE")
  endif()
  if(NOT problems)
    return()
  endif()
  set(file "${CMAKE_CURRENT_SOURCE_DIR}/CMakeLists.txt")
  file(READ "${file}" text)
  list(GET problems 0 first)
  list(JOIN problems ", " all)
  _book_line_of(line "${text}" "${first}")
  file(RELATIVE_PATH rel "${CMAKE_SOURCE_DIR}" "${file}")
  message(FATAL_ERROR "${rel}:${line}: test ${name} is set ${all}: a property that lets a "
                      "failing test pass (or not run) is refused for the book's Catch2 tests; "
                      "fix the test, or the answer it checks, instead")
endfunction()

function(book_catch_test name)
  _book_parse(T "book_catch_test(${name})" TIMEOUT "SOURCES;LIBS;LABELS;DEFINITIONS;PROGRAMS"
              SOURCES ${ARGN})
  _book_catch_test_chapter(key name)
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT 120)
  endif()
  _book_has_cuda(gpu ${T_SOURCES})
  if(gpu)
    list(APPEND T_LABELS gpu)
  endif()
  # What the test needs that may not be built here (no nvcc): then it reports skipped.
  set(missing "")
  if(gpu AND NOT BOOK_HAVE_CUDA)
    set(missing "no CUDA compiler")
  endif()
  _book_catch_test_programs(defs needs missing "${name}" "${key}")
  if(missing)
    add_test(NAME "${name}" COMMAND bookrun skip "${missing}: test ${name} was not built")
    set_tests_properties("${name}" PROPERTIES LABELS "${T_LABELS}" SKIP_RETURN_CODE 77)
    return()
  endif()

  _book_catch_sources_can_fail("${name}" ${T_SOURCES})
  string(REPLACE "/" "." tgt "test.${name}")
  _book_catch_test_program(${tgt} "${gpu}" "${defs}" "${needs}")
  _book_catch_test_register("${name}" ${tgt} "${key}" "${gpu}")
endfunction()

# book_catch_test's helpers, by concern. Each reads book_catch_test's parsed
# arguments (T_*) from the caller's scope; what one sets for book_catch_test it
# sets there (PARENT_SCOPE).

# In a chapter's folder tests/<key>/: <key> (else empty), the test's name
# prefixed with it (unless it has a dot), and T_DEFINITIONS with the chapter and
# its answers.
function(_book_catch_test_chapter key_out name_var)
  get_filename_component(folder "${CMAKE_CURRENT_SOURCE_DIR}" NAME)
  set(key "")
  set(name "${${name_var}}")
  if(folder MATCHES "${BOOK_CHAPTER_KEY_REGEX}")
    set(key "${folder}")
    list(APPEND T_DEFINITIONS "BOOK_TEST_CHAPTER=\"${key}\"")  # record("run"): this chapter's
    # answer(qid, name): the figures the chapter's answers state, read by page and test.
    list(APPEND T_DEFINITIONS "BOOK_TEST_ANSWERS=\"${CMAKE_CURRENT_SOURCE_DIR}/answers.json\"")
    if(NOT name MATCHES "\\.")
      set(name "${key}.${name}")
    endif()
  endif()
  set(T_DEFINITIONS "${T_DEFINITIONS}" PARENT_SCOPE)
  set(${name_var} "${name}" PARENT_SCOPE)
  set(${key_out} "${key}" PARENT_SCOPE)
endfunction()

# The programs the test runs (PROGRAMS, of this chapter): <defs> is
# T_DEFINITIONS with <PROGRAM>_EXE naming each one's file, <needs> their
# targets; a program not built here (no nvcc) sets <missing>, which is left as
# it was otherwise.
function(_book_catch_test_programs defs_out needs_out missing_var name key)
  set(missing "${${missing_var}}")
  set(defs ${T_DEFINITIONS})
  set(needs "")
  foreach(p IN LISTS T_PROGRAMS)
    if(NOT key)
      message(FATAL_ERROR "book_catch_test(${name}): PROGRAMS needs a chapter folder tests/<key>/")
    endif()
    get_property(defined GLOBAL PROPERTY "BOOK_P_${key}/${p}_DEFINED")
    if(NOT defined)
      message(FATAL_ERROR "book_catch_test(${name}): no program ${key}/${p} (book_program in "
                          "code/${key}/CMakeLists.txt)")
    endif()
    get_property(ptgt GLOBAL PROPERTY "BOOK_P_${key}/${p}_TARGET")
    if(NOT ptgt)
      set(missing "no CUDA compiler: ${key}/${p} was not built")
      continue()
    endif()
    string(TOUPPER "${p}" macro)
    string(MAKE_C_IDENTIFIER "${macro}" macro)
    list(APPEND defs "${macro}_EXE=\"$<TARGET_FILE:${ptgt}>\"")
    list(APPEND needs ${ptgt})
  endforeach()
  set(${defs_out} "${defs}" PARENT_SCOPE)
  set(${needs_out} "${needs}" PARENT_SCOPE)
  set(${missing_var} "${missing}" PARENT_SCOPE)
endfunction()

# The test's program <tgt>: its sources, libraries and definitions, what it
# needs built first, and the book's Catch2 main (the GPU one for a CUDA test).
function(_book_catch_test_program tgt gpu defs needs)
  add_executable(${tgt} ${T_SOURCES})
  target_link_libraries(${tgt} PRIVATE book_test_support ${T_LIBS})
  target_compile_definitions(${tgt} PRIVATE ${defs})
  # A program named through $<TARGET_FILE:...> in DEFINITIONS is built first too.
  foreach(d IN LISTS T_DEFINITIONS)
    if(d MATCHES "\\$<TARGET_FILE:([^>]+)>")
      list(APPEND needs "${CMAKE_MATCH_1}")
    endif()
  endforeach()
  if(needs)
    add_dependencies(${tgt} ${needs})
  endif()
  set_target_properties(${tgt} PROPERTIES RUNTIME_OUTPUT_DIRECTORY "${CMAKE_BINARY_DIR}/tests")
  if(gpu)
    target_link_libraries(${tgt} PRIVATE "$<LINK_LIBRARY:WHOLE_ARCHIVE,book_catch_gpu_main>")
    target_compile_options(${tgt} PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:${BOOK_CUDA_FLAGS}>)
  else()
    target_link_libraries(${tgt} PRIVATE "$<LINK_LIBRARY:WHOLE_ARCHIVE,book_catch_main>")
    book_test_headers(${tgt})  # Catch2's and JSON's headers, precompiled once
  endif()
endfunction()

# The CTest test <name>, judged from Catch2's report (tools/bookpy/build/catch_run.py), and
# registered for the manifest; once this folder is read, its properties are checked.
function(_book_catch_test_register name tgt key gpu)
  set(answers "")
  if(key)
    set(answers --answers "${CMAKE_CURRENT_SOURCE_DIR}/answers.json")
  endif()
  set(skip "")
  if(gpu)
    set(skip --skip-code 77)
  endif()
  add_test(NAME "${name}"
           COMMAND ${BOOK_PY} -m bookpy.build.catch_run --test "${name}"
                   --source-root "${CMAKE_SOURCE_DIR}" ${skip} ${answers} -- $<TARGET_FILE:${tgt}>)
  set_tests_properties("${name}" PROPERTIES LABELS "${T_LABELS}" TIMEOUT ${T_TIMEOUT})
  if(gpu)
    set_tests_properties("${name}" PROPERTIES SKIP_RETURN_CODE 77 RESOURCE_GROUPS "gpus:1")
  endif()
  book_register_catch2_test("${name}" ${tgt})
  # Once this folder is read: no property that turns a failure into a pass.
  # (A deferred call reads its arguments when it runs: the values go in now, by EVAL.)
  cmake_language(EVAL CODE
    "cmake_language(DEFER CALL _book_catch_test_properties [==[${name}]==] [==[${gpu}]==])")
endfunction()
