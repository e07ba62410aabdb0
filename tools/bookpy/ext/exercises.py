# SPDX-License-Identifier: MIT
"""Exercises: ```{exercise} <ex>``` renders exercises/<key>/<ex>/ (the
invariant reader-edition-clean, docs/architecture.md: the reader's edition
shows no solution and no hidden test).

    # <title>                  -> the exercise's heading
    the statement              -> shown
    ## Hints                   -> folded until opened (HTML), a hint box (LaTeX)
    ## Check yourself          -> "How to check your work"

with the folder and, from ``${BUILD}/exercises.json`` where the build wrote
it, the points: of each test set, with the rule that earns them (its
``credit``: all-or-nothing, or per-case, EXERCISE_CREDIT). The instructor
edition (``-t instructor``) adds the solution: solutions/<key>/<ex>/SOLUTION.md
(or, in the older layout, the solution README's "## About this solution"), the
solved sources as listings, and each test set's test names, the hidden ones
among them (never their sources). Every file read is a dependency of the page.
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
    from sphinx.application import Sphinx
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


#: How a test set earns its points (exercises.json's "credit"; tools/grader/grading.py).
CREDIT = {
    "all-or-nothing": "only when every one of its test cases passes",
    "per-case": ("split evenly over its test cases: k of n passed earn "
                 "\N{LEFT FLOOR}points \N{MULTIPLICATION SIGN} k / n\N{RIGHT FLOOR} (rounded down; "
                 "the whole points only when the set passes)"),
}
SET_WORDS = {"visible": "the visible tests", "hidden": "the hidden tests (the grader's own)"}


def points_paragraph(entry: dict) -> nodes.paragraph | None:
    """Each test set's points and the rule that earns them; None where the
    build's list gives no sets. Names no test: the reader edition shows it."""
    sets = entry.get("sets")
    if not isinstance(sets, dict) or not sets:
        return None
    para = nodes.paragraph(classes=["book-exercise-points"])
    parts = [f"{s['points']:g} for {SET_WORDS.get(name, f'the {name} tests')}" for name, s in sets.items()]
    para += nodes.Text("Points: " + ", ".join(parts) + ". ")
    rules = {s.get("credit", "all-or-nothing") for s in sets.values()}
    if len(rules) == 1:
        rule = rules.pop()
        text = CREDIT.get(rule, rule)
        para += nodes.Text(("Each set earns its points " if len(sets) > 1 else "The set earns its points ")
                           + text + ".")
    else:
        para += nodes.Text(" ".join(f"The {name} set earns its points "
                                    f"{CREDIT.get(s.get('credit', 'all-or-nothing'), s.get('credit'))}."
                                    for name, s in sets.items()))
    return para


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
        points = points_paragraph(entry)
        if points is not None:
            section += points
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
        sets = entry.get("sets")
        if isinstance(sets, dict) and sets:
            box += self.test_sets(sets)
            return box
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

    def test_sets(self, sets: dict) -> nodes.Node:
        """For the instructor: each test set's points, credit and test names
        (the hidden ones, which students never get, among them)."""
        lst = nodes.bullet_list(classes=["book-hidden-tests"])
        for name, s in sets.items():
            item = nodes.list_item()
            para = nodes.paragraph()
            words = ("Hidden tests (the grader runs them; students do not get them)" if name == "hidden"
                     else "Visible tests (in the student's bundle)" if name == "visible"
                     else f"The {name} tests")
            credit = s.get("credit", "all-or-nothing")
            para += nodes.Text(f"{words}, {s['points']:g} points, {credit}: ")
            for k, test in enumerate(s.get("tests") or []):
                if k:
                    para += nodes.Text(", ")
                para += nodes.literal(str(test), str(test))
            para += nodes.Text(".")
            item += para
            lst += item
        return lst

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


# ---- the edition, on every page ---------------------------------------------------------
#: What the instructor edition says of itself: at the top of every page (the
#: banner, book/_templates/page.html), and in every page's title.
INSTRUCTOR_TITLE = "instructor edition, not for students"


def mark_edition(app: Sphinx, config) -> None:
    """The instructor edition's title says what it is (every page's <title>, the sidebar)."""
    if app.tags.has("instructor") and INSTRUCTOR_TITLE not in (config.html_title or ""):
        config.html_title = f"{config.html_title or config.project} ({INSTRUCTOR_TITLE})"


def edition_context(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """book_instructor_edition for the page template's banner."""
    context["book_instructor_edition"] = app.tags.has("instructor")


def setup(app: Sphinx) -> None:
    app.connect("config-inited", mark_edition)
    app.connect("html-page-context", edition_context)
