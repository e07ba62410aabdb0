#!/usr/bin/env python3
"""Run an exercise's test program built against its starter; pass only if the
starter fails its tests the way a starter should.

    expect_failure.py [--timeout S] [--gpu] -- PROGRAM [ARGS...]

A starter compiles, runs, and fails its assertions. So this exits 0 only when
PROGRAM exited normally with a non-zero status AND Catch2's summary reports
failed test cases ("test cases: N | ... | M failed"). It exits 1 when the
starter passed (a stub that happens to satisfy the tests), crashed (killed by
a signal, or exited without a Catch2 summary), or ran past the timeout. With
--gpu, a program that exits 77 after saying "skipped: no CUDA GPU" has not run
its tests: this exits 77 too (CTest: skipped).
"""
import argparse
import re
import signal
import subprocess
import sys

SUMMARY = re.compile(r"^test cases:\s*(\d+)(?:\s*\|\s*(\d+) passed)?\s*\|\s*(\d+) failed\b", re.M)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--timeout", type=float, default=60.0)
    ap.add_argument("--gpu", action="store_true", help="exit 77 is 'no GPU: skipped'")
    ap.add_argument("program", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.program[1:] if a.program[:1] == ["--"] else a.program
    if not cmd:
        ap.error("no program given")
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, errors="replace", timeout=a.timeout)
    except subprocess.TimeoutExpired as e:
        out = e.output.decode(errors="replace") if isinstance(e.output, bytes) else (e.output or "")
        print(out)
        print(f"starter check: FAILED: the starter's test ran past {a.timeout:g} s")
        return 1
    except OSError as e:
        print(f"starter check: FAILED: cannot run {cmd[0]}: {e}")
        return 1
    print(p.stdout, end="" if p.stdout.endswith("\n") else "\n")
    rc = p.returncode
    if a.gpu and rc == 77 and "skipped: no CUDA GPU" in p.stdout:
        print("starter check: skipped: no CUDA GPU to run the starter on")
        return 77
    if rc < 0:
        try:
            name = signal.Signals(-rc).name
        except ValueError:
            name = f"signal {-rc}"
        print(f"starter check: FAILED: the starter's test crashed ({name})")
        return 1
    if rc == 0:
        print("starter check: FAILED: the starter passes its tests; a starter must fail them")
        return 1
    m = SUMMARY.search(p.stdout)
    if not m or int(m.group(3)) == 0:
        print(f"starter check: FAILED: exit status {rc} without a Catch2 summary of failed "
              "test cases (a crash or an abort?)")
        return 1
    print(f"starter check: ok: the starter compiles, runs and fails "
          f"{m.group(3)} of {m.group(1)} test cases, as a starter should")
    return 0


if __name__ == "__main__":
    sys.exit(main())
