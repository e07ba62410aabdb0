#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""incremental-equals-clean through CMake: a copy of the book, built with
`cmake --build` and edited, publishes what a clean build of the same tree does.

    incremental_cmake.py --root REPO --fixture DIR --scratch DIR [--cmake-arg -DX=Y]...

book.incremental-equals-clean builds the HTML step alone; this test builds the
whole of CMake's graph (depfiles, globbed sources, the manifest, the records, the
programs, the listings' preprocessed lines) the way an author does, one edit at a
time. It

 1. copies the repository's sources into <scratch>/repo and drops in the fixture
    chapter of book.new-chapter (tests/book/fixtures/new-chapter: a program, its
    run, a listing, a diagram, an exercise, a question), with a link to one of its
    headings from another page ("How this book was built");
 2. configures the book for that chapter alone (BOOK_CHAPTERS) and builds it
    (`cmake --build --preset book`, target book);
 3. edits, building after each: the chapter's title, changed and reverted; the
    linked heading, changed (the link breaks: that build may fail) and reverted;
    the listed line of the program's source; the run's arguments in its CMake
    file (the manifest and the record change: configure runs again);
 4. moves that build aside, configures and builds the same tree clean at the same
    path, and compares the two published sites (build/book/html) file for file.

A difference names each file (page) and where it differs. Nothing is excused as
volatile: both builds run their CPU programs under one SOURCE_DATE_EPOCH, the
reproducible builds' convention, which bookrun takes as a CPU run's date. Every
step prints its time.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import time

import new_chapter  # the sibling script (its folder is this script's sys.path[0])
from bookpy.ext import publish
from new_chapter import Failed, chapter_key, copy_with_chapter, fixture_files, run


def say(msg: str) -> None:
    print(f"incremental-cmake: {msg}", flush=True)


new_chapter.say = say  # (its run() says each step's time)

LINK = "The fixture chapter's [first section](ch99-fixture.md#blocks-fill-whole-warps) is linked here.\n"


def edit(path: str, old: str, new: str) -> None:
    with open(path, encoding="utf-8") as f:
        text = f.read()
    if old not in text:
        raise Failed(f"{path}: no '{old}' to change")
    # A later mtime than the last build's outputs, as an author's edit has.
    time.sleep(1.1)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text.replace(old, new, 1))


def published(html: str) -> dict:
    out = {}
    for base, dirs, files in os.walk(html):
        dirs.sort()
        for name in sorted(files):
            path = os.path.join(base, name)
            with open(path, "rb") as f:
                out[os.path.relpath(path, html)] = f.read()
    return out


def edit_and_build(repo: str, key: str, html: str, build_step) -> dict:
    """Each edit of the chapter built in turn (build_step(name, may_fail)): its
    title and a heading another page links, each changed and reverted; its
    program's listed line and its run's arguments. What the last build
    published ({path: bytes})."""
    page = os.path.join(repo, "chapters", f"{key}.md")
    program = os.path.join(repo, "code", key, "warps.cpp")
    lists = os.path.join(repo, "code", key, "CMakeLists.txt")
    # A chapter's title, changed and built, then reverted.
    edit(page, "# 99. A fixture chapter", "# 99. A renamed chapter")
    build_step("title changed")
    with open(os.path.join(html, "index.html"), encoding="utf-8") as f:
        if "renamed chapter" not in f.read():
            raise Failed("the changed title is not in the front page's table of contents: "
                         "the edit was not built")
    edit(page, "# 99. A renamed chapter", "# 99. A fixture chapter")
    build_step("title reverted")
    # A heading another page links, changed (the link breaks), then reverted.
    edit(page, "## Blocks fill whole warps", "## Blocks fill warps")
    build_step("heading changed", may_fail=True)
    edit(page, "## Blocks fill warps", "## Blocks fill whole warps")
    build_step("heading reverted")
    # The listed line of the program, and the run's arguments (its record and the
    # manifest: CMake configures again).
    edit(program, "return (threads + 31) / 32;", "return (threads + 32 - 1) / 32;")
    edit(lists, "ARGS --threads 100", "ARGS --threads 70")
    build_step("listing and record edited")
    incremental = published(html)
    # (as the reader reads it: the listing is highlighted, a token a span)
    page_text = re.sub(r"<[^>]+>", "", incremental.get(f"{key}.html", b"").decode("utf-8", "replace"))
    if "(threads + 32 - 1) / 32" not in page_text or "a block of 70 threads" not in page_text:
        raise Failed(f"{key}.html shows neither the edited listing nor the new record's output: "
                     "the edits were not built")
    return incremental


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", required=True)
    ap.add_argument("--fixture", required=True)
    ap.add_argument("--scratch", required=True)
    ap.add_argument("--cmake", default="cmake")
    ap.add_argument("--cmake-arg", action="append", default=[])
    args = ap.parse_args()
    t0 = time.monotonic()
    root, fixture, scratch = (os.path.abspath(p) for p in (args.root, args.fixture, args.scratch))
    try:
        files = fixture_files(fixture)
        key = chapter_key(fixture, files)
        repo, _ = copy_with_chapter(root, scratch, fixture, files)
        built_page = os.path.join(repo, "chapters", "how-this-book-was-built.md")
        with open(built_page, "a", encoding="utf-8") as f:
            f.write("\n" + LINK)
        build = os.path.join(repo, "build", "book")
        html = os.path.join(build, "html")
        say(f"copied the book and dropped chapter {key} in: {time.monotonic() - t0:.0f} s")

        # One date for both builds' CPU runs (bookrun: a CPU run's date is SOURCE_DATE_EPOCH's
        # where it is set), as two builds of one tree made at different times must agree.
        os.environ["SOURCE_DATE_EPOCH"] = "1767225600"
        configure = [args.cmake, "--preset", "book", f"-DBOOK_CHAPTERS={key}", *args.cmake_arg]
        rebuild = [args.cmake, "--build", "--preset", "book", "--", "book"]
        logs = scratch

        def build_step(step: str, may_fail: bool = False) -> None:
            try:
                run(step, rebuild, repo, os.path.join(logs, step.split(":")[0].replace(" ", "-") + ".log"))
            except Failed:
                if not may_fail:
                    raise
                say(f"{step}: failed, as it may")

        run("configure", configure, repo, os.path.join(logs, "configure.log"))
        build_step("build")
        incremental = edit_and_build(repo, key, html, build_step)

        # The same tree, built clean at the same path.
        shutil.move(build, os.path.join(repo, "build", "incremental"))
        run("clean configure", configure, repo, os.path.join(logs, "clean-configure.log"))
        build_step("clean build")
        found = publish.differences(incremental, published(html))
        if found:
            raise Failed(f"the incremental build ({repo}/build/incremental/html) differs from the "
                         f"clean one ({html}) in {len(found)} files:\n" + "\n".join(found))
    except Failed as e:
        print(f"incremental-cmake: FAILED: {e}", file=sys.stderr, flush=True)
        return 1
    say(f"the incremental build publishes what the clean one does, file for file: "
        f"{time.monotonic() - t0:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
