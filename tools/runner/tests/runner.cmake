# The runner's bad input (inputs-hashed, recording-unedited, checks-strict,
# output-kept: docs/architecture.md) and the runner's options end to end, on
# fixtures of their own (tools/runner/tests/fixtures): a
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
           COMMAND "${BOOK_PYTHON}" "${CMAKE_CURRENT_SOURCE_DIR}/expect_failure.py" --code 0
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
  string(FIND "${c}" "|" bar)
  string(SUBSTRING "${c}" 0 ${bar} file)
  math(EXPR bar "${bar} + 1")
  string(SUBSTRING "${c}" ${bar} -1 message)
  book_bad_test(runner-checks-${file} ${r_copy}
    --expect "${message}" --absent "x.json*"
    -- ${r_run} --checks "${rfx}/checks/${file}.checks.json" -- ${fake_gpu} ok)
endforeach()
# verify and import read checks the same way.
book_bad_test(runner-checks-verify ${r_copy} ${r_record}
  --expect "misspelt-min\\.checks\\.json:5: check 'ratio-high': unknown key 'minimum'"
  -- ${bookrun_exe} verify ${r_inputs} --checks "${rfx}/checks/misspelt-min.checks.json"
     --gpu-model "NVIDIA H200" --recording rec/fixture.json)

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

# ---- the runner's options ------------------------------------------------------
# --env: set for the program, hashed into the inputs; a change makes the recording stale.
book_runner_test(env ${r_copy}
  --has x.json stdout "^BOOK_FIXTURE_WARPS=4$"
  --has x.json "inputs>env>BOOK_FIXTURE_WARPS" "^4$"
  -- ${r_run} --env BOOK_FIXTURE_WARPS=4 -- ${fake_gpu} env)
book_bad_test(runner-env-changed ${r_copy}
  --before ${r_run} --env BOOK_FIXTURE_WARPS=4 -- ${fake_gpu} ok --before-end
  --before ${bookrun_exe} save --record x.json --recording rec/fixture.json --before-end
  --expect "^  environment changed \\(recorded \\{\"BOOK_FIXTURE_WARPS\":\"4\"\\}, now \\{\"BOOK_FIXTURE_WARPS\":\"8\"\\}\\)$"
  -- ${r_verify} --env BOOK_FIXTURE_WARPS=8)
# --toolchain: compared where this build gives the key, named where it does not.
set(r_record_nvcc
  --before ${r_run} --toolchain nvcc=13.0.88 -- ${fake_gpu} ok --before-end
  --before ${bookrun_exe} save --record x.json --recording rec/fixture.json --before-end)
book_runner_test(toolchain-not-compared ${r_copy} ${r_record_nvcc}
  --expect "recording is fresh .*not compared: nvcc \\(recorded 13\\.0\\.88. this build gives no nvcc version\\)"
  -- ${r_verify})
book_bad_test(runner-toolchain-changed ${r_copy} ${r_record_nvcc}
  --expect "^  nvcc changed \\(recorded 13\\.0\\.88, now 13\\.1\\.0\\)$"
  -- ${r_verify} --toolchain nvcc=13.1.0)
# The CUDA flags the build compiles with are an input too.
book_bad_test(runner-nvcc-flags-changed ${r_copy}
  --before ${r_run} "--toolchain=nvcc-flags=-O3 -DNDEBUG" -- ${fake_gpu} ok --before-end
  --before ${bookrun_exe} save --record x.json --recording rec/fixture.json --before-end
  --expect "^  nvcc-flags changed \\(recorded -O3 -DNDEBUG, now -O2 -DNDEBUG\\)$"
  -- ${r_verify} "--toolchain=nvcc-flags=-O2 -DNDEBUG")
# The driver's own version from nvidia-smi; the driver's CUDA version under its own
# name; the host name only in the volatile part.
book_runner_test(driver-version ${r_copy}
  --before ${r_run} -- ${fake_gpu} gpu --before-end
  --has x.json "provenance>driver_version" "^580\\.65\\.06$"
  --has x.json "provenance>driver_cuda_version" "^13\\.0$"
  --lacks rec/fixture.json "provenance>host"
  --has rec/fixture.volatile.json "provenance>host" "."
  -- ${bookrun_exe} save --record x.json --recording rec/fixture.json)
# Several kernels' SASS from one cuobjdump run.
book_runner_test(sass-functions ${r_copy}
  --has x.json "texts>sass:reduce_naive" "^/\\*0020\\*/  BAR\\.SYNC\\.DEFER_BLOCKING 0x0$"
  --has x.json "texts>sass:reduce_shfl" "^/\\*0010\\*/  SHFL\\.DOWN PT, R3, R2, 0x10, 0x1f$"
  -- ${r_run} --cuobjdump "${fake_tools}/cuobjdump" --sass-function reduce_naive
     --sass-function reduce_shfl -- ${fake_gpu} ok)
# Several kernels profiled in one ncu run, launches named in order.
book_runner_test(ncu-kernels ${r_copy}
  --has x.json "results>ncu:naive:smsp__inst_executed.sum>value" "^3000(\\.0)?$"
  --has x.json "results>ncu:shfl:smsp__inst_executed.sum>value" "^5000(\\.0)?$"
  --has x.json "ncu>shfl:smsp__inst_executed.sum>kernel" "^reduce_shfl$"
  -- ${r_run} --ncu "${fake_tools}/ncu" --ncu-kernel reduce_naive --ncu-kernel "reduce_sh.*"
     --ncu-metrics smsp__inst_executed.sum --ncu-labels naive,shfl -- ${fake_gpu} ok)
book_bad_test(runner-ncu-labels ${r_copy}
  --expect "ncu profiled 2 launches \\(reduce_naive, reduce_shfl\\), but 3 labels name them \\(a, b, c\\)"
  --absent "x.json*"
  -- ${r_run} --ncu "${fake_tools}/ncu" --ncu-kernel reduce_naive --ncu-kernel reduce_shfl
     --ncu-metrics smsp__inst_executed.sum --ncu-labels a,b,c -- ${fake_gpu} ok)
# The sanitizer mode: stdout is the program's, the report a text, its error count a result.
set(r_sanitize ${r_run} --sanitizer "${fake_tools}/compute-sanitizer" --sanitizer-tool memcheck)
book_runner_test(sanitizer-errors ${r_copy} --env FAKE_SANITIZER_ERRORS=2
  --has x.json stdout "^launching the kernel$"
  --has x.json exit_status "^1$"
  --has x.json "command" "^.\"compute-sanitizer\", \"--tool\", \"memcheck\", \"sh\""
  --has x.json "results>sanitizer_errors>value" "^2$"
  --has x.json "texts>sanitizer:memcheck" "^========= ERROR SUMMARY: 2 errors$"
  --has x.json "texts>sanitizer:memcheck" "^=========     at scale\\(float \\*, int\\)\\+0x70 in src/prog\\.cu:12$"
  --has x.json "texts>sanitizer:memcheck" "^=========     Address 0x… is out of bounds$"
  -- ${r_sanitize} --sanitizer-expect errors -- ${fake_gpu} launch-failure)
book_bad_test(runner-sanitizer-expects-errors ${r_copy} --env FAKE_SANITIZER_ERRORS=0
  --expect "program t/fixture under compute-sanitizer memcheck reported no errors, but the run expects at least one"
  --absent "x.json*"
  -- ${r_sanitize} --sanitizer-expect errors -- ${fake_gpu} ok)
# racecheck files hazards between the lanes of one warp as warnings: a run that
# expects warnings passes on them alone, one that expects errors does not, and
# one that expects a clean report fails on a warning.
set(r_racecheck ${r_run} --sanitizer "${fake_tools}/compute-sanitizer" --sanitizer-tool racecheck)
book_runner_test(sanitizer-warnings ${r_copy} --env FAKE_SANITIZER_ERRORS=0
  --env FAKE_SANITIZER_WARNINGS=2069
  --has x.json "results>sanitizer_errors>value" "^0$"
  --has x.json "results>sanitizer_warnings>value" "^2069$"
  -- ${r_racecheck} --sanitizer-expect warnings -- ${fake_gpu} ok)
book_bad_test(runner-sanitizer-warnings-are-not-errors ${r_copy} --env FAKE_SANITIZER_ERRORS=0
  --env FAKE_SANITIZER_WARNINGS=5
  --expect "program t/fixture under compute-sanitizer racecheck reported no errors \\(and 5 warnings\\), but the run expects at least one"
  -- ${r_racecheck} --sanitizer-expect errors -- ${fake_gpu} ok)
book_bad_test(runner-sanitizer-warning-is-not-clean ${r_copy} --env FAKE_SANITIZER_ERRORS=0
  --env FAKE_SANITIZER_WARNINGS=1
  --expect "program t/fixture under compute-sanitizer racecheck reported 0 errors and 1 warning, but the run expects neither"
  -- ${r_racecheck} --sanitizer-expect clean -- ${fake_gpu} ok)
book_bad_test(runner-sanitizer-expects-clean ${r_copy} --env FAKE_SANITIZER_ERRORS=1
  --expect "program t/fixture under compute-sanitizer memcheck reported 1 error and 0 warnings, but the run expects neither"
  --absent "x.json*"
  -- ${r_sanitize} --sanitizer-expect clean -- ${fake_gpu} ok)

# ---- provenance is the runner's ------------------------------------------------------
# A program may report only its device's properties, and only in a GPU run; the
# commit, the date, the host, the compilers and the driver are the runner's.
book_bad_test(runner-forged-provenance ${r_copy}
  --expect "program t/fixture reported provenance 'commit' \\(\"cafebabe0000\"\\)"
  --absent "x.json"
  -- ${r_run} -- ${fake_gpu} forge)
book_bad_test(runner-cpu-reports-gpu ${r_copy}
  --expect "reported provenance '[a-z_]+' \\(\"[^\"]+\"\\), which a CPU program cannot report"
  --absent "x.json"
  -- ${bookrun_exe} run ${r_inputs} --provenance cxx=fixture --out x.json -- ${fake_gpu} ok)

# ---- cpu-output-repeatable: a CPU program's output is the same at every run ------------
# A CPU run that measures nothing is made twice; a line of stdout or stderr, or a
# result, that differs between the two fails the run, naming it, the stream and
# the line, and leaves no record; a line its run declares (--varies, book_run
# VARIES) may differ.
set(fake_cpu /bin/sh "${rfx}/fake_cpu.sh")
set(r_cpu_run ${bookrun_exe} run ${r_inputs} --provenance cxx=fixture --out x.json)
book_bad_test(runner-cpu-stdout-varies ${r_copy}
  --expect "program t/fixture: a CPU program's output must be the same at every run, but two runs of it differ:"
  --expect "its stdout differs at line 2: \"took 7 ms\" in the first run, \"took 14 ms\" in the second"
  --expect "book_run\\(fixture ... VARIES"
  --absent "x.json*"
  -- ${r_cpu_run} -- ${fake_cpu} clock)
book_bad_test(runner-cpu-stderr-varies ${r_copy}
  --expect "its stderr differs at line 1: \"note: run 1\" in the first run, \"note: run 2\" in the second"
  --absent "x.json*"
  -- ${r_cpu_run} -- ${fake_cpu} stderr)
book_bad_test(runner-cpu-result-varies ${r_copy}
  --expect "its result draws is [{].*1.* in the first run and [{].*2.* in the second"
  --absent "x.json*"
  -- ${r_cpu_run} -- ${fake_cpu} result)
# A line declared as varying: the run succeeds, and shows its first run.
book_runner_test(cpu-output-varies-declared ${r_copy}
  --has x.json "stdout" "took 7 ms"
  -- ${r_cpu_run} "--varies=^took [0-9]+ ms$" -- ${fake_cpu} clock)
# The declaration covers only the lines it matches.
book_bad_test(runner-cpu-output-varies-elsewhere ${r_copy}
  --expect "its stderr differs at line 1"
  --absent "x.json*"
  -- ${r_cpu_run} "--varies=^took " -- ${fake_cpu} stderr)

# ---- a recording's volatile part is what the runner wrote -------------------------------
book_bad_test(runner-volatile-commit-text ${r_copy} ${r_record}
  --json-set rec/fixture.volatile.json "provenance>commit" "\"reviewed and approved by NVIDIA\""
  --expect "rec/fixture\\.volatile\\.json: 'provenance\\.commit' is \"reviewed and approved by NVIDIA\""
  -- ${r_verify})
book_bad_test(runner-volatile-date-text ${r_copy} ${r_record}
  --json-set rec/fixture.volatile.json "provenance>date" "\"on an NVIDIA B200 in 2031\""
  --expect "rec/fixture\\.volatile\\.json: 'provenance\\.date' is"
  -- ${r_verify})
book_bad_test(runner-volatile-negative-time ${r_copy} ${r_record}
  --json-set rec/fixture.volatile.json "wall_s" "-3"
  --expect "rec/fixture\\.volatile\\.json: 'wall_s' is -3, but it must be a positive number"
  -- ${r_verify})

# ---- repeats: every repeat kept, the medians shown, every check in every repeat ------
set(r_record3
  --before ${r_run} --repeats 3 ${r_checks} -- ${fake_gpu} ok --before-end
  --before ${bookrun_exe} save --record x.json --recording rec/fixture.json --before-end)
book_runner_test(repeats-kept ${r_copy} ${r_record3}
  --has x.json "repeats>2>results>ratio>value" "^1\\.02$"
  --has x.json "shown_repeat" "^[0-2]$"
  --has x.json "checks>0>values>2" "^1\\.02$"
  --has rec/fixture.json "stdout>0" "^GPU 0: NVIDIA H200"
  -- ${r_verify} --repeats 3)
# The third repeat moves out of bounds: the median (1.04) would pass, the run does not.
book_bad_test(runner-repeat-fails-check ${r_copy}
  --expect "check 'ratio-near-one' failed: .*median of 3 repeats. 1 to 1\\.5.*failed in repeat 3"
  --absent "x.json"
  -- ${r_run} --repeats 3 ${r_checks} -- ${fake_gpu} vary)
# A recording of another number of repeats than book_run declares is re-recorded.
book_bad_test(runner-repeats-changed ${r_copy} ${r_record3}
  --expect "rec/fixture\\.json: the recording holds 3 repeats of t/fixture, but its book_run declares REPEATS 5"
  -- ${r_verify} --repeats 5)
