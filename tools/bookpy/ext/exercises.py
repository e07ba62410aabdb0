# SPDX-License-Identifier: MIT
"""Exercises: ```{exercise} <ex>``` renders exercises/<key>/<ex>/ (the
invariant reader-edition-clean, docs/architecture.md: the reader's edition
shows no solution and no hidden test).

    # <title>                  -> the exercise's heading
    the statement              -> shown
    ## Hints                   -> folded until opened (HTML), a hint box (LaTeX)
    ## Check yourself          -> "How to check your work"

with the folder and, from ``${BUILD}/exercises.json`` where the build wrote
it, the points. The instructor edition (``-t instructor``) adds the solution:
solutions/<key>/<ex>/SOLUTION.md (or, in the older layout, the solution
README's "## About this solution"), the solved sources as listings, and the
names of the hidden tests (never their sources). Every file read is a
dependency of the page.
"""
from __future__ import annotations

import filecmp
import os
import re
from typing import TYPE_CHECKING

from docutils import nodes
from docutils.statemachine import StringList

from .booknodes import fold
from .common import BookDirective, BookError, load_json, resolve_key, source_path
from .listings import build_listing
from .sourcelinks import LANGUAGES
from .manifest import manifest

if TYPE_CHECKING:
    from sphinx.environment import BuildEnvironment

HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
SOURCES = (".cpp", ".cu", ".hpp", ".cuh", ".h", ".cc")
NOT_SOLVED = {"exercise.cmake", "README.md", "SOLUTION.md"}


def split_markdown(lines: list, where: str) -> tuple[str, dict]:
    """The title (first line '# ...') and {second-level heading: (first line
    index, lines)} with '' for the text before the first one."""
    m = HEADING.match(lines[0]) if lines else None
    if not m or len(m.group(1)) != 1:
        raise BookError(f"{where}:1: the first line should be the title, '# <title>'")
    sections, name, start, body = {}, "", 1, []
    fence = None
    for i, line in enumerate(lines[1:], 1):
        stripped = line.lstrip()
        if stripped.startswith(("```", "~~~")):
            if fence is None:
                fence = stripped[:3]
            elif stripped.startswith(fence):
                fence = None
            body.append(line)
            continue
        h = HEADING.match(line) if fence is None else None
        if h and len(h.group(1)) == 2:
            sections[name] = (start, body)
            name, start, body = h.group(2), i + 1, []
            if name in sections:
                raise BookError(f"{where}:{i + 1}: a second '## {name}'")
        else:
            body.append(line)
    sections[name] = (start, body)
    return m.group(2), sections


def exercise_entry(env: BuildEnvironment, exercise_id: str) -> dict:
    """The exercise's entry in exercises.json, or {} where the build wrote none."""
    path = manifest(env).exercises
    if not path:
        return {}
    env.note_dependency(path)
    data = load_json(path, "exercise list")
    entries = data.get("exercises") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise BookError(f"exercise list {path}: no list 'exercises'")
    for entry in entries:
        if isinstance(entry, dict) and entry.get("id") == exercise_id:
            return entry
    raise BookError(f"exercise '{exercise_id}' is not in {path}: the build found no such exercise")


class Exercise(BookDirective):
    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        try:
            return [self.render()]
        except BookError as e:
            return self.fail(str(e))

    def read(self, path: str) -> list:
        self.env.note_dependency(path)
        with open(path, encoding="utf-8") as f:
            return f.read().splitlines()

    def render(self) -> nodes.section:
        config = self.config
        root, build = config.book_source_root, config.book_build_dir
        exercise_id = resolve_key(self.env.docname, self.arguments[0], "exercise")
        chapter, name = exercise_id.split("/")
        entry = exercise_entry(self.env, exercise_id)
        folder = source_path(root, entry.get("dir") or os.path.join("exercises", chapter, name), build)
        readme = os.path.join(folder, "README.md")
        if not os.path.isfile(readme):
            raise BookError(f"no exercise '{exercise_id}': {os.path.relpath(readme, root)} does not exist")
        rel_readme = os.path.relpath(readme, root)
        title, parts = split_markdown(self.read(readme), rel_readme)
        for needed in ("Hints", "Check yourself"):
            if needed not in parts:
                raise BookError(f"{rel_readme} has no section '## {needed}'")

        section = nodes.section(classes=["book-exercise"])
        section.source, section.line = self.env.doc2path(self.env.docname), self.lineno
        heading, _ = self.state.inline_text(title, self.lineno)
        section += nodes.title(title, "", *heading)
        section["names"].append(nodes.fully_normalize_name(section[0].astext()))
        self.state.document.note_implicit_target(section, section)

        about = nodes.paragraph(classes=["book-exercise-about"])
        about += nodes.Text("Folder ")
        rel_folder = os.path.relpath(folder, root) + "/"
        about += nodes.literal(rel_folder, rel_folder)
        if "points" in entry:
            about += nodes.Text(f"; {entry['points']:g} points" if isinstance(entry["points"], (int, float))
                                else f"; {entry['points']} points")
        if entry.get("gpu"):
            about += nodes.Text("; its tests need a GPU")
        about += nodes.Text(".")
        section += about

        self.markdown(parts[""], readme, section)
        hints = fold(summary="Hints", box="hint", classes=["book-hints"])
        self.markdown(parts["Hints"], readme, hints)
        section += hints
        check = nodes.paragraph()
        check += nodes.strong(text="How to check your work.")
        section += check
        self.markdown(parts["Check yourself"], readme, section)
        if self.env.app.tags.has("instructor"):
            section += self.solution(exercise_id, entry, folder)
        return section

    def solution(self, exercise_id: str, entry: dict, folder: str) -> nodes.Node:
        root, build = self.config.book_source_root, self.config.book_build_dir
        chapter, name = exercise_id.split("/")
        solved = source_path(root, entry.get("solution_dir") or os.path.join("solutions", chapter, name),
                             build)
        box = nodes.admonition(classes=["note", "book-solution"])
        box += nodes.title(text="Solution")
        notes = os.path.join(solved, "SOLUTION.md")
        if os.path.isfile(notes):
            lines = self.read(notes)
            first = 1 if lines and HEADING.match(lines[0]) else 0
            self.markdown((first, lines[first:]), notes, box)
        else:  # the older layout: the notes are the solution README's last section
            readme = os.path.join(solved, "README.md")
            if not os.path.isfile(readme):
                raise BookError(f"exercise '{exercise_id}' has no solution notes "
                                f"({os.path.relpath(notes, root)})")
            _, parts = split_markdown(self.read(readme), os.path.relpath(readme, root))
            if "About this solution" not in parts:
                raise BookError(f"exercise '{exercise_id}' has no solution notes "
                                f"({os.path.relpath(notes, root)})")
            self.markdown(parts["About this solution"], readme, box)
        files = entry.get("student_files")
        if files is None:  # no list from the build: what the solution changed
            files = sorted(f for f in os.listdir(solved) if f.endswith(SOURCES) and f not in NOT_SOLVED
                           and not (os.path.isfile(os.path.join(folder, f))
                                    and filecmp.cmp(os.path.join(folder, f), os.path.join(solved, f),
                                                    shallow=False)))
        if not files:
            raise BookError(f"exercise '{exercise_id}': no solved source in {os.path.relpath(solved, root)}")
        for f in files:
            rel = os.path.relpath(os.path.join(solved, f), root)
            box += build_listing(self.env, rel, language=LANGUAGES.get(os.path.splitext(f)[1]))
        hidden = entry.get("hidden_tests") or []
        if hidden:
            para = nodes.paragraph(classes=["book-hidden-tests"])
            para += nodes.Text("Hidden tests (the grader runs them; students do not get them): ")
            for k, test in enumerate(hidden):
                if k:
                    para += nodes.Text(", ")
                para += nodes.literal(str(test), str(test))
            para += nodes.Text(".")
            box += para
        return box

    def markdown(self, part: tuple, source: str, parent: nodes.Element) -> None:
        """Parse lines of a Markdown file into parent, reporting problems at
        that file's own lines."""
        start, lines = part
        while lines and not lines[0].strip():
            lines, start = lines[1:], start + 1
        renderer = getattr(self.state, "_renderer", None)
        if renderer is None:
            self.state.nested_parse(StringList(lines, source=source), 0, parent)
            return
        document, reporter = renderer.document, renderer.reporter
        saved = (document["source"], reporter.source, reporter.__dict__.get("get_source_and_line"))
        try:
            document["source"] = reporter.source = source
            reporter.get_source_and_line = lambda line=None: (source, line)
            with renderer.current_node_context(parent):
                renderer.nested_render_text("\n".join(lines), start, allow_headings=False)
        finally:
            document["source"], reporter.source = saved[0], saved[1]
            if saved[2] is not None:
                reporter.get_source_and_line = saved[2]
            else:
                reporter.__dict__.pop("get_source_and_line", None)
