# SPDX-License-Identifier: MIT
# Included from tests/book/CMakeLists.txt, in its scope (book_bad_test, fx, root):
# the reference GPUs (book/gpus.json), the runs that wait for a GPU
# (recordings/pending.json) and the GPU a GPU machine records (cmake/BookGpus.cmake).
# Each configures the project of fixtures/cmake (configure.cmake) with its good
# chapter, ch97-good (a CPU run r, GPU runs gr and hr), and one file of fixtures/gpus.
set(gfx "${fx}/gpus")
# Their reference GPUs are fixtures/gpus/lead-h200.json (the lead is the H200), not the
# book's own book/gpus.json, whose lead may change; a case that reads another file names it
# after this (the last -D wins).
set(gpus_configure "${CMAKE_COMMAND}" -S "${fx}/cmake" -B build -G Ninja "-DBOOK_SOURCE=${root}"
    -DCASE=ch97-good "-DBOOK_GPUS_FILE=${gfx}/lead-h200.json")
# ---- book/gpus.json, read strictly ----------------------------------------------------
foreach(c
    "unknown-key|unknown-key\\.json:3: unknown key 'leed' \\(the file has \"about\", \"lead\" and \"gpus\"\\)"
    "lead-unknown|lead-unknown\\.json:6: \"lead\" should name one of the reference GPUs \\(NVIDIA H100 80GB HBM3, NVIDIA H200\\)"
    "twice|twice\\.json:2: two reference GPUs have the name 'NVIDIA H200'"
    "no-short|no-short\\.json:3: GPU 0 of \"gpus\" needs a \"name\" \\(as the device gives it\\) and a \"short\" name"
    "malformed|malformed\\.json:4: malformed JSON")
  string(REGEX MATCH "^([^|]*)[|](.*)$" c "${c}")  # <file>|<message>
  set(file "${CMAKE_MATCH_1}")
  set(message "${CMAKE_MATCH_2}")
  string(REPLACE " " "\\s+" message "${message}")  # CMake wraps its messages
  book_bad_test(gpus-${file} --expect "${message}"
    -- ${gpus_configure} "-DBOOK_GPUS_FILE=${gfx}/${file}.json")
endforeach()
# ---- recordings/pending.json, read strictly ------------------------------------------
foreach(c
    "unknown-gpu|pending-unknown-gpu\\.json:5: pending run ch97-good/hr: 'NVIDIA H100' is no reference GPU"
    "undeclared|pending-undeclared\\.json:4: pending run ch97-good/nope is not declared"
    "cpu-run|pending-cpu-run\\.json:3: pending run ch97-good/r is a CPU run"
    "no-reason|pending-no-reason\\.json:3: pending run ch97-good/gr needs a \"reason\""
    "semicolon|pending-semicolon\\.json:3: pending run ch97-good/gr: its \"reason\" holds a semicolon, which the build cannot pass on whole")
  string(REGEX MATCH "^([^|]*)[|](.*)$" c "${c}")  # <file>|<message>
  set(file "${CMAKE_MATCH_1}")
  set(message "${CMAKE_MATCH_2}")
  string(REPLACE " " "\\s+" message "${message}")
  book_bad_test(pending-${file} --expect "${message}"
    -- ${gpus_configure} "-DBOOK_PENDING_FILE=${gfx}/pending-${file}.json")
endforeach()
# A release build refuses a run pending on the lead GPU, at its line ...
set(message "pending-good\\.json:4: a release build \\(BOOK_RELEASE, tools/book build --release\\) shows only fresh recordings of the lead GPU, the NVIDIA H200, but run ch97-good/gr waits for it: book_common changed")
string(REPLACE " " "\\s+" message "${message}")
book_bad_test(pending-release --expect "${message}"
  -- ${gpus_configure} "-DBOOK_PENDING_FILE=${gfx}/pending-good.json" -DBOOK_RELEASE=ON)
# ... and without it, the manifest says, for each GPU run and reference GPU, what
# waits and what record there is: gr waits for both (no recording: no record), hr
# for the H100 only (the H200's, the lead's, is imported: its record is named).
book_runner_test(pending-in-manifest
  --before ${gpus_configure} "-DBOOK_PENDING_FILE=${gfx}/pending-good.json" --before-end
  --has build/book-manifest.json "runs>ch97-good/gr>gpus>NVIDIA H200>pending" "^book_common changed$"
  --has build/book-manifest.json "runs>ch97-good/gr>gpus>NVIDIA H200>record" "^null$"
  --has build/book-manifest.json "runs>ch97-good/gr>gpus>NVIDIA H100 80GB HBM3>pending" "^book_common changed$"
  --has build/book-manifest.json "runs>ch97-good/hr>gpus>NVIDIA H200>pending" "^null$"
  --has build/book-manifest.json "runs>ch97-good/hr>gpus>NVIDIA H200>record" "/records/ch97-good/hr\\.json$"
  --has build/book-manifest.json "runs>ch97-good/hr>gpus>NVIDIA H100 80GB HBM3>pending" "^its kernel changed$"
  --has build/book-manifest.json "runs>ch97-good/r>gpus" "^null$"
  --has build/book-manifest.json "gpus>lead" "^NVIDIA H200$"
  --has build/book-manifest.json "gpus>reference>0>slug" "^nvidia-h100-80gb-hbm3$"
  -- "${CMAKE_COMMAND}" -E true)
# ---- the GPU a GPU machine records: whatever nvidia-smi names ---------------------------
add_test(NAME book.gpus-live-model
         COMMAND "${CMAKE_COMMAND}" "-DSMI=${gfx}/nvidia-smi-h100" -P "${gfx}/live_model.cmake")
set_tests_properties(book.gpus-live-model PROPERTIES LABELS book TIMEOUT 60
  PASS_REGULAR_EXPRESSION "live GPU: NVIDIA H100 80GB HBM3 -> recordings/nvidia-h100-80gb-hbm3/")
book_bad_test(gpus-live-mixed
  --expect "This\\s+machine\\s+has\\s+GPUs\\s+of\\s+several\\s+models\\s+\\(NVIDIA\\s+H100\\s+80GB\\s+HBM3,\\s+NVIDIA\\s+A100-SXM4-40GB\\)"
  -- "${CMAKE_COMMAND}" "-DSMI=${gfx}/nvidia-smi-mixed" -P "${gfx}/live_model.cmake")
# ---- a run whose program needs more than the GPU has (book_program's NEEDS_CC) ----------
# The fixture's ch68-needs-cc, configured with an nvidia-smi stand-in reporting a T4
# (compute capability 7.5): its run that needs 9.0 is listed at configure and each of
# its tests is reported skipped, naming 9.0 and 7.5 (tests/book/cc_skip.py).
add_test(NAME book.cc-skip
         COMMAND ${BOOK_PY} "${CMAKE_CURRENT_SOURCE_DIR}/cc_skip.py" --root "${root}"
                 --fixture "${fx}/cmake" --bookrun $<TARGET_FILE:bookrun>
                 --scratch "${CMAKE_CURRENT_BINARY_DIR}/scratch/book.cc-skip")
set_tests_properties(book.cc-skip PROPERTIES LABELS book TIMEOUT 120)
# The book configured for compute capability 7.5 (BOOK_CUDA_ARCHITECTURES=75): the
# programs that declare NEEDS_CC 90 are left out with the reason, and a portable
# program compiles for compute_75 (tests/book/cc75_build.py). Needs nvcc.
if(BOOK_HAVE_CUDA)
  get_filename_component(_cc75_cuobjdump "${CMAKE_CUDA_COMPILER}" DIRECTORY)
  set(_cc75_cuobjdump "${_cc75_cuobjdump}/cuobjdump")
  add_test(NAME book.cc75-build
           COMMAND ${BOOK_PY} "${CMAKE_CURRENT_SOURCE_DIR}/cc75_build.py" --root "${root}"
                   --scratch "${CMAKE_CURRENT_BINARY_DIR}/scratch/book.cc75-build"
                   --cuobjdump "${_cc75_cuobjdump}")
  set_tests_properties(book.cc75-build PROPERTIES LABELS book TIMEOUT 600)
else()
  add_test(NAME book.cc75-build COMMAND bookrun skip "no CUDA compiler: nothing to compile for compute_75")
  set_tests_properties(book.cc75-build PROPERTIES LABELS book SKIP_RETURN_CODE 77)
endif()
