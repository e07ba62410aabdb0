#!/usr/bin/env python3
"""How long grading takes (a benchmark, not a test: it prints, it never fails on time).

    bench_grade.py [--kit BUILD] [--work DIR] [--batch N]

With the kit built (BUILD, default build/grade-kit; `cmake --build BUILD --target
exercise-kit` first), it grades, with tools/grade as an instructor runs it:
  1. one submission (the solutions), once: where no GPU is, its GPU sets are not
     compiled (--without-gpu leave-out), so this is a CPU-only grading;
  2. a batch of N copies of it (default 8).
It prints each wall time, the machine's CPU count and its load average before
and after: on a machine shared with other work the figures say as much about the
load as about the grader.
"""
import argparse
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kit", default=str(ROOT / "build" / "grade-kit"))
    ap.add_argument("--work", default="/tmp/book-grade-bench")
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--exercise", action="append", default=[],
                    help="grade only these exercises (tools/grade --exercise)")
    a = ap.parse_args()
    work = Path(a.work)
    shutil.rmtree(work, ignore_errors=True)
    sub = work / "submission"
    shutil.copytree(ROOT / "solutions", sub)
    batch = work / "batch"
    batch.mkdir()
    for i in range(a.batch):
        shutil.copytree(sub, batch / f"student{i + 1:02d}")
    grade = [sys.executable, str(ROOT / "tools" / "grade"), "--kit", a.kit, "--no-kit-build",
             "--without-gpu", "leave-out"] + [x for e in a.exercise for x in ("--exercise", e)]

    def timed(what, cmd):
        load = os.getloadavg()[0]
        t0 = time.monotonic()
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        wall = time.monotonic() - t0
        if p.returncode != 0:
            print(p.stdout[-3000:])
            sys.exit(f"bench_grade: {what}: tools/grade exited {p.returncode}")
        total = [line for line in p.stdout.splitlines() if line.startswith("total")]
        print(f"{what}: {wall:.1f} s wall  (load average {load:.1f} before, "
              f"{os.getloadavg()[0]:.1f} after; {os.cpu_count()} CPUs)"
              + (f"  [{total[0].split()[1]} {total[0].split()[2]} {total[0].split()[3]}]"
                 if total else ""))
        return wall

    timed("one CPU-only submission", grade + [str(sub), "--out", str(work / "out-one")])
    w = timed(f"a batch of {a.batch}", grade + ["--batch", str(batch), "--out", str(work / "out-batch")])
    print(f"per submission in the batch: {w / a.batch:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
