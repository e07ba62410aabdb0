# SPDX-License-Identifier: MIT
"""Listings: code shown from the compiled files, by named markers.

    ```{listing} code/<key>/<file>
    :marker: a, b          (one region, or several joined by an elision line)
    :caption: what it shows
    ```

A region is ``// [listing:NAME]`` ... ``// [/listing:NAME]`` (``#`` in CMake,
Python and shell files). A file's markers are checked whole: a region that is
never closed, closed without being opened, opened again before its close,
crossing another region, or appearing twice is an error naming the file and
line. A chapter's listing shows only a file a compiler saw: a source of a
declared program or library, or an input of a declared run (a header it
includes), or a file of an exercise that a translation unit included; any other
file is an error. Nor does it show a line the preprocessor dropped in every
translation unit (an ``#if 0`` region): the build's kept-lines.json
(bookpy.build.kept_lines) names those. The caption names what the listing shows: the caption given, then the
file and the lines shown, linked to the file at those lines (site.py). The file must lie inside the repository's source
tree, and is a dependency of the page.
"""
from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

from docutils import nodes
from docutils.parsers.rst import directives

from . import hidden
from .common import BookDirective, BookError, load_json, source_path, visible_text
from .manifest import manifest
from .sourcelinks import LANGUAGES, source_ref_node

if TYPE_CHECKING:
    from sphinx.environment import BuildEnvironment

ELISION = {"cpp": "// ...", "cuda": "// ...", "python": "# ...", "cmake": "# ...", "bash": "# ..."}
MARKER = re.compile(r"^\s*(?://|#)\s*\[(/?)listing:([A-Za-z0-9_.-]+)\]\s*$")
#: A comment that starts like a marker but is not one (a typo would hide a region).
MARKER_LIKE = re.compile(r"^\s*(?://|#)\s*\[\s*/?\s*listing\s*:")


def parse_markers(lines: list, where: str) -> dict:
    """{name: (first line index inside, end index)} of every region of a file,
    0-based, the end exclusive; BookError for any marker out of order."""
    regions, stack, seen = {}, [], {}
    for i, line in enumerate(lines):
        m = MARKER.match(line)
        if not m:
            if MARKER_LIKE.search(line):
                raise BookError(f"{where}:{i + 1}: not a well-formed listing marker: write "
                                "'// [listing:NAME]' or '// [/listing:NAME]' alone on its line "
                                "(NAME of letters, digits, '.', '_' and '-')")
            continue
        closing, name = m.group(1) == "/", m.group(2)
        if not closing:
            if any(n == name for n, _ in stack):
                raise BookError(f"{where}:{i + 1}: listing '{name}' is opened again before its close "
                                f"(opened at line {seen[name] + 1})")
            if name in regions:
                a, b = regions[name]
                raise BookError(f"{where}:{i + 1}: listing '{name}' appears twice (first at lines "
                                f"{a}-{b + 1})")
            stack.append((name, i))
            seen[name] = i
            continue
        if not stack or all(n != name for n, _ in stack):
            raise BookError(f"{where}:{i + 1}: '[/listing:{name}]' closes no open listing")
        top, opened = stack[-1]
        if top != name:
            raise BookError(f"{where}:{i + 1}: listing '{name}' is closed while '{top}', opened inside "
                            f"it at line {opened + 1}, is still open: regions must nest")
        stack.pop()
        regions[name] = (opened + 1, i)
    if stack:
        name, opened = stack[-1]
        raise BookError(f"{where}: listing '{name}' opened at line {opened + 1} is never closed "
                        f"('[/listing:{name}]')")
    return regions


def extract(lines: list, names: list, where: str, language: str) -> tuple[str, list]:
    """The regions `names` in order, marker lines left out, dedented together,
    joined by an elision line; and the line ranges shown (1-based)."""
    regions = parse_markers(lines, where)
    parts, ranges = [], []
    for name in names:
        if name not in regions:
            raise BookError(f"{where} has no listing marker '[listing:{name}]'")
        start, end = regions[name]
        body = [(n + 1, lines[n]) for n in range(start, end) if not MARKER.match(lines[n])]
        if not any(text.strip() for _, text in body):
            raise BookError(f"{where}: listing '{name}' (line {start}) is empty")
        parts.append(body)
        ranges.append((body[0][0], body[-1][0]))
    indent = min((len(t) - len(t.lstrip()) for body in parts for _, t in body if t.strip()), default=0)
    out = []
    for k, body in enumerate(parts):
        if k:
            first = next(t for _, t in body if t.strip())
            pad = " " * (len(first) - len(first.lstrip()) - indent)
            out.append(pad + ELISION.get(language, "..."))
        out.extend(t[indent:] for _, t in body)
    return "\n".join(out), ranges


def describe_lines(ranges: list) -> str:
    spans = [f"{a}" if a == b else f"{a}\u2013{b}" for a, b in ranges]
    word = "line" if len(ranges) == 1 and ranges[0][0] == ranges[0][1] else "lines"
    return f"{word} {', '.join(spans)}"


def marker_list(argument: str) -> list:
    names = [n.strip() for n in argument.split(",")]
    if not all(names):
        raise ValueError("give one or more marker names, separated by commas")
    if len(set(names)) != len(names):
        raise ValueError("a marker is named twice")
    return names


def build_listing(env: BuildEnvironment, rel: str, names: list | None = None, caption: list | None = None,
                  language: str | None = None, linenos: bool = False) -> nodes.container:
    """The listing of `rel` (a path from the repository root): the regions
    `names` (None: the whole file), with a caption (inline nodes, or none) and
    the file and lines shown. The file becomes a dependency of the page."""
    config = env.config
    try:
        path = source_path(config.book_source_root, rel, config.book_build_dir)
    except BookError as e:
        raise BookError(f"listing: {e}") from None
    if not os.path.exists(path):
        raise BookError(f"listing file {rel} does not exist")
    if not os.path.isfile(path):
        raise BookError(f"listing {rel} is not a file")
    env.note_dependency(path)
    language = language or LANGUAGES.get(os.path.splitext(rel)[1], "text")
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except UnicodeDecodeError as e:
        raise BookError(f"listing file {rel} is not UTF-8 (byte {e.start})") from None
    trojan = hidden.problem(lambda line: f"listing file {rel}:{line}", "\n".join(lines))
    if trojan:
        raise BookError(trojan)
    in_repo = os.path.relpath(path, os.path.realpath(config.book_source_root)).replace(os.sep, "/")
    if names:
        text, ranges = extract(lines, names, rel, language)
        shown = [n for first, last in ranges for n in range(first, last + 1)]
    else:
        parse_markers(lines, rel)  # a file shown whole still has well-formed markers
        text, ranges = "\n".join(lines).rstrip("\n"), []
        shown = list(range(1, len(lines) + 1))
    check_kept(env, in_repo, lines, shown)
    text = visible_text(text)
    block = nodes.literal_block(text, text)
    block["language"] = language
    if linenos:
        if len(ranges) > 1:
            raise BookError(":linenos: numbers one region; this listing joins several")
        block["linenos"] = True
        block["highlight_args"] = {"linenostart": ranges[0][0] if ranges else 1}
    container = nodes.container(classes=["literal-block-wrapper", "book-listing"], literal_block=True)
    cap = nodes.caption("", "")
    if caption:
        cap += caption
        cap += nodes.Text(" (")
    # The file and lines, linked to the file at those lines (site.py).
    where = rel + (", " + describe_lines(ranges) if ranges else "")
    cap += source_ref_node(in_repo, ranges, where)
    if caption:
        cap += nodes.Text(")")
    container += cap
    container += block
    return container


def compiled_files(env: BuildEnvironment) -> set:
    """The files a compiler saw in this build: every declared program's and
    library's sources (the manifest's ``compiled``), every exercise's starter
    folder (its starter build compiles it), and every input file of every
    declared run's record (the headers they include)."""
    m = manifest(env)
    if m.compiled is None:
        raise BookError(f"build manifest {m.path} lists no compiled sources ('compiled'): "
                        "configure the build again")
    seen = set(m.compiled)
    root = os.path.realpath(env.config.book_source_root)
    # The exercises' files: those a translation unit included (kept-lines.json),
    # or, in a build that has no such file (a fixture's), every file of the
    # exercise folders, which their starter builds compile.
    kept = kept_lines(env)
    if kept is not None:
        seen.update(f for f in kept[0] if f.startswith(("exercises/", "solutions/")))
    elif m.exercises and os.path.exists(m.exercises):
        env.note_dependency(m.exercises)
        try:
            listed = load_json(m.exercises, "exercises").get("exercises", [])
        except (BookError, AttributeError):
            listed = []
        for e in listed if isinstance(listed, list) else []:
            folder = os.path.join(root, e.get("dir", "")) if isinstance(e, dict) else ""
            for dirpath, _, names in os.walk(folder) if folder else ():
                for n in names:
                    seen.add(os.path.relpath(os.path.join(dirpath, n), root).replace(os.sep, "/"))
    for run in m.runs.values():
        path = run["record"]
        if not os.path.exists(path):
            continue
        env.note_dependency(path)
        try:
            record = load_json(path, "run record")
        except BookError:
            continue  # reported where the record is shown
        files = record.get("inputs", {}).get("files") if isinstance(record, dict) else None
        if isinstance(files, dict):
            seen.update(files)
    return seen


def kept_lines(env: BuildEnvironment) -> tuple[set, dict] | None:
    """(the files a translation unit included, {file: [[first, last], ...]} of
    the lines in conditional groups no unit compiled), from the manifest's
    kept-lines.json (bookpy.build.kept_lines); None where the build has none."""
    path = manifest(env).kept_lines
    if path is None:
        return None
    env.note_dependency(path)
    data = load_json(path, "the lines a compiler kept")
    if not isinstance(data, dict) or not isinstance(data.get("included"), list) \
            or not isinstance(data.get("dropped"), dict):
        raise BookError(f"{path}: should be {{\"included\": [...], \"dropped\": {{...}}}}")
    return set(data["included"]), data["dropped"]


def check_kept(env: BuildEnvironment, in_repo: str, lines: list, shown: list) -> None:
    """No shown line (1-based) of a C++ or CUDA file lies in a conditional group
    that no translation unit compiled: the preprocessor dropped it everywhere."""
    kept = kept_lines(env)
    if kept is None:
        return
    for first, last in kept[1].get(in_repo, []):
        for n in shown:
            if first <= n <= last and n <= len(lines) and lines[n - 1].strip():
                raise BookError(f"listing: {in_repo}:{n} is in a conditional group (lines {first}"
                                f"\u2013{last}) that no program of this build compiles: the "
                                "preprocessor drops it, so a listing may not show it")


def check_compiled(env: BuildEnvironment, rel: str) -> None:
    """A chapter lists only code a compiler saw: a file no program of the build
    compiles, nor any run includes, is not a compiled listing."""
    root = os.path.realpath(env.config.book_source_root)
    try:
        path = source_path(env.config.book_source_root, rel, env.config.book_build_dir)
    except BookError:
        return  # build_listing says why
    if not os.path.isfile(path):
        return
    in_repo = os.path.relpath(path, root).replace(os.sep, "/")
    if in_repo not in compiled_files(env):
        raise BookError(f"listing: {rel} is compiled by no program of this build (no book_program "
                        "or book_library has it as a source, and no run's record names it as an "
                        "input): a listing shows only code the compiler saw")


class Listing(BookDirective):
    """```{listing} <path from the repository root>``` with ``:marker: a[, b...]``
    (or the whole file)."""
    required_arguments = 1
    option_spec = {"marker": marker_list, "caption": directives.unchanged,
                   "linenos": directives.flag, "language": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        caption = None
        if self.options.get("caption", "").strip():
            caption, _ = self.state.inline_text(self.options["caption"].strip(), self.lineno)
        try:
            check_compiled(self.env, self.arguments[0])
            return [build_listing(self.env, self.arguments[0], self.options.get("marker"), caption,
                                  self.options.get("language"), "linenos" in self.options)]
        except BookError as e:
            return self.fail(str(e))
