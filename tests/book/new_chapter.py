#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A new chapter, added to a copy of the book, appears in it whole.

    new_chapter.py --root REPO --fixture DIR --scratch DIR [--cmake-arg -DX=Y]...

The fixture (tests/book/fixtures/new-chapter/) is a chapter laid out as the
repository's trees: chapters/<key>.md, code/<key>/, diagrams/<key>/,
exercises/<key>/, solutions/<key>/, tests/<key>/. This script

 1. checks that every file of the fixture lies in one of those places, so the
    chapter changes no shared file, and counts its wiring: the lines of its
    CMake files (comments and blank lines aside), at most 15;
 2. copies the repository's sources (what git lists: tracked files and new
    ones not ignored, or without git every file but build/, node_modules/ and
    .carry/; node_modules is linked)
    into <scratch>/repo and drops the fixture's folders in;
 3. configures the book there for that chapter alone (BOOK_CHAPTERS=<key>, the
    preset `book`), builds the book (target `book`: the chapter's programs, runs,
    diagram, check-yourself tags and HTML) and every target named for the
    chapter (its tests and exercises; not the rest of the suite), and runs the
    chapter's tests (ctest -R <key>);
 4. checks the chapter's page in the built HTML against what its text asks
    for, read from chapters/<key>.md: each {program-output} block shows its
    run's output (the record's stdout), each {value} the record's number, each
    {listing} the marked lines, each {diagram} its image (with its accTitle as
    alt text) and SVG file, each {exercise} its statement, folded hints and how
    to check, and no solution (the reader's edition), each {check-yourself}
    question its card, marked as tested, and cy-tags.json maps the question to
    the registered test that carries its tag, which passed.

Every step prints its time. It fails naming what is missing.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from html.parser import HTMLParser

TREES = ("code", "diagrams", "exercises", "solutions", "tests")
KEY = re.compile(r"^ch[0-9][0-9]-[a-z0-9]+(-[a-z0-9]+)*$")
MAX_WIRING = 15


class Failed(Exception):
    pass


def say(msg: str) -> None:
    print(f"new-chapter: {msg}", flush=True)


# ---- the fixture ------------------------------------------------------------------

def fixture_files(fixture: str) -> list:
    out = []
    for base, dirs, files in os.walk(fixture):
        dirs.sort()
        for f in sorted(files):
            out.append(os.path.relpath(os.path.join(base, f), fixture))
    return out


def chapter_key(fixture: str, files: list) -> str:
    # (its sections' pages, chapters/<key>/NN-<name>.md, where it has some, are its own too)
    pages = [f for f in files if f.startswith("chapters/") and f.count("/") == 1]
    if len(pages) != 1 or not pages[0].endswith(".md"):
        raise Failed(f"{fixture}: the fixture holds one chapter page chapters/<key>.md, not {pages}")
    key = os.path.basename(pages[0])[:-3]
    if not KEY.match(key):
        raise Failed(f"{fixture}/{pages[0]}: '{key}' is not a chapter key")
    return key


def check_own_places(fixture: str, files: list, key: str) -> None:
    """Every file is the chapter's own: chapters/<key>.md, chapters/<key>/... or <tree>/<key>/..."""
    shared = [f for f in files
              if f != f"chapters/{key}.md" and not any(f.startswith(f"{t}/{key}/") for t in TREES + ("chapters",))]
    if shared:
        raise Failed(f"{fixture}: files outside the chapter's own folders (a shared file edited?): "
                     + ", ".join(shared))


def wiring_lines(fixture: str, files: list) -> dict:
    """The lines of every CMake file of the chapter, without comments and blank lines."""
    counts = {}
    for f in files:
        if os.path.basename(f) == "CMakeLists.txt" or f.endswith(".cmake"):
            with open(os.path.join(fixture, f), encoding="utf-8") as fh:
                n = sum(1 for line in fh if line.strip() and not line.lstrip().startswith("#"))
            counts[f] = n
    return counts


# ---- the copy ----------------------------------------------------------------------

SKIPPED = ("build", "node_modules", ".carry", ".git")  # as .gitignore says, and .git


def source_files(root: str) -> list:
    """The repository's files: as git lists them (tracked, and new files not
    ignored), or in a copy without .git every file outside build/, node_modules/,
    .carry/ and __pycache__/."""
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z", "--cached", "--others",
                              "--exclude-standard"], check=True, capture_output=True).stdout
        names = set(n for n in out.decode("utf-8", "surrogateescape").split("\0") if n)
    except (OSError, subprocess.CalledProcessError):
        names = set()
        for base, dirs, files in os.walk(root):
            rel = os.path.relpath(base, root)
            dirs[:] = [d for d in dirs if d != "__pycache__"
                       and not (rel == "." and d in SKIPPED)]
            names |= {os.path.normpath(os.path.join(rel, f)) for f in files
                      if not f.endswith(".pyc")}
    return sorted(n for n in names if n.split("/")[0] not in SKIPPED)


def copy_sources(root: str, repo: str, names: list) -> int:
    n = 0
    for name in names:
        src, dst = os.path.join(root, name), os.path.join(repo, name)
        if os.path.islink(src):
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            os.symlink(os.readlink(src), dst)
        elif os.path.isfile(src):  # (a deleted, not yet committed file is listed too)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy2(src, dst)
        else:
            continue
        n += 1
    return n


def drop_in(fixture: str, files: list, repo: str) -> None:
    for f in files:
        dst = os.path.join(repo, f)
        if os.path.lexists(dst):
            raise Failed(f"{f}: the repository has this file already; the fixture chapter's key "
                         "must be one no chapter of the book uses")
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        shutil.copy2(os.path.join(fixture, f), dst)


def copy_with_chapter(root: str, scratch: str, fixture: str, files: list) -> tuple[str, int]:
    """<scratch>/repo (emptied first): the repository's sources, its node_modules
    linked, and the fixture chapter dropped in; with the number of files copied."""
    shutil.rmtree(scratch, ignore_errors=True)
    repo = os.path.join(scratch, "repo")
    os.makedirs(repo)
    copied = copy_sources(root, repo, source_files(root))
    modules = os.path.join(root, "node_modules")
    if not os.path.isdir(modules):
        raise Failed(f"{modules} is missing: run tools/book deps")
    # Linked, read only: Mermaid CLI renders the diagram from it. Nothing here
    # runs npm (npm ci through a link would empty the checkout's own folder).
    os.symlink(modules, os.path.join(repo, "node_modules"))
    drop_in(fixture, files, repo)
    return repo, copied


# ---- commands ----------------------------------------------------------------------

def run(step: str, cmd: list, cwd: str, log: str) -> str:
    t0 = time.monotonic()
    with open(log, "w", encoding="utf-8") as out:
        proc = subprocess.run(cmd, cwd=cwd, stdout=out, stderr=subprocess.STDOUT)
    with open(log, encoding="utf-8", errors="replace") as f:
        text = f.read()
    say(f"{step}: {time.monotonic() - t0:.0f} s")
    if proc.returncode != 0:
        tail = "\n".join(text.splitlines()[-60:])
        raise Failed(f"{step} failed (status {proc.returncode}): {' '.join(cmd)}\n"
                     f"(the whole log: {log}; its end:)\n{tail}")
    return text


def chapter_targets(build: str, key: str) -> list:
    """The build's targets named for the chapter (its programs, runs, tests and
    exercises: ch99-fixture.warps, record.ch99-fixture.warps-100,
    test.ch99-fixture.check-yourself, exercise.ch99-fixture.ex01-round-up.visible,
    ...): what the chapter's tests need, and not the rest of the suite."""
    known = subprocess.run(["ninja", "-C", build, "-t", "targets", "all"], capture_output=True,
                           text=True)
    if known.returncode != 0:
        raise Failed(f"ninja cannot list the targets of {build}: {known.stderr.strip()}")
    named = re.compile(rf"(^|[./]){re.escape(key)}([./]|$)")
    out = []
    for line in known.stdout.splitlines():
        name, _, rule = line.rpartition(": ")
        if (rule == "phony" and named.search(name) and not os.path.isabs(name)
                and not name.startswith("cmake_object_order_depends_target_")
                and not name.endswith(("/test", "/edit_cache", "/rebuild_cache", "/install"))):
            out.append(name)
    if not out:
        raise Failed(f"the build in {build} has no target named for {key}")
    return sorted(set(out))


# ---- the built page ------------------------------------------------------------------

class Node:
    def __init__(self, tag: str, attrs: dict, parent):
        self.tag, self.attrs, self.parent, self.children = tag, attrs, parent, []

    @property
    def classes(self) -> list:
        return (self.attrs.get("class") or "").split()

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)

    def walk(self):
        for c in self.children:
            if isinstance(c, Node):
                yield c
                yield from c.walk()

    def find(self, tag: str | None = None, cls: str | None = None, **attrs) -> list:
        return [n for n in self.walk()
                if (tag is None or n.tag == tag) and (cls is None or cls in n.classes)
                and all(n.attrs.get(k) == v for k, v in attrs.items())]


class Page(HTMLParser):
    VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
            "track", "wbr"}

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", {}, None)
        self.cur = self.root
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        node = Node(tag, {k: (v if v is not None else "") for k, v in attrs}, self.cur)
        self.cur.children.append(node)
        if tag not in self.VOID:
            self.cur = node

    def handle_startendtag(self, tag, attrs):
        self.cur.children.append(Node(tag, {k: (v or "") for k, v in attrs}, self.cur))

    def handle_endtag(self, tag):
        n = self.cur
        while n is not self.root and n.tag != tag:
            n = n.parent
        if n is not self.root:
            self.cur = n.parent

    def handle_data(self, data):
        self.cur.children.append(data)


def squash(text: str) -> str:
    """Text with its whitespace runs as one space and Sphinx's typographic quotes as
    the plain ones of the Markdown (smartquotes turns "run's" into "run\u2019s")."""
    text = text.translate({0x2018: "'", 0x2019: "'", 0x201C: '"', 0x201D: '"'})
    return " ".join(text.split())


def markdown_text(line: str) -> str:
    """A line of Markdown as the page shows it, roughly: no `code` or *emphasis* marks."""
    return squash(re.sub(r"[`*]", "", line))


def directives(md: str) -> dict:
    """What the chapter's text asks for: {directive} arguments and {value} roles."""
    found = {"program-output": [], "listing": [], "diagram": [], "exercise": [],
             "check-yourself": [], "value": []}
    for m in re.finditer(r"^```\{([a-z-]+)\}[ \t]*(\S*)[ \t]*\n(.*?)^```[ \t]*$", md, re.M | re.S):
        name, arg, body = m.group(1), m.group(2), m.group(3)
        if name in found:
            options = dict(re.findall(r"^:([a-z-]+):[ \t]*(.*)$", body, re.M))
            content = [ln for ln in body.splitlines() if ln.strip() and not ln.startswith(":")]
            found[name].append((arg, options, content))
    found["value"] = re.findall(r"\{value\}`([^`]+)`", md)
    for need in found:
        if not found[need]:
            raise Failed(f"the fixture chapter uses no {{{need}}}; it should show every kind of block")
    return found


def record_of(build: str, key: str, run_name: str) -> dict:
    path = os.path.join(build, "records", key, run_name + ".json")
    if not os.path.isfile(path):
        raise Failed(f"no record {path} of run {key}/{run_name}: the run was not made")
    with open(path, encoding="utf-8") as f:
        return json.load(f)


@dataclass
class Built:
    """The built chapter's page as check_page reads it, and what it lacks so far."""
    repo: str
    build: str
    key: str
    passed: set
    html_dir: str
    page: object          # the page's root element (Page)
    page_text: str
    asks: dict            # directives() of the chapter's text
    missing: list = field(default_factory=list)


def check_page(repo: str, build: str, key: str, passed: set) -> list:
    """What the built page lacks (an empty list when nothing)."""
    missing = []
    html_dir = os.path.join(build, "html")
    page_path = os.path.join(html_dir, f"{key}.html")
    if not os.path.isfile(page_path):
        return [f"the chapter's page {page_path} (the table of contents found no chapters/{key}.md?)"]
    with open(page_path, encoding="utf-8") as f:
        page = Page(f.read()).root
    with open(os.path.join(html_dir, "index.html"), encoding="utf-8") as f:
        if not Page(f.read()).root.find("a", href=f"{key}.html"):
            missing.append(f"a link to {key}.html in the table of contents (index.html)")
    with open(os.path.join(repo, "chapters", f"{key}.md"), encoding="utf-8") as f:
        asks = directives(f.read())
    b = Built(repo, build, key, passed, html_dir, page, squash(page.text()), asks, missing)
    for part in (_runs, _values, _listings, _diagrams, _exercises, _questions):
        part(b)
    return b.missing


def _runs(b: Built) -> None:
    """Each run's output: every line of the record's stdout, in one output block."""
    blocks = [squash(n.text()) for n in b.page.find(cls="book-run")]
    for run_name, _, _ in b.asks["program-output"]:
        rec = record_of(b.build, b.key, run_name)
        lines = [squash(ln) for ln in rec.get("stdout", "").splitlines() if ln.strip()]
        if not lines:
            b.missing.append(f"run {run_name}: its record has no output to show")
        elif not any(all(ln in b for ln in lines) for b in blocks):
            b.missing.append(f"the output block of run {run_name} (the record's stdout: {lines[0]!r}...)")


def _values(b: Built) -> None:
    """Each value: a number of the page's {value} spans equals the record's result."""
    shown = []
    for n in b.page.find("span", cls="book-value"):
        try:
            shown.append(float(n.text().replace(",", "").replace("\u2009", "").strip()))
        except ValueError:
            pass
    for ref in b.asks["value"]:
        spec, _, fmt = ref.partition("|")
        run_name, _, result = spec.partition(":")
        rec = record_of(b.build, b.key, run_name)
        value = (rec.get("results", {}).get(result) or {}).get("value")
        if value is None:
            b.missing.append(f"{{value}}`{ref}`: the record of {run_name} has no result {result}")
            continue
        want = float(format(value, fmt)) if fmt else float(value)
        if not any(abs(s - want) <= 1e-9 * max(1.0, abs(want)) for s in shown):
            b.missing.append(f"{{value}}`{ref}` ({want:g}, from the record) among the page's values {shown}")


def _listings(b: Built) -> None:
    """Each listing: the lines between its markers, in a code block."""
    code = [squash(n.text()) for n in b.page.find(cls="highlight")]
    for path, options, _ in b.asks["listing"]:
        with open(os.path.join(b.repo, path), encoding="utf-8") as f:
            src = f.read()
        for marker in [m.strip() for m in options.get("marker", "").split(",") if m.strip()]:
            name = re.escape(marker)
            m = re.search(rf"\[listing:{name}\][^\n]*\n(.*?)\n[^\n]*\[/listing:{name}\]", src, re.S)
            lines = [squash(ln) for ln in (m.group(1) if m else "").splitlines() if ln.strip()]
            if not lines or not any(all(ln in c for ln in lines) for c in code):
                b.missing.append(f"the listing of {path}, marker {marker}")


def _diagrams(b: Built) -> None:
    """Each diagram: its figure, its image (alt text from accTitle), the SVG files."""
    for name, _, caption in b.asks["diagram"]:
        with open(os.path.join(b.repo, "diagrams", b.key, name + ".mmd"), encoding="utf-8") as f:
            acc = re.search(r"^\s*accTitle:\s*(.+)$", f.read(), re.M)
        svg = os.path.join(b.build, "diagrams", b.key, name + ".svg")
        if not os.path.isfile(svg):
            b.missing.append(f"the diagram's SVG {svg}")
        figures = [fig for fig in b.page.find("figure", cls="book-diagram")
                   if any(img.attrs.get("src", "").endswith(f"/{name}.svg") for img in fig.find("img"))]
        if not figures:
            b.missing.append(f"the figure of diagram {name} (an <img> of _images/{name}.svg)")
            continue
        img = [i for i in figures[0].find("img") if i.attrs.get("src", "").endswith(f"/{name}.svg")][0]
        if acc and squash(acc.group(1)) not in squash(img.attrs.get("alt", "")):
            b.missing.append(f"diagram {name}: its accTitle {acc.group(1)!r} in the image's alt text")
        if caption and markdown_text(caption[0]) not in squash(figures[0].text()):
            b.missing.append(f"diagram {name}: its caption {caption[0]!r}")
        shipped = os.path.join(b.html_dir, img.attrs["src"])
        if not os.path.isfile(shipped):
            b.missing.append(f"diagram {name}: the image file {shipped}")
        else:
            with open(shipped, encoding="utf-8", errors="replace") as f:
                if "<svg" not in f.read():
                    b.missing.append(f"diagram {name}: {shipped} is not an SVG")


def _exercises(b: Built) -> None:
    """Each exercise: statement, folded hints, how to check; no solution (reader's edition)."""
    sections = b.page.find("section", cls="book-exercise")
    for name, _, _ in b.asks["exercise"]:
        folder = os.path.join(b.repo, "exercises", b.key, name)
        with open(os.path.join(folder, "README.md"), encoding="utf-8") as f:
            readme = f.read().splitlines()
        title = readme[0].lstrip("#").strip()
        body = readme[1:readme.index("## Hints")]
        statement = next(ln for ln in body if ln.strip())
        hints = readme[readme.index("## Hints") + 1:readme.index("## Check yourself")]
        hint = next(ln for ln in hints if ln.strip()).lstrip("- ").strip()
        mine = [s for s in sections if title in squash(s.text())]
        if not mine:
            b.missing.append(f"exercise {name}: a section titled {title!r}")
            continue
        sec, sec_text = mine[0], squash(mine[0].text())
        if markdown_text(statement) not in sec_text:
            b.missing.append(f"exercise {name}: its statement ({statement!r})")
        folds = sec.find("details", cls="book-hints")
        if not folds:
            b.missing.append(f"exercise {name}: its hints, folded (<details class=\"book-hints\">)")
        else:
            if "open" in folds[0].attrs:
                b.missing.append(f"exercise {name}: its hints are open; they should be folded")
            if markdown_text(hint) not in squash(folds[0].text()):
                b.missing.append(f"exercise {name}: the hint {hint!r} inside the fold")
        if "How to check your work" not in sec_text:
            b.missing.append(f"exercise {name}: how to check your work")
        if b.page.find(cls="book-solution"):
            b.missing.append(f"exercise {name}: NO solution in the reader's edition, but the page has one")
        solved = os.path.join(b.repo, "solutions", b.key, name)
        with open(os.path.join(solved, "SOLUTION.md"), encoding="utf-8") as f:
            notes = next(ln for ln in f.read().splitlines() if ln.strip())
        if squash(notes) in b.page_text:
            b.missing.append(f"exercise {name}: NO solution notes in the reader's edition, but the page "
                             f"shows {notes!r}")


def _questions(b: Built) -> None:
    """Each question: its card, marked as tested; cy-tags.json maps it to a test that passed."""
    with open(os.path.join(b.build, "cy-tags.json"), encoding="utf-8") as f:
        tags = json.load(f).get("tags", {})
    for qid, _, content in b.asks["check-yourself"]:
        cards = b.page.find("div", cls="book-check", id=f"cy-{qid}")
        if not cards:
            b.missing.append(f"question {qid}: its card (<div class=\"book-check\" id=\"cy-{qid}\">)")
        else:
            if markdown_text(content[0]) not in squash(cards[0].text()):
                b.missing.append(f"question {qid}: its question ({content[0]!r})")
            if not cards[0].find("details", cls="book-answer"):
                b.missing.append(f"question {qid}: its folded answer")
            if not cards[0].find(cls="book-check-tested"):
                b.missing.append(f"question {qid}: the note that a test checks its answer")
        entries = tags.get(qid) or []
        if not entries:
            b.missing.append(f"question {qid}: an entry in cy-tags.json (a registered test tagged [cy:{qid}])")
        for e in entries:
            if e.get("test") not in b.passed:
                b.missing.append(f"question {qid}: its test {e.get('test')} ({e.get('case')!r}) among the "
                                 f"tests that passed ({', '.join(sorted(b.passed))})")


# ---- main -----------------------------------------------------------------------------

def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--root", required=True, help="the repository (a git checkout)")
    ap.add_argument("--fixture", required=True, help="the new chapter, laid out as the repository")
    ap.add_argument("--scratch", required=True, help="emptied, then the copy is made in it")
    ap.add_argument("--cmake", default="cmake")
    ap.add_argument("--ctest", default="ctest")
    ap.add_argument("--cmake-arg", action="append", default=[], help="one more configure argument")
    args = ap.parse_args()
    t0 = time.monotonic()
    root, fixture, scratch = (os.path.abspath(p) for p in (args.root, args.fixture, args.scratch))
    try:
        files = fixture_files(fixture)
        key = chapter_key(fixture, files)
        check_own_places(fixture, files, key)
        wiring = wiring_lines(fixture, files)
        total = sum(wiring.values())
        say(f"chapter {key}: {len(files)} files, all in its own folders (no shared file changed); "
            f"wiring {total} lines: " + ", ".join(f"{f} {n}" for f, n in wiring.items()))
        if total > MAX_WIRING:
            raise Failed(f"the chapter's wiring takes {total} lines, more than {MAX_WIRING}")

        repo, copied = copy_with_chapter(root, scratch, fixture, files)
        say(f"copied {copied} files of {root} into {repo} and dropped chapter {key} in: "
            f"{time.monotonic() - t0:.0f} s")

        build = os.path.join(repo, "build", "book")
        logs = scratch
        run("configure (cmake --preset book -DBOOK_CHAPTERS=" + key + ")",
            [args.cmake, "--preset", "book", f"-DBOOK_CHAPTERS={key}", *args.cmake_arg],
            repo, os.path.join(logs, "configure.log"))
        targets = ["book"] + chapter_targets(build, key)
        run(f"build (target book and the {len(targets) - 1} targets named for {key})",
            [args.cmake, "--build", "--preset", "book", "--", *targets],
            repo, os.path.join(logs, "build.log"))
        out = run(f"the chapter's tests (ctest -R {key})",
                  [args.ctest, "--preset", "book", "-R", re.escape(key)], repo,
                  os.path.join(logs, "ctest.log"))
        passed = set(re.findall(r"Test +#\d+: (\S+) \.+ +Passed", out))
        skipped = set(re.findall(r"Test +#\d+: (\S+) \.+\**Skipped", out))
        say(f"{len(passed)} tests passed: {', '.join(sorted(passed))}")
        if skipped:
            raise Failed(f"tests of the CPU-only chapter {key} were skipped: {', '.join(sorted(skipped))}")
        with open(os.path.join(build, "exercises.json"), encoding="utf-8") as f:
            exercises = [e for e in json.load(f)["exercises"] if e.get("chapter") == key]
        want = {f"{key}.check-yourself"}
        for e in exercises:
            for s in e.get("sets", {}):
                want |= {f"exercises.{key}.{e['name']}.{s}", f"exercises.starter.{key}.{e['name']}.{s}"}
        if not exercises:
            raise Failed(f"{build}/exercises.json lists no exercise of {key}")
        if want - passed:
            raise Failed("these tests of the chapter did not run and pass: "
                         + ", ".join(sorted(want - passed)))

        missing = check_page(repo, build, key, passed)
        if missing:
            raise Failed(f"the built book ({build}/html/{key}.html) lacks:\n  - " + "\n  - ".join(missing))
    except Failed as e:
        print(f"new-chapter: FAILED: {e}", file=sys.stderr, flush=True)
        return 1
    say(f"chapter {key} is in the built book with its output, values, listing, diagram, exercise "
        f"and tested question; {time.monotonic() - t0:.0f} s in all")
    return 0


if __name__ == "__main__":
    sys.exit(main())
