#!/usr/bin/env python3
"""STAND-IN for the grader's student bundle, one chapter at a time.

    exercise-bundle-standin.py bundle --chapter <key> --out <file.tar.gz>

This script only holds the place of `tools/grade bundle --chapter <key> --out
<file>`, the grader's command (helper H5), until that command exists on this
branch; cmake/BookSite.cmake calls whichever BOOK_EXERCISE_BUNDLE_COMMAND names.
It writes what a student needs for the chapter's exercises and nothing else:

  <key>-exercises/exercises/<key>/<ex>/...     the starter code, README, contract
  <key>-exercises/tests/<key>/exercises/...    the visible tests only
  <key>-exercises/README.md                    what is inside and how it is graded

never solutions/ and never a hidden test (a file or folder named hidden*). The
archive is reproducible: sorted members, no owner, no timestamps (mtime 0), so
rebuilding it from unchanged sources gives the same bytes. The grader's real
bundle adds a standalone build (CMakeLists.txt and the book's libraries); this
stand-in does not, and says so in its README.
"""
import argparse
import gzip
import io
import os
import sys
import tarfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
SKIP_DIRS = {"__pycache__", ".git"}


def hidden(rel: str) -> bool:
    return any(part.startswith("hidden") for part in rel.split("/"))


def members(chapter: str) -> list:
    """[(path in the archive, path on disk)] for the chapter."""
    out = []
    for top in (f"exercises/{chapter}", f"tests/{chapter}/exercises"):
        base = os.path.join(ROOT, top)
        if not os.path.isdir(base):
            continue
        for dirpath, dirs, files in os.walk(base):
            dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
            for f in sorted(files):
                full = os.path.join(dirpath, f)
                rel = os.path.relpath(full, ROOT).replace(os.sep, "/")
                if hidden(os.path.relpath(full, base).replace(os.sep, "/")) or f.endswith(".pyc"):
                    continue
                out.append((rel, full))
    return out


README = """# The exercises of {chapter}

Made by tools/exercise-bundle-standin.py, a stand-in for the grader's student
bundle (`tools/grade bundle`): it holds the starter code and the visible tests
of this chapter's exercises, and no solution and no hidden test.

    exercises/{chapter}/<exercise>/        README.md (the statement), the starter code
    tests/{chapter}/exercises/             the tests you can run

Each exercise's README says what to do and how to check your work; the book's
chapter page shows the same text. Build and test inside a checkout of the book
(copy your `exercises/{chapter}` over the book's and run `tools/book test`), or
grade your folder with `tools/grade`.

Exercises: {names}
"""


def main() -> int:
    ap = argparse.ArgumentParser(description="STAND-IN: one chapter's exercises for students")
    ap.add_argument("command", choices=["bundle"])
    ap.add_argument("--chapter", required=True)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    chapter = a.chapter
    ex_dir = os.path.join(ROOT, "exercises", chapter)
    if "/" in chapter or chapter.startswith(".") or not os.path.isdir(ex_dir):
        print(f"exercise-bundle-standin: no exercises for chapter '{chapter}' (exercises/{chapter}/ "
              "does not exist)", file=sys.stderr)
        return 1
    names = sorted(d for d in os.listdir(ex_dir) if os.path.isdir(os.path.join(ex_dir, d)))
    top = f"{chapter}-exercises"
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w", format=tarfile.PAX_FORMAT) as tar:
        def add(name: str, data: bytes) -> None:
            info = tarfile.TarInfo(f"{top}/{name}")
            info.size, info.mtime, info.mode = len(data), 0, 0o644
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            tar.addfile(info, io.BytesIO(data))

        add("README.md", README.format(chapter=chapter, names=", ".join(names)).encode())
        for rel, full in members(chapter):
            with open(full, "rb") as f:
                add(rel, f.read())
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    tmp = a.out + ".tmp"
    with open(tmp, "wb") as raw:
        with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0) as gz:
            gz.write(buf.getvalue())
    os.replace(tmp, a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
