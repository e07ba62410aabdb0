#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The test exercises.grade.batch: a folder of submissions, one per student (folders
and archives, good, empty, broken and hostile), graded into one results folder each
and a class summary; one submission's failure never stops the others.

    check_batch.py --grade tools/grade --kit BUILD --work DIR
"""
import csv
import json
import shutil
import sys
import zipfile

from scaffold import arguments, report, run, sandbox_missing, tree_hashes

E1 = "ch01-execution-model/ex01-warp-map"
E2 = "ch01-execution-model/ex02-simt-efficiency"
# student -> (score, max_score) for ex01 and ex02 (20 points), or None: unreadable (0 of 20)
WANT = {"alice": (20, 20), "bob": (0, 20), "carol": (10, 20), "dave": (0, 20),
        "erin.txt": (0, 20), "frank": (0, 20), "gina_smith_1": (10, 20), "hank": (10, 20),
        "summary.csv": (20, 20)}
UNREADABLE = {"erin.txt", "frank"}


def main():
    a, repo, work = arguments()
    subs = work / "submissions"
    subs.mkdir()
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
    why = sandbox_missing()
    if why:
        print(f"skipped: the sandbox cannot run here ({why}); the batch holds a hostile submission")
        return 77
    before = tree_hashes(repo)
    out = work / "out"
    cmd = [sys.executable, a.grade, "--batch", str(subs), "--kit", a.kit, "--no-kit-build",
           "--out", str(out), "--exercise", E1, "--exercise", E2]
    problems = []
    run(cmd, problems, 1)  # erin.txt and frank could not be read; every other one was graded
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
    return report("exercises.grade.batch", problems, f"{len(WANT)} submissions, each graded, summary written")


if __name__ == "__main__":
    sys.exit(main())
