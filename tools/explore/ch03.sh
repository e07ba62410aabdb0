#!/usr/bin/env bash
# tools/explore/ch03.sh OUTDIR: build chapter 3's programs with nvcc and run
# everything the chapter needs to be tuned and explained, on a GPU machine,
# in about two minutes.
#
# Run from the repository root. Needs nvcc (CUDA 13), and for some steps ncu,
# compute-sanitizer and cuobjdump; no Debian packages: the header libraries
# (nlohmann-json, CLI11, fmt) come from CARRY_FLAGS (default -I.carry/include,
# made by `tools/book carry`). Every translation unit gets the same -I flags.
#
# The first question it answers: which one-launch kernel (layout, load hint,
# launch parameters) beats CUB by the widest margin at 2^16, 2^20, 2^24 and
# 2^28 floats? `reduce --sweep --full` times every candidate against CUB in
# alternating rounds; the best are timed again (sweep-confirm), profiled
# (ncu-2e24) and their SASS counted; the bench runs with the default policy
# and with the policy the sweep suggests. The short table at the end of
# SUMMARY.txt puts them side by side.
#
# Writes plain-text logs under OUTDIR, one per step, the programs' results as
# JSON lines (results-*.jsonl), and SUMMARY.txt last (also printed). Never
# stops at a failure; every step has a time limit, and the whole run keeps
# within BUDGET_S seconds (default 150). Without a GPU it builds, says so, and
# skips the steps that need one. Exits 1 if a step failed, timed out, or a
# sanitizer found errors in a kernel meant to be clean; 0 otherwise.
#
# Environment: NVCC (default: nvcc on PATH, else /usr/local/cuda/bin/nvcc),
# CARRY_FLAGS, ARCH (default 90), BUDGET_S, JOBS (parallel compiles, default nproc).
set -u -o pipefail

if [ "${1:-}" = --help ] || [ "${1:-}" = -h ]; then
  sed -n '2,/^set -u/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'
  exit 0
fi
if [ $# -ne 1 ]; then
  echo "usage: tools/explore/ch03.sh OUTDIR   (run from the repository root; --help says more)" >&2
  exit 2
fi
if [ ! -f code/ch03-reductions/reduce_kernels.cu ] || [ ! -d code/common/src ]; then
  echo "tools/explore/ch03.sh: run it from the repository root (no code/ch03-reductions here: $PWD)" >&2
  exit 2
fi
OUT=$1
mkdir -p "$OUT" || { echo "tools/explore/ch03.sh: cannot create $OUT" >&2; exit 2; }
OUT=$(cd "$OUT" && pwd)
OBJ=$OUT/obj BIN=$OUT/bin
mkdir -p "$OBJ" "$BIN"
: >"$OUT/steps.txt"

START=$(date +%s)
BUDGET_S=${BUDGET_S:-150}
ARCH=${ARCH:-90}
CARRY_FLAGS=${CARRY_FLAGS:--I.carry/include}
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 4)}
if [ -z "${NVCC:-}" ]; then
  NVCC=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
fi
CUDA_BIN=$(dirname "$NVCC")
find_tool() { command -v "$1" 2>/dev/null || { [ -x "$CUDA_BIN/$1" ] && echo "$CUDA_BIN/$1"; } || true; }
NCU=$(find_tool ncu)
SANITIZER=$(find_tool compute-sanitizer)
CUOBJDUMP=$(find_tool cuobjdump)
PYTHON=$(command -v python3 || true)

elapsed() { echo $(($(date +%s) - START)); }
left() { echo $((BUDGET_S - $(elapsed))); }
note() { echo "$*" | tee -a "$OUT/steps.txt"; }

# step NAME LIMIT_S LOG COMMAND...: run with a time limit (shortened to what
# is left of the budget), log stdout and stderr, record status and seconds.
step() {
  local name=$1 limit=$2 log=$3
  shift 3
  local remaining
  remaining=$(left)
  if [ "$remaining" -lt 5 ]; then
    note "$(printf '%-30s %-22s %5s  %s' "$name" "skipped: out of time" "-" "$log")"
    return 0
  fi
  [ "$limit" -gt "$remaining" ] && limit=$remaining
  local t0 rc status
  t0=$(date +%s)
  {
    echo "\$ $*"
    echo "(limit ${limit} s)"
  } >"$OUT/$log"
  timeout --kill-after=5 "$limit" "$@" >>"$OUT/$log" 2>&1
  rc=$?
  case $rc in
    0) status=ok ;;
    77) status="skipped (no GPU)" ;;
    99) status="TOOL ERRORS (exit 99)" ;;
    124 | 137) status="TIMED OUT (${limit} s)" ;;
    *) status="FAILED (exit $rc)" ;;
  esac
  note "$(printf '%-30s %-22s %5d  %s' "$name" "$status" $(($(date +%s) - t0)) "$log")"
  return $rc
}

echo "chapter 3 exploration into $OUT (budget ${BUDGET_S} s)"
{
  echo "date: $(date -u +%FT%TZ)"
  echo "nvcc: $NVCC ($("$NVCC" --version 2>/dev/null | tail -1))"
  echo "ncu: ${NCU:-none}; compute-sanitizer: ${SANITIZER:-none}; cuobjdump: ${CUOBJDUMP:-none}"
  echo "CARRY_FLAGS: $CARRY_FLAGS"
  echo "git: $(git rev-parse --short HEAD 2>/dev/null || echo '?') $(git status --porcelain 2>/dev/null | wc -l) changed files"
  if command -v nvidia-smi >/dev/null; then
    nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.max.mem,memory.total --format=csv
  else
    echo "nvidia-smi: not available"
  fi
} >"$OUT/environment.txt" 2>&1
for d in ${CARRY_FLAGS}; do
  case $d in -I*) [ -d "${d#-I}" ] || echo "warning: ${d#-I} does not exist (make it with tools/book carry on a machine with the Debian packages)" | tee -a "$OUT/environment.txt" ;; esac
done

# ---------------------------------------------------------------------------
# Build: every translation unit with the same flags, in parallel; per-file
# times; ptxas's register counts (-Xptxas -v) in obj/<file>.log.
# shellcheck disable=SC2206  # CARRY_FLAGS is a list of flags
FLAGS=(-O3 -DNDEBUG -std=c++20 -lineinfo "-gencode=arch=compute_${ARCH},code=[sm_${ARCH},compute_${ARCH}]"
       -DFMT_HEADER_ONLY ${CARRY_FLAGS} -Icode/common/include -Icode/ch03-reductions)
SOURCES=(reduce.cpp reduce_check.cpp reduce_sweep.cpp reduce_kernels.cu reduce_layouts.cu cub_sum.cu
         reduce_plan.cpp warp_tail.cu)
compile() {  # compile SRC OBJNAME
  local t0 rc extra=()
  case $1 in *.cu) extra=(-Xptxas -v) ;; esac
  t0=$(date +%s.%N)
  "$NVCC" "${FLAGS[@]}" "${extra[@]}" -c "$1" -o "$OBJ/$2.o" >"$OBJ/$2.log" 2>&1
  rc=$?
  printf '%-44s %6s s  exit %d\n' "$1" "$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}')" \
    $rc >"$OBJ/$2.time"
  return $rc
}
build() {
  local srcs=() names=() pids=() i failed=0
  for s in code/common/src/*.cpp code/common/src/*.cu; do
    [ -e "$s" ] || continue
    srcs+=("$s")
    names+=("common_$(basename "${s%.*}")")
  done
  for s in "${SOURCES[@]}"; do
    srcs+=("code/ch03-reductions/$s")
    names+=("${s%.*}")
  done
  for i in "${!srcs[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do sleep 0.2; done
    compile "${srcs[$i]}" "${names[$i]}" &
    pids+=($!)
  done
  for i in "${!pids[@]}"; do
    wait "${pids[$i]}" || failed=1
  done
  for i in "${!names[@]}"; do
    cat "$OBJ/${names[$i]}.time"
    grep -v '^ptxas info' "$OBJ/${names[$i]}.log" | sed 's/^/    /'
  done
  [ $failed -eq 0 ] || { echo "a compile failed: see above"; return 1; }
  local common=() reduce_objs=()
  for i in "${!names[@]}"; do
    case ${names[$i]} in
      common_*) common+=("$OBJ/${names[$i]}.o") ;;
      warp_tail) ;;
      *) reduce_objs+=("$OBJ/${names[$i]}.o") ;;
    esac
  done
  "$NVCC" "${FLAGS[@]}" -o "$BIN/reduce" "${reduce_objs[@]}" "${common[@]}" || return 1
  "$NVCC" "${FLAGS[@]}" -o "$BIN/warp_tail" "$OBJ/warp_tail.o" "${common[@]}" || return 1
  echo "linked $BIN/reduce and $BIN/warp_tail"
}
t0=$(date +%s)
build >"$OUT/build.log" 2>&1
rc=$?
note "$(printf '%-30s %-22s %5d  %s' build "$([ $rc -eq 0 ] && echo ok || echo "FAILED (exit $rc)")" \
  $(($(date +%s) - t0)) build.log)"
if [ ! -x "$BIN/reduce" ] || [ ! -x "$BIN/warp_tail" ]; then
  note "the build failed: nothing to run (see $OUT/build.log)"
fi
# Registers per kernel, as ptxas reported them (it keeps these kernels at 32
# for full occupancy: more unroll then means fewer loads in flight, not more).
cat "$OBJ"/*.log 2>/dev/null | awk '/Compiling entry function/ {f=$7; gsub(/\x27/, "", f)}
  /Used [0-9]+ registers/ && f {print $5, f; f=""}' >"$OUT/registers.txt"

# Is there a GPU? The programs exit 77 when there is none.
GPU=0
if [ -x "$BIN/warp_tail" ]; then
  "$BIN/warp_tail" --quick --shfl >"$OUT/gpu-probe.log" 2>&1
  probe=$?
  if [ $probe -eq 0 ]; then
    GPU=1
  else
    note "no usable GPU (warp_tail --quick exited $probe: $(tail -1 "$OUT/gpu-probe.log")): the run steps are skipped"
  fi
fi

# run NAME LIMIT LOG PROGRAM ARGS...: a program run, its results in results-NAME.jsonl.
run() {
  local name=$1 limit=$2 log=$3
  shift 3
  rm -f "$OUT/results-$name.jsonl"
  step "$name" "$limit" "$log" env BOOK_RESULTS="$OUT/results-$name.jsonl" "$@"
}

SUGGESTED="" TOP=""
if [ $GPU -eq 1 ]; then
  # Timed runs first, while nothing else uses the GPU. The whole grid of
  # one-launch candidates against CUB:
  # (4 rounds of 10 calls per row: the best rows are timed again below, longer.)
  run sweep-full 90 sweep-full.log "$BIN/reduce" --sweep --full --rounds 4 --reps 10
  SUGGESTED=$(sed -n 's/^suggested policy: \([^ ]*\)$/\1/p' "$OUT/sweep-full.log" | tail -1)
  # The ten best by margin, and step 8's kernel at its suggested tunings, timed
  # again with twice the rounds (the best of many noisy rows looks better than it is).
  TOP=$(awk '/^the best by margin/ {p = 1; next} p && /^$/ {p = 0} p && $1 ~ /:/ {print $1}' \
          "$OUT/sweep-full.log" | head -10 | paste -sd, -)
  if [ -n "$TOP" ]; then
    confirm=$TOP
    if [ -n "$SUGGESTED" ]; then
      for rule in ${SUGGESTED//,/ }; do confirm="$confirm,stride.plain:${rule#*:}"; done
    fi
    confirm=$(echo "$confirm" | tr ',' '\n' | awk '!seen[$0]++' | paste -sd, -)
    run sweep-confirm 60 sweep-confirm.log "$BIN/reduce" --sweep --rounds 10 --candidates "$confirm"
  fi
  run bench 40 bench.log "$BIN/reduce"
  if [ -n "$SUGGESTED" ]; then
    note "the sweep's suggested policy for step 8: $SUGGESTED"
    run bench-policy 40 bench-policy.log "$BIN/reduce" --policy "$SUGGESTED"
  fi
  run sweep 30 sweep.log "$BIN/reduce" --sweep
  run accuracy 30 accuracy.log "$BIN/reduce" --accuracy
  run check 90 check.log "$BIN/reduce" --check
  run warp-tail 30 warp-tail.log "$BIN/warp_tail"

  # Nsight Compute: every kernel of one call of each step on 2^24 floats, CUB,
  # and the sweep's best candidates; step 8 beside CUB on 2^16.
  if [ -n "$NCU" ]; then
    METRICS=gpu__time_duration.sum,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__thread_inst_executed_per_inst_executed.ratio,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size,launch__registers_per_thread,launch__occupancy_limit_registers
    profiled=$(echo "${TOP:+$TOP,}old:1024x2x2,old:256x4x4,tiles.ldg:256x32x4" | tr ',' '\n' | head -8 | awk '!seen[$0]++' | paste -sd, -)
    step ncu-2e24 60 ncu-2e24.csv "$NCU" --clock-control none --csv --metrics "$METRICS" \
      --kernel-name "regex:reduce_|read_ceiling|DeviceReduce|one_pass_variant|old_one_pass" \
      "$BIN/reduce" --profile --profile-log2 24 --candidates "$profiled"
    step ncu-2e16 40 ncu-2e16.csv "$NCU" --clock-control none --csv --metrics "$METRICS" \
      --kernel-name "regex:reduce_one_pass|DeviceReduce|read_ceiling" "$BIN/reduce" --profile --profile-log2 16
  else
    note "no ncu: the profiles are skipped"
  fi

  # compute-sanitizer, all at once (they only check): the good kernels (and
  # CUB) must be clean; the volatile and plain tails are the evidence.
  if [ -n "$SANITIZER" ]; then
    san() {  # san NAME TOOL ARGS...
      local name=$1 tool=$2
      shift 2
      local extra=()
      [ "$tool" = racecheck ] && extra=(--racecheck-report all)
      step "san-$name-$tool" 100 "sanitizer-$name-$tool.log" \
        "$SANITIZER" --tool "$tool" --error-exitcode 99 "${extra[@]}" "$@"
    }
    pids=()
    for tool in memcheck racecheck synccheck initcheck; do
      san reduce "$tool" "$BIN/reduce" --check --quick &
      pids+=($!)
      san tails-good "$tool" "$BIN/warp_tail" --shfl --syncwarp --quick &
      pids+=($!)
      san tail-volatile "$tool" "$BIN/warp_tail" --volatile --quick &
      pids+=($!)
      san tail-plain "$tool" "$BIN/warp_tail" --plain --quick &
      pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p"; done
  else
    note "no compute-sanitizer: the sanitizer runs are skipped"
  fi
fi

# SASS of the tails, the steps and the variants (needs no GPU).
if [ -n "$CUOBJDUMP" ] && [ -x "$BIN/reduce" ]; then
  step sass 30 sass.log sh -c "'$CUOBJDUMP' -sass '$BIN/warp_tail' >'$OUT/sass-warp_tail.txt' && '$CUOBJDUMP' -sass '$BIN/reduce' >'$OUT/sass-reduce.txt' && echo written"
  # Per kernel: instructions; shuffles, barriers, shared loads/stores, 16-byte
  # global loads, atomics; and "run": the most 16-byte global loads issued in a
  # row with no float add between them (the loads a thread has in flight).
  awk '/Function :/ {f=$NF; run=0; next}
       f && /\/\*[0-9a-f]+\*\// {n[f]++
         if (/SHFL/) sh[f]++; if (/BAR\.|WARPSYNC|BSYNC/) b[f]++; if (/LDS/) l[f]++; if (/STS/) s[f]++
         if (/LDG[A-Z0-9_.]*\.128/) {g[f]++; run++; if (run > r[f]) r[f] = run}
         if (/FADD/) run = 0
         if (/ATOM|RED\./) a[f]++}
       END {print "function instr SHFL sync LDS STS LDG128 run ATOM"
            for (f in n) print f, n[f], sh[f] + 0, b[f] + 0, l[f] + 0, s[f] + 0, g[f] + 0, r[f] + 0, a[f] + 0}' \
    "$OUT/sass-warp_tail.txt" "$OUT/sass-reduce.txt" >"$OUT/sass-summary.txt" 2>/dev/null
else
  note "no cuobjdump (or no build): no SASS"
fi

# ---------------------------------------------------------------------------
# Summary, last.
SUMMARIZE=(tools/explore/ch03_summary.py)
{
  echo "=== chapter 3 exploration: $(date -u +%FT%TZ), $(elapsed) s of ${BUDGET_S} s"
  head -6 "$OUT/environment.txt"
  echo
  echo "--- steps (name, status, seconds, log)"
  cat "$OUT/steps.txt"
  echo
  echo "--- compile times (from the build)"
  cat "$OBJ"/*.time 2>/dev/null
  if [ -s "$OUT/registers.txt" ] && [ -n "$PYTHON" ]; then
    echo
    echo "--- registers per thread (ptxas) of the streaming kernels"
    "$PYTHON" "${SUMMARIZE[@]}" registers "$OUT/registers.txt"
  fi
  for f in bench bench-policy; do
    [ -s "$OUT/$f.log" ] || continue
    echo
    echo "--- $f: step 8 against CUB (median per call, events around each call; graphs: replays)"
    grep -E "^  n up to|^  every n|^  larger n|^n = 2\^|^step 8 against CUB|^as CUDA graphs|^results against|FAILED" "$OUT/$f.log"
  done
  if [ -s "$OUT/bench.log" ]; then
    echo
    echo "--- bench: the step table at 2^24 and 2^16"
    awk '/^n = 2\^24/ {p=1} /^n = 2\^16/ {p=1} p && /^$/ {p=0} p' "$OUT/bench.log" | grep -v "^step 8 against\|^as CUDA"
  fi
  for f in sweep sweep-confirm; do
    [ -s "$OUT/$f.log" ] || continue
    echo
    echo "--- $f"
    sed -n '/^one-launch variants/,$p' "$OUT/$f.log"
  done
  for f in accuracy check warp-tail; do
    [ -s "$OUT/$f.log" ] || continue
    echo
    echo "--- $f"
    sed -n '/^$/,$p' "$OUT/$f.log" | grep -v '^$' | tail -50
  done
  if ls "$OUT"/sanitizer-*.log >/dev/null 2>&1; then
    echo
    echo "--- compute-sanitizer (exit 99: the tool reported errors or hazards)"
    for f in "$OUT"/sanitizer-*.log; do
      printf '%-40s %s\n' "$(basename "$f" .log | sed 's/^sanitizer-//')" \
        "$(grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY' "$f" | tail -1 | sed 's/^========= //')"
    done
  fi
  for f in ncu-2e24.csv ncu-2e16.csv; do
    [ -s "$OUT/$f" ] || continue
    echo
    echo "--- $f (launch order: see the profile's own list in the CSV's head)"
    sed -n '/^profiled on/,/^==PROF== Disconnected/p' "$OUT/$f" | grep -v '^==PROF=='
    if [ -n "$PYTHON" ]; then "$PYTHON" "${SUMMARIZE[@]}" ncu "$OUT/$f"; else echo "(no python3: see the CSV)"; fi
  done
  if [ -s "$OUT/sass-summary.txt" ] && [ -n "$PYTHON" ]; then
    echo
    echo "--- SASS per kernel (run: the most 16-byte loads in a row before a float add)"
    "$PYTHON" "${SUMMARIZE[@]}" sass "$OUT/sass-summary.txt"
  fi
  if [ -s "$OUT/sweep-full.log" ]; then
    echo
    echo "--- sweep --full: the candidates against CUB (all rows: sweep-full.log)"
    sed -n '/^best at each size/,$p' "$OUT/sweep-full.log"
  fi
  echo
  echo "results as JSON lines: $OUT/results-*.jsonl; every log: $OUT"
  if [ -n "$PYTHON" ] && ls "$OUT"/results-*.jsonl >/dev/null 2>&1; then
    echo
    echo "--- the short table: step 8 against CUB"
    "$PYTHON" "${SUMMARIZE[@]}" final "$OUT"
  fi
} >"$OUT/SUMMARY.txt" 2>&1
cat "$OUT/SUMMARY.txt"

# Exit 1 if a step failed or timed out, or a sanitizer found errors in a
# kernel that should be clean (the volatile and plain tails may show errors:
# that is the experiment).
if awk '/FAILED|TIMED OUT/ {bad = 1}
        /TOOL ERRORS/ && $1 !~ /tail-volatile|tail-plain/ {bad = 1}
        END {exit bad ? 0 : 1}' "$OUT/steps.txt"; then
  echo "tools/explore/ch03.sh: some steps failed (see the steps above)" >&2
  exit 1
fi
exit 0
