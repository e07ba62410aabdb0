#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The test exercises.grade.no-sandbox: where bubblewrap cannot run, tools/grade says
so and refuses to grade; with --trusted it grades (without a sandbox).

    check_no_sandbox.py --grade tools/grade --kit BUILD --work DIR
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

E1 = "ch01-execution-model/ex01-warp-map"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--grade", required=True)
    ap.add_argument("--kit", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    repo = Path(a.grade).resolve().parent.parent
    work = Path(a.work).resolve()
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    env = dict(os.environ, BOOK_GRADE_BWRAP=str(work / "no-bwrap-here"))
    problems = []
    base = [sys.executable, a.grade, str(repo / "solutions"), "--kit", a.kit, "--no-kit-build",
            "--exercise", E1]
    for trusted in (False, True):
        out = work / ("trusted" if trusted else "refused")
        cmd = base + ["--out", str(out)] + (["--trusted"] if trusted else [])
        print("$ BOOK_GRADE_BWRAP=... " + " ".join(cmd), flush=True)
        p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        print(p.stdout)
        if not trusted:
            if p.returncode != 2:
                problems.append(f"without bwrap: exit {p.returncode}, want 2")
            for want in ("bubblewrap", "refuses", "--trusted"):
                if want not in p.stdout:
                    problems.append(f"without bwrap: the message does not say {want!r}")
            if (out / "results.json").exists():
                problems.append("without bwrap: results.json was written")
        else:
            res = out / "results.json"
            if p.returncode != 0 or not res.is_file():
                problems.append(f"--trusted: exit {p.returncode}, results: {res.is_file()}")
            elif json.loads(res.read_text())["score"] != 10:
                problems.append("--trusted: the solution does not score 10 of 10")
    for problem in problems:
        print(f"exercises.grade.no-sandbox: FAILED: {problem}")
    if not problems:
        print("exercises.grade.no-sandbox: ok: refused without bwrap, graded with --trusted")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
