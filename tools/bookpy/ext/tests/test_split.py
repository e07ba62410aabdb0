# SPDX-License-Identifier: MIT
"""A chapter split into pages, one per section (chapters/<key>.md, its title,
opening and table of contents; chapters/<key>/NN-<name>.md, its sections), as
the book's chapters are: the section pages are the chapter's (a run named
without its chapter is the chapter's), an error is reported at the section
page's file and line, the PDF keeps the chapter one chapter with its sections
as sections and its answers at its end, and a page in the chapter's folder
is named and numbered as the chapter's."""
from __future__ import annotations

import re

from .conftest import visible

PAGE = "repo/chapters/ch90-fixture.md"


def split(tree, extra: str = "") -> None:
    """The fixture chapter as a chapter page and three section pages."""
    text = tree.read(PAGE)
    cut_a, cut_b = text.index("A GPU run from a recording:"), text.index("## Exercises")
    cut_c = text.index("## Check yourself")
    tree.write(PAGE, text[:text.index("A run, named")] + "An opening paragraph.\n\n"
               "```{toctree}\n:maxdepth: 1\n\nch90-fixture/01-runs\nch90-fixture/02-exercises\n"
               "ch90-fixture/03-check-yourself\n```\n")
    tree.write("repo/chapters/ch90-fixture/01-runs.md",
               "# Runs\n\n" + text[text.index("A run, named"):cut_a] + text[cut_a:cut_b] + extra)
    tree.write("repo/chapters/ch90-fixture/02-exercises.md", "# Exercises\n" + text[cut_b + len("## Exercises"):cut_c])
    tree.write("repo/chapters/ch90-fixture/03-check-yourself.md",
               "# Check yourself\n" + text[cut_c + len("## Check yourself"):] + "\n## Sources\n\nNone.\n")


def test_a_split_chapter_builds_clean_and_its_sections_are_the_chapters(tree):
    split(tree)
    _, warnings, _ = tree.sphinx()
    assert warnings == ""
    runs = visible(tree.html("ch90-fixture/01-runs"))
    # a run named without its chapter, on a section's page, is the chapter's
    assert "It counted 3 things at a ratio of 0.50" in runs
    assert "a full key still works: 3" in runs
    assert "Exercise 90.1: the fixture" in visible(tree.html("ch90-fixture/02-exercises"))
    assert "A test in the book\u2019s suite checks this answer." in visible(
        tree.html("ch90-fixture/03-check-yourself"))
    # the chapter's page lists its sections' pages, and links the next: its first section
    chapter = tree.html()
    assert 'href="ch90-fixture/01-runs.html"' in chapter
    assert re.search(r'<a class="next-page" href="ch90-fixture/01-runs.html"', chapter)
    assert re.search(r'<a class="next-page" href="02-exercises.html"', tree.html("ch90-fixture/01-runs"))


def test_an_error_on_a_section_page_names_its_file_and_line(tree):
    split(tree, "\nNo such result: {value}`hello:nope`.\n")
    _, warnings, _ = tree.sphinx()
    assert re.search(r"chapters/ch90-fixture/01-runs\.md:\d+: .*run record 'ch90-fixture/hello' has no "
                     r"result 'nope'", warnings), warnings


def test_latex_keeps_a_split_chapter_one_chapter_with_its_answers_at_its_end(tree):
    text = tree.read(PAGE)
    tree.write(PAGE, text[:text.index("```{diagram}")] + text[text.index("## Exercises"):])
    split(tree)
    _, warnings, _ = tree.sphinx("latex")
    assert warnings == ""
    tex = tree.read("out/latex/book.tex")
    assert "\\chapter{90. A fixture chapter}" in tex
    for title in ("Runs", "Exercises", "Check yourself"):
        assert f"\\section{{{title}}}" in tex and f"\\chapter{{{title}}}" not in tex
    question = tex.index("{Question 1:}")
    sources = tex.index("\\subsection{Sources}")
    answers = tex.index("\\section{Answers to the check\\sphinxhyphen{}yourself questions}")
    assert question < sources < answers  # after the chapter's last page, not inside its page


def test_a_page_of_a_chapters_folder_is_named_and_numbered_as_the_chapters(tree):
    split(tree)
    tree.write("repo/chapters/ch90-fixture/01-runs.md",
               tree.read("repo/chapters/ch90-fixture/01-runs.md").replace("# Runs", "# 9.1 Runs"))
    tree.write("repo/chapters/ch90-fixture/notes.md", "---\norphan: true\n---\n# Notes\n")
    _, warnings, _ = tree.sphinx()
    assert re.search(r"ch90-fixture/01-runs\.md:1: WARNING: section '9\.1 Runs' is a page of chapter "
                     r"ch90-fixture, numbered 90", warnings), warnings
    assert re.search(r"ch90-fixture/notes\.md:1: WARNING: a page in chapter ch90-fixture's folder is a "
                     r"section of it, named chapters/ch90-fixture/NN-<name>\.md", warnings), warnings


def test_a_reviewed_sentence_is_filed_under_the_page_that_prints_it(tree):
    split(tree)
    _, warnings, _ = tree.sphinx(book_reviewed_stale=1)
    assert re.search(r"reviewed-sentences\.json: ch90-fixture: the reviewed sentence [0-9a-f]+ is printed on "
                     r"ch90-fixture/01-runs, not on ch90-fixture: file it under that page: Two regions of one "
                     r"file, joined:", warnings), warnings
    assert "printed on ch90-fixture/02-exercises, not on ch90-fixture" in warnings

    def move(d):
        entries = d["pages"].pop("ch90-fixture")
        d["pages"]["ch90-fixture/01-runs"] = [e for e in entries if e["sentence"].startswith("Two")]
        d["pages"]["ch90-fixture/02-exercises"] = [e for e in entries if not e["sentence"].startswith("Two")]
    tree.edit_json("repo/book/reviewed-sentences.json", move)
    _, warnings, _ = tree.sphinx(book_reviewed_stale=1)
    assert warnings == ""
