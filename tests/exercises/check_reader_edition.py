#!/usr/bin/env python3
"""The test exercises.reader-edition: the reader's edition of the book holds no
hidden test (neither its source nor its test case names) and no solution.

    check_reader_edition.py --build BUILD --html HTML_DIR

Every file the HTML build published (pages, their sources, the search index) is
read as text (HTML entities decoded) and searched for each hidden test case's
name, each assertion line of the hidden test files, and each line of the
solutions that neither the starters nor the book's own programs (code/, which
the book shows) hold: a line every reader can already read gives nothing away.
"""
import argparse
import html
import json
import re
import sys
from pathlib import Path


def lines_of(path, minimum=25):
    out = []
    for line in Path(path).read_text().splitlines():
        line = line.strip()
        if len(line) >= minimum and not line.startswith(("//", "#include", "}", "namespace")):
            out.append(line)
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--html", required=True)
    a = ap.parse_args()
    book = json.loads((Path(a.build) / "exercises.json").read_text())
    needles = {}
    public = set()  # lines of the book's own programs, shown in the reader's edition
    if book["exercises"]:
        root = Path(book["exercises"][0]["dir"]).resolve().parents[2]
        for p in sorted((root / "code").rglob("*")):
            if p.is_file() and p.suffix in (".cu", ".cuh", ".cpp", ".hpp", ".h"):
                public.update(lines_of(p))
    for e in book["exercises"]:
        for name in e["hidden_tests"]:
            needles[name] = f"{e['id']}: the hidden test case name \"{name}\""
        hidden = e["sets"].get("hidden")
        if hidden:
            for line in lines_of(hidden["test_file"]):
                if re.search(r"\b(CHECK|REQUIRE)\w*\(", line):
                    needles[line] = f"{e['id']}: a line of {Path(hidden['test_file']).name}"
        for f in e["student_files"]:
            starter = set(lines_of(Path(e["dir"]) / f))
            for line in lines_of(Path(e["solution_dir"]) / f):
                if line not in starter and line not in public:
                    needles[line] = f"{e['id']}: a line of the solution {f}"
    html_dir = Path(a.html)
    files = [p for p in html_dir.rglob("*") if p.is_file() and p.suffix in (".html", ".txt", ".js", ".md")]
    if not files:
        print(f"exercises.reader-edition: FAILED: no published files in {html_dir}")
        return 1
    problems = []
    for p in files:
        text = html.unescape(p.read_text(errors="replace"))
        text = re.sub(r"<[^>]+>", "", text)  # highlighted code is split by tags
        for needle, what in needles.items():
            if needle in text:
                problems.append(f"{p.relative_to(html_dir)} holds {what}: {needle!r}")
    for problem in problems[:40]:
        print(f"exercises.reader-edition: FAILED: {problem}")
    if not problems:
        print(f"exercises.reader-edition: ok: {len(files)} published files hold none of "
              f"{len(needles)} hidden-test and solution lines")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
