# SPDX-License-Identifier: MIT
# The runner's bad input (inputs-hashed, recording-unedited, checks-strict,
# output-kept: docs/architecture.md) and the runner's options end to end
# (runner-options.cmake, included at the end of this file), on fixtures of their
# own (tools/runner/tests/fixtures): a
# shell script stands in for a GPU program (fake_gpu.sh), and scripts stand in
# for compute-sanitizer, cuobjdump, ncu and nvidia-smi (tools/), so every test
# runs on a machine without a GPU and reads no chapter's recordings.
# Included from tests/book/CMakeLists.txt (book_bad_test and expect_failure.py
# come from there), so that the tests run in tests/book/scratch.
set(rfx "${CMAKE_SOURCE_DIR}/tools/runner/tests/fixtures")
set(bookrun_exe $<TARGET_FILE:bookrun>)
set(fake_gpu /bin/sh "${rfx}/fake_gpu.sh")
set(fake_tools "${rfx}/tools")

# book_runner_test(<name> <driver args>...): a test that must succeed and write
# a record as described (expect_failure.py --code 0, with its --has, --lacks and
# --max-size checks of the record).
function(book_runner_test name)
  add_test(NAME "book.runner.${name}"
           COMMAND ${BOOK_PY} "${CMAKE_CURRENT_SOURCE_DIR}/expect_failure.py" --code 0
                   --scratch "${CMAKE_CURRENT_BINARY_DIR}/scratch/book.runner.${name}" ${ARGN})
  set_tests_properties("book.runner.${name}" PROPERTIES LABELS book TIMEOUT 120)
endfunction()

# The fixture sources, copied into the scratch folder (src/), which is the source root.
set(r_copy --copy "${rfx}/src" src)
set(r_inputs --name t/fixture --source-root . --cxx "${CMAKE_CXX_COMPILER}" --source src/prog.cu
             --flags fixture)
# A recording names the clean commit it was made at (tools/book record sets BOOK_COMMIT).
set(r_run env BOOK_COMMIT=0123456789ab ${bookrun_exe} run ${r_inputs} --provenance cxx=fixture --provenance nvcc=13.0
          --gpu --nvidia-smi "${fake_tools}/nvidia-smi" --out x.json)
set(r_checks --checks "${rfx}/checks/good.checks.json")
# A recording made the way `tools/book record` makes one: run live, then save.
set(r_record
  --before ${r_run} ${r_checks} -- ${fake_gpu} ok --before-end
  --before ${bookrun_exe} save --record x.json --recording rec/fixture.json --before-end)
set(r_verify ${bookrun_exe} verify ${r_inputs} ${r_checks} --gpu-model "NVIDIA H200"
             --recording rec/fixture.json)

# ---- inputs-hashed: every header the compiler sees is an input ----------------
# A header included only under __CUDACC__ (nvcc's passes), one only under
# __CUDA_ARCH__ >= 900 (the device pass) and one only in the host pass: editing
# any of them makes the recording stale.
book_bad_test(runner-cuda-only-header ${r_copy} ${r_record}
  --replace src/cuda_only.cuh "= 256" "= 512"
  --expect "the recording of t/fixture is stale"
  --expect "^  src/cuda_only\\.cuh changed$"
  -- ${r_verify})
book_bad_test(runner-arch-only-header ${r_copy} ${r_record}
  --replace src/sm90_only.cuh "= 8" "= 16"
  --expect "the recording of t/fixture is stale"
  --expect "^  src/sm90_only\\.cuh changed$"
  -- ${r_verify})
# One only in nvcc's host pass (__CUDACC__ without __CUDA_ARCH__): the device
# passes do not see it, so only the host pass can make it an input.
book_bad_test(runner-host-pass-header ${r_copy} ${r_record}
  --replace src/host_pass_only.cuh "= 4" "= 8"
  --expect "the recording of t/fixture is stale"
  --expect "^  src/host_pass_only\\.cuh changed$"
  -- ${r_verify})
# A quoted include the runner cannot place is an error at its file and line, and no record is left.
book_bad_test(runner-unplaced-header ${r_copy}
  --expect "src/unplaced\\.cu:5: cannot find the header \"nowhere\\.cuh\" it includes"
  --absent "x.json*"
  -- ${bookrun_exe} run --name t/fixture --source-root . --cxx "${CMAKE_CXX_COMPILER}"
     --source src/unplaced.cu --provenance cxx=fixture --out x.json -- ${fake_gpu} ok)
# A library the program links is an input (--lib-source), like its own sources.
book_bad_test(runner-lib-source ${r_copy}
  --before ${r_run} --lib-source src/lib.cpp -- ${fake_gpu} ok --before-end
  --before ${bookrun_exe} save --record x.json --recording rec/fixture.json --before-end
  --replace src/lib.cpp "return 1" "return 2"
  --expect "^  src/lib\\.cpp changed$"
  -- ${r_verify} --lib-source src/lib.cpp)

# ---- recording-unedited: a recording edited by hand -------------------------------
# A measured value changed inside its checks' bounds: only the digest can tell.
book_bad_test(runner-edited-value ${r_copy} ${r_record}
  --json-set rec/fixture.json "results>ratio>value" 1.05
  --expect "rec/fixture\\.json: the record does not match its digest"
  --expect "re-record it on its GPU with `tools/book record`"
  -- ${r_verify})
# stdout changed so that it contradicts the results.
book_bad_test(runner-edited-stdout ${r_copy} ${r_record}
  --replace rec/fixture.json "ratio = 1.02" "ratio = 1.50"
  --expect "rec/fixture\\.json: the record does not match its digest"
  -- ${r_verify})
# The digest itself removed: not taken for a recording made before digests existed.
book_bad_test(runner-digest-removed ${r_copy} ${r_record}
  --json-del rec/fixture.json digest
  --expect "rec/fixture\\.json: field 'digest' is missing"
  -- ${r_verify})
# `save` refuses a live record edited after its run, and writes nothing.
book_bad_test(runner-save-edited ${r_copy}
  --before ${r_run} ${r_checks} -- ${fake_gpu} ok --before-end
  --json-set x.json "results>mismatches>value" 0.5
  --expect "x\\.json: the record does not match its digest"
  --absent "rec/*"
  -- ${bookrun_exe} save --record x.json --recording rec/fixture.json)

# ---- checks-strict: a checks file is read strictly ---------------------------------
foreach(c
    "misspelt-min|misspelt-min\\.checks\\.json:5: check 'ratio-high': unknown key 'minimum' .*did you mean 'min'\\?"
    "misspelt-max|misspelt-max\\.checks\\.json:6: check 'ratio-low': unknown key 'maxx' .*did you mean 'max'\\?"
    "string-bound|string-bound\\.checks\\.json:6: check 'ratio-near-one': the bound \"min\" should be a number, not \"0\\.9\""
    "no-bound|no-bound\\.checks\\.json:4: check 'ratio-exists' has no bound .*could never fail"
    "no-id|no-id\\.checks\\.json:4: check 2 \\(of 2\\) has no \"id\""
    "no-value|no-value\\.checks\\.json:3: check 'ratio-near-one' has no \"value\""
    "duplicate-id|duplicate-id\\.checks\\.json:5: check 'ratio-near-one': the id is used twice \\(first at .*duplicate-id\\.checks\\.json:3\\)"
    "never-passes|never-passes\\.checks\\.json:3: check 'ratio-band': min 1\\.1 is above max 0\\.9")
  string(REGEX MATCH "^([^|]*)[|](.*)$" c "${c}")  # <file>|<message>
  set(file "${CMAKE_MATCH_1}")
  set(message "${CMAKE_MATCH_2}")
  book_bad_test(runner-checks-${file} ${r_copy}
    --expect "${message}" --absent "x.json*"
    -- ${r_run} --checks "${rfx}/checks/${file}.checks.json" -- ${fake_gpu} ok)
endforeach()
# A check's "gpus" names reference GPUs (book/gpus.json, given as --reference-gpu) only.
set(r_reference --reference-gpu "NVIDIA H100 80GB HBM3" --reference-gpu "NVIDIA H200")
book_bad_test(runner-checks-unknown-gpu ${r_copy}
  --expect "unknown-gpu\\.checks\\.json:4: check 'ratio-near-one': \"gpus\" names 'NVIDIA H100', which is no reference GPU .*did you mean 'NVIDIA H100 80GB HBM3'\\?"
  --absent "x.json*"
  -- ${r_run} ${r_reference} --checks "${rfx}/checks/unknown-gpu.checks.json" -- ${fake_gpu} ok)
# A check scoped to another GPU is evaluated, marked not applicable, and neither
# passes nor fails the run; one scoped to the run's own GPU fails as any check.
book_runner_test(checks-scoped-elsewhere ${r_copy}
  --before ${r_run} ${r_reference} --checks "${rfx}/checks/scoped.checks.json" -- ${fake_gpu} ok --before-end
  --before ${bookrun_exe} save --record x.json --recording rec/fixture.json --before-end
  --has x.json "checks>1>not_applicable" "^not applicable on the NVIDIA H200: the check holds on the NVIDIA H100 80GB HBM3 only$"
  --has x.json "checks>1>ok" "^false$"
  --has x.json "checks>0>ok" "^true$"
  --expect "recording is fresh .*. 1 check passed, 1 not applicable on this GPU \\(h100-only-ratio\\)"
  -- ${bookrun_exe} verify ${r_inputs} ${r_reference} --checks "${rfx}/checks/scoped.checks.json"
     --gpu-model "NVIDIA H200" --recording rec/fixture.json)
book_bad_test(runner-checks-scoped-here ${r_copy}
  --expect "check 'h200-only-ratio' failed: ratio = 1\\.02, expected >= 5"
  --absent "x.json"
  -- ${r_run} ${r_reference} --checks "${rfx}/checks/scoped-here.checks.json" -- ${fake_gpu} ok)
# verify and import read checks the same way.
book_bad_test(runner-checks-verify ${r_copy} ${r_record}
  --expect "misspelt-min\\.checks\\.json:5: check 'ratio-high': unknown key 'minimum'"
  -- ${bookrun_exe} verify ${r_inputs} --checks "${rfx}/checks/misspelt-min.checks.json"
     --gpu-model "NVIDIA H200" --recording rec/fixture.json)

# ---- a GPU's recording that may lag: pending runs, other reference GPUs -----------
# (recordings/pending.json, book/gpus.json; cmake/BookRuns.cmake gives the options.)
set(r_stale --replace src/cuda_only.cuh "= 256" "= 512")
set(r_stale_says "rec/fixture\\.json \\(the NVIDIA H200\\) is stale: recorded at commit 0123456789ab, and since then src/cuda_only\\.cuh changed")
# A run pending on this GPU: missing or stale, its test is reported skipped with the
# reason (never passed); fresh, the entry is out of date, which fails.
book_bad_test(runner-pending-never-recorded ${r_copy} --code 77
  --expect "^skipped: pending \\(recordings/pending\\.json: the kernel changed\\): t/fixture has never been recorded on the NVIDIA H200"
  -- ${r_verify} --pending "the kernel changed")
book_bad_test(runner-pending-stale ${r_copy} ${r_record} ${r_stale} --code 77
  --expect "^skipped: pending \\(recordings/pending\\.json: the kernel changed\\): ${r_stale_says}. its checks are not counted"
  -- ${r_verify} --pending "the kernel changed")
book_bad_test(runner-pending-fresh ${r_copy} ${r_record}
  --expect "t/fixture is declared pending on the NVIDIA H200 \\(recordings/pending\\.json: the kernel changed\\), but its recording rec/fixture\\.json is fresh"
  -- ${r_verify} --pending "the kernel changed")
# A reference GPU other than the lead: missing or stale is skipped, not passed.
book_bad_test(runner-other-gpu-missing ${r_copy} --code 77
  --expect "^skipped: t/fixture has never been recorded on the NVIDIA H200 \\(rec/fixture\\.json\\)"
  -- ${r_verify} --stale-ok)
book_bad_test(runner-other-gpu-stale ${r_copy} ${r_record} ${r_stale} --code 77
  --expect "^skipped: ${r_stale_says}"
  -- ${r_verify} --stale-ok)
# ... and an edited one is an error all the same.
book_bad_test(runner-other-gpu-edited ${r_copy} ${r_record}
  --json-set rec/fixture.json "results>ratio>value" 1.05
  --expect "rec/fixture\\.json: the record does not match its digest"
  -- ${r_verify} --stale-ok)
# Imported: a stale recording of such a GPU is taken as its last, its checks (which
# the older program need not meet: impossible.checks.json) not enforced ...
set(r_import ${bookrun_exe} import ${r_inputs} --gpu-model "NVIDIA H200" --recording rec/fixture.json
             --out imported.json)
book_runner_test(import-stale-ok ${r_copy} ${r_record} ${r_stale}
  --has imported.json "stale" "^true$"
  --has imported.json "checks>0>ok" "^false$"
  -- ${r_import} --stale-ok --checks "${rfx}/checks/impossible.checks.json")
# ... but a fresh one's must hold: one made before the checks it was made with were
# recorded (older_recording.py), which is fresh under any checks, is checked against
# those declared now (a newer one made under other checks is stale: runner-checks-changed).
book_bad_test(runner-import-fresh-checks ${r_copy} ${r_record}
  --before ${BOOK_PY} "${rfx}/older_recording.py" "${CMAKE_SOURCE_DIR}/book/record-schema.json"
           rec/fixture.json checks_declared --before-end
  --expect "t/fixture is recorded, but: 1 of 1 checks failed"
  -- ${r_import} --stale-ok --checks "${rfx}/checks/impossible.checks.json")
# A release build refuses a stale recording of the lead GPU.
book_bad_test(runner-import-release-stale ${r_copy} ${r_record} ${r_stale}
  --expect "a release build shows only fresh recordings of the lead GPU, but ${r_stale_says}"
  --absent imported.json
  -- ${r_import} --refuse-stale)

# ---- output-kept: what a program prints -----------------------------------------
book_bad_test(runner-stdout-not-utf8 ${r_copy}
  --expect "program t/fixture stdout is not valid UTF-8: byte 18 \\(line 2\\) is 0xff"
  --absent "x.json*"
  -- ${r_run} -- ${fake_gpu} bad-utf8-stdout)
book_bad_test(runner-stderr-not-utf8 ${r_copy}
  --expect "program t/fixture stderr is not valid UTF-8: byte 9 \\(line 1\\) is 0xc3"
  --absent "x.json*"
  -- ${r_run} -- ${fake_gpu} bad-utf8-stderr)
# (No ';' nor unbalanced brackets in these regexes: CMake lists would split them.)
# 3 MiB of output: stored cut to the cap (1 MiB a stream), with a marker line, and the record says so.
book_runner_test(output-cap ${r_copy}
  --has x.json "truncated>stdout>bytes_total" "^3145728$"
  --has x.json "truncated>stdout>bytes_cut" "^[0-9]+$"
  --has x.json stdout "^\\[bookrun: output cut here: [0-9]+ of its 3145728 bytes are not kept \\(the cap is 1048576 bytes a stream\\)\\]$"
  --max-size x.json stdout 1048800
  --lacks x.json "truncated>stderr"
  -- ${r_run} -- ${fake_gpu} big)

# A text over the cap (here one the program reports) is kept the same way.
book_runner_test(text-cap ${r_copy}
  --has x.json "truncated>texts.big>bytes_total" "^2097152$"
  --has x.json "texts>big" "^.bookrun: output cut here: [0-9]+ of its 2097152 bytes are not kept"
  --max-size x.json "texts>big" 1048800
  --lacks x.json "truncated>stdout"
  -- ${r_run} -- ${fake_gpu} big-text)

# ---- the runner's options, end to end ---------------------------------------------
include("${CMAKE_CURRENT_LIST_DIR}/runner-options.cmake")
