#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The test exercises.reader-edition: the reader's edition of the book holds no
hidden test (neither its source nor its test case names) and no solution.

    check_reader_edition.py --build BUILD --html HTML_DIR [--pdf PDF] [--bundles DIR]

Every output of the reader's edition is read: every file the HTML build
published, whatever its kind (pages, _sources, _downloads, _images, _code pages,
the search index), the PDF's text (pdftotext, where the PDF was built) and
every member of every exercise bundle (BUILD/downloads/*.tar.gz). Each is
searched, as text with HTML entities decoded, for each hidden test case's name,
each line of the hidden test files and of every file of the solutions (their
SOLUTION.md too) that neither the starters nor the book's own programs (code/,
which the book shows) hold, down to 12 characters: a line every reader can
already read gives nothing away. A published file that is byte for byte a
solution or hidden-test file is found by its hash, however short it is.
"""
import hashlib
import shutil
import subprocess
import tarfile
import argparse
import html
import json
import re
import sys
from pathlib import Path


def lines_of(path, minimum=12):
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
    ap.add_argument("--pdf")
    ap.add_argument("--bundles")
    a = ap.parse_args()
    secret_hashes = {}
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
        # What every reader may read of the exercise: its folder (statement,
        # contract, starters) and its visible tests. A needle inside any of it
        # (a solution's `return order;` inside the starter's longer line) gives
        # nothing away.
        starters = set()
        shown = []
        for f in Path(e["dir"]).rglob("*"):
            if f.is_file():
                starters.update(lines_of(f))
                shown.append(f.read_text(errors="replace"))
        for name, tset in e["sets"].items():
            if name != "hidden" and tset.get("test_file"):
                shown.append(Path(tset["test_file"]).read_text(errors="replace"))
        shown_text = "\n".join(shown)
        secrets = []
        if hidden:
            secrets.append((Path(hidden["test_file"]), f"{e['id']}: a line of "
                            f"{Path(hidden['test_file']).name}"))
        for f in sorted(Path(e["solution_dir"]).rglob("*")):
            if f.is_file():
                secrets.append((f, f"{e['id']}: a line of the solution {f.name}"))
        for f, what in secrets:
            secret_hashes[hashlib.sha256(f.read_bytes()).hexdigest()] = what.replace(
                "a line of", "the whole file of")
            for line in lines_of(f):
                if line not in starters and line not in public and line not in shown_text:
                    needles[line] = what
    html_dir = Path(a.html)
    outputs = [(str(p.relative_to(html_dir)), p.read_bytes())
               for p in sorted(html_dir.rglob("*")) if p.is_file()]
    if not outputs:
        print(f"exercises.reader-edition: FAILED: no published files in {html_dir}")
        return 1
    if a.pdf and Path(a.pdf).is_file():
        if not shutil.which("pdftotext"):
            print("exercises.reader-edition: FAILED: the PDF was built, but there is no pdftotext "
                  "(Debian: poppler-utils) to read it")
            return 1
        text = subprocess.run(["pdftotext", "-layout", a.pdf, "-"], stdout=subprocess.PIPE,
                              check=True).stdout
        outputs.append((f"{a.pdf} (its text)", text))
    bundles = Path(a.bundles) if a.bundles else Path(a.build) / "downloads"
    for b in sorted(bundles.glob("*.tar.gz")) if bundles.is_dir() else []:
        with tarfile.open(b) as t:
            for m in t.getmembers():
                if m.isfile():
                    outputs.append((f"{b.name}:{m.name}", t.extractfile(m).read()))
    problems = []
    for where, data in outputs:
        what = secret_hashes.get(hashlib.sha256(data).hexdigest())
        if what:
            problems.append(f"{where} is {what}")
        text = html.unescape(data.decode("utf-8", errors="replace"))
        text = re.sub(r"<[^>]+>", "", text)  # highlighted code is split by tags
        for needle, what in needles.items():
            if needle in text:
                problems.append(f"{where} holds {what}: {needle!r}")
    files = outputs
    for problem in problems[:40]:
        print(f"exercises.reader-edition: FAILED: {problem}")
    if not problems:
        print(f"exercises.reader-edition: ok: {len(files)} published files hold none of "
              f"{len(needles)} hidden-test and solution lines")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
