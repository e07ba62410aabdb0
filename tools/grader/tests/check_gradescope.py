#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The test exercises.grade.gradescope: the Gradescope package, unpacked into a fresh
folder laid out as Gradescope's /autograder (source/, submission/, results/,
submission_metadata.yml), set up, and run on several submissions.

    check_gradescope.py --grade tools/grade --kit BUILD --work DIR [--full-setup]

It writes the package twice (the same bytes), unzips it into DIR/autograder/source,
runs its setup.sh (AUTOGRADER_ROOT=DIR/autograder, BOOK_GRADESCOPE_NO_APT=1: no
apt-get; and, without --full-setup, BOOK_GRADESCOPE_KIT=BUILD: the build's kit,
so that the test does not build another for minutes), then its run_autograder on:
the solutions as loose files, the bundle's folder zipped (as Gradescope unpacks
an uploaded zip, and the zip kept), the exercises/ folder as a .tar.gz, the zip
without bubblewrap (run_autograder falls back to --trusted), a zip inside a
.tar.gz (not entered: 0, with a note naming it), an empty submission and a broken
zip; and run_autograder before setup.
Each results.json is checked: the score, each test's max_score and visibility,
the assignment's total stated, no GPU exercise listed, and no hidden test's name
in anything a student sees while the hidden sets are hidden. --full-setup builds
the kit from the package's own sources, as Gradescope would (minutes).
"""
import json
import os
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path

from scaffold import arguments, report


def cpu_total(exercises):
    """The points of every test set of the CPU exercises: what the solutions score, and the
    assignment's total (read from the kit, so that a chapter's new exercises count)."""
    return sum(s["points"] for e in exercises if not e["gpu"] for s in e["sets"])


class Checks:
    """The problems found so far; check(cond, what) records and prints one where
    cond is false, and returns cond."""

    def __init__(self):
        self.problems = []

    def __call__(self, cond, what):
        if not cond:
            self.problems.append(what)
            print(f"  FAILED: {what}", flush=True)
        return cond


def main():
    a, _, work = arguments("--full-setup")
    kit_doc = json.loads((Path(a.kit) / "exercises" / "kit.json").read_text())
    cpu = [e for e in kit_doc["exercises"] if not e["gpu"]]
    points = cpu_total(kit_doc["exercises"])
    check = Checks()
    if not cpu or points <= 0:
        check.problems.append(f"the kit has no CPU exercise with points ({len(cpu)}, {points})")
        return report("exercises.grade.gradescope", check.problems)
    print(f"the kit's CPU exercises: {len(cpu)}, {points} points in all", flush=True)
    pkg = check_package(a, work, check, cpu, points)
    if pkg is None:
        return report("exercises.grade.gradescope", check.problems)
    ag, env = set_up(a, pkg, work, check)
    if ag is None:
        return report("exercises.grade.gradescope", check.problems)
    # 3. Submissions, each as Gradescope would put it in submission/.
    for what, make, extra, want in shapes(Path(kit_doc["source_root"]) / "solutions", cpu, work, points):
        if run_shape(ag, env, kit_doc, check, points, what, make, extra, want) == 77:
            print("exercises.grade.gradescope: skipped: no sandbox can run here")
            return 77
    return report("exercises.grade.gradescope", check.problems)


def check_package(a, work, check, cpu, points):
    """1. The package, twice: the same bytes, and what it holds. Its path, or None
    where it could not be written."""
    pkg = work / "package.zip"
    for dest in (pkg, work / "again.zip"):
        p = subprocess.run([sys.executable, a.grade, "--gradescope-package", str(dest), "--kit", a.kit],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        print(p.stdout, end="")
        if not check(p.returncode == 0, f"--gradescope-package exited {p.returncode}"):
            return None
    check(pkg.read_bytes() == (work / "again.zip").read_bytes(), "two packages differ")
    with zipfile.ZipFile(pkg) as z:
        names = z.namelist()
        modes = {i.filename: i.external_attr >> 16 for i in z.infolist()}
        plan = json.loads(z.read("gradescope.json"))
    for f in ("setup.sh", "run_autograder"):
        check(f in names and modes[f] & 0o111, f"{f} missing or not executable in the package")
    check(plan["total"] == points, f"gradescope.json: total {plan['total']}, want {points}")
    check(sorted(e["id"] for e in plan["exercises"]) == sorted(e["id"] for e in cpu),
          "gradescope.json does not list exactly the CPU exercises")
    check(not any(n.startswith(("book/node_modules/", "book/docs/")) for n in names),
          "the package holds node_modules/ or docs/")
    bad = subprocess.run([sys.executable, a.grade, "--gradescope-package", str(work / "p.tar.gz"),
                          "--kit", a.kit], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    check(bad.returncode == 2 and "p.tar.gz" in bad.stdout and ".zip" in bad.stdout,
          f"a package named .tar.gz: exit {bad.returncode}, {bad.stdout.strip()!r}")
    return pkg


def set_up(a, pkg, work, check):
    """2. /autograder, fresh; run_autograder before setup.sh writes a results.json
    too; then setup.sh. (the /autograder folder, the environment to run
    run_autograder in), or (None, None) where setup.sh failed."""
    ag = work / "autograder"
    for d in ("source", "submission", "results"):
        (ag / d).mkdir(parents=True)
    (ag / "submission_metadata.yml").write_text(
        ":id: 1\n:users:\n- :email: ada@example.edu\n  :name: Ada\n  :sid: '42'\n")
    with zipfile.ZipFile(pkg) as z:
        for i in z.infolist():
            z.extract(i, ag / "source")
            os.chmod(ag / "source" / i.filename, (i.external_attr >> 16) & 0o777)
    env = dict(os.environ, AUTOGRADER_ROOT=str(ag), BOOK_GRADESCOPE_NO_APT="1")
    p = subprocess.run([str(ag / "source" / "run_autograder")], env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True)
    res = load(ag)
    check(p.returncode != 0 and res and res["score"] == 0 and "setup.sh" in res["output"],
          f"run_autograder before setup: exit {p.returncode}, results {res}")

    if not a.full_setup:
        env["BOOK_GRADESCOPE_KIT"] = str(Path(a.kit).resolve())
    t = time.monotonic()
    p = subprocess.run(["bash", "setup.sh"], cwd=ag / "source", env=env)
    print(f"setup.sh: {time.monotonic() - t:.0f} s{' (the kit built)' if a.full_setup else ''}")
    if not check(p.returncode == 0, f"setup.sh exited {p.returncode}"):
        return None, None
    src = ag / "source" / "book"
    check(not (src / "solutions").exists(), "setup.sh left solutions/")
    check(not list((src / "tests").rglob("hidden*")), "setup.sh left a hidden test's source")
    check((ag / "source").stat().st_mode & 0o077 == 0, "source/ is readable by others than root")
    env.pop("BOOK_GRADESCOPE_KIT", None)
    return ag, env


def shapes(solutions, cpu, work, points):
    """[(what, make(submission folder), extra environment, the score wanted)]: the
    solutions in each shape a student may hand them in, and two bad submissions."""
    def loose(d):
        for e in cpu:
            for f in e["student_files"]:
                shutil.copyfile(solutions / e["id"] / f, d / f)

    def bundle_zip(path):
        with zipfile.ZipFile(path, "w") as z:
            for e in cpu:
                for f in e["student_files"]:
                    z.write(solutions / e["id"] / f, f"cuda-book-exercises/exercises/{e['id']}/{f}")

    def bundle_folder(d):  # the zip as Gradescope unpacks it
        bundle_zip(work / "folder.zip")
        with zipfile.ZipFile(work / "folder.zip") as z:
            z.extractall(d)

    def exercises_tgz(d):  # the exercises/ folder as a .tar.gz, in a folder
        with tarfile.open(d / "handin.tar.gz", "w:gz") as t:
            for e in cpu:
                for f in e["student_files"]:
                    t.add(solutions / e["id"] / f, f"exercises/{e['id']}/{f}")

    def zip_in_tgz(d):  # an archive inside an archive: entered, one level
        bundle_zip(work / "hw.zip")
        with tarfile.open(d / "handin.tar.gz", "w:gz") as t:
            t.add(work / "hw.zip", "hw.zip")

    return [
        ("loose files", loose, {}, points),
        ("the bundle's folder zipped, unpacked by Gradescope", bundle_folder, {}, points),
        ("the bundle's folder zipped, the zip in submission/",
         lambda d: bundle_zip(d / "cuda-book-exercises.zip"), {}, points),
        ("the exercises/ folder as a .tar.gz", exercises_tgz, {}, points),
        ("the zip, no bubblewrap (--trusted)", lambda d: bundle_zip(d / "cuda-book-exercises.zip"),
         {"BOOK_GRADE_BWRAP": str(work / "no-bwrap-here")}, points),
        ("a zip inside a .tar.gz", zip_in_tgz, {}, points),
        ("an empty submission", lambda d: None, {}, 0),
        ("a broken zip", lambda d: (d / "work.zip").write_bytes(b"PK\x03\x04 not a zip"), {}, 0),
    ]


def run_shape(ag, env, kit_doc, check, points, what, make, extra, want):
    """run_autograder on one submission made by make in a fresh submission/, and
    its results.json checked; 77 where no sandbox can run here."""
    gpu = [e for e in kit_doc["exercises"] if e["gpu"]]
    hidden_names = [t for e in kit_doc["exercises"] for s in e["sets"] if s["hidden"]
                    for t in s["tests"]]
    print(f"== {what}", flush=True)
    shutil.rmtree(ag / "submission")
    shutil.rmtree(ag / "results")
    (ag / "submission").mkdir()
    (ag / "results").mkdir()
    make(ag / "submission")
    t = time.monotonic()
    p = subprocess.run([str(ag / "source" / "run_autograder")], env=dict(env, **extra), stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, timeout=1200)
    took = time.monotonic() - t
    res = load(ag)
    print(f"   run_autograder: exit {p.returncode}, {took:.1f} s, score "
          f"{res and res.get('score')}", flush=True)
    if not check(res is not None, f"{what}: no results.json\n{p.stdout[-3000:]}"):
        return 1
    if "No sandbox can run here" in res.get("output", ""):
        return 77
    check(p.returncode == 0, f"{what}: run_autograder exited {p.returncode}:\n{p.stdout[-3000:]}")
    check(res["score"] == want, f"{what}: score {res['score']}, want {want}:\n{res.get('output')}")
    tests = res.get("tests", [])
    check(sum(t["max_score"] for t in tests) == points,
          f"{what}: the tests' max_score add up to {sum(t['max_score'] for t in tests)}")
    check(f"{points} points in all" in res["output"], f"{what}: the total is not stated")
    check(not any(e["title"] in t["name"] for e in gpu for t in tests),
          f"{what}: a GPU exercise is listed")
    seen = res["output"] + "".join(t["name"] + t.get("output", "") for t in tests
                                   if t["visibility"] == "visible")
    check(any(t["visibility"] == "hidden" for t in tests), f"{what}: no hidden test set")
    leaked = [n for n in hidden_names if n in seen]
    check(not leaked, f"{what}: a student sees hidden test names: {leaked[:3]}")
    if what == "a zip inside a .tar.gz":
        check("graded the archive hw.zip of the archive handin.tar.gz" in res["output"],
              f"{what}: the output does not say that hw.zip was graded")
    if what == "a broken zip":
        check("work.zip" in res["output"], f"{what}: the output does not name work.zip")
    if want == 0 and what == "an empty submission":
        check(all("(missing)" in t["name"] for t in tests), f"{what}: not every set says missing")
    return 0


def load(ag):
    try:
        return json.loads((ag / "results" / "results.json").read_text())
    except (OSError, ValueError):
        return None


if __name__ == "__main__":
    sys.exit(main())
