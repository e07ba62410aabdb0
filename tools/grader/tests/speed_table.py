#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The speed gradings of gpu_check.sh in one table, and the check that two gradings
of the same code agree (speed.AGREE).

    speed_table.py --work DIR [--again CASE:CASE2] CASE...

Reads DIR/<case>/out/results.json (tools/grade's, as grade_case.py left it) for each
case and prints one Markdown table of its speed lines: the case, the exercise, the
points, the ratio with the rounds' range, the student's and the reference's times
per call with their ranges, the rounds, the GPU and its SM clock before and after
the rounds (the student's report, tools/grader/speed.py). With --again A:B, the
speed lines of cases A and B (the same submission graded twice) must agree: the same
points, and median ratios within speed.AGREE of each other. Exits 1 when they do
not, or when a case has no results or no speed line; 0 otherwise.
"""
import argparse
import json
import re
import sys
from pathlib import Path

sys.dont_write_bytecode = True
from grader import speed  # noqa: E402

_MS = r"([0-9.e+-]+) ms per call \(rounds: ([0-9.e+-]+) to ([0-9.e+-]+)\)"


def speed_lines(results: dict) -> dict:
    """{exercise id: what its speed line reports} from a results.json."""
    out = {}
    for t in results.get("tests", []):
        m = re.match(r"^(\S+) \[speed tests\]", t.get("name", ""))
        if not m:
            continue
        text = t.get("output", "")
        line = {"score": t.get("score"), "max": t.get("max_score"), "status": t.get("status")}
        line.update(read_report(text))
        out[m.group(1)] = line
    return out


def read_report(text: str) -> dict:
    """What a student's speed report (speed.report) says: its note (first line), the
    student's and the reference's time per call with their ranges, the ratio with its
    range, the rounds and why they stopped, the GPU and its clock before and after.
    The one reader of that text, for this table and for grade_case.py's expect_speed."""
    line = {"note": text.splitlines()[0] if text else ""}
    for key, rx in (("student", r"your time: +" + _MS), ("reference", r"the reference's: +" + _MS)):
        if g := re.search(rx, text):
            line[key] = tuple(float(x) for x in g.groups())
    if g := re.search(r"ratio \(reference / yours\): ([0-9.]+) \(rounds: ([0-9.]+) to ([0-9.]+)", text):
        line["ratio"] = tuple(float(x) for x in g.groups())
    if g := re.search(r"rounds: (\d+); stopped at (.*)", text):
        line["rounds"], line["stopped"] = int(g.group(1)), g.group(2).strip()
    if g := re.search(r"grading GPU: ([^;]*); before the rounds: (.*?); after: (.*)", text):
        line["gpu"] = g.group(1).strip()
        line["clock"] = tuple(_clock(x) for x in (g.group(2), g.group(3)))
    return line


def _clock(state: str) -> str:
    m = re.search(r"SM clock (\S+) of (\S+) MHz, throttle reasons ([^,;]+)", state)
    return f"{m.group(1)}/{m.group(2)} MHz ({m.group(3)})" if m else state.strip()[:40]


def row(case: str, ex: str, line: dict) -> str:
    def ms(key):
        v = line.get(key)
        return f"{v[0]:.4g} ({v[1]:.4g} to {v[2]:.4g})" if v else "-"
    ratio = line.get("ratio")
    clock = line.get("clock")
    return " | ".join([
        case, ex, f"{line['score']} of {line['max']}",
        f"{ratio[0]:.3f} ({ratio[1]:.3f} to {ratio[2]:.3f})" if ratio else "-",
        ms("student"), ms("reference"), str(line.get("rounds", "-")),
        line.get("gpu", "-"), f"{clock[0]} / {clock[1]}" if clock else "-",
        line["note"][:90].replace("|", "/")])


HEADER = ("case | exercise | points | ratio (rounds' range) | time per call, ms (range) | "
          "reference's, ms (range) | rounds | GPU | SM clock before / after | note")


def agree(a: dict, b: dict) -> list:
    """Why two gradings of the same code disagree (empty: they agree)."""
    if not a and not b:
        return ["no speed line in either grading"]
    problems = []
    for ex in sorted(set(a) | set(b)):
        x, y = a.get(ex), b.get(ex)
        if x is None or y is None:
            problems.append(f"{ex}: graded once only")
            continue
        if "ratio" not in x or "ratio" not in y:
            problems.append(f"{ex}: a grading without a ratio")
            continue
        if x["score"] != y["score"]:
            problems.append(f"{ex}: {x['score']} and {y['score']} speed points")
        if abs(x["ratio"][0] - y["ratio"][0]) > speed.AGREE:
            problems.append(f"{ex}: ratios {x['ratio'][0]:.3f} and {y['ratio'][0]:.3f}, more than "
                            f"{speed.AGREE:g} apart")
    return problems


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--work", required=True, type=Path)
    ap.add_argument("--again", default="", help="A:B, two gradings of the same submission")
    ap.add_argument("cases", nargs="+")
    a = ap.parse_args(argv)
    problems, lines = [], {}
    print(HEADER)
    print(" | ".join(["---"] * len(HEADER.split(" | "))))
    for case in a.cases:
        f = a.work / case / "out" / "results.json"
        try:
            lines[case] = speed_lines(json.loads(f.read_text()))
        except (OSError, ValueError) as e:
            problems.append(f"{case}: no results ({e})")
            continue
        if not lines[case]:
            problems.append(f"{case}: no speed line in {f}")
        for ex, line in sorted(lines[case].items()):
            print(row(case, ex, line))
    if a.again:
        first, second = a.again.split(":")
        got = agree(lines.get(first, {}), lines.get(second, {}))
        problems += [f"{first} and {second}: {p}" for p in got]
        if not got:
            print(f"\n{first} and {second} agree: the same points, ratios within {speed.AGREE:g}")
    for p in problems:
        print(f"speed_table: FAILED: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
