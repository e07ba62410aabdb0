#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The test exercises.grade.shards: a class graded in one batch, and in 3 shards
(--shard K/3) merged (--merge), gives the same class summary, statistics and
gradebook, byte for byte (the seed given: without --seed each grading draws its
own, and the seed columns would differ); the roster and Gradescope's metadata
name the students; a bad roster stops the batch before any grading, naming its
line; a merge that lacks a shard is refused.

    check_shards.py --grade tools/grade --kit BUILD --work DIR
"""
import csv
import json
import shutil
import sys
import zipfile

from scaffold import arguments, report, run, sandbox_missing

E1 = "ch01-execution-model/ex01-warp-map"
FILES = ("summary.json", "summary.csv", "summary.txt", "statistics.csv", "gradebook.csv")
ROSTER = """student,id,email,name,section
alice,1001,alice@u.edu,"Smith, Alice",A
bob,1002,bob@u.edu,Bob Jones,B
carol,1003,carol@u.edu,Carol,A
erin.txt,1005,erin@u.edu,Erin,B
,2001,fay@u.edu,Fay Fox,A
zed,1009,zed@u.edu,Zed,B
"""
METADATA = """\
submission_7001:
  :submitters:
  - :name: Fay F.
    :sid: '2001'
    :email: fay@u.edu
  :score: !ruby/object:BigDecimal 18:0.1e2
submission_7002:
  :submitters:
  - :name: Gus
    :sid: '2002'
    :email: gus@u.edu
  - :name: Hal
    :sid: '2003'
    :email: hal@u.edu
"""


def make_submissions(repo, work):
    """(the batch's folder, the roster): seven submissions, each a case of its own."""
    subs = work / "submissions"
    subs.mkdir()
    sol, start = repo / "solutions", repo / "exercises"
    shutil.copytree(sol / E1, subs / "alice" / E1)                 # full marks
    with zipfile.ZipFile(subs / "bob.zip", "w") as z:               # the starter: the sets fail
        for p in sorted((start / E1).rglob("*")):
            z.write(p, f"bob/{E1}/{p.relative_to(start / E1)}")
    shutil.copytree(sol / E1, subs / "carol" / E1)                  # does not compile
    (subs / "carol" / E1 / "warp_map.cpp").write_text("not C++\n")
    (subs / "dave").mkdir()                                         # on no roster
    (subs / "erin.txt").write_text("my homework\n")                 # unreadable: 0 points
    shutil.copytree(sol / E1, subs / "submission_7001" / E1)        # Gradescope's: Fay
    shutil.copytree(sol / E1, subs / "submission_7002" / E1)        # Gradescope's: Gus and Hal
    (subs / "submission_metadata.yml").write_text(METADATA)
    roster = work / "roster.csv"
    roster.write_text(ROSTER)
    return subs, roster


def check_bad_roster(base, work, problems):
    """A bad roster: refused before any grading, naming the file and line."""
    bad = work / "bad.csv"
    bad.write_text("student,id,email\nalice,1,a@u.edu\nbob,1,b@u.edu\n")
    out = run(base[:base.index("--roster")] + ["--roster", str(bad), "--out", str(work / "bad")],
              problems, 2)
    if f"{bad}:3: the id '1' is also on line 2" not in out:
        problems.append("a roster with an ID twice: the error does not name its file and line")
    if (work / "bad").exists():
        problems.append("a bad roster: the batch graded anyway")


def check_merged(one, merged, shards, problems):
    """The merged shards wrote what the batch did, each shard its share; the names
    of the batch's per-student folders."""
    for f in FILES:
        if not (one / f).is_file():
            problems.append(f"the batch wrote no {f}")
        elif not (merged / f).is_file() or (merged / f).read_bytes() != (one / f).read_bytes():
            problems.append(f"{f}: the merged shards' differs from the batch's")
    names = {p.name for p in (one / "students").iterdir()} if (one / "students").is_dir() else set()
    merged_names = {p.name for p in (merged / "students").iterdir()} if (merged / "students").is_dir() else set()
    if len(names) != 7 or names != merged_names:
        problems.append(f"per-student folders: batch {sorted(names)}, merged {sorted(merged_names)}")
    sizes = []
    for d in shards:
        try:
            sizes.append(len(json.loads((d / "summary.json").read_text())["submissions"]))
        except (OSError, ValueError, KeyError):
            problems.append(f"{d}: no summary.json")
    if sizes != [3, 2, 2]:
        problems.append(f"shards of {sizes} submissions, want 3, 2, 2 (round-robin)")
    return names


def check_summary(one, names, problems):
    """What the batch's summary, gradebook and statistics say of the class."""
    try:
        doc = json.loads((one / "summary.json").read_text())
        book = list(csv.reader((one / "gradebook.csv").open()))
        text = (one / "summary.txt").read_text()
    except (OSError, ValueError) as e:
        problems.append(f"the batch's summary cannot be read: {e}")
        doc, book, text = {"submissions": [], "statistics": {"sets": []}}, [[]], ""
    scores = {r["student"]: r["score"] for r in doc["submissions"]}
    want = {"alice": 10, "bob": 0, "carol": 0, "dave": 0, "erin.txt": 0, "submission_7001": 10,
            "submission_7002": 10}
    if scores != want:
        problems.append(f"scores {scores}, want {want}")
    want_book = [["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Homework 1"],
                 ["Smith, Alice", "", "1001", "alice@u.edu", "A", "10"],
                 ["Bob Jones", "", "1002", "bob@u.edu", "B", "0"],
                 ["Carol", "", "1003", "carol@u.edu", "A", "0"],
                 ["Erin", "", "1005", "erin@u.edu", "B", "0"],
                 ["Fay Fox", "", "2001", "fay@u.edu", "A", "10"],   # the roster's, by the metadata's ID
                 ["Gus", "", "2002", "gus@u.edu", "", "10"],        # a Gradescope group: a row each
                 ["Hal", "", "2003", "hal@u.edu", "", "10"]]
    if book != want_book:
        problems.append(f"gradebook.csv {book}, want {want_book}")
    for line in ("Not on the roster (2): dave, submission_7002",
                 "Matched to no student, left out of gradebook.csv (1): dave",
                 "On the roster, no submission (1): Zed"):
        if line not in text:
            problems.append(f"summary.txt does not say {line!r}")
    # The statistics, recomputed from the per-student results.
    for s in doc["statistics"]["sets"]:
        got = []
        for name in sorted(names):
            res = json.loads((one / "students" / name / "results.json").read_text())
            got += [t["score"] for t in res["tests"] if t["name"].startswith(f"{s['exercise']} [{s['set']} ")]
        passed = sum(1 for g in got if g == s["points"])
        mean = round(sum(got) / len(got), 2) if got else None
        if (s["graded"], s["passed"], s["mean"]) != (len(got), passed, mean) or \
                s["pass_rate"] != round(passed / len(got), 4):
            problems.append(f"statistics of {s['exercise']} {s['set']}: {s}, want {len(got)} graded, "
                            f"{passed} passed, mean {mean}")
    if len(doc["statistics"]["sets"]) != 2:
        problems.append(f"statistics of {len(doc['statistics']['sets'])} sets, want 2")


def main():
    a, repo, work = arguments()
    subs, roster = make_submissions(repo, work)
    why = sandbox_missing()
    if why:
        print(f"skipped: the sandbox cannot run here ({why})")
        return 77
    problems = []
    base = [sys.executable, a.grade, "--batch", str(subs), "--kit", a.kit, "--no-kit-build",
            "--exercise", E1, "--roster", str(roster), "--seed", "4242", "--jobs", "2",
            "--assignment", "Homework 1"]

    check_bad_roster(base, work, problems)
    one = work / "one"
    run(base + ["--out", str(one)], problems, 1)  # erin.txt is unreadable
    shards = [work / f"shard-{k}" for k in (1, 2, 3)]
    for k, d in enumerate(shards, 1):
        # entries in order: alice bob.zip carol dave erin.txt submission_7001 submission_7002
        run(base + ["--shard", f"{k}/3", "--out", str(d)], problems, 1 if k == 2 else 0)
    merged = work / "merged"
    run([sys.executable, a.grade, "--merge", str(shards[0]), str(shards[1]), "--out",
         str(work / "short")], problems, 2)
    run([sys.executable, a.grade, "--merge"] + [str(d) for d in reversed(shards)]
        + ["--out", str(merged)], problems, 1)

    names = check_merged(one, merged, shards, problems)
    check_summary(one, names, problems)
    return report("exercises.grade.shards", problems,
                  "3 shards merged give the batch's summary, statistics and gradebook")


if __name__ == "__main__":
    sys.exit(main())
