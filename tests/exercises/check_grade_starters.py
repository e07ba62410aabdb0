#!/usr/bin/env python3
"""The test exercises.grade-starters: tools/grade on the starters scores 0.

Runs tools/grade on exercises/ and checks that it ran, that the score is 0,
and that its table and results.json list every exercise of the manifest
(build/<preset>/exercises.json): CPU starters "failed" (they compile, run and
fail), GPU starters "failed" on a GPU or "skipped" without one; none passed,
none "did-not-compile".
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path


def main() -> int:
    ap = argparse.ArgumentParser()
    for opt in ("--grade", "--exercises", "--manifest", "--build-dir", "--out", "--reuse"):
        ap.add_argument(opt, required=True)
    a = ap.parse_args()
    manifest = json.loads(Path(a.manifest).read_text())
    cmd = [sys.executable, a.grade, a.exercises, "--out", a.out, "--build-dir", a.build_dir,
           "--reuse", a.reuse]
    print("$ " + " ".join(cmd), flush=True)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
    print(p.stdout)
    problems = []
    if p.returncode != 0:
        problems.append(f"tools/grade exited {p.returncode}")
    results_file = Path(a.out) / "results.json"
    results = json.loads(results_file.read_text()) if results_file.is_file() else None
    if results is None:
        problems.append(f"no {results_file}")
    elif results.get("score") != 0:
        problems.append(f"the starters score {results.get('score')}, not 0")
    if not (Path(a.out) / "junit.xml").is_file():
        problems.append("no junit.xml")
    table = [line.split() for line in p.stdout.splitlines()]
    by_name = {t["name"].split(":")[0]: t for t in (results or {}).get("tests", [])}
    for e in manifest["exercises"]:
        row = next((r for r in table if r and r[0] == e["id"]), None)
        if row is None:
            problems.append(f"the table does not list {e['id']}")
        t = by_name.get(e["id"])
        if t is None:
            problems.append(f"results.json does not list {e['id']}")
            continue
        allowed = {"failed", "skipped"} if e["gpu"] else {"failed"}
        if t["status"] not in allowed:
            problems.append(f"{e['id']}: status {t['status']!r}, want one of {sorted(allowed)}")
        if t["score"] != 0 or t["max_score"] != e["points"]:
            problems.append(f"{e['id']}: {t['score']} of {t['max_score']}, want 0 of {e['points']}")
    if results is not None and len(results.get("tests", [])) != len(manifest["exercises"]):
        problems.append(f"results.json lists {len(results.get('tests', []))} exercises, "
                        f"the manifest {len(manifest['exercises'])}")
    for problem in problems:
        print(f"grade-starters: FAILED: {problem}")
    if not problems:
        print(f"grade-starters: ok: {len(manifest['exercises'])} exercises listed, score 0")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
