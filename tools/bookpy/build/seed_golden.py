# SPDX-License-Identifier: MIT
"""Make the golden outputs the C++ port of divergence.py is tested against.

The chapter's seed text holds a Python program, divergence.py, between the
line "divergence.pyPython" and the line "Text", followed by its printed output.
This tool extracts that program, applies each variation's textual edits (the
Python equivalent of the port's command-line options), runs the edited program
with the Python running this tool, and writes its standard output to
tests/ch01-execution-model/golden/<variation>.txt.

The variations are listed once, in tests/ch01-execution-model/golden/variations.json:
    [{"name": ..., "args": [port options...], "edits": [[old, new], ...]}, ...]
The C++ test (test_divergence_port.cpp) reads the same file and runs the port
with "args", comparing its output with the golden file byte for byte.

Every edit's old text must occur exactly once in the program (as edited so
far); otherwise the tool stops with an error, so a changed seed cannot silently
produce goldens that test nothing. The tool also checks that the unedited
program's output equals the output printed in the seed text.

Usage:
    python3 -m bookpy.build.seed_golden [SEED_TEXT] [--golden-dir DIR] [--check]

Standard library only.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

from .. import ROOT

REPO_ROOT = Path(ROOT)
DEFAULT_SEED = REPO_ROOT / ".." / "shared" / "seeds" / "001_fd8d17e88932457e.txt"
DEFAULT_GOLDEN_DIR = REPO_ROOT / "tests" / "ch01-execution-model" / "golden"

PROGRAM_START = "divergence.pyPython"  # the line just before the program
PROGRAM_END = "Text"                   # the line just after it
OUTPUT_PROMPT = "$ python3 divergence.py"  # the output block starts after this line


class GoldenError(Exception):
    """A problem that must stop the tool: bad seed text, a missing edit target."""


def lines_between(lines: list[str], start: str, end_test, what: str) -> list[str]:
    """The lines after the first line equal to `start`, up to (not including)
    the first later line for which `end_test(line)` is true."""
    try:
        first = lines.index(start) + 1
    except ValueError:
        raise GoldenError(f"seed text has no line {start!r} (the start of {what})") from None
    for i in range(first, len(lines)):
        if end_test(lines[i]):
            return lines[first:i]
    raise GoldenError(f"seed text: {what} after {start!r} has no end")


def extract(seed_text: str) -> tuple[str, str]:
    """The seed's program source and the output block it prints (both with a
    final newline)."""
    lines = seed_text.splitlines()
    program = lines_between(lines, PROGRAM_START, lambda s: s == PROGRAM_END, "divergence.py")
    output = lines_between(lines, OUTPUT_PROMPT, lambda s: s.strip() == "", "the printed output")
    if not program or not output:
        raise GoldenError("seed text: the program or its output block is empty")
    return "\n".join(program) + "\n", "\n".join(output) + "\n"


def apply_edits(source: str, edits: list[list[str]], name: str) -> str:
    """Apply each [old, new] replacement in turn; each old text must occur
    exactly once in the source as edited so far."""
    for number, edit in enumerate(edits, start=1):
        if not (isinstance(edit, list) and len(edit) == 2 and all(isinstance(s, str) for s in edit)):
            raise GoldenError(f"variation {name!r}, edit {number}: expected [old, new], got {edit!r}")
        old, new = edit
        count = source.count(old)
        if count != 1:
            where = "not found" if count == 0 else f"found {count} times"
            raise GoldenError(f"variation {name!r}, edit {number}: target text {where}: {old!r}")
        source = source.replace(old, new)
    return source


def run_python(source: str, name: str) -> bytes:
    """Run a program text as divergence.py and return its standard output."""
    with tempfile.TemporaryDirectory(prefix=f"seed-golden-{name}-") as tmp:
        script = Path(tmp) / "divergence.py"
        script.write_text(source, encoding="utf-8")
        result = subprocess.run([sys.executable, script.name], cwd=tmp,
                                capture_output=True, check=False)
    if result.returncode != 0:
        raise GoldenError(f"variation {name!r}: python exited with {result.returncode}:\n"
                          + result.stderr.decode("utf-8", "replace"))
    return result.stdout


def load_variations(path: Path) -> list[dict]:
    """The variations table, checked for shape and unique names."""
    variations = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(variations, list):
        raise GoldenError(f"{path}: expected a JSON array of variations")
    names = set()
    for v in variations:
        name = v.get("name") if isinstance(v, dict) else None
        if not isinstance(name, str) or not name.replace("-", "").replace("_", "").isalnum():
            raise GoldenError(f"{path}: bad variation name in {v!r}")
        if name in names:
            raise GoldenError(f"{path}: variation {name!r} listed twice")
        names.add(name)
        if not isinstance(v.get("args"), list) or not isinstance(v.get("edits"), list):
            raise GoldenError(f"{path}: variation {name!r} needs lists 'args' and 'edits'")
    if "default" not in names:
        raise GoldenError(f"{path}: no 'default' variation")
    return variations


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("seed", nargs="?", type=Path, default=DEFAULT_SEED,
                        help="the seed text (default: %(default)s)")
    parser.add_argument("--golden-dir", type=Path, default=DEFAULT_GOLDEN_DIR,
                        help="folder of variations.json and the golden outputs (default: %(default)s)")
    parser.add_argument("--check", action="store_true",
                        help="write nothing; fail if a golden file differs from a fresh run")
    args = parser.parse_args()

    try:
        program, printed = extract(args.seed.read_text(encoding="utf-8"))
        variations = load_variations(args.golden_dir / "variations.json")
        stale = []
        for v in variations:
            name = v["name"]
            output = run_python(apply_edits(program, v["edits"], name), name)
            if name == "default" and output != printed.encode("utf-8"):
                raise GoldenError("the unedited program's output differs from the output "
                                  "printed in the seed text:\n--- printed\n" + printed
                                  + "--- produced\n" + output.decode("utf-8", "replace"))
            golden = args.golden_dir / f"{name}.txt"
            if args.check:
                if not golden.is_file() or golden.read_bytes() != output:
                    stale.append(name)
                    print(f"stale: {golden}", file=sys.stderr)
            else:
                golden.write_bytes(output)
                print(f"wrote {golden} ({' '.join(v['args']) or 'no options'})")
        if stale:
            raise GoldenError(f"{len(stale)} golden file(s) out of date: {', '.join(stale)}")
    except (GoldenError, OSError, json.JSONDecodeError) as e:
        print(f"seed-golden: error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
