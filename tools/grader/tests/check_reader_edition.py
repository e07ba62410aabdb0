#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The test exercises.reader-edition: the reader's edition of the book holds no
hidden test (neither its source nor its test case names) and no solution, and
no page of it carries the instructor edition's banner or title.

    check_reader_edition.py --build BUILD --html HTML_DIR [--pdf PDF] [--bundles DIR]

Every output of the reader's edition is read: every file the HTML build
published, whatever its kind (pages, _sources, _downloads, _images, _code pages,
the search index), the PDF's text (pdftotext, where the PDF was built) and
every member of every exercise bundle (BUILD/downloads/*.tar.gz). Each is
searched, as text with HTML entities decoded, for each hidden test case's name,
each line of the hidden test files and of every file of the solutions (their
SOLUTION.md too) that no text every reader may read holds (the book's own
programs, code/, which the book shows; every file of every exercise folder; the
visible tests and the headers they share), down to 12 characters: a line every
reader can already read gives nothing away. A published file that is byte for byte a
solution or hidden-test file is found by its hash, however short it is.

Lines are only the first net: a solution retyped with other names, or spread
over lines of another shape, keeps its tokens. So each solution file (a
SOLUTION.md, its fenced code) is also read as C++ tokens with its comments
dropped and every identifier that is not a keyword read as one token (so
renaming changes nothing); each run of GRAM tokens with the structure of code is
a fingerprint. A fingerprint that the files every reader may read do not hold
(the exercise's declared student files, its visible tests and the headers they
share, the book's code/) is secret, and every output is searched for it, read
the same way. (Hidden tests are found by their lines and their test case names:
as tokens, names aside, one Catch2 test reads like another.) Only what
exercise.cmake declares is exempt: another file in an exercise folder (a header,
the README's hints) is an output like any other.
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
from dataclasses import dataclass, field
from pathlib import Path


def lines_of(path, minimum=12):
    out = []
    for line in Path(path).read_text().splitlines():
        line = line.strip()
        if len(line) >= minimum and not line.startswith(("//", "#include", "}", "namespace")):
            out.append(line)
    return out


#: Tokens in one fingerprint: about two lines of code, more than a declaration
#: shares with its definition or a loop header with another.
GRAM = 32
KEYWORDS = frozenset("""alignas alignof auto bool break case catch char const constexpr continue
default delete do double else enum explicit extern false float for friend goto if inline int long
mutable namespace new noexcept nullptr operator private protected public register return short
signed sizeof static static_assert static_cast struct switch template this throw true try typedef
typename union unsigned using virtual void volatile while __global__ __device__ __host__
__shared__ __syncthreads""".split())
_COMMENTS = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_]*|\d[\w.]*|\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'"
                    r"|<<=|>>=|->|\+\+|--|<<|>>|<=|>=|==|!=|&&|\|\||::|[-+*/%&|^!~<>=?:;,.(){}\[\]#]")


def tokens(text: str) -> list:
    """The tokens of text read as C++, comments dropped: an identifier that is
    not a keyword is "I", a string or character literal "S"; a number is itself."""
    out = []
    for t in _TOKEN.findall(_COMMENTS.sub(" ", text)):
        c = t[0]
        if c.isalpha() or c == "_":
            out.append(t if t in KEYWORDS else "I")
        elif c in "\"'":
            out.append("S")
        else:
            out.append(t)
    return out


#: A run of tokens is code, not prose read as tokens, when this many of them are
#: neither a name nor a number (punctuation, operators, keywords).
STRUCTURE = GRAM // 3


def grams(toks: list) -> dict:
    """{fingerprint: the index it starts at} of every run of GRAM tokens (of
    tokens()) that has the structure of code."""
    plain = [t not in ("I", "S") and not t[0].isdigit() for t in toks]
    out = {}
    for i in range(len(toks) - GRAM + 1):
        if sum(plain[i:i + GRAM]) >= STRUCTURE:
            out.setdefault(hash(tuple(toks[i:i + GRAM])), i)
    return out


def code_of(path: Path) -> str:
    """The code of a secret file: a source whole, a Markdown file's fenced blocks."""
    text = path.read_text(errors="replace")
    if path.suffix == ".md":
        return "\n".join(re.findall(r"^```[^\n]*\n(.*?)^```", text, re.S | re.M))
    return text


#: What marks a published page (not an archive's member: the source archive ships the
#: template) of the instructor edition (book/_templates/components/
#: book-edition-banner.html; tools/bookpy/ext/exercises.py, INSTRUCTOR_TITLE).
INSTRUCTOR_MARKS = ('class="book-edition-banner"', "instructor edition, not for students")


@dataclass
class Secrets:
    """What no reader may find: each secret file's sha256 (what it is), the hidden
    test names and the secret lines no reader may read elsewhere (what each is),
    and the token fingerprints of the solutions' code ((what, its tokens))."""
    hashes: dict = field(default_factory=dict)
    needles: dict = field(default_factory=dict)
    grams: dict = field(default_factory=dict)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--html", required=True)
    ap.add_argument("--pdf")
    ap.add_argument("--bundles")
    a = ap.parse_args()
    book = json.loads((Path(a.build) / "exercises.json").read_text())
    secrets = secrets_of(book, *readable(book))
    outputs, failure = published(a)
    if failure:
        print(f"exercises.reader-edition: FAILED: {failure}")
        return 1
    problems = []
    for where, data in outputs:
        problems += problems_in(where, data, secrets)
    for problem in problems[:40]:
        print(f"exercises.reader-edition: FAILED: {problem}")
    if not problems:
        print(f"exercises.reader-edition: ok: {len(outputs)} published files hold none of "
              f"{len(secrets.needles)} hidden-test and solution lines and none of their "
              f"{len(secrets.grams)} token fingerprints")
    return 1 if problems else 0


def readable(book):
    """(the text every reader may read, the token fingerprints of it).

    What every reader may read, as text: the book's code/, and every file of
    every exercise folder (statements, contracts, starters) with the visible
    tests and the headers they share. A needle inside any of it (`if (i < n) {`
    of one solution inside another exercise's starter, a solution's
    `return order;` inside the starter's longer line) gives nothing away.
    The token fingerprints every reader may read: those of code/, and of only
    what exercise.cmake declares (the student files as handed out), the
    visible tests and the headers the sets share (never named hidden*:
    BookExerciseSettings.cmake)."""
    shown = []
    allowed = set()
    if book["exercises"]:
        root = Path(book["exercises"][0]["dir"]).resolve().parents[2]
        for p in sorted((root / "code").rglob("*")):
            if p.is_file() and p.suffix in (".cu", ".cuh", ".cpp", ".hpp", ".h"):
                shown.append(p.read_text(errors="replace"))
                allowed.update(grams(tokens(shown[-1])))
    for e in book["exercises"]:
        for f in Path(e["dir"]).rglob("*"):
            if f.is_file():
                shown.append(f.read_text(errors="replace"))
        files = [Path(e["dir"]) / f for f in e.get("student_files", [])]
        for name, tset in e["sets"].items():
            if name != "hidden" and tset.get("test_file"):
                files.append(Path(tset["test_file"]))
                files += [h for h in Path(tset["test_file"]).parent.iterdir()
                          if h.suffix in (".hpp", ".cuh", ".h") and not h.name.startswith("hidden")]
        for f in files:
            if f.is_file():
                text = f.read_text(errors="replace")
                shown.append(text)
                allowed.update(grams(tokens(text)))
    return "\n".join(shown), allowed


def secrets_of(book, shown_text, allowed) -> Secrets:
    """The hidden tests' names and lines, and the solutions' files, lines and code."""
    out = Secrets()
    for e in book["exercises"]:
        for name in e["hidden_tests"]:
            out.needles[name] = f"{e['id']}: the hidden test case name \"{name}\""
        hidden = e["sets"].get("hidden")
        files = []
        if hidden:
            files.append((Path(hidden["test_file"]), f"{e['id']}: a line of "
                          f"{Path(hidden['test_file']).name}"))
        for f in sorted(Path(e["solution_dir"]).rglob("*")):
            if f.is_file():
                files.append((f, f"{e['id']}: a line of the solution {f.name}"))
        for f, what in files:
            out.hashes[hashlib.sha256(f.read_bytes()).hexdigest()] = what.replace(
                "a line of", "the whole file of")
            code = code_of(f) if "solution" in what else ""  # hidden tests: by line and name
            toks = tokens(code)
            for g, i in grams(toks).items():
                if g not in allowed:
                    out.grams.setdefault(g, (what.replace("a line of", "code of"),
                                             " ".join(toks[i:i + GRAM])))
            for line in lines_of(f):
                if line not in shown_text:
                    out.needles[line] = what
    return out


def published(a):
    """([(where, bytes)] of every published file: the HTML, the PDF's text, the
    bundles' members), or ([], why they cannot be read)."""
    html_dir = Path(a.html)
    outputs = [(str(p.relative_to(html_dir)), p.read_bytes())
               for p in sorted(html_dir.rglob("*")) if p.is_file()]
    if not outputs:
        return [], f"no published files in {html_dir}"
    if a.pdf and Path(a.pdf).is_file():
        if not shutil.which("pdftotext"):
            return [], "the PDF was built, but there is no pdftotext (Debian: poppler-utils) to read it"
        text = subprocess.run(["pdftotext", "-layout", a.pdf, "-"], stdout=subprocess.PIPE,
                              check=True).stdout
        outputs.append((f"{a.pdf} (its text)", text))
    bundles = Path(a.bundles) if a.bundles else Path(a.build) / "downloads"
    for b in sorted(bundles.glob("*.tar.gz")) if bundles.is_dir() else []:
        with tarfile.open(b) as t:
            for m in t.getmembers():
                if m.isfile():
                    outputs.append((f"{b.name}:{m.name}", t.extractfile(m).read()))
    return outputs, ""


def problems_in(where, data, secrets: Secrets) -> list[str]:
    """What the published file at where gives away."""
    problems = []
    what = secrets.hashes.get(hashlib.sha256(data).hexdigest())
    if what:
        problems.append(f"{where} is {what}")
    text = data.decode("utf-8", errors="replace")
    if ":" not in where and where.endswith(".html") and any(m in text for m in INSTRUCTOR_MARKS):
        problems.append(f"{where} is a page of the instructor edition (its banner or title)")
    if where.endswith((".html", ".htm", ".xhtml", ".svg", ".xml")):
        # Highlighted code is split by tags: drop them, then decode the
        # entities (in that order, or code's own `a < b ? c : d > e` would be
        # read as a tag). Other files are read as they are.
        text = html.unescape(re.sub(r"<[^>]+>", "", text))
    for needle, what in secrets.needles.items():
        if needle in text:
            problems.append(f"{where} holds {what}: {needle!r}")
    seen = set()
    for g in grams(tokens(text)):
        hit = secrets.grams.get(g)
        if hit and hit[0] not in seen:  # one report per secret file and output
            seen.add(hit[0])
            problems.append(f"{where} holds {hit[0]} (its tokens, names aside): {hit[1]!r}")
    return problems


if __name__ == "__main__":
    sys.exit(main())
