"""Transitional: the question-to-test link for a build folder without a build
manifest (I2), for example a build configured before the manifest existed.

The real link is ``${BUILD}/cy-tags.json`` (I3): the build asks every
registered, built Catch2 program for its tags. Without a manifest there is no
such file, and this falls back to what the book did before: a search of
tests/**.cpp and tests/**.cu for ``[cy:ID]``. Delete this module once every
build writes the manifest.
"""
from __future__ import annotations

import os
import re

TEST_TAG = re.compile(r"\[cy:([a-z0-9][a-z0-9-]*)\]")


def search_tags(source_root: str) -> dict:
    """{id: [{"test": "<file>:<line>", "case": ""}]}, shaped like cy-tags.json's tags."""
    tags: dict = {}
    root = os.path.join(source_root, "tests")
    for dirpath, dirs, files in os.walk(root):
        dirs.sort()
        for fname in sorted(files):
            if not fname.endswith((".cpp", ".cu")):
                continue
            path = os.path.join(dirpath, fname)
            with open(path, encoding="utf-8", errors="replace") as f:
                for n, line in enumerate(f, 1):
                    for qid in TEST_TAG.findall(line):
                        tags.setdefault(qid, []).append(
                            {"test": f"{os.path.relpath(path, source_root)}:{n}", "case": ""})
    return tags
