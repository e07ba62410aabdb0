#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""No claim bounds a measured figure by one GPU's number, unless it is scoped.

    python -m bookpy.lint.one_gpu_bounds [--counts] --recordings DIR [--code DIR] [--chapters DIR]

The book's claims must hold on every reference GPU (docs/architecture.md, "Every
GPU"): a lesson is stated against the same run's own figures (the copy, the read
stream, CUB in the same process) or the GPU's own properties, never against a
bare TB/s, µs or SM count that one GPU happened to give. This test reads every
expectation of the programs (code/<key>/<run>.checks.json) and every check of
the chapters (``{check}`...``` in chapters/chNN-*.md) and finds each comparison
of a measured figure that carries a physical unit with a written constant:

- an expectation whose value (or value over `over`, when the two units differ)
  has a unit in PHYSICAL and a bound (min, max) other than 0;
- a comparison in a chapter's check whose one side is written numbers only and
  whose other side has a unit in PHYSICAL, by the units the records give its
  figures (a quotient of two figures of one unit has none; abs, min, max, sums
  and differences keep their arguments' unit; a product or quotient with a
  written number keeps the figure's).

Each is an error naming the file and line, unless the expectation is scoped to
the GPUs it holds on ("gpus") or is in PROPERTIES, with the reason the figure is
a property the chapter explains as such (a constant of CUDA, a setting of the
program). A chapter's check cannot be scoped: it cites a scoped expectation
(``{check}`<run>:check:<id>```) instead. A PROPERTIES entry that matches nothing
is an error too. The units come from the recordings (DIR/<gpu>/<key>/<run>.json,
the first GPU folder that has the run). Exit status 1 on any finding; with
--counts, the counts per chapter key are printed.
"""
from __future__ import annotations

import argparse
import ast
import glob
import json
import os
import re
import sys

from bookpy import ROOT
from bookpy.chapters import all_chapter_files, key_of
from bookpy.records import checkeval

#: Units whose value is one GPU's: times, rates, sizes, the hardware's own counts,
#: and how busy a unit of the GPU was (a percentage of its peak).
PHYSICAL = {"ms", "us", "µs", "ns", "s", "ms/wave", "TB/s", "GB/s", "Gadd/s", "KiB", "MiB",
            "GiB", "bytes", "byte", "cycles", "SMs", "registers", "warps", "warp", "threads",
            "blocks", "%"}
#: A percentage that is not how busy a unit was, but a share of an access pattern.
PATTERN_PERCENT = re.compile(r"hit_rate")

#: Bounds that are properties the chapters explain as such:
#: (run as <key>/<run>, check id, why it is no GPU's measurement).
PROPERTIES = [
    ("ch01-execution-model/device-query", "warp-size-32",
     "a warp is 32 threads on every NVIDIA GPU (Programming Guide, SIMT Architecture)"),
    ("ch01-execution-model/device-query", "cluster-portable-8",
     "8 blocks is CUDA's portable cluster size (Programming Guide, Thread Block Clusters)"),
    ("ch02-shared-memory/smem-info", "smem-per-block-default-48kb",
     "48 KiB is CUDA's limit for a block that does not opt in (Programming Guide)"),
]

CHECK = re.compile(r"\{check\}`([^`]+)`")


class Units:
    """The unit of each recorded figure, from the first GPU folder that has its run."""

    def __init__(self, recordings: str):
        self.recordings = recordings
        self.cache: dict[str, dict] = {}

    def results(self, full: str) -> dict:
        if full not in self.cache:
            self.cache[full] = {}
            for path in sorted(glob.glob(os.path.join(self.recordings, "*", full + ".json"))):
                with open(path, encoding="utf-8") as f:
                    self.cache[full] = json.load(f).get("results", {})
                break
        return self.cache[full]

    def unit(self, full: str, key: str) -> str | None:
        """The figure's unit ('' for none), or None when no recording has it."""
        r = self.results(full).get(key)
        if r is None:
            return None
        unit = r.get("unit", "")
        if unit == "%" and PATTERN_PERCENT.search(key):
            return ""
        return unit


def physical(unit: str | None) -> bool:
    """Whether a figure in `unit` is one GPU's: its unit, or a quotient's numerator, is PHYSICAL."""
    return unit is not None and unit.split(" per ")[0] in PHYSICAL


def quotient(a: str | None, b: str | None) -> str | None:
    """The unit of a / b: none for one unit over itself; None when either is unknown."""
    if a is None or b is None:
        return None
    if a == b:
        return ""
    return a if not b else f"{a} per {b}"


# ---- the programs' expectations ----------------------------------------------

def line_of(text: str, needle: str) -> int:
    at = text.find(needle)
    return text.count("\n", 0, at) + 1 if at >= 0 else 1


def check_files(code: str, units: Units, used: set) -> list[tuple[str, int, str]]:
    found = []
    for path in sorted(glob.glob(os.path.join(code, "ch*", "*.checks.json"))):
        key = os.path.basename(os.path.dirname(path))
        run = os.path.basename(path)[: -len(".checks.json")]
        full = f"{key}/{run}"
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for c in json.loads(text).get("checks", []):
            if "gpus" in c:
                continue
            bounds = [(b, c[b]) for b in ("min", "max") if b in c and c[b] != 0]
            if not bounds:
                continue
            unit = units.unit(full, c["value"])
            if "over" in c:
                unit = quotient(unit, units.unit(full, c["over"]))
            if not physical(unit):
                continue
            if any(p[0] == full and p[1] == c["id"] for p in PROPERTIES):
                used.add((full, c["id"]))
                continue
            what = c["value"] + (f" over {c['over']}" if "over" in c else "")
            written = ", ".join(f"{b} {v:g}" for b, v in bounds)
            found.append((os.path.relpath(path, os.path.dirname(code)),
                          line_of(text, f'"id": "{c["id"]}"'),
                          f"expectation '{c['id']}' bounds {what} ({unit}) by {written}: one GPU's "
                          "number; state it against a figure of the same run, or scope it with "
                          "\"gpus\""))
    return found


# ---- the chapters' checks ------------------------------------------------------

def expr_unit(node: ast.AST, names: dict) -> str | None:
    """The unit of an arithmetic expression: '' for written numbers, None if unknown."""
    if isinstance(node, ast.Constant):
        return ""
    if isinstance(node, ast.Name):
        return names.get(node.id)
    if isinstance(node, ast.UnaryOp):
        return expr_unit(node.operand, names)
    if isinstance(node, ast.Call):
        args = [expr_unit(a, names) for a in node.args]
        known = [a for a in args if a]
        return known[0] if known else ("" if all(a == "" for a in args) else None)
    if isinstance(node, ast.BinOp):
        a, b = expr_unit(node.left, names), expr_unit(node.right, names)
        if isinstance(node.op, (ast.Add, ast.Sub)):
            return a or b
        if isinstance(node.op, ast.Div):
            return quotient(a, b) if b else a
        if isinstance(node.op, ast.Mult):
            return a or b
        return a
    return None


def written_only(node: ast.AST) -> bool:
    return not any(isinstance(n, ast.Name) and re.fullmatch(r"r[0-9]+", n.id)
                   for n in ast.walk(node))


def chapter_checks(chapters: str, only: list, units: Units) -> list[tuple[str, int, str]]:
    found = []
    for path in all_chapter_files(chapters):
        key = key_of(path)
        if only and key not in only:
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for cm in CHECK.finditer(text):
            line = text.count("\n", 0, cm.start()) + 1
            try:
                body, refs = checkeval.parse(cm.group(1))
            except checkeval.BookError:
                continue  # the build reports it
            names = {}
            for i, (run, res) in enumerate(refs):
                full = run if "/" in run else f"{key}/{run}"
                names[f"r{i}"] = "" if res.startswith("check:") else units.unit(full, res)
            for node in ast.walk(body):
                if not isinstance(node, ast.Compare):
                    continue
                sides = [node.left, *node.comparators]
                for a, b in zip(sides, sides[1:]):
                    for figure, bound in ((a, b), (b, a)):
                        if written_only(figure) or not written_only(bound):
                            continue
                        unit = expr_unit(figure, names)
                        if physical(unit):
                            found.append((os.path.relpath(path, os.path.dirname(chapters)), line,
                                          f"{ast.unparse(bound)} bounds a figure in {unit}: one "
                                          "GPU's number; compare with a figure of the same run, or "
                                          "cite an expectation scoped with \"gpus\" "
                                          f"(in: {cm.group(1)[:90]})"))
    return found


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--recordings", required=True, help="recordings/<gpu>/<key>/<run>.json")
    p.add_argument("--code", default=os.path.join(ROOT, "code"))
    p.add_argument("--chapters", default=os.path.join(ROOT, "chapters"))
    p.add_argument("--counts", action="store_true")
    a = p.parse_args()
    units = Units(a.recordings)
    used: set = set()
    found = check_files(a.code, units, used) + chapter_checks(a.chapters, [], units)
    own = os.path.realpath(a.code) == os.path.realpath(os.path.join(ROOT, "code"))
    for full, cid, why in PROPERTIES if own else []:
        if (full, cid) not in used:
            found.append(("tools/bookpy/lint/one_gpu_bounds.py", 1,
                          f"PROPERTIES names {full}:{cid}, which bounds nothing any more ({why})"))
    for path, line, msg in found:
        print(f"{path}:{line}: {msg}")
    if a.counts:
        counts: dict = {}
        for path, _, _ in found:
            k = next((p[:-3] if p.endswith(".md") else p for p in path.split(os.sep)
                      if p.startswith("ch")), path)
            counts[k] = counts.get(k, 0) + 1
        for k, n in sorted(counts.items()):
            print(f"{k:<28} {n:>4}")
    print(f"one_gpu_bounds: {len(found)} bound(s) of one GPU's number", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
