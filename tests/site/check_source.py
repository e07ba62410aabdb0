#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The source archive as the site offers it (a build without a public address):
the archive the front page links, unpacked into an empty folder, holds the
book's tree less what only an instructor may read, and it configures.

    check_source.py --html <html folder> --work <folder> --cmake <cmake>

Fails when the front page links no source archive, when the archive holds a
member outside its top folder, solutions/, a hidden test set
(tests/<key>/exercises/<ex>/hidden.test.*) or the grader's own tests
(tools/grader/tests, whose cases quote both), when it lacks a part of the book
(chapters/, code/, exercises/, CMakeLists.txt), or when configuring it (the
programs alone, BOOK_DOCS=OFF) fails or does not say that it is the reader's
source. exercises.reader-edition reads the same archive for solution lines.
Exit status 0 when all is well.
"""
import argparse
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path
from urllib.parse import unquote

#: What only an instructor may read (cmake/BookPackSource.cmake leaves it out).
SECRET = re.compile(r"^(solutions(/|$)|tests/[^/]+/exercises/[^/]+/hidden\.test\.[^/]+$|tools/grader/tests(/|$))")
#: What the reader's source must hold.
NEEDED = ("CMakeLists.txt", "chapters", "code", "exercises", "tests", "tools/book")


def problems_of(archive: Path, work: Path) -> tuple[list, Path | None]:
    problems = []
    top = None
    with tarfile.open(archive) as t:
        members = t.getmembers()
        if members:
            top = members[0].name.split("/")[0]
        for m in members:
            parts = m.name.split("/")
            if parts[0] != top or ".." in parts:
                problems.append(f"{m.name}: outside {top}/")
                continue
            rel = "/".join(parts[1:])
            if rel and SECRET.match(rel):
                problems.append(f"{m.name}: only an instructor may read it")
        t.extractall(work, filter="data") if hasattr(tarfile, "data_filter") else t.extractall(work)
    folder = work / top if top else None
    for need in NEEDED:
        if folder is None or not (folder / need).exists():
            problems.append(f"{archive.name}: holds no {need}")
    return problems, folder


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--html", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--cmake", default="cmake")
    a = ap.parse_args()
    html, work = Path(a.html), Path(a.work)
    page = (html / "index.html").read_text(encoding="utf-8")
    m = re.search(r'href="([^"]*how-gpus-run-code-[0-9a-f]+\.tar\.gz)"', page)
    if not m:
        print("check_source: index.html links no source archive (how-gpus-run-code-<commit>.tar.gz)")
        return 1
    archive = html / unquote(m.group(1))
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    problems, folder = problems_of(archive, work)
    if folder is not None and not problems:
        build = work / "build"
        cmd = [a.cmake, "-S", str(folder), "-B", str(build), "-G", "Ninja", "-DBOOK_DOCS=OFF"]
        print("$ " + " ".join(cmd), flush=True)
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace")
        print(p.stdout[-4000:])
        if p.returncode != 0:
            problems.append(f"configuring the unpacked archive exited {p.returncode}")
        elif "from the reader's source (no solutions/)" not in p.stdout:
            problems.append("configuring the unpacked archive does not say it is the reader's source")
    for problem in problems[:40]:
        print(f"check_source: {archive.name}: {problem}")
    if not problems:
        print(f"check_source: ok: {archive.name} holds no solution, hidden test or grader test, "
              "and configures as the reader's source")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
