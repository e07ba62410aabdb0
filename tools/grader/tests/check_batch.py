#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The test exercises.grade.batch: a folder of submissions, one per student (folders
and archives, good, empty, broken and hostile), graded into one results folder each
and a class summary; one submission's failure never stops the others.

    check_batch.py --grade tools/grade --kit BUILD --work DIR
"""
import argparse
import csv
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

sys.dont_write_bytecode = True
sys.path.insert(0, str(Path(__file__).resolve().parent))
from grade_case import tree_hashes  # noqa: E402

E1 = "ch01-execution-model/ex01-warp-map"
E2 = "ch01-execution-model/ex02-simt-efficiency"
# student -> (score, max_score) for ex01 and ex02 (20 points), or None: unreadable (0 of 20)
WANT = {"alice": (20, 20), "bob": (0, 20), "carol": (10, 20), "dave": (0, 20),
        "erin.txt": (0, 20), "frank": (0, 20), "gina_smith_1": (10, 20), "hank": (10, 20),
        "summary.csv": (20, 20)}
UNREADABLE = {"erin.txt", "frank"}


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
    subs = work / "submissions"
    subs.mkdir(parents=True)
    sol, start = repo / "solutions", repo / "exercises"
    shutil.copytree(sol, subs / "alice")                       # a folder: full marks
    with zipfile.ZipFile(subs / "bob.zip", "w") as z:           # a zip of the starters: zero
        for p in sorted(start.rglob("*")):
            z.write(p, f"bob/{p.relative_to(start)}")
    shutil.copytree(sol, subs / "carol")                        # ex02 did not compile
    (subs / "carol" / E2 / "simt_efficiency.cpp").write_text("this is not C++\n")
    (subs / "dave").mkdir()                                     # an empty folder
    (subs / "erin.txt").write_text("my homework\n")             # neither folder nor archive
    (subs / "frank.zip").write_bytes(b"PK\x03\x04 this is no zip")  # a broken archive
    shutil.copytree(sol, subs / "gina smith;1")                 # an odd name; ex01 missing
    shutil.rmtree(subs / "gina smith;1" / E1)
    shutil.copytree(sol, subs / "summary.csv")                  # named as the class summary is
    shutil.copytree(sol, subs / "hank")                         # hostile: fakes a pass in ex01
    p = subs / "hank" / E1 / "warp_map.cpp"
    p.write_text(p.read_text() + "\n#include <cstdio>\n#include <unistd.h>\nnamespace { struct F { F() "
                 "{ std::puts(\"All tests passed\"); _exit(0); } } f; }\n")
    sys.path.insert(0, str(repo / "tools"))
    from grader.sandbox import Sandbox  # the grader's own probe
    box, why = Sandbox.probe()
    if box is None:
        print(f"skipped: the sandbox cannot run here ({why}); the batch holds a hostile submission")
        return 77
    before = tree_hashes(repo)
    out = work / "out"
    cmd = [sys.executable, a.grade, "--batch", str(subs), "--kit", a.kit, "--no-kit-build",
           "--out", str(out), "--exercise", E1, "--exercise", E2]
    print("$ " + " ".join(cmd), flush=True)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    print(p.stdout)
    problems = []
    if p.returncode != 1:  # erin.txt and frank could not be read; every other one was graded
        problems.append(f"tools/grade --batch exited {p.returncode}, want 1")
    rows = {}
    if (out / "summary.csv").is_file():
        rows = {r["student"]: r for r in csv.DictReader((out / "summary.csv").open())}
    else:
        problems.append("no summary.csv")
    for f in ("summary.txt", "summary.json"):
        if not (out / f).is_file():
            problems.append(f"no {f}")
    for student, (score, max_score) in WANT.items():
        r = rows.get(student)
        if r is None:
            problems.append(f"{student}: not in the summary")
            continue
        if (int(r["score"]), int(r["max_score"])) != (score, max_score):
            problems.append(f"{student}: {r['score']} of {r['max_score']}, want {score} of {max_score}")
        if (student in UNREADABLE) != bool(r["error"]):
            problems.append(f"{student}: error column {r['error']!r}")
        res = out / "students" / student / "results.json"
        if not res.is_file():
            problems.append(f"{student}: no results.json")
        elif json.loads(res.read_text())["score"] != score:
            problems.append(f"{student}: results.json disagrees with the summary")
    if set(rows) - set(WANT):
        problems.append(f"unexpected rows: {sorted(set(rows) - set(WANT))}")
    left = [str(f.relative_to(out)) for f in out.rglob(".*") if f.is_file()]
    if left:
        problems.append(f"files half written and left behind: {left}")
    if tree_hashes(repo) != before:
        problems.append("the repository changed")
    for problem in problems:
        print(f"exercises.grade.batch: FAILED: {problem}")
    if not problems:
        print(f"exercises.grade.batch: ok: {len(WANT)} submissions, each graded, summary written")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
