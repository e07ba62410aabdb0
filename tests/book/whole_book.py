#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The built book has every chapter of the source tree.

    whole_book.py --root REPO --build BUILD [--html]

Every chapter key the source tree has (chapters/<key>.md, or a folder
code/<key>/, tests/<key>/, diagrams/<key>/, exercises/<key>/, solutions/<key>/)
is listed in the build manifest (BUILD/book-manifest.json), and with --html each
chapter page has its HTML page, linked from the table of contents (index.html).

A build configured for a few chapters (BOOK_CHAPTERS) fails here, saying so:
the tests of the whole book need the whole book.
"""
from __future__ import annotations

import argparse
import os
import re
import sys

from bookpy.records.manifest import MANIFEST, read

KEY = re.compile(r"^ch[0-9][0-9]-[a-z0-9]+(-[a-z0-9]+)*$")
TREES = ("code", "tests", "diagrams", "exercises", "solutions")


def found_keys(root: str) -> set:
    keys = set()
    chapters = os.path.join(root, "chapters")
    for name in os.listdir(chapters):
        if name.endswith(".md") and KEY.match(name[:-3]):
            keys.add(name[:-3])
    for tree in TREES:
        folder = os.path.join(root, tree)
        if os.path.isdir(folder):
            keys |= {n for n in os.listdir(folder)
                     if KEY.match(n) and os.path.isdir(os.path.join(folder, n))}
    return keys


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", required=True)
    ap.add_argument("--build", required=True)
    ap.add_argument("--html", action="store_true", help="check the HTML pages too")
    args = ap.parse_args()
    manifest = os.path.join(args.build, MANIFEST)
    listed = list(read(manifest).chapters)
    want = found_keys(args.root)
    problems = []
    if set(listed) != want:
        missing = sorted(want - set(listed))
        extra = sorted(set(listed) - want)
        if missing:
            problems.append(f"{manifest} lacks the chapters {', '.join(missing)}: this build was "
                            f"configured for {', '.join(listed) or 'none'} only (BOOK_CHAPTERS?). "
                            "The whole suite tests the whole book: configure with -DBOOK_CHAPTERS= "
                            "(tools/book test does), or run one chapter's tests with "
                            "ctest --preset book -R <key>")
        if extra:
            problems.append(f"{manifest} lists chapters the source tree lacks: {', '.join(extra)}")
    if args.html and not problems:
        html = os.path.join(args.build, "html")
        with open(os.path.join(html, "index.html"), encoding="utf-8") as f:
            index = f.read()
        for key in sorted(want):
            if not os.path.isfile(os.path.join(args.root, "chapters", key + ".md")):
                continue
            if not os.path.isfile(os.path.join(html, key + ".html")):
                problems.append(f"chapters/{key}.md has no page {html}/{key}.html")
            elif f'href="{key}.html"' not in index:
                problems.append(f"{html}/index.html does not link {key}.html")
    for p in problems:
        print(f"whole-book: {p}", file=sys.stderr)
    if problems:
        return 1
    print(f"whole-book: the build has all {len(want)} chapters: {', '.join(sorted(want))}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
