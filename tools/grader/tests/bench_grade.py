#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""How long grading takes (a benchmark, not a test: it prints, it never fails on time).

    bench_grade.py [--kit BUILD] [--work DIR] [--batch N] [--exercise ID]... [--jobs N]

With the kit built (BUILD, default build/grade-kit; `cmake --build BUILD --target
exercise-kit` first), it grades, with tools/grade as an instructor runs it:
  1. one submission (the solutions), once: where no GPU is, its GPU sets are not
     compiled (--without-gpu leave-out), so this is a CPU-only grading;
     target: 10 s on a 2-core machine;
  2. a batch of N copies of it (default 8); target: 120 s for 8.
For each it prints the wall time against its target, the CPU time tools/grade
and everything it ran used (user + system: that does not depend on how busy the
machine is), the machine's CPU count and its load average before and after (on
a machine shared with other work the wall times say as much about the load as
about the grader), and where the time went (tools/grade --timings, summed per
step; steps that ran side by side add up to more than the wall time).
"""
import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
TARGET_ONE = 10.0     # seconds, one CPU-only submission, 2 cores
TARGET_BATCH = 120.0  # seconds, a batch of 8


def cpu_of_children():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def breakdown(path):
    """Lines: the seconds of each step of tools/grade --timings FILE."""
    try:
        spans = json.loads(Path(path).read_text())["spans"]
    except (OSError, ValueError, KeyError):
        return ["  (no timings written)"]
    phases = defaultdict(lambda: [0.0, 0])
    box = [0.0, 0.0, 0]
    for s in spans:
        d = s["end"] - s["start"]
        if s["phase"] == "sandbox":
            box[0] += d
            box[1] += s.get("program") or 0.0
            box[2] += 1
            continue
        phases[s["phase"]][0] += d
        phases[s["phase"]][1] += 1
    order = sorted(phases.items(), key=lambda kv: -kv[1][0])
    lines = [f"  {name:<24} {t:7.2f} s  ({n} x, {t / n:.2f} s each)" for name, (t, n) in order]
    if box[2]:
        lines.append(f"  {'in the sandbox, of those':<24} {box[0]:7.2f} s  ({box[2]} runs: the "
                     f"programs {box[1]:.2f} s, bubblewrap and its supervisor "
                     f"{box[0] - box[1]:.2f} s, {(box[0] - box[1]) / box[2]:.3f} s a run)")
    threads = {s["thread"] for s in spans}
    if len(threads) > 1:
        lines.append(f"  ({len(threads)} threads: steps that ran side by side add up to more "
                     "than the wall time)")
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--kit", default=str(ROOT / "build" / "grade-kit"))
    ap.add_argument("--work", default="/tmp/book-grade-bench")
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--exercise", action="append", default=[],
                    help="grade only these exercises (tools/grade --exercise)")
    ap.add_argument("--grade-arg", action="append", default=[], metavar="ARG",
                    help="one more argument for tools/grade (repeatable; e.g. --grade-arg=--jobs=1)")
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
             "--without-gpu", "leave-out"] + [x for e in a.exercise for x in ("--exercise", e)] \
        + a.grade_arg
    print(f"bench_grade: {os.cpu_count()} CPUs; kit {a.kit}; "
          f"tools/grade {' '.join(grade[2:])}", flush=True)

    def timed(what, cmd, target):
        timings = work / f"timings-{len(list(work.glob('timings-*')))}.json"
        load = os.getloadavg()
        cpu0 = cpu_of_children()
        t0 = time.monotonic()
        p = subprocess.run(cmd + ["--timings", str(timings)], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
        wall = time.monotonic() - t0
        cpu = cpu_of_children() - cpu0
        if p.returncode != 0:
            print(p.stdout[-3000:])
            sys.exit(f"bench_grade: {what}: tools/grade exited {p.returncode}")
        total = [line for line in p.stdout.splitlines() if line.startswith("total")]
        print(f"{what}: {wall:.1f} s wall (target {target:g} s: "
              f"{'met' if wall <= target else 'NOT met'}); {cpu:.1f} s CPU; load average "
              f"{load[0]:.2f} {load[1]:.2f} {load[2]:.2f} before, "
              f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} after"
              + (f"  [{' '.join(total[0].split()[1:4])}]" if total else ""))
        print("\n".join(breakdown(timings)), flush=True)
        return wall

    timed("one CPU-only submission", grade + [str(sub), "--out", str(work / "out-one")], TARGET_ONE)
    target = TARGET_BATCH * a.batch / 8
    w = timed(f"a batch of {a.batch}", grade + ["--batch", str(batch), "--out", str(work / "out-batch")],
              target)
    print(f"per submission in the batch: {w / a.batch:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
