# SPDX-License-Identifier: MIT
# Included from tests/book/CMakeLists.txt, in its scope (book_bad_test, fx, root, sx):
# the configure step's refusals: declaring programs and runs, the chapters of a build,
# and a new chapter's wiring.
# ---- declaring programs and runs (cmake/BookPrograms.cmake, cmake/BookRuns.cmake) --
# A project of its own (fixtures/cmake) reads one folder of fixtures/cmake/cases as
# a chapter's code folder; each mistake fails the configure step at its line.
function(book_cmake_case case)
  book_bad_test("cmake-${case}" TIMEOUT 120 ${ARGN}
    -- "${CMAKE_COMMAND}" -S "${fx}/cmake" -B build -G Ninja "-DBOOK_SOURCE=${root}" "-DCASE=${case}")
endfunction()
set(at "cases/")
book_cmake_case(ch91-late-options
  --expect "ch91-late-options/CMakeLists\\.txt:3:\\s+the\\s+COMPILE_OPTIONS\\s+of\\s+program\\s+ch91-late-options/p"
  --expect "changed\\s+after\\s+book_program\\s+\\(now\\s+'-O0',\\s+was\\s+''\\)")
book_cmake_case(ch90-late-library-options
  --expect "ch90-late-library-options/CMakeLists\\.txt:4:\\s+the\\s+COMPILE_OPTIONS\\s+of\\s+library\\s+ch90_lib"
  --expect "changed\\s+after\\s+book_library\\s+\\(now\\s+'-O0',\\s+was\\s+''\\)")
book_cmake_case(not-a-chapter
  --expect "book_program\\(p\\): no CHAPTER given, and this folder"
  --expect "${at}not-a-chapter/CMakeLists\\.txt:2 \\(book_program\\)")
book_cmake_case(ch92-unknown-lib
  --expect "LIBS names 'ch92_nowhere', which is no\\s+target"
  --expect "${at}ch92-unknown-lib/CMakeLists\\.txt:2 \\(book_program\\)")
book_cmake_case(ch93-no-program
  --expect "book_run\\(r\\): no program ch93-no-program/nope"
  --expect "${at}ch93-no-program/CMakeLists\\.txt:2 \\(book_run\\)")
book_cmake_case(ch94-sanitizer
  --expect "SANITIZER memcheck needs SANITIZER_EXPECT errors"
  --expect "${at}ch94-sanitizer/CMakeLists\\.txt:3 \\(book_run\\)")
book_cmake_case(ch95-env
  --expect "ENV takes NAME=VALUE, not 'OMP_NUM_THREADS'"
  --expect "${at}ch95-env/CMakeLists\\.txt:3 \\(book_run\\)")
book_cmake_case(ch67-needs-cc-dot
  --expect "book_program\\(c\\):\\s+NEEDS_CC\\s+is\\s+a\\s+compute\\s+capability\\s+without\\s+the\\s+dot\\s+\\(90\\s+for\\s+9\\.0\\),\\s+not\\s+'9\\.0'"
  --expect "${at}ch67-needs-cc-dot/CMakeLists\\.txt:2 \\(book_program\\)")
book_cmake_case(ch66-ncu-cache
  --expect "NCU_CACHE_CONTROL\\s+is\\s+all\\s+\\(flush\\s+the\\s+caches\\s+before\\s+each\\s+profiled\\s+launch,\\s+ncu's\\s+default\\)\\s+or\\s+none,\\s+not\\s+'warm'"
  --expect "${at}ch66-ncu-cache/CMakeLists\\.txt:3 \\(book_run\\)")
book_cmake_case(ch65-ncu-metrics-alone
  --expect "NCU_METRICS\\s+are\\s+recorded\\s+from\\s+the\\s+launches\\s+NCU_KERNELS\\s+profiles\\s+.NCU_ARGS\\s+are\\s+the\\s+program.s\\s+arguments\\s+then..\\s+give\\s+NCU_KERNELS"
  --expect "${at}ch65-ncu-metrics-alone/CMakeLists\\.txt:3 \\(book_run\\)")
book_cmake_case(ch96-twice
  --expect "book_run\\(r\\): chapter ch96-twice already has a run r"
  --expect "${at}ch96-twice/CMakeLists\\.txt:4 \\(book_run\\)")
# Flags set outside book_program, which the program is compiled with but its runs
# would not hash: refused at the line that sets them.
book_cmake_case(ch85-source-options
  --expect "ch85-source-options/CMakeLists\\.txt:4:\\s+the\\s+source\\s+cases/ch85-source-options/p\\.cpp\\s+of\\s+program\\s+ch85-source-options/p\\s+has\\s+its\\s+own\\s+COMPILE_OPTIONS")
book_cmake_case(ch86-cuda-arch
  --expect "ch86-cuda-arch/CMakeLists\\.txt:3:\\s+the\\s+CUDA_ARCHITECTURES\\s+of\\s+program\\s+ch86-cuda-arch/p")
book_cmake_case(ch87-link-options
  --expect "ch87-link-options/CMakeLists\\.txt:3:\\s+the\\s+LINK_OPTIONS\\s+of\\s+program\\s+ch87-link-options/p")
book_cmake_case(ch88-compile-definitions
  --expect "ch88-compile-definitions/CMakeLists\\.txt:4:\\s+the\\s+folder's\\s+COMPILE_DEFINITIONS\\s+changed\\s+after")
book_cmake_case(ch89-include-before
  --expect "ch89-include-before/CMakeLists\\.txt:4:\\s+the\\s+INCLUDE_DIRECTORIES\\s+of\\s+program\\s+ch89-include-before/p")
# A folder variable that seeds a program's properties (CMake compiles with the
# folder's last value), set after book_program; a cache variable that a chapter's
# folder forces or creates (it reaches every folder's compile). Refused at the
# line that sets it, and again when the build folder is configured a second time.
book_cmake_case(ch72-late-variable
  --expect "ch72-late-variable/CMakeLists\\.txt:6:\\s+the\\s+folder's\\s+variables\\s+changed\\s+after\\s+book_program\\s+of\\s+program\\s+ch72-late-variable/p"
  --expect "\\(now\\s+'set:CMAKE_CXX_EXTENSIONS=\\[ON\\]\\s+set:CMAKE_CXX_STANDARD=\\[17\\]',\\s+was\\s+'set:CMAKE_CXX_EXTENSIONS=\\[ON\\]'\\)")
set(_forced "ch71-cache-forced/CMakeLists\\.txt:3:\\s+the\\s+cache\\s+variable\\s+CMAKE_CXX_FLAGS\\s+was\\s+changed\\s+\\(now\\s+'-ffast-math',\\s+was\\s+''\\)")
set(_created "ch70-cache-created/CMakeLists\\.txt:4:\\s+the\\s+cache\\s+variable\\s+CMAKE_POSITION_INDEPENDENT_CODE\\s+was\\s+created")
book_cmake_case(ch71-cache-forced --expect "${_forced}")
book_cmake_case(ch70-cache-created --expect "${_created}")
foreach(_c IN ITEMS ch71-cache-forced ch70-cache-created)
  set(_configure "${CMAKE_COMMAND}" -S "${fx}/cmake" -B build -G Ninja "-DBOOK_SOURCE=${root}" "-DCASE=${_c}")
  list(JOIN _configure "' '" _first)
  if(_c STREQUAL "ch71-cache-forced")
    set(_expect "${_forced}")
  else()
    set(_expect "${_created}")
  endif()
  book_bad_test("cmake-${_c}-again" TIMEOUT 120 --expect "${_expect}"
    --before sh -c "'${_first}' >/dev/null 2>&1 || test -f build/CMakeCache.txt" --before-end
    -- ${_configure})
endforeach()
# A chapter's Catch2 test that cannot fail (cmake/BookCatchTests.cmake): a property
# that turns a failure into a pass or leaves the test out, and a test source with
# its own main, stop the configure step at their line.
book_cmake_case(ch81-disabled
  --expect "cases/ch81-disabled/CMakeLists\\.txt:2: test ch81-disabled\\.check-yourself is\\s+set\\s+DISABLED")
book_cmake_case(ch82-will-fail
  --expect "cases/ch82-will-fail/CMakeLists\\.txt:4: test ch82-will-fail\\.check-yourself\\s+is\\s+set\\s+WILL_FAIL")
book_cmake_case(ch84-pass-regex
  --expect "cases/ch84-pass-regex/CMakeLists\\.txt:2: test ch84-pass-regex\\.check-yourself\\s+is\\s+set\\s+PASS_REGULAR_EXPRESSION")
book_cmake_case(ch83-own-main
  --expect "catch/own_main\\.test\\.cpp:5: test ch83-own-main\\.check-yourself defines its\\s+own\\s+main")
# A test case tagged to pass when it fails, and a check-yourself tag outside the
# check-yourself program (which the book lists), stop it at the source's line.
book_cmake_case(ch79-shouldfail
  --expect "catch/passing_failure\\.test\\.cpp:7: test ch79-shouldfail\\.check-yourself\\s+tags\\s+a\\s+test\\s+case\\s+\\[!shouldfail\\]")
book_cmake_case(ch78-cy-elsewhere
  --expect "cy_comment\\.test\\.cpp:[0-9]+: test ch78-cy-elsewhere\\.claims\\s+carries\\s+a\\s+check-yourself\\s+tag")
# ... and a chapter that does it right configures, its key taken from its folder.
add_test(NAME book.cmake-good
         COMMAND "${CMAKE_COMMAND}" -S "${fx}/cmake" -B "${CMAKE_CURRENT_BINARY_DIR}/scratch/book.cmake-good"
                 -G Ninja "-DBOOK_SOURCE=${root}" -DCASE=ch97-good)
set_tests_properties(book.cmake-good PROPERTIES LABELS book TIMEOUT 120
                     FAIL_REGULAR_EXPRESSION "CMake (Error|Warning)"
                     FIXTURES_SETUP book-cmake-good)
# A book library's OPTIONS and DEFINITIONS enter the flags identity (--flags) of
# the runs of the program that links it, so that changing them makes the runs stale.
add_test(NAME book.cmake-library-flags
         COMMAND grep -F -c "ch97_lib=[options=[-O1] definitions=[BOOK_LIB_X=1]]"
                 "${CMAKE_CURRENT_BINARY_DIR}/scratch/book.cmake-good/build.ninja")
set_tests_properties(book.cmake-library-flags PROPERTIES LABELS book TIMEOUT 30
                     FIXTURES_REQUIRED book-cmake-good)

# A folder's own flags (CMAKE_CXX_FLAGS set in it), link options and include
# folders, set before book_program and book_library, reach the runs' flags
# identity and the header scan (the compile sees them, so the hash must).
add_test(NAME book.cmake-folder-settings
         COMMAND "${CMAKE_COMMAND}" -S "${fx}/cmake" -B "${CMAKE_CURRENT_BINARY_DIR}/scratch/book.cmake-folder-settings"
                 -G Ninja "-DBOOK_SOURCE=${root}" -DCASE=ch73-folder-settings)
set_tests_properties(book.cmake-folder-settings PROPERTIES LABELS book TIMEOUT 120
                     FAIL_REGULAR_EXPRESSION "CMake (Error|Warning)"
                     FIXTURES_SETUP book-cmake-folder-settings)
set(_ninja "${CMAKE_CURRENT_BINARY_DIR}/scratch/book.cmake-folder-settings/build.ninja")
# Each must be in the program's --flags (and its library's, which it links),
# and the shadowing folder in the header scan's search.
set(_hashed "--include-dir ${fx}/cmake/cases/ch73-folder-settings/shadow"
    "c++20  link=[-Wl,-O1] set:BOOK_CUDA_FLAGS=[-G]" "set:CMAKE_CUDA_ARCHITECTURES=[80]"
    "set:CMAKE_CXX_EXTENSIONS=[ON]" "set:CMAKE_CXX_FLAGS=[ -ffast-math]"
    "set:CMAKE_CXX_STANDARD=[17]" "set:CMAKE_EXE_LINKER_FLAGS=[ -Wl,--as-needed]"
    "set:CMAKE_POSITION_INDEPENDENT_CODE=[ON] ch73_lib=[link=[-Wl,-O1] set:BOOK_CUDA_FLAGS=[-G] set:CMAKE_CUDA_ARCHITECTURES=[80] set:CMAKE_CXX_EXTENSIONS=[ON] set:CMAKE_CXX_FLAGS=[ -ffast-math] set:CMAKE_CXX_STANDARD=[17] set:CMAKE_EXE_LINKER_FLAGS=[ -Wl,--as-needed] set:CMAKE_POSITION_INDEPENDENT_CODE=[ON]]")
add_test(NAME book.cmake-folder-settings-hashed
         COMMAND sh -c "f=$1; shift; for s in \"$@\"; do grep -F -q -- \"$s\" \"$f\" || { echo \"not in $f: $s\"; exit 1; }; done" sh "${_ninja}" ${_hashed})
set_tests_properties(book.cmake-folder-settings-hashed PROPERTIES LABELS book TIMEOUT 30
                     FIXTURES_REQUIRED book-cmake-folder-settings)
# ... and the compile database agrees: every flag they gave the compile is one
# the runs hash (tools/bookpy/inputs/compile_check.py).
set(_check ${BOOK_PY} -m bookpy.inputs.compile_check --bookrun $<TARGET_FILE:bookrun>)
add_test(NAME book.compile-commands-folder-settings
         COMMAND ${_check}
                 --inputs "${CMAKE_CURRENT_BINARY_DIR}/scratch/book.cmake-folder-settings/compile-inputs.json"
                 --commands "${CMAKE_CURRENT_BINARY_DIR}/scratch/book.cmake-folder-settings/compile_commands.json")
set_tests_properties(book.compile-commands-folder-settings PROPERTIES LABELS book TIMEOUT 30
                     FIXTURES_REQUIRED book-cmake-folder-settings
                     PASS_REGULAR_EXPRESSION "compiles of 1 program hold only flags")
# A flag that reaches a compile by a way no configure check sees (a target
# property set after book_program): the compile database shows it, and the check
# names it with its source. An INTERFACE library's usage requirements are hashed
# (its program's flags identity holds them), so that program passes.
book_bad_test(compile-commands-ch69 TIMEOUT 120
  --before "${CMAKE_COMMAND}" -S "${fx}/cmake" -B build -G Ninja "-DBOOK_SOURCE=${root}"
           -DCASE=ch69-interface-flags --before-end
  --expect "p\\.cpp: compiled \\(target ch69-interface-flags\\.q\\) with '-fPIE'.\\s+the runs of\\s+ch69-interface-flags/q do not hash it"
  --expect "1 compile flag\\(s\\) the runs' input hash does not see"
  --reject "target ch69-interface-flags\\.p\\)"
  -- ${_check} --inputs build/compile-inputs.json --commands build/compile_commands.json)

# ---- the chapters of a build (BOOK_CHAPTERS, cmake/BookChapters.cmake) ---------------
# A key that is no chapter's, or no key at all, stops the configure step, naming it;
# nothing is generated.
# (The header libraries come from where this build's come from: a GPU machine
# carries them, BOOK_HOST_INCLUDE.)
set(chapters_configure -- "${CMAKE_COMMAND}" -S "${root}" -B build -G Ninja -DBOOK_DOCS=OFF
    -DCMAKE_CUDA_COMPILER=/nonexistent/nvcc "-DBOOK_HOST_INCLUDE=${BOOK_HOST_INCLUDE}")
# A machine tools/book set up (BOOK_REQUIRE_TOOLS) runs every test: a tool a test
# needs that is missing there (here pytest) stops the configure step, naming the
# Debian package, rather than leaving the test out.
book_bad_test(require-tools-pytest TIMEOUT 180
  --expect "pytest\\s+for\\s+.*python-without-pytest\\s+is\\s+missing,\\s+so\\s+the\\s+test"
  --expect "The\\s+Debian\\s+package\\s+python3-pytest\\s+provides\\s+it"
  --absent build/build.ninja
  ${chapters_configure} -DBOOK_REQUIRE_TOOLS=ON -DBOOK_CHAPTERS=ch01-execution-model
    "-DBOOK_PYTHON=${fx}/python-without-pytest"
    "-DBOOK_EXERCISES_PYTHON=${fx}/python-without-pytest")
book_bad_test(chapters-unknown TIMEOUT 180
  --expect "BOOK_CHAPTERS\\s+names\\s+ch42-nowhere,\\s+but\\s+no\\s+chapters/ch42-nowhere\\.md\\s+nor"
  --expect "The\\s+chapters:\\s+ch01-execution-model,\\s+ch02"
  --absent build/book-manifest.json --absent build/build.ninja
  ${chapters_configure} "-DBOOK_CHAPTERS=ch01-execution-model, ch42-nowhere")
book_bad_test(chapters-not-a-key TIMEOUT 180
  --expect "BOOK_CHAPTERS:\\s+'chapter1'\\s+is\\s+not\\s+a\\s+chapter\\s+key\\s+\\(chNN-name"
  --absent build/book-manifest.json --absent build/build.ninja
  ${chapters_configure} -DBOOK_CHAPTERS=chapter1)
# The whole book (BOOK_CHAPTERS empty) has every chapter of the source tree, each
# page linked from the table of contents; a build of a few chapters fails here,
# saying so (the whole suite needs the whole book).
set(whole ${BOOK_PY} "${CMAKE_CURRENT_SOURCE_DIR}/whole_book.py" --root "${root}"
          --build "${CMAKE_BINARY_DIR}")
if(BOOK_DOCS)
  list(APPEND whole --html)
endif()
add_test(NAME book.whole-book COMMAND ${whole})
set_tests_properties(book.whole-book PROPERTIES LABELS book TIMEOUT 60)

# ---- a new chapter: a few lines of wiring, and it is in the book (chapter-key) ---------
# new_chapter.py copies the repository into a scratch folder outside the checkout,
# drops in the chapter of fixtures/new-chapter (ch99-fixture: one program, one run,
# one diagram, one exercise, one question; its CMake lines at most 15), builds
# that chapter alone (BOOK_CHAPTERS) and checks its page in the HTML, its
# exercise's tests and its tested question. Its build takes both cores.
if(BOOK_DOCS)
  add_test(NAME book.new-chapter
           COMMAND ${BOOK_PY} "${CMAKE_CURRENT_SOURCE_DIR}/new_chapter.py" --root "${root}"
                   --fixture "${fx}/new-chapter" --scratch "${BOOK_TEST_TMP}/book.new-chapter"
                   --cmake "${CMAKE_COMMAND}" --ctest "${CMAKE_CTEST_COMMAND}"
                   "--cmake-arg=-DBOOK_HOST_INCLUDE=${BOOK_HOST_INCLUDE}")
  set_tests_properties(book.new-chapter PROPERTIES LABELS book TIMEOUT 600 PROCESSORS 2)
  # incremental-equals-clean through CMake itself: the same fixture chapter in a copy
  # of the book, built with `cmake --build` after each edit (a title and a linked
  # heading, each changed and reverted; the listed line of its program; its run's
  # arguments, so the record and the manifest), publishes what a clean build of the
  # same tree does, file for file; a difference names the file.
  add_test(NAME book.incremental-cmake
           COMMAND ${BOOK_PY} "${CMAKE_CURRENT_SOURCE_DIR}/incremental_cmake.py" --root "${root}"
                   --fixture "${fx}/new-chapter" --scratch "${BOOK_TEST_TMP}/book.incremental-cmake"
                   --cmake "${CMAKE_COMMAND}" "--cmake-arg=-DBOOK_HOST_INCLUDE=${BOOK_HOST_INCLUDE}")
  set_tests_properties(book.incremental-cmake PROPERTIES LABELS book TIMEOUT 900 PROCESSORS 2)
endif()

