#!/usr/bin/env bash
# tools/explore/ch03.sh OUTDIR: build chapter 3's programs with nvcc and run
# everything the chapter needs to be tuned and explained, on a GPU machine.
#
# Run from the repository root. Needs nvcc (CUDA 13), and for some steps ncu,
# compute-sanitizer and cuobjdump; no Debian packages: the header libraries
# (nlohmann-json, CLI11, fmt) come from CARRY_FLAGS (default -I.carry/include,
# made by `tools/book carry`). Every translation unit gets the same -I flags.
#
# Writes plain-text logs under OUTDIR, one per step, the programs' results as
# JSON lines (results-*.jsonl), and SUMMARY.txt last (also printed). Never
# stops at a failure; every step has a time limit, and the whole run keeps
# within BUDGET_S seconds (default 225). Without a GPU it builds, says so, and
# skips the steps that need one. Exits 1 if a step failed, timed out, or a
# sanitizer found errors in a kernel meant to be clean; 0 otherwise.
#
# Environment: NVCC (default: nvcc on PATH, else /usr/local/cuda/bin/nvcc),
# CARRY_FLAGS, ARCH (default 90), BUDGET_S, JOBS (parallel compiles, default nproc).
set -u -o pipefail

if [ $# -ne 1 ]; then
  echo "usage: tools/explore/ch03.sh OUTDIR   (run from the repository root)" >&2
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
BUDGET_S=${BUDGET_S:-225}
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
    note "$(printf '%-28s %-22s %5s  %s' "$name" "skipped: out of time" "-" "$log")"
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
  note "$(printf '%-28s %-22s %5d  %s' "$name" "$status" $(($(date +%s) - t0)) "$log")"
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
# Build: every translation unit with the same flags, in parallel; per-file times.
# shellcheck disable=SC2206  # CARRY_FLAGS is a list of flags
FLAGS=(-O3 -DNDEBUG -std=c++20 -lineinfo "-gencode=arch=compute_${ARCH},code=[sm_${ARCH},compute_${ARCH}]"
       -DFMT_HEADER_ONLY ${CARRY_FLAGS} -Icode/common/include -Icode/ch03-reductions)
compile() {  # compile SRC OBJNAME
  local t0 rc
  t0=$(date +%s.%N)
  "$NVCC" "${FLAGS[@]}" -c "$1" -o "$OBJ/$2.o" >"$OBJ/$2.log" 2>&1
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
  for s in reduce.cpp reduce_check.cpp reduce_kernels.cu cub_sum.cu reduce_plan.cpp warp_tail.cu; do
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
    [ -s "$OBJ/${names[$i]}.log" ] && sed 's/^/    /' "$OBJ/${names[$i]}.log"
  done
  [ $failed -eq 0 ] || { echo "a compile failed: see above"; return 1; }
  local common=()
  for i in "${!names[@]}"; do
    case ${names[$i]} in common_*) common+=("$OBJ/${names[$i]}.o") ;; esac
  done
  "$NVCC" "${FLAGS[@]}" -o "$BIN/reduce" "$OBJ/reduce.o" "$OBJ/reduce_check.o" "$OBJ/reduce_kernels.o" \
    "$OBJ/cub_sum.o" "$OBJ/reduce_plan.o" "${common[@]}" || return 1
  "$NVCC" "${FLAGS[@]}" -o "$BIN/warp_tail" "$OBJ/warp_tail.o" "${common[@]}" || return 1
  echo "linked $BIN/reduce and $BIN/warp_tail"
}
t0=$(date +%s)
build >"$OUT/build.log" 2>&1
rc=$?
note "$(printf '%-28s %-22s %5d  %s' build "$([ $rc -eq 0 ] && echo ok || echo "FAILED (exit $rc)")" \
  $(($(date +%s) - t0)) build.log)"
if [ ! -x "$BIN/reduce" ] || [ ! -x "$BIN/warp_tail" ]; then
  note "the build failed: nothing to run (see $OUT/build.log)"
fi

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

if [ $GPU -eq 1 ]; then
  # Timed runs first, while nothing else uses the GPU.
  run bench 60 bench.log "$BIN/reduce"
  run sweep 60 sweep.log "$BIN/reduce" --sweep
  best=$(sed -n 's/^best over all sizes.*: \(--threads [0-9]* --blocks-per-sm [0-9]* --unroll [0-9]*\):.*/\1/p' "$OUT/sweep.log" | tail -1)
  if [ -n "$best" ]; then
    note "sweep's best launch parameters over all sizes: $best"
    # shellcheck disable=SC2086
    run bench-best 60 bench-best.log "$BIN/reduce" $best
  fi
  run accuracy 40 accuracy.log "$BIN/reduce" --accuracy
  run check 90 check.log "$BIN/reduce" --check
  run warp-tail 40 warp-tail.log "$BIN/warp_tail"
  run warp-tail-many 40 warp-tail-many.log "$BIN/warp_tail" --volatile --plain --trials 2000

  # Nsight Compute: every kernel of one call of each step on 2^24 floats, and
  # step 8 beside CUB on 2^16 (where launch cost rules).
  if [ -n "$NCU" ]; then
    METRICS=gpu__time_duration.sum,dram__bytes_read.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed,smsp__thread_inst_executed_per_inst_executed.ratio,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,smsp__inst_executed.sum,sm__warps_active.avg.pct_of_peak_sustained_active,launch__grid_size,launch__block_size,launch__registers_per_thread
    step ncu-2e24 60 ncu-2e24.csv "$NCU" --clock-control none --csv --metrics "$METRICS" \
      --kernel-name "regex:reduce_|read_ceiling|DeviceReduce" "$BIN/reduce" --profile --profile-log2 24
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
    step san-tail-volatile-racecheck-info 100 sanitizer-tail-volatile-racecheck-info.log \
      "$SANITIZER" --tool racecheck --racecheck-report all --racecheck-detect-level info \
      --error-exitcode 99 "$BIN/warp_tail" --volatile --quick &
    pids+=($!)
    for p in "${pids[@]}"; do wait "$p"; done
  else
    note "no compute-sanitizer: the sanitizer runs are skipped"
  fi
fi

# SASS of the tails and the steps (needs no GPU).
if [ -n "$CUOBJDUMP" ] && [ -x "$BIN/reduce" ]; then
  step sass 30 sass.log sh -c "'$CUOBJDUMP' -sass '$BIN/warp_tail' >'$OUT/sass-warp_tail.txt' && '$CUOBJDUMP' -sass '$BIN/reduce' >'$OUT/sass-reduce.txt' && echo written"
  # Per kernel: instructions, and how many are shuffles, barriers, shared loads/stores, 16-byte global loads.
  awk '/Function :/ {f=$NF; next}
       f && /\/\*[0-9a-f]+\*\// {n[f]++
         if (/SHFL/) sh[f]++; if (/BAR\.|WARPSYNC|BSYNC/) b[f]++; if (/LDS/) l[f]++; if (/STS/) s[f]++
         if (/LDG\.E\.128/) g[f]++; if (/ATOM|RED\./) a[f]++}
       END {printf "%-70s %6s %5s %5s %5s %5s %5s %5s\n", "function", "instr", "SHFL", "sync", "LDS", "STS", "LDG128", "ATOM"
            for (f in n) printf "%-70s %6d %5d %5d %5d %5d %5d %5d\n", substr(f,1,70), n[f], sh[f], b[f], l[f], s[f], g[f], a[f]}' \
    "$OUT/sass-warp_tail.txt" "$OUT/sass-reduce.txt" >"$OUT/sass-summary.txt" 2>/dev/null
else
  note "no cuobjdump (or no build): no SASS"
fi

# ---------------------------------------------------------------------------
# Summary, last.
{
  echo "=== chapter 3 exploration: $(date -u +%FT%TZ), $(elapsed) s of ${BUDGET_S} s"
  head -6 "$OUT/environment.txt"
  echo
  echo "--- steps (name, status, seconds, log)"
  cat "$OUT/steps.txt"
  echo
  echo "--- compile times (from the build)"
  cat "$OBJ"/*.time 2>/dev/null
  for f in bench bench-best; do
    [ -s "$OUT/$f.log" ] || continue
    echo
    echo "--- $f: step 8 against CUB (median per call, events around each call; graphs: replays)"
    grep -E "^step 7 and 8 launch|^n = 2\^|^step 8 against CUB|^as CUDA-graph|^results against|FAILED" "$OUT/$f.log"
  done
  if [ -s "$OUT/bench.log" ]; then
    echo
    echo "--- bench: the step table at 2^28 and 2^16"
    awk '/^n = 2\^28/ {p=1} /^n = 2\^16/ {p=1} p && /^$/ {p=0} p' "$OUT/bench.log" | grep -v "^step 8 against\|^as CUDA"
  fi
  if [ -s "$OUT/sweep.log" ]; then
    echo
    echo "--- sweep"
    sed -n '/^CUB median us at the start/,$p' "$OUT/sweep.log"
  fi
  for f in accuracy check warp-tail warp-tail-many; do
    [ -s "$OUT/$f.log" ] || continue
    echo
    echo "--- $f"
    sed -n '/^$/,$p' "$OUT/$f.log" | grep -v '^$' | tail -30
  done
  if ls "$OUT"/sanitizer-*.log >/dev/null 2>&1; then
    echo
    echo "--- compute-sanitizer (exit 99: the tool reported errors)"
    for f in "$OUT"/sanitizer-*.log; do
      printf '%-52s %s\n' "$(basename "$f" .log)" \
        "$(grep -hE 'ERROR SUMMARY|RACECHECK SUMMARY|hazard' "$f" | tail -2 | tr '\n' ' ')"
    done
  fi
  for f in ncu-2e24.csv ncu-2e16.csv; do
    [ -s "$OUT/$f" ] || continue
    echo
    echo "--- $f: kernel, grid, time (ns), DRAM %, SIMT efficiency, shared ld bank conflicts"
    if command -v python3 >/dev/null 2>&1; then
      python3 - "$OUT/$f" <<'EOF'
import csv, sys
rows = {}
order = []
with open(sys.argv[1], newline="") as f:
    lines = [l for l in f if l.startswith('"')]
for r in csv.DictReader(lines):
    k = r.get("ID")
    if k not in rows:
        rows[k] = {"name": r.get("Kernel Name", "?")[:48]}
        order.append(k)
    rows[k][r.get("Metric Name")] = r.get("Metric Value")
m = ["launch__grid_size", "gpu__time_duration.sum", "dram__throughput.avg.pct_of_peak_sustained_elapsed",
     "smsp__thread_inst_executed_per_inst_executed.ratio",
     "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"]
for k in order:
    print("%-48s " % rows[k]["name"] + " ".join("%14s" % rows[k].get(x, "-") for x in m))
EOF
    else
      echo "(no python3: see the CSV)"
    fi
  done
  if [ -s "$OUT/sass-summary.txt" ]; then
    echo
    echo "--- SASS: instructions per kernel (sass-summary.txt)"
    grep -E "function|tail|reduce_(interleaved|sequential|first|last|warp|one_pass|grid_stride|final)" "$OUT/sass-summary.txt" | head -40
  fi
  echo
  echo "results as JSON lines: $OUT/results-*.jsonl; every log: $OUT"
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
