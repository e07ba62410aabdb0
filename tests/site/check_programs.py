#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A chapter's programs as the site offers them: the archive the chapter's page
links, unpacked into an empty folder and built and run by its README's
commands alone (the sh block of "Build and run"), as a reader would.

    check_programs.py --html <html folder> --chapter <key> --work <folder>

Fails when the page links no programs' archive, when the archive holds a file
outside its top folder or a member with a date, when its README has no sh block
of commands, or when a command of that block fails (ctest among them: every
run this machine can make passes). Exit status 0 when all is well.
"""
import argparse
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path
from urllib.parse import unquote


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--html", required=True)
    ap.add_argument("--chapter", required=True)
    ap.add_argument("--work", required=True)
    a = ap.parse_args()
    html, work = Path(a.html), Path(a.work)
    page = (html / f"{a.chapter}.html").read_text(encoding="utf-8")
    name = f"{a.chapter}-programs.tar.gz"
    m = re.search(r'href="([^"]*/' + re.escape(name) + ')"', page)
    if not m:
        print(f"check_programs: {a.chapter}.html links no {name}")
        return 1
    archive = html / unquote(m.group(1))
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    top = f"{a.chapter}-programs"
    problems = []
    with tarfile.open(archive) as t:
        for member in t.getmembers():
            if not member.name.startswith(top + "/") or ".." in member.name.split("/"):
                problems.append(f"{member.name}: outside {top}/")
            if member.mtime != 0:
                problems.append(f"{member.name}: has a date ({member.mtime})")
        t.extractall(work, filter="data") if hasattr(tarfile, "data_filter") else t.extractall(work)
    folder = work / top
    readme = (folder / "README.md").read_text(encoding="utf-8")
    block = re.search(r"## Build and run\n.*?```sh\n(.*?)```", readme, re.S)
    if not block:
        problems.append("README.md: no sh block of commands under 'Build and run'")
    for line in (block.group(1).splitlines() if block else []):
        if not line.strip():
            continue
        print(f"$ {line}", flush=True)
        p = subprocess.run(line, shell=True, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, errors="replace")
        print(p.stdout[-4000:])
        if p.returncode != 0:
            problems.append(f"README.md's command '{line}' failed (exit {p.returncode})")
            break
    for p in problems:
        print(f"check_programs: {p}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
