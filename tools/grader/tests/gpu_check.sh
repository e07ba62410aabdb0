#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The exercises on a GPU machine: every exercise's visible and hidden test sets,
# CPU and GPU, judged as the grader judges them, with the solutions (they must
# pass), the starters (they must fail) and solutions with one fault each (they
# must fail). Not a CTest test: it configures its own build.
#
#   bash tools/grader/tests/gpu_check.sh [--all]
#
# Needs cmake, ninja, nvcc and python3 on PATH (nvcc also at /usr/local/cuda/bin),
# a CUDA GPU, and the header libraries from Debian or carried in .carry/ (tools/book
# carry, which also carries the grader's seccomp filter: BOOK_SECCOMP_FILTER, as
# tools/book sets it). Steps:
#   1. a fresh configure of the gpu preset (build/gpu; -DBOOK_HOST_INCLUDE=.carry
#      where .carry/ is), and a build of the exercises only (the kit, the
#      judges, the workers, the programs "Check yourself" runs), not the book;
#   2. the kit's GPU probe must find a GPU (else nothing below means anything);
#   3. ctest's two-sided checks of every set: exercises.<key>.<ex>.<set> (the
#      solution's worker, judged by the set's judge) must pass, and
#      exercises.starter.<key>.<ex>.<set> (the starter's) must fail; no test may
#      be skipped;
#   4. the programs that link a GPU exercise's solution with a set directly
#      (build/gpu/exercises/<key>.<ex>.<set>) pass;
#   5. tools/grade, through tools/grader/tests/grade_case.py, on each case of
#      tools/grader/tests/gpu_cases/: the solutions pass every set, the starters
#      fail every set, and the solutions with one fault each (the wrong-*
#      cases: ch02 ex01, ex02 and ex04, ch03 ex03) fail both their sets;
#      --without-gpu refuse, so a GPU set that cannot run fails the case.
#      Where bubblewrap cannot run, grade_case.py grades these cases with
#      --trusted (they attack nothing).
#   6. speed grading: the speed-* cases and the starters' speed lines (graded in
#      step 5: solutions full, starters none, the slow versions partial as their
#      ratio gives, the hostile cases none), the solution graded a second time
#      (the two must agree: tools/grader/speed.py, AGREE), and one table of them
#      all (times with ranges, ratio, points, GPU, SM clock): speed-table.md.
#      The speed cases attack only the timing: where bubblewrap cannot run, they
#      are graded with --trusted (grade_case.py, trusted_ok).
#   --all: then also every test of the label exercises (the hostile cases, the
#      batch, the bundle...); a test that skips there (no bubblewrap) is listed,
#      not failed.
# Prints one PASS or FAIL line per check and a summary; exits 1 on any FAIL.
set -u
cd "$(dirname "$0")/../../.." || exit 2
root=$PWD
# The test scripts import the grader package from tools/.
export PYTHONPATH="$root/tools${PYTHONPATH:+:$PYTHONPATH}"
build=$root/build/gpu
log=$build/gpu-check
all=0
[ "${1:-}" = "--all" ] && all=1

results=()
failed=0
record() {  # record PASS|FAIL <what> [<log>]
    results+=("$1  $2${3:+  (log: $3)}")
    echo "gpu_check: $1  $2"
    [ "$1" = FAIL ] && failed=$((failed + 1))
    return 0
}
summary() {
    echo
    echo "gpu_check: summary"
    printf '  %s\n' "${results[@]}"
    if [ $failed -eq 0 ]; then
        echo "gpu_check: PASS (${#results[@]} checks)"
        exit 0
    fi
    echo "gpu_check: FAIL ($failed of ${#results[@]} checks failed)"
    exit 1
}

# What tools/book sets up on a GPU machine without Debian's packages, for a run
# of this script alone: nvcc where the CUDA toolkit installs it, and the grader's
# seccomp filter carried in .carry/ (no python3-seccomp there: without it the
# --trusted gradings of step 5 cannot confine their runs).
[ -x /usr/local/cuda/bin/nvcc ] && export PATH="$PATH:/usr/local/cuda/bin"
if [ -z "${BOOK_SECCOMP_FILTER:-}" ] && [ -f "$root/.carry/seccomp-filter.json" ]; then
    export BOOK_SECCOMP_FILTER="$root/.carry/seccomp-filter.json"
fi

for tool in cmake ninja nvcc python3; do
    command -v "$tool" >/dev/null || { record FAIL "$tool is not on PATH"; summary; }
done

# 1. Configure and build.
carry=()
[ -d .carry ] && carry=("-DBOOK_HOST_INCLUDE=$root/.carry")
mkdir -p "$build"
rm -rf "$log"
mkdir -p "$log"
# GPU_CHECK_CONFIGURE_ARGS: more cmake arguments (a dry run where no GPU is:
# -DBOOK_GPU=AUTO, which then fails at the probe).
read -r -a extra <<<"${GPU_CHECK_CONFIGURE_ARGS:-}"
if cmake --preset gpu --fresh "${carry[@]}" "${extra[@]}" >"$log/configure.log" 2>&1; then
    record PASS "configure (cmake --preset gpu --fresh ${carry[*]} ${extra[*]})"
else
    tail -30 "$log/configure.log"
    record FAIL "configure" "$log/configure.log"
    summary
fi
grep '^-- Book:' "$log/configure.log"
mapfile -t targets < <(ninja -C "$build" -t targets all 2>/dev/null | sed 's/:.*//' |
                       grep -E '^(exercise-kit|exercise(-starter)?(-worker|-judge)?\.[^ ]+|book_exercise_gpu_probe)$' |
                       grep -vE '^exercise-(judge|worker)-bridge\.' | sort -u)
t0=$SECONDS
if cmake --build "$build" --target "${targets[@]}" -- -k 0 >"$log/build.log" 2>&1; then
    record PASS "build: ${#targets[@]} targets of the exercises in $((SECONDS - t0)) s"
else
    grep -E 'error|FAILED' "$log/build.log" | head -40
    record FAIL "build of the exercises" "$log/build.log"
    summary
fi

# 2. A GPU, as the grader sees it.
probe=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["gpu_probe"])' \
        "$build/exercises/kit.json")
if "$probe" >"$log/probe.log" 2>&1; then
    record PASS "the kit's GPU probe finds a GPU: $(head -1 "$log/probe.log")"
else
    cat "$log/probe.log"
    record FAIL "the kit's GPU probe finds no GPU ($probe)" "$log/probe.log"
    summary
fi

# 3. The two-sided checks, judge and worker, of every set.
t0=$SECONDS
ctest --preset gpu -R '^exercises\.(starter\.)?ch[0-9]+-' --output-on-failure \
    >"$log/two-sided.log" 2>&1
rc=$?
count=$(grep -cE '^ *[0-9]+/[0-9]+ Test +#' "$log/two-sided.log")
skipped=$(grep -cE '\*\*\*Skipped|Not Run' "$log/two-sided.log")
if [ $rc -eq 0 ] && [ "$skipped" -eq 0 ] && [ "$count" -gt 0 ]; then
    record PASS "ctest: $count two-sided checks (solutions pass, starters fail) in $((SECONDS - t0)) s"
else
    grep -E 'Failed|Skipped|Not Run|tests passed' "$log/two-sided.log" | head -40
    record FAIL "ctest: the two-sided checks (rc $rc, $count run, $skipped skipped)" \
        "$log/two-sided.log"
fi

# 4. The programs that link a GPU exercise's solution with a set directly.
mapfile -t gpu_sets < <(python3 - "$build/exercises/kit.json" <<'PY'
import json, sys
kit = json.load(open(sys.argv[1]))
for e in kit["exercises"]:
    if e.get("gpu"):
        for s in e["sets"]:
            print(f"{e['id'].replace('/', '.')}.{s['name']}")
PY
)
[ ${#gpu_sets[@]} -gt 0 ] || record FAIL "kit.json names no GPU exercise"
# A bridged exercise's direct programs are not in ALL: built here, on demand.
targets=()
for s in "${gpu_sets[@]}"; do targets+=("exercise.$s"); done
if ! cmake --build "$build" --target "${targets[@]}" >"$log/direct.build.log" 2>&1; then
    tail -20 "$log/direct.build.log"
    record FAIL "building the direct programs" "$log/direct.build.log"
fi
for s in "${gpu_sets[@]}"; do
    prog=$build/exercises/$s
    "$prog" --rng-seed time >"$log/direct.$s.log" 2>&1
    rc=$?
    if [ $rc -eq 0 ] && grep -q '^All tests passed' "$log/direct.$s.log"; then
        record PASS "direct program $s: $(grep -E '^All tests passed' "$log/direct.$s.log")"
    else
        tail -5 "$log/direct.$s.log"
        record FAIL "direct program $s (exit $rc)" "$log/direct.$s.log"
    fi
done

# 5. tools/grade on the GPU cases.
for case in tools/grader/tests/gpu_cases/*/; do
    name=$(basename "$case")
    t0=$SECONDS
    python3 tools/grader/tests/grade_case.py --grade tools/grade --kit "$build" \
        --work "$build/exercise-scratch/gpu-check/$name" "$case" >"$log/grade.$name.log" 2>&1
    rc=$?
    if [ $rc -eq 0 ]; then
        record PASS "tools/grade case $name: $(sed -n 's/^grade_case [^:]*: ok //p' "$log/grade.$name.log") in $((SECONDS - t0)) s"
    else
        grep -E 'FAILED|skipped|Error|error:' "$log/grade.$name.log" | head -20
        record FAIL "tools/grade case $name (exit $rc)" "$log/grade.$name.log"
    fi
done

# 6. Speed grading (issue 51). Step 5 graded, for every speed-graded exercise, its
#    solution (speed-solution: full speed points), its starter (starters: none),
#    a slow but correct version (speed-slow: partial points, those its measured
#    ratio earns) and the hostile cases (the other speed-*: none). The solution is
#    graded once more here, and the two gradings must agree (the same points,
#    ratios within tools/grader/speed.py's AGREE). One table of all of them, which
#    a closing note can quote: $log/speed-table.md.
name=speed-solution-again
t0=$SECONDS
python3 tools/grader/tests/grade_case.py --grade tools/grade --kit "$build" \
    --work "$build/exercise-scratch/gpu-check/$name" tools/grader/tests/gpu_cases/speed-solution/ \
    >"$log/grade.$name.log" 2>&1
rc=$?
if [ $rc -eq 0 ]; then
    record PASS "tools/grade case speed-solution, again: ok in $((SECONDS - t0)) s"
else
    grep -E 'FAILED|skipped|Error|error:' "$log/grade.$name.log" | head -20
    record FAIL "tools/grade case speed-solution, again (exit $rc)" "$log/grade.$name.log"
fi
speed_cases=(speed-solution speed-solution-again speed-slow starters)
for case in tools/grader/tests/gpu_cases/speed-*/; do
    case=$(basename "$case")
    case $case in speed-solution | speed-slow) ;; *) speed_cases+=("$case") ;; esac
done
gpu_name=$(nvidia-smi --query-gpu=name,clocks.sm,clocks.max.sm --format=csv,noheader 2>/dev/null | head -1)
{
    echo "Speed grading on ${gpu_name:-a GPU nvidia-smi does not name}, $(date -u +%Y-%m-%dT%H:%MZ)"
    echo
    python3 tools/grader/tests/speed_table.py --work "$build/exercise-scratch/gpu-check" \
        --again speed-solution:speed-solution-again "${speed_cases[@]}"
} >"$log/speed-table.md" 2>&1
rc=$?
cat "$log/speed-table.md"
if [ $rc -eq 0 ]; then
    record PASS "speed table: ${#speed_cases[@]} gradings, the solution's two agree" "$log/speed-table.md"
else
    record FAIL "speed table (the two gradings of the solution disagree, or a grading is missing)" \
        "$log/speed-table.md"
fi

# --all: the label exercises (skips listed, not failed).
if [ $all -eq 1 ]; then
    t0=$SECONDS
    ctest --preset gpu -L exercises --output-on-failure >"$log/label.log" 2>&1
    rc=$?
    grep -E '\*\*\*Skipped' "$log/label.log" | sed 's/^/  skipped: /'
    if [ $rc -eq 0 ]; then
        record PASS "ctest -L exercises in $((SECONDS - t0)) s: $(grep -E 'tests passed' "$log/label.log")"
    else
        grep -E '\(Failed\)|tests passed' "$log/label.log" | head -30
        record FAIL "ctest -L exercises (rc $rc)" "$log/label.log"
    fi
fi

summary
