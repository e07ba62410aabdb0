#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The test exercises.test-names: the test case names the book shows and the grader
expects (exercises.json, read from the test sources at configure time) are the
names the programs that grade list (Catch2's --list-test-names-only), set by set:
a bridged exercise's judges (exercises/judge/), another's test programs. And a
bridged exercise's worker (the solution's, exercises/worker/) holds none of the
names of its tests (one worker serves both sets): it cannot tell which set it serves
from its own bytes.

    check_test_names.py --build BUILD
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path

from scaffold import report


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    a = ap.parse_args()
    build = Path(a.build)
    book = json.loads((build / "exercises.json").read_text())
    kit = json.loads((build / "exercises" / "kit.json").read_text())
    built = {e["id"]: e["built"] for e in kit["exercises"]}
    judges = {(e["id"], s["name"]): s.get("judge", "") for e in kit["exercises"] for s in e["sets"]}
    problems, checked = [], 0
    for e in book["exercises"]:
        if not built.get(e["id"]):
            print(f"{e['id']}: not built here (no nvcc): its names are not checked")
            continue
        tid = e["id"].replace("/", ".")
        names = []
        for name, s in e["sets"].items():
            judge = judges.get((e["id"], name))
            prog = Path(judge) if judge else build / "exercises" / f"{tid}.{name}"
            p = subprocess.run([str(prog), "--list-test-names-only"], stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True, timeout=60)
            listed = [line for line in p.stdout.splitlines() if line.strip()]
            if p.returncode not in (0, len(listed)):  # Catch2 v2 exits with the count it listed
                problems.append(f"{prog} --list-test-names-only exited {p.returncode}: {p.stdout[:300]}")
            if listed != s["tests"]:
                problems.append(f"{e['id']} {name}: exercises.json says {s['tests']}, "
                                f"the program lists {listed}")
            want = e["visible_tests"] if name == "visible" else e["hidden_tests"]
            if want != s["tests"]:
                problems.append(f"{e['id']} {name}: visible_tests/hidden_tests disagree with sets")
            checked += 1
            names += s["tests"]
            print(f"{e['id']} {name}: {len(listed)} test cases, as listed by {prog}")
        worker = build / "exercises" / "worker" / tid
        if any(judges.get((e["id"], n)) for n in e["sets"]):
            data = worker.read_bytes()
            # One worker serves both sets (this one file), so what it holds cannot tell
            # them apart; it must hold no test name. (Not the words "hidden" or
            # "visible": toolchain libraries spell both, -fvisibility=hidden and PTX's
            # .visible .entry, as the GPU machine's gcc 13 and cudart showed.)
            held = [n for n in names if n.encode() in data]
            if held:
                problems.append(f"{worker} holds the names {held}")
            else:
                print(f"{e['id']}: its worker holds no test name")
    return report("exercises.test-names", problems, f"{checked} test sets")


if __name__ == "__main__":
    sys.exit(main())
