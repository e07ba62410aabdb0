#!/usr/bin/env bash
# tools/explore/ch02-host.sh OUTDIR [REV]
#
# Chapter 2's programs on a machine WITHOUT a GPU: their host code, under
# AddressSanitizer and UndefinedBehaviorSanitizer, against a fake CUDA runtime
# (tools/explore/ch02-fake-cudart.cpp: memory on the host, kernels that do
# nothing, a device that looks like an H200 on a 16-core host). Each program is
# built with nvcc (-cudart none) and run in every mode the book runs, the
# benchmark at 2^28 floats as on the H200; each run must
#   - exit 0, with no sanitizer report, and
#   - print no line wider than 80 columns (but book::gpu_main's device line).
# The numbers the programs print mean nothing: no kernel runs.
#
# With REV (a git revision) the chapter's code and the shared library come
# from that revision instead of the working tree:
#   tools/explore/ch02-host.sh /tmp/old 26ce60a
# shows the use after free of the first stencil program (its crash on the H200).
#
# Writes OUTDIR/logs/<run>.out and .err, OUTDIR/SUMMARY.txt; exits 1 when a
# run fails. Environment: NVCC (nvcc on PATH, else /usr/local/cuda/bin/nvcc);
# HEADER_FLAGS, -I flags for nlohmann-json and CLI11 (default none: Debian's);
# BIG=0 runs the benchmark at 2^22 floats (2^28 needs about 4 GB of memory).
# It takes about 5 minutes on 2 cores, most of it compiling.
set -u

if [ $# -eq 1 ] && { [ "$1" = "-h" ] || [ "$1" = "--help" ]; }; then
    sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//'
    exit 0
fi
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    sed -n '2,24p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
if [ ! -f tools/explore/ch02-fake-cudart.cpp ]; then
    echo "tools/explore/ch02-host.sh: run it from the repository root" >&2
    exit 2
fi
OUT=$1
REV=${2:-}
ROOT=$(pwd)
NVCC=${NVCC:-$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)}
if [ ! -x "$NVCC" ]; then
    echo "tools/explore/ch02-host.sh: no nvcc (set NVCC)" >&2
    exit 2
fi
BIG=${BIG:-1}
mkdir -p "$OUT/logs" "$OUT/obj" "$OUT/bin"
OUT=$(cd "$OUT" && pwd)

# The sources: the working tree, or REV's.
SRC=$ROOT
if [ -n "$REV" ]; then
    SRC=$OUT/src
    rm -rf "$SRC"
    mkdir -p "$SRC"
    if ! git archive "$REV" code/common code/ch02-shared-memory | tar -x -C "$SRC"; then
        echo "tools/explore/ch02-host.sh: cannot export code/ from revision $REV" >&2
        exit 2
    fi
fi

SAN=(-Xcompiler -fsanitize=address -Xcompiler -fsanitize=undefined -Xcompiler -fno-omit-frame-pointer)
# shellcheck disable=SC2206
FLAGS=(-std=c++20 -O1 -g -arch=sm_90 -I"$SRC/code/common/include" -I"$SRC/code/ch02-shared-memory"
       ${HEADER_FLAGS:-} "${SAN[@]}")
SUMMARY=()
FAILED=0
note() {  # note NAME STATUS TEXT
    SUMMARY+=("$(printf '%-40s %-5s %s' "$1" "$2" "$3")")
    [ "$2" = ok ] || FAILED=1
}

# ---- build ---------------------------------------------------------------------------
t0=$(date +%s)
objs=()
build_log=$OUT/logs/build.log
: >"$build_log"
compile() {  # compile SRC OBJ
    "$NVCC" "${FLAGS[@]}" -c "$1" -o "$2" >>"$build_log" 2>&1 || { echo "FAILED: $1" >>"$build_log"; return 1; }
}
ok=1
for f in "$SRC"/code/common/src/*.cpp "$SRC"/code/common/src/*.cu "$SRC"/code/ch02-shared-memory/stencil_host.cpp; do
    o=$OUT/obj/$(basename "$f").o
    compile "$f" "$o" || ok=0
    objs+=("$o")
done
g++ -std=c++20 -O1 -g -fsanitize=address,undefined -I"$(dirname "$NVCC")/../include" \
    -c tools/explore/ch02-fake-cudart.cpp -o "$OUT/obj/fake-cudart.o" >>"$build_log" 2>&1 || ok=0
objs+=("$OUT/obj/fake-cudart.o")
for p in smem_info bank_conflicts stencil_seed stencil_barrier syncwarp stencil; do
    if compile "$SRC/code/ch02-shared-memory/$p.cu" "$OUT/obj/$p.o"; then
        "$NVCC" -cudart none -arch=sm_90 "${SAN[@]}" "$OUT/obj/$p.o" "${objs[@]}" -o "$OUT/bin/$p" \
            -lpthread >>"$build_log" 2>&1 || ok=0
    else
        ok=0
    fi
done
note build "$([ $ok = 1 ] && echo ok || echo FAIL)" "$(( $(date +%s) - t0 ))s, logs/build.log"

# ---- runs ------------------------------------------------------------------------------
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
export FAKE_NPROCS=16
export BOOK_RESULTS=/dev/null
LOG2N=28
[ "$BIG" = 0 ] && LOG2N=22

run() {  # run NAME PROGRAM ARGS...
    local name=$1 prog=$2
    shift 2
    local o="$OUT/logs/$name.out" e="$OUT/logs/$name.err" t0 rc problems=""
    if [ ! -x "$OUT/bin/$prog" ]; then note "$name" FAIL "not built"; return; fi
    t0=$(date +%s)
    timeout 900 "$OUT/bin/$prog" "$@" >"$o" 2>"$e"
    rc=$?
    [ $rc -eq 0 ] || problems="exit $rc"
    local report
    report=$(grep -m1 -E 'ERROR: AddressSanitizer|runtime error:|ERROR: LeakSanitizer' "$e" |
             sed -E 's/^==[0-9]+==//' | cut -c1-90)
    [ -n "$report" ] && problems="${problems:+$problems; }$report"
    local wide
    wide=$(awk 'length($0) > 80 && !/^GPU [0-9]+: /' "$o" | wc -l)
    [ "$wide" -eq 0 ] || problems="${problems:+$problems; }$wide line(s) over 80 columns"
    if [ -z "$problems" ]; then
        note "$name" ok "$(( $(date +%s) - t0 ))s"
    else
        note "$name" FAIL "$problems"
    fi
}

run stencil-steps stencil --log2n "$LOG2N"
run stencil-sweep stencil --sweep --log2n 22
run stencil-tune stencil --tune --log2n 22
run stencil-check stencil --check
run stencil-check-quick stencil --check --quick
run stencil-profile stencil --profile --log2n 22
run smem-info smem_info
run smem-info-quick smem_info --quick
run bank-conflicts bank_conflicts
run bank-conflicts-quick bank_conflicts --quick
run bank-conflicts-profile bank_conflicts --profile
run stencil-seed stencil_seed
run stencil-seed-exact stencil_seed --exact --n 1000
run stencil-seed-fixed stencil_seed --exact --n 1000 --fixed
run stencil-barrier stencil_barrier
run stencil-barrier-one-side stencil_barrier --branch-one-side --trials 5
run stencil-barrier-nosync stencil_barrier --nosync --small
run stencil-barrier-branch stencil_barrier --branch --small
run stencil-barrier-tiled stencil_barrier --tiled --small
run syncwarp syncwarp
run syncwarp-small syncwarp --small
run syncwarp-nosync syncwarp --nosync --small

{
    echo "chapter 2, host code under ASan/UBSan on a fake CUDA runtime${REV:+ (code of $REV)}"
    printf '%s\n' "${SUMMARY[@]}"
    awk '/^GPU [0-9]+: / && length($0) > 80 { print "note: book::gpu_main prints a device line of " length($0) " columns"; exit }' \
        "$OUT"/logs/*.out
} >"$OUT/SUMMARY.txt"
cat "$OUT/SUMMARY.txt"
exit $FAILED
