# SPDX-License-Identifier: MIT
# The runner's options end to end (tools/runner/tests/runner.cmake includes this
# file, after its fixtures' variables: rfx, bookrun_exe, fake_gpu, fake_tools,
# r_copy, r_inputs, r_run, r_checks, r_record, r_verify, and book_runner_test):
# --env, --toolchain, the driver's version, SASS, Nsight Compute, the sanitizer
# modes, and the invariants provenance-runners, cpu-output-repeatable and
# checks-hold-every-repeat (docs/architecture.md).

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
  --before ${r_run} ${r_checks} --toolchain nvcc=13.0.88 -- ${fake_gpu} ok --before-end
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
# NCU_CACHE_CONTROL none reaches ncu as --cache-control none; the default flushes (all).
book_runner_test(ncu-cache-none ${r_copy}
  --has x.json "results>ncu:naive:smsp__inst_executed.sum>value" "^3000(\\.0)?$"
  -- ${r_run} --env EXPECT_CACHE_CONTROL=none --ncu "${fake_tools}/ncu" --ncu-kernel reduce_naive
     --ncu-metrics smsp__inst_executed.sum --ncu-labels naive --ncu-cache-control none
     -- ${fake_gpu} ok)
book_bad_test(runner-ncu-cache-default-all ${r_copy}
  --expect "cache-control all, but the run expects none"
  -- ${r_run} --env EXPECT_CACHE_CONTROL=none --ncu "${fake_tools}/ncu" --ncu-kernel reduce_naive
     --ncu-metrics smsp__inst_executed.sum --ncu-labels naive -- ${fake_gpu} ok)
book_bad_test(runner-ncu-cache-control-bad ${r_copy}
  --expect "ncu-cache-control: some not in"
  -- ${r_run} --ncu "${fake_tools}/ncu" --ncu-kernel reduce_naive
     --ncu-metrics smsp__inst_executed.sum --ncu-cache-control some -- ${fake_gpu} ok)
# What Nsight Compute records, and how, is part of the declaration (given alike
# to run, import and verify): a recording made for other metrics, launches,
# kernels, arguments or cache control is stale, one made for these is fresh.
set(r_ncu_kernels --ncu-kernel reduce_naive --ncu-kernel reduce_shfl)
set(r_record_ncu
  --before ${r_run} ${r_checks} --ncu "${fake_tools}/ncu" ${r_ncu_kernels} --ncu-arg=--profile
           --ncu-metrics smsp__inst_executed.sum --ncu-labels naive,shfl -- ${fake_gpu} ok --before-end
  --before ${bookrun_exe} save --record x.json --recording rec/fixture.json --before-end)
set(r_verify_ncu ${r_verify} --ncu-metrics smsp__inst_executed.sum --ncu-labels naive,shfl)
book_runner_test(ncu-declared-same ${r_copy} ${r_record_ncu}
  --has rec/fixture.json "ncu_profile>kernels" "^.\"reduce_naive\", \"reduce_shfl\".$"
  --has rec/fixture.json "ncu_profile>args" "^.\"--profile\".$"
  --has rec/fixture.json "ncu_profile>cache_control" "^all$"
  --expect "recording is fresh"
  --reject "not compared"
  -- ${r_verify_ncu} --ncu-kernel reduce_shfl --ncu-kernel reduce_naive --ncu-arg=--profile)
book_bad_test(runner-ncu-metrics-changed ${r_copy} ${r_record_ncu}
  --expect "^  Nsight Compute's metrics changed \\(recorded: smsp__inst_executed\\.sum. declared: dram__bytes_read\\.sum, smsp__inst_executed\\.sum\\)$"
  -- ${r_verify} --ncu-metrics smsp__inst_executed.sum,dram__bytes_read.sum
                 --ncu-labels naive,shfl ${r_ncu_kernels} --ncu-arg=--profile)
book_bad_test(runner-ncu-labels-changed ${r_copy} ${r_record_ncu}
  --expect "^  the profiled launches changed \\(recorded: naive, shfl. declared: naive, shuffle\\)$"
  -- ${r_verify} --ncu-metrics smsp__inst_executed.sum --ncu-labels naive,shuffle ${r_ncu_kernels}
                 --ncu-arg=--profile)
# NCU_KERNELS, NCU_ARGS and NCU_CACHE_CONTROL: recorded in "ncu_profile", compared
# (not hashed: no recording's input hash changed when they were).
book_bad_test(runner-ncu-kernels-changed ${r_copy} ${r_record_ncu}
  --expect "^  the kernels Nsight Compute profiles changed \\(recorded: reduce_naive, reduce_shfl. declared: reduce_naive, reduce_sh\\.\\*\\)$"
  -- ${r_verify_ncu} --ncu-kernel reduce_naive --ncu-kernel "reduce_sh.*" --ncu-arg=--profile)
book_bad_test(runner-ncu-args-changed ${r_copy} ${r_record_ncu}
  --expect "^  the profiled run's arguments changed \\(recorded \\[\"--profile\"\\], declared \\[\"--profile\",\"--log2n\",\"26\"\\]\\)$"
  -- ${r_verify_ncu} ${r_ncu_kernels} --ncu-arg=--profile --ncu-arg=--log2n --ncu-arg=26)
book_bad_test(runner-ncu-cache-control-changed ${r_copy} ${r_record_ncu}
  --expect "^  Nsight Compute's cache control changed \\(recorded all, declared none\\)$"
  -- ${r_verify_ncu} ${r_ncu_kernels} --ncu-arg=--profile --ncu-cache-control none)
# The checks a run declares (its *.checks.json) are what a recording was made with
# ("checks_declared", digested): a recording made under other checks (one changed,
# added or removed) is stale, naming the file and each check; compared, not hashed,
# so that recording them changed no recording's input hash. One made before they
# were recorded is "not compared" on them (its results are still checked against
# the checks declared now).
book_runner_test(checks-declared-same ${r_copy} ${r_record}
  --has rec/fixture.json "checks_declared>0>id" "^ratio-near-one$"
  --expect "recording is fresh"
  --reject "not compared"
  -- ${r_verify})
book_bad_test(runner-checks-changed ${r_copy} ${r_record}
  --expect "^  its checks changed since it was recorded \\(.*checks/loosened\\.checks\\.json: check 'ratio-near-one' changed \\(recorded \\{.*\"min\":0\\.9.*\\}. declared \\{.*\"min\":0\\.5.*\\}\\)\\)$"
  -- ${bookrun_exe} verify ${r_inputs} --checks "${rfx}/checks/loosened.checks.json"
     --gpu-model "NVIDIA H200" --recording rec/fixture.json)
book_bad_test(runner-checks-added ${r_copy} ${r_record}
  --expect "^  its checks changed since it was recorded \\(.*checks/added\\.checks\\.json: check 'ratio-positive' added\\)$"
  -- ${bookrun_exe} verify ${r_inputs} --checks "${rfx}/checks/added.checks.json"
     --gpu-model "NVIDIA H200" --recording rec/fixture.json)
book_bad_test(runner-checks-removed ${r_copy} ${r_record}
  --expect "its checks changed since it was recorded \\(no checks file now: check 'correct' removed. check 'ratio-near-one' removed\\)"
  -- ${bookrun_exe} verify ${r_inputs} --gpu-model "NVIDIA H200" --recording rec/fixture.json)
# bookrun import says it too: the build's record is stale, and why.
book_runner_test(checks-changed-import ${r_copy} ${r_record}
  --has y.json "stale" "^true$"
  --has y.json "stale_reasons>0" "check 'ratio-near-one' changed"
  -- ${bookrun_exe} import ${r_inputs} --checks "${rfx}/checks/loosened.checks.json"
     --gpu-model "NVIDIA H200" --recording rec/fixture.json --out y.json)
book_runner_test(checks-not-compared ${r_copy} ${r_record}
  --before ${BOOK_PY} "${rfx}/older_recording.py" "${CMAKE_SOURCE_DIR}/book/record-schema.json"
           rec/fixture.json checks_declared --before-end
  --expect "recording is fresh .*not compared: the checks it was made with \\(the recording was made before they were recorded. the checks of .*checks/loosened\\.checks\\.json are evaluated on its results\\)"
  -- ${bookrun_exe} verify ${r_inputs} --checks "${rfx}/checks/loosened.checks.json"
     --gpu-model "NVIDIA H200" --recording rec/fixture.json)
# The run profiles the metrics it declares (--ncu-metrics, which import and verify
# compare too): profiled without them, it fails, leaving no record.
book_bad_test(runner-ncu-no-metrics ${r_copy}
  --expect "--ncu needs --ncu-metrics \\(the metrics to record\\)"
  --absent "x.json*"
  -- ${r_run} --ncu "${fake_tools}/ncu" --ncu-kernel reduce_naive -- ${fake_gpu} ok)
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

# ---- the clocks a measuring run ran under (volatile "clocks", one entry a repeat) ----
# Read with nvidia-smi before and after each repeat (the fixture's nvidia-smi:
# FAKE_SMI_CLOCKS), kept in the recording's volatile part; the recording stays
# fresh, and the build's record says so.
set(r_run3 ${r_run} --repeats 3 ${r_checks})
book_runner_test(clocks-read ${r_copy}
  --before ${r_run3} -- ${fake_gpu} ok --before-end
  --before ${bookrun_exe} save --record x.json --recording rec/fixture.json --before-end
  --has x.json "clocks>0>start>sm_mhz" "^19[68][05]$"
  --has x.json "clocks>2>end>mem_mhz" "^2619$"
  --has x.json "clocks>2>end>throttle_reasons" "^0x0000000000000000$"
  --lacks x.json "clocks>1>throttled"
  --has rec/fixture.volatile.json "clocks>1>start>sm_mhz" "^19[68][05]$"
  --lacks rec/fixture.json "clocks"
  --expect "recording is fresh"
  -- ${r_verify} --repeats 3)
# A repeat that ran while the GPU throttled is flagged: in its entry, on stderr,
# and in every check's detail, never silently averaged.
book_runner_test(clocks-throttled ${r_copy} --env FAKE_SMI_CLOCKS=throttle
  --has x.json "clocks>1>throttled" "^\\[\"SW power cap\"\\]$"
  --lacks x.json "clocks>0>throttled"
  --has x.json "checks>0>detail" "median of 3 repeats.* repeat 2 of 3 ran while the GPU throttled: SW power cap$"
  --expect "^bookrun: warning: t/fixture: repeat 2 of 3 ran while the GPU throttled: SW power cap$"
  -- ${r_run3} -- ${fake_gpu} ok)
# ... and a hand edit that hides it is an error.
book_bad_test(runner-volatile-clocks-edited ${r_copy}
  --before env FAKE_SMI_CLOCKS=throttle ${r_run3} -- ${fake_gpu} ok --before-end
  --before ${bookrun_exe} save --record x.json --recording rec/fixture.json --before-end
  --json-set rec/fixture.volatile.json "clocks>1>throttled" "[]"
  --expect "rec/fixture\\.volatile\\.json: 'clocks\\.1\\.throttled' is \\[\\], but its readings' bitmasks give \\[\"SW power cap\"\\]"
  -- ${r_verify} --repeats 3)
# Clocks that cannot be read are recorded as not read, with why, naming the run;
# the run goes on: an nvidia-smi that cannot query them, one that prints what is
# no reading, one that hangs (killed after 10 s, and not asked again). (None at all:
# unit.runner, since a GPU run needs nvidia-smi for the driver's version.)
book_runner_test(clocks-unsupported ${r_copy} --env FAKE_SMI_CLOCKS=unsupported
  --has x.json "clocks>0>not_read" "nvidia-smi exited with status 2: nvidia-smi \\(fixture\\): Field \"clocks\\.sm\" is not a valid field to query\\.$"
  --has x.json "clocks>2>not_read" "exited with status 2"
  --expect "^bookrun: note: t/fixture: the GPU's clocks were not read: .*nvidia-smi exited with status 2"
  -- ${r_run3} -- ${fake_gpu} ok)
book_runner_test(clocks-unreadable ${r_copy} --env FAKE_SMI_CLOCKS=garbage
  --has x.json "clocks>1>not_read" "^unreadable: nvidia-smi printed \"\\[Not Supported\\], 2619, 0x0000000000000000\" where one line"
  --expect "^bookrun: note: t/fixture: the GPU's clocks were not read: unreadable: nvidia-smi printed"
  -- ${r_run3} -- ${fake_gpu} ok)
book_runner_test(clocks-hang ${r_copy} --env FAKE_SMI_CLOCKS=hang
  --has x.json "clocks>0>not_read" "nvidia-smi timed out after 10 s and was killed$"
  --has x.json "clocks>2>not_read" "nvidia-smi timed out after 10 s and was killed$"
  --has x.json "results>ratio>value" "^1\\.02$"
  -- ${r_run3} -- ${fake_gpu} ok)
