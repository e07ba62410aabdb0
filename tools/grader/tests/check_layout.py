#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The test exercises.layout: the exercises' two sides cannot drift apart.

Checks the repository's tree with cmake/BookExerciseContract.cmake (it must pass),
then copies of it, each with one drift, each of which must fail with a message
that names the file: a solution file the contract does not name, a contract file
copied into solutions/, a missing solution file, a missing SOLUTION.md, a starter
without a student file, a source the contract does not name, a test set without
points, points without a test set, a misspelt setting, a credit rule
(EXERCISE_CREDIT) that is none or names a set without points, a solution with no
exercise, a README without its title line, a test case in two sets, a <<<...>>>
launch in a GPU exercise's test set or bridge (host code).

    check_layout.py --cmake CMAKE --root REPOSITORY --work DIR
"""
import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

from scaffold import report

K = "ch01-execution-model"
E = "ex01-warp-map"
EX = f"exercises/{K}/{E}"
SOL = f"solutions/{K}/{E}"
TST = f"tests/{K}/exercises/{E}"
GPU_TST = f"tests/{K}/exercises/ex03-warp-vote"  # a GPU exercise


def add(rel, text):
    def f(root):
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    return f


def copy(src, dst):
    return lambda root: shutil.copyfile(root / src, root / dst)


def append(rel, text):
    def f(root):
        with open(root / rel, "a") as out:
            out.write(text)
    return f


def remove(rel):
    return lambda root: (root / rel).unlink()


def edit(rel, old, new):
    def f(root):
        text = (root / rel).read_text()
        assert old in text, (rel, old)
        (root / rel).write_text(text.replace(old, new, 1))
    return f


DRIFTS = [
    ("a solution file the contract does not name", add(f"{SOL}/helper.cpp", "int x;\n"),
     rf"{SOL}/helper\.cpp: not a file the student edits"),
    ("a contract file copied into solutions/", copy(f"{EX}/warp_map.hpp", f"{SOL}/warp_map.hpp"),
     rf"{SOL}/warp_map\.hpp: a copy of the contract file {EX}/warp_map\.hpp"),
    ("a missing solution file", remove(f"{SOL}/warp_map.cpp"), rf"{SOL}/warp_map\.cpp: missing"),
    ("a missing SOLUTION.md", remove(f"{SOL}/SOLUTION.md"), rf"{SOL}/SOLUTION\.md: missing"),
    ("a starter without its student file", remove(f"{EX}/warp_map.cpp"),
     rf"{EX}/warp_map\.cpp: missing: exercise\.cmake names it"),
    ("a source the contract does not name", add(f"{EX}/extra.cpp", "int y;\n"),
     rf"{EX}/extra\.cpp: a source file the contract does not name"),
    ("a test set without points", add(f"{TST}/bonus.test.cpp", "#include <catch2/catch.hpp>\n"),
     rf"{TST}/bonus\.test\.cpp: test set 'bonus' has no points"),
    ("points without a test set", remove(f"{TST}/hidden.test.cpp"),
     rf"{TST}: no hidden\.test\.cpp .* for the test set 'hidden'"),
    ("a misspelt setting", add(f"{EX}/exercise.cmake", "set(EXERCISE_POINT visible 3)\n"),
     rf"{EX}/exercise\.cmake: unknown setting EXERCISE_POINT"),
    ("a credit rule that is none", append(f"{EX}/exercise.cmake", "set(EXERCISE_CREDIT per-test)\n"),
     rf"{EX}/exercise\.cmake: EXERCISE_CREDIT: 'per-test' is no credit rule"),
    ("a credit rule for a set without points",
     append(f"{EX}/exercise.cmake", "set(EXERCISE_CREDIT bonus per-case)\n"),
     rf"{EX}/exercise\.cmake: EXERCISE_CREDIT: unknown test set 'bonus' \(known: visible, hidden\)"),
    ("a credit rule without its set", append(f"{EX}/exercise.cmake", "set(EXERCISE_CREDIT hidden per-case visible)\n"),
     rf"{EX}/exercise\.cmake: EXERCISE_CREDIT must be one rule for every set"),
    ("a solution with no exercise", add(f"solutions/{K}/ex09-nothing/x.cpp", "\n"),
     rf"solutions/{K}/ex09-nothing: no exercise"),
    ("a README without its title", edit(f"{EX}/README.md", "# ", "Title: "),
     rf"{EX}/README\.md:1: the first line must be"),
    ("a test case in two sets",
     edit(f"{TST}/hidden.test.cpp", 'TEST_CASE("a threshold inside a partial last warp"',
          'TEST_CASE("3-D blocks: z varies slowest"'),
     r"test case \"3-D blocks: z varies slowest\" is in two test sets"),
    # A GPU exercise's test code is host code (cmake/BookExerciseTargets.cmake compiles it
    # with the host compiler); a launch in a comment is no launch.
    ("a <<<...>>> launch in a GPU exercise's test set",
     edit(f"{GPU_TST}/visible.test.cu", "#include <catch2/catch.hpp>\n",
          "#include <catch2/catch.hpp>\n// k<<<1, 32>>>() in a comment is fine\n"
          "void f() { count_matching<<<1, 32>>>(nullptr, 0, 0, nullptr); }\n"),
     rf"{GPU_TST}/visible\.test\.cu:8: a <<<\.\.\.>>> launch, but a GPU exercise's test code is host code"),
    ("a <<<...>>> launch in a GPU exercise's bridge",
     edit(f"{GPU_TST}/bridge.cu", "#include <vector>\n",
          "#include <vector>\nvoid f() { count_matching<<<1, 32>>>(nullptr, 0, 0, nullptr); }\n"),
     rf"{GPU_TST}/bridge\.cu:\d+: a <<<\.\.\.>>> launch"),
]


def tree_copy(root, dest):
    if dest.exists():
        shutil.rmtree(dest)
    for part in ("exercises", "solutions", "cmake"):
        shutil.copytree(root / part, dest / part)
    for t in (root / "tests").glob("*/exercises"):
        shutil.copytree(t, dest / t.relative_to(root))


def check(cmake, contract, root):
    p = subprocess.run([cmake, f"-DBOOK_SOURCE_DIR={root}", "-P", str(contract)],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return p.returncode, p.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cmake", required=True)
    ap.add_argument("--root", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    root, work = Path(a.root).resolve(), Path(a.work).resolve()
    problems = []
    rc, out = check(a.cmake, root / "cmake" / "BookExerciseContract.cmake", root)
    print(out)
    if rc != 0:
        problems.append("the repository's own exercises fail the layout check")
    for name, drift, want in DRIFTS:
        dest = work / re.sub(r"\W+", "-", name)
        tree_copy(root, dest)
        drift(dest)
        rc, out = check(a.cmake, dest / "cmake" / "BookExerciseContract.cmake", dest)
        shown = out.replace(str(dest) + "/", "")
        if rc == 0:
            problems.append(f"{name}: the check passed")
        elif not re.search(want, shown):
            problems.append(f"{name}: the message does not match /{want}/:\n{shown}")
        else:
            line = next((ln for ln in shown.splitlines() if re.search(want, ln)), "")
            print(f"drift caught: {name}: {line.strip()}")
    return report("exercises.layout", problems, f"the tree passes, {len(DRIFTS)} drifts fail naming the file")


if __name__ == "__main__":
    sys.exit(main())
