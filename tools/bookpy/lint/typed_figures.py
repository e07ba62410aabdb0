# SPDX-License-Identifier: MIT
"""No figure is typed beside the recorded ones.

    python3 -m bookpy.lint.typed_figures [--counts] CHAPTER.md|FOLDER...

A folder stands for every chapter in it (chNN-*.md).

A sentence that cites a run ({value}, {check} or {answer}) states figures the
build reads from records or from a test's answer values; a number with a unit
typed into the same sentence by hand ("in 0.8 ms", "65,536 blocks", "5 %")
reads as one of them but comes from nowhere: it is not redrawn when the run
changes, and no test sees it. This test reads the chapters' prose as
claims_checked.py does (paragraphs, list items, captions, check-yourself
questions and answers; not code, outputs or directive options), cuts it into
sentences, and lists every number with a unit (UNITS) outside roles, code and
math in a sentence that cites a run, except:

- a bound of a run's named expectation that a {check} of the same sentence
  cites (``run:check:<id>``: its "min" or "max" in the run's checks file,
  code/<key>/<run>.checks.json, or as a percentage, "within 3%" beside a min
  of 0.97), so that the prose and the check say the same bound;
- a bound that a {check} of the same sentence holds (a side of a comparison
  written in numbers alone, or a number that scales a figure there: the
  check's bound itself, or as a percentage, "within 5%" beside ``<= 0.05``);
  a number inside the arithmetic of a side is no bound (``x > 5.3 - 10``
  bounds by -4.7: it gives no permission to type 5.3);
- a size written as a power, 2{sup}`28` floats (the sizes the runs are named
  by, ``..._2e28``);
- a step's number ("step 7 launches");
- a figure in ALLOWED, with the reason it needs no record (a setting of the
  program, a figure of a cited source, arithmetic of the text's own).

An ALLOWED entry that matches no sentence any more is an error too. Exit
status 1 on any finding; with --counts, the counts per chapter are printed.
"""
from __future__ import annotations

import ast
import json
import os
import re
import sys

from ..chapters import chapters_folder, key_of
from ..records import checkeval
from .claims_checked import allowed_entry, arguments, finish, sentences  # the same prose, cut the same way

#: Units a typed figure carries (whole words; after the number, with a space, a
#: hyphen or nothing between).
UNITS = [
    "ms", "µs", "us", "ns", "s", "GB/s", "TB/s", "GiB", "MiB", "KiB", "KB", "MB", "GB", "%",
    "×", "times", "warps?", "threads?", "blocks?", "bytes?", "byte", "cycles?", "lanes?",
    "instructions?", "floats?", "SMs?", "waves?", "registers?", "banks?", "ways?", "elements?",
    "launch(?:es)?", "loads?", "stores?", "outputs?", "values?", "iterations?", "entries",
    "words?", "additions?", "passes", "rounds?", "shuffles?", "sectors?", "requests?",
    "errors?", "hazards?", "mismatches", "units?",
]
FIGURE = re.compile(r"(?<![\w.{}`^*-])(\d+(?:,\d{3})*(?:\.\d+)?)(?:\s*|-)(" + "|".join(UNITS)
                    + r")(?![\w/])")
CITES = re.compile(r"\{(?:value|gpu-values|check|answer)\}`")
CHECK = re.compile(r"\{check\}`([^`]*)`")
POWER = re.compile(r"\d+\{sup\}`[^`]*`")
#: Roles, code and math: a placeholder keeps a number from reading a role's unit as its own.
NOT_PROSE = re.compile(r"\{[\w-]+\}`[^`]*`|``[^`]*``|`[^`]*`|\$[^$]*\$")
STEP = re.compile(r"(?i)\bsteps?\s+$")

#: Figures typed beside recorded ones that need no record:
#: (chapter key, a piece of the sentence holding the figure, why).
ALLOWED = [
    ("ch01-execution-model", "| SMs | 132 |",
     "the table's column of published figures (whitepaper), beside the recorded column"),
    ("ch01-execution-model", 'some give "up to 164 KB" per SM',
     "figures of course material and of the A100 whitepaper, as cited"),
    ("ch01-execution-model", "after `cudaFuncAttributeNonPortableClusterSizeAllowed`",
     "the cluster size the program launches (its result cluster16_launch_ok says it ran)"),
    ("ch01-execution-model", "splitting by lane halves",
     "the warp's 32 lanes, the width every chapter's model uses"),
    ("ch01-execution-model", "units for 31 lanes",
     "the program's setting: lane 0 slow, the other 31 fast"),
    ("ch02-shared-memory", "Blocks of 256 threads that use none",
     "the probe's block size, a setting of the program"),
    ("ch02-shared-memory", "With 32 KiB each, only",
     "the shared memory per block the probe asks for (its result keys: smem32k)"),
    ("ch02-shared-memory", "with 25 %, the calculator answers that blocks of 24 KiB",
     "the carve-out and the block size the probe sets (its result keys: smem24k_carveout_25)"),
    ("ch02-shared-memory", "predicted at 32 KiB",
     "the shared memory per block the probe asks for (its result keys: smem32k)"),
    ("ch02-shared-memory", "because the warp's 32 words",
     "a warp's width, the question's stride 32"),
    ("ch02-shared-memory", "the 32 × 32 tile",
     "the tile's shape, a setting of the program"),
    ("ch02-shared-memory", "4-byte",
     "the size of a float"),
    ("ch02-shared-memory", "2*R* + 1 load instructions",
     "the plain kernel's loads by its code (R on each side and the centre)"),
    ("ch02-shared-memory", "At 16 KiB per block the calculator answers",
     "the block size and carve-outs the exercise asks about (result keys smem16k_carveout_50)"),
    ("ch03-reductions", "On 2{sup}`28` floats (1 GiB)",
     "the input's size in bytes, 2^28 floats of 4 bytes"),
    ("ch03-reductions", "that is 1,048,576 blocks, then",
     "the launch plan's arithmetic (2^28 / 256, then / 256 ...), as ch03::tree_passes makes it"),
    ("ch03-reductions", "4-byte loads, adds them",
     "the size of a float"),
    ("ch03-reductions", "read one tile of 16 KiB",
     "CUB's tile, as the profile's grid size gives it (test_chapter_claims: 64 MiB in tiles of 16 KiB)"),
    ("ch03-reductions", "read 64 MiB faster than",
     "the input's size, 2^24 floats of 4 bytes"),
    ("ch03-reductions", "none read 64 MiB more than",
     "the input's size, 2^24 floats of 4 bytes"),
    ("ch03-reductions", "and 1 GiB takes long enough",
     "the input's size, 2^28 floats of 4 bytes"),
    ("ch03-reductions", "can come out a little above 100%",
     "the ceiling itself, 100% of it by definition: the measured share is printed beside it"),
    ("ch03-reductions", "16-byte",
     "the size of a float4 load"),
    ("ch04-latency", "It reads 1 GiB with blocks of 128 threads",
     "the program's settings: its read size, block size and load widths (littles_law.cu)"),
    ("ch04-latency", "with seven 4-byte loads per output",
     "the size of a float, seven loads by chapter 2's plain kernel's code (radius 3)"),
    ("ch03-reductions", "the best row reached",
     "the input's size, 2^24 floats of 4 bytes (64 MiB)"),
]


def check_bounds(expr: str) -> set[float]:
    """The bounds a check holds: the value of each side of a comparison written
    in numbers alone (``5.3 - 10`` is the bound -4.7, not 5.3 nor 10), and a
    number that multiplies or divides a figure on a side of its own (``1.2 *
    x``). A number inside arithmetic on figures (``abs(x / y - 1)``) is none: a
    check's numbers give no permission to type a figure unless the check bounds
    by it."""
    try:
        tree, _ = checkeval.parse(expr)
    except checkeval.BookError:
        return set()

    def constant(node: ast.AST) -> bool:
        return not any(isinstance(n, (ast.Name, ast.Call)) for n in ast.walk(node))

    out = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        for side in (node.left, *node.comparators):
            if constant(side):
                out.add(float(checkeval.evaluate(side, {})))
            elif isinstance(side, ast.BinOp) and isinstance(side.op, (ast.Mult, ast.Div)):
                for operand in (side.left, side.right):
                    if constant(operand) and not constant(side):
                        out.add(float(checkeval.evaluate(operand, {})))
    return out


#: A check that names a run's expectation: <run> or <key>/<run>, then :check:<id>.
NAMED = re.compile(r"^\s*([A-Za-z0-9_][A-Za-z0-9_.-]*(?:/[A-Za-z0-9_][A-Za-z0-9_.-]*)?)"
                   r":check:([A-Za-z0-9_-]+)\s*$")


def expectation_bounds(expr: str, key: str | None, code: str | None) -> set[float]:
    """The "min" and "max" of the expectation a named check cites (``run:check:id``),
    read from its run's checks file, code/<key>/<run>.checks.json; none where the
    check is not of that form or the file or the expectation is not there (the
    build's check role reports those)."""
    m = NAMED.match(expr)
    if not m or not code:
        return set()
    run = m.group(1) if "/" in m.group(1) else f"{key}/{m.group(1)}"
    path = os.path.join(code, run + ".checks.json")
    try:
        with open(path, encoding="utf-8") as f:
            checks = json.load(f).get("checks", [])
    except (OSError, ValueError, AttributeError):
        return set()
    return {float(c[b]) for c in checks if isinstance(c, dict) and c.get("id") == m.group(2)
            for b in ("min", "max") if isinstance(c.get(b), (int, float))}


def typed(sentence: str, key: str | None = None, code: str | None = None) -> list:
    """The figures with units typed into a sentence that cites a run (of chapter
    <key>, whose programs' checks files lie under the folder <code>)."""
    if not CITES.search(sentence):
        return []
    bounds = set()
    for expr in CHECK.findall(sentence):
        bounds |= check_bounds(expr) | expectation_bounds(expr, key, code)
    bare = NOT_PROSE.sub(" \u00a7 ", POWER.sub(" \u00a7 ", sentence))
    found = []
    for m in FIGURE.finditer(bare):
        value = float(m.group(1).replace(",", ""))
        if STEP.search(bare[:m.start()]):
            continue
        if value in bounds or (m.group(2) == "%" and any(
                abs(b - value / 100) < 1e-12 or abs(b - (1 + value / 100)) < 1e-12
                or abs(b - (1 - value / 100)) < 1e-12 for b in bounds)):
            continue
        found.append(m.group(0))
    return found


def main(argv=None) -> int:
    args, paths = arguments(__doc__, argv)
    used, problems, rows = set(), [], []
    for path in paths:
        key = key_of(path) or os.path.splitext(os.path.basename(path))[0]
        code = os.path.join(os.path.dirname(chapters_folder(path)), "code")
        citing = allowed = flagged = 0
        for line, s in sentences(path):
            if CITES.search(s):
                citing += 1
            figures = typed(s, key, code)
            if not figures:
                continue
            if allowed_entry(ALLOWED, key, s, used):
                allowed += 1
                continue
            flagged += 1
            problems.append(f"{path}:{line}: a figure typed beside recorded ones "
                            f"({', '.join(figures)}): read it from its record ({{value}}) or the "
                            f"answer's values ({{answer}}), or give the reason it needs none in "
                            f"ALLOWED: {s[:160]}")
        rows.append((key, citing, allowed, flagged))
    return finish(problems, rows, ("citing", "allowed", "typed"), ALLOWED, used, paths, __file__,
                  args.counts)


if __name__ == "__main__":
    sys.exit(main())
