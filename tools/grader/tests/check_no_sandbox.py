#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The test exercises.grade.no-sandbox: where bubblewrap cannot run, tools/grade says
so and refuses to grade; with --trusted it grades (without a sandbox).

    check_no_sandbox.py --grade tools/grade --kit BUILD --work DIR
"""
import json
import os
import sys

from scaffold import arguments, report, run

E1 = "ch01-execution-model/ex01-warp-map"


def main():
    a, repo, work = arguments()
    env = dict(os.environ, BOOK_GRADE_BWRAP=str(work / "no-bwrap-here"))
    problems = []
    base = [sys.executable, a.grade, str(repo / "solutions"), "--kit", a.kit, "--no-kit-build",
            "--exercise", E1]
    for trusted in (False, True):
        out = work / ("trusted" if trusted else "refused")
        cmd = base + ["--out", str(out)] + (["--trusted"] if trusted else [])
        output = run(cmd, problems, 0 if trusted else 2, env=env, shown="BOOK_GRADE_BWRAP=... " + " ".join(cmd))
        res = out / "results.json"
        if not trusted:
            for want in ("bubblewrap", "refuses", "--trusted"):
                if want not in output:
                    problems.append(f"without bwrap: the message does not say {want!r}")
            if res.exists():
                problems.append("without bwrap: results.json was written")
        elif not res.is_file():
            problems.append("--trusted: no results.json")
        elif json.loads(res.read_text())["score"] != 10:
            problems.append("--trusted: the solution does not score 10 of 10")
    return report("exercises.grade.no-sandbox", problems, "refused without bwrap, graded with --trusted")


if __name__ == "__main__":
    sys.exit(main())
