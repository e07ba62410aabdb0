#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Each chapter's exercises download holds what a student needs and nothing
the grader keeps back.

    check_downloads.py --repo <source root> --list <build>/downloads/downloads.json

For every chapter the list names, its archive must be a readable .tar.gz and:

  - hold every file of exercises/<key>/<ex>/ (the statement, the contract, the
    starter code), byte for byte (a statement with its MyST roles as plain
    Markdown: tools/grader/student_markdown.py), and every visible test of the chapter's
    exercises (tests/<key>/exercises/, but files or folders named hidden*);
  - hold no solution: no file whose bytes are those of a solved source
    (solutions/<key>/<ex>/<file> where it differs from the starter's), no
    SOLUTION.md, nothing under a solutions/ folder;
  - hold no hidden test (the bytes of any tests/<key>/exercises/**/hidden*).

Contents are compared by their bytes, wherever the archive puts them, so the
check holds for any layout of the bundle. Every chapter with an exercises/
folder must be in the list. Exit status 1, naming each problem, otherwise 0.
"""
import argparse
import hashlib
import json
import os
import sys
import tarfile

from grader.student_markdown import student_bytes
from site_report import finish


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def files_under(base: str):
    for dirpath, dirs, files in os.walk(base):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__")
        for f in sorted(files):
            yield os.path.join(dirpath, f)


def is_hidden(path: str, base: str) -> bool:
    return any(part.startswith("hidden") for part in os.path.relpath(path, base).split(os.sep))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repo", required=True)
    ap.add_argument("--list", required=True)
    a = ap.parse_args()
    with open(a.list, encoding="utf-8") as f:
        listed = json.load(f).get("chapters", {})
    problems = []
    exercises_root = os.path.join(a.repo, "exercises")
    chapters = []
    if os.path.isdir(exercises_root):
        chapters = sorted(d for d in os.listdir(exercises_root)
                          if os.path.isdir(os.path.join(exercises_root, d)))
    for chapter in chapters:
        if chapter not in listed:
            problems.append(f"{chapter}: has exercises, but no download is listed in {a.list}")
    for chapter, entry in sorted(listed.items()):
        archive = entry.get("archive", "")
        try:
            with tarfile.open(archive, "r:gz") as tar:
                members = {}
                for m in tar.getmembers():
                    if m.isfile():
                        members[m.name] = tar.extractfile(m).read()
        except (OSError, tarfile.TarError) as e:
            problems.append(f"{chapter}: {archive} is not a readable .tar.gz: {e}")
            continue
        held = {digest(data) for data in members.values()}
        for name in members:
            parts = name.split("/")
            if "solutions" in parts or parts[-1] == "SOLUTION.md":
                problems.append(f"{chapter}: {name} is a solution file")
            if any(p.startswith("hidden") for p in parts):
                problems.append(f"{chapter}: {name} is a hidden test")
        starters = os.path.join(exercises_root, chapter)
        for path in files_under(starters):
            with open(path, "rb") as f:
                # A statement as the student gets it: its MyST roles as plain Markdown.
                data = student_bytes(os.path.basename(path), f.read(), path)
                if digest(data) not in held:
                    problems.append(f"{chapter}: {os.path.relpath(path, a.repo)} "
                                    f"is not in {os.path.basename(archive)}")
        tests = os.path.join(a.repo, "tests", chapter, "exercises")
        for path in files_under(tests) if os.path.isdir(tests) else []:
            with open(path, "rb") as f:
                d = digest(f.read())
            rel = os.path.relpath(path, a.repo)
            if os.path.splitext(os.path.basename(path))[0] == "bridge":
                continue  # the grader's two-process plumbing (judge and worker), no test of the student's
            if is_hidden(path, tests):
                if d in held:
                    problems.append(f"{chapter}: the hidden test {rel} is in {os.path.basename(archive)}")
            elif d not in held:
                problems.append(f"{chapter}: the visible test {rel} is not in {os.path.basename(archive)}")
        solved = os.path.join(a.repo, "solutions", chapter)
        for path in files_under(solved) if os.path.isdir(solved) else []:
            rel = os.path.relpath(path, solved)
            with open(path, "rb") as f:
                data = f.read()
            starter = os.path.join(starters, rel)
            if os.path.isfile(starter):
                with open(starter, "rb") as f:
                    if f.read() == data:
                        continue  # the same file in both: not a solution
            if digest(data) in held:
                problems.append(f"{chapter}: the solution solutions/{chapter}/{rel} is in "
                                f"{os.path.basename(archive)}")
        print(f"check_downloads: {chapter}: {os.path.basename(archive)}, {len(members)} files")
    return finish("check_downloads", problems, "every download holds its starters and visible tests, and no solution")


if __name__ == "__main__":
    sys.exit(main())
