# SPDX-License-Identifier: MIT
"""The site's Sphinx parts on the extension's fixture chapter (tools/bookpy/ext/tests/
fixtures), built in process with the fixture tree of tools/bookpy/ext/tests/conftest.py:
listing links, figures, plots (HTML and LaTeX), downloads, the build-info
page and the index of terms."""
from __future__ import annotations

import json
import os
import re
import sys
import tarfile

import pytest

from bookpy.build import plotting
from bookpy.ext.tests import conftest as fixture

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.dont_write_bytecode = True

PLOT = '''"""The fixture's plot."""
RUNS = ["hello"]
ALT = "One bar: the ratio the fixture run measured."


def draw(fig, runs, theme):
    ax = fig.add_subplot()
    ax.bar(["ratio"], [runs["hello"].result("ratio")], color=theme.colors[0])
'''


@pytest.fixture
def tree(tmp_path):
    return fixture.Tree(str(tmp_path))


def add_plot(tree):
    spec_path = tree.write("repo/diagrams/ch90-fixture/bars.plot.py", PLOT)
    spec = plotting.read_spec(spec_path, "ch90-fixture/bars")
    out = tree.path("build/plots/ch90-fixture")
    os.makedirs(out, exist_ok=True)
    plotting.render(spec, plotting.load_runs(spec, {"ch90-fixture/hello": tree.path(
        "build/records/ch90-fixture/hello.json")}), {
        "light.svg": os.path.join(out, "bars.svg"), "dark.svg": os.path.join(out, "bars-dark.svg"),
        "pdf": os.path.join(out, "bars.pdf"), "phone.svg": os.path.join(out, "bars-phone.svg"),
        "phone-dark.svg": os.path.join(out, "bars-phone-dark.svg")})
    chapter = tree.read("repo/chapters/ch90-fixture.md")
    tree.write("repo/chapters/ch90-fixture.md", chapter.replace(
        "## Exercises", "```{plot} bars\n:name: fig-bars\nThe **fixture** plot.\n```\n\n"
        "A **fixture term** is defined here.\n\n```{define} fixture term\nA word the fixture chapter "
        "sets in bold to test the glossary.\n```\n\n## Exercises"))


def latex_with_plot(tree):
    """The fixture book with a plot, built by the LaTeX builder. The builder picks a
    diagram's PDF, so the fixture's diagram gets one (the plot's)."""
    add_plot(tree)
    with open(tree.path("build/plots/ch90-fixture/bars.pdf"), "rb") as f:
        tree.write("build/diagrams/ch90-fixture/pic.pdf", "")
        with open(tree.path("build/diagrams/ch90-fixture/pic.pdf"), "wb") as g:
            g.write(f.read())
    return tree.sphinx("latex")


def test_a_listing_links_to_its_file_at_its_lines(tree):
    _, warnings, _ = tree.sphinx()
    assert warnings == ""
    html = tree.html()
    m = re.search(r'<a class="[^"]*book-source-link[^"]*" href="([^"]+)">', html)
    assert m, "the listing's caption has no link"
    assert m.group(1) == "_code/code/ch90-fixture/prog.cpp.html?lines=6-7,11-11#L-6"
    page = tree.read("out/html/_code/code/ch90-fixture/prog.cpp.html")
    assert 'id="L-6"' in page and 'id="L-11"' in page
    assert "Listings of it appear in:" in page and 'href="../../../ch90-fixture.html"' in page


def test_with_a_repository_the_link_goes_there_and_no_page_is_made(tree):
    _, warnings, _ = tree.sphinx(book_repository_url="https://example.org/o/r", book_repository_ref="abc123")
    assert warnings == ""
    assert 'href="https://example.org/o/r/blob/abc123/code/ch90-fixture/prog.cpp#L6-L11"' in tree.html()
    assert not os.path.exists(tree.path("out/html/_code"))


def test_a_diagram_opens_at_full_size_and_has_an_alt_text(tree):
    tree.sphinx()
    html = tree.html()
    m = re.search(r'<a class="book-zoom[^"]*" href="([^"]+)"[^>]*>\s*<img alt="([^"]*)" src="([^"]+)"', html)
    assert m and m.group(1) == m.group(3) == "_images/pic.svg"
    assert m.group(2) == "A fixture diagram."  # no accDescr in pic.mmd: the caption
    tree.write("repo/diagrams/ch90-fixture/pic.mmd",
               "flowchart LR\n  accTitle: Two boxes\n  accDescr: Box a points to box b.\n  a --> b\n")
    tree.touch_later("repo/diagrams/ch90-fixture/pic.mmd")
    tree.sphinx()
    assert 'alt="Two boxes. Box a points to box b."' in tree.html()


def test_a_figure_without_a_caption_is_an_error_and_one_with_is_numbered(tree):
    _, warnings, _ = tree.sphinx()
    assert warnings == ""
    assert re.search(r'<span class="caption-number">Fig\. \d+ </span>', tree.html())
    chapter = tree.read("repo/chapters/ch90-fixture.md")
    tree.write("repo/chapters/ch90-fixture.md", chapter.replace("A fixture diagram.\n", "", 1))
    _, warnings, _ = tree.sphinx(strict=False)
    assert re.search(r"ch90-fixture\.md:\d+: ERROR: diagram 'pic' has no caption", warnings), warnings


def test_a_plot_shows_each_theme_its_drawing_and_where_its_record_ran(tree):
    add_plot(tree)
    _, warnings, _ = tree.sphinx()
    assert warnings == ""
    html = tree.html()
    light = re.search(r'<a class="[^"]*only-light book-wide" href="_images/bars.svg"[^>]*>\s*<img alt="([^"]+)"', html)
    dark = re.search(r'<a class="[^"]*only-dark book-wide" href="_images/bars-dark.svg"', html)
    assert light and dark
    # and a phone's drawings (book.css shows them below 46em)
    assert re.search(r'<a class="[^"]*only-light book-narrow" href="_images/bars-phone.svg"', html)
    assert re.search(r'<a class="[^"]*only-dark book-narrow" href="_images/bars-phone-dark.svg"', html)
    assert light.group(1) == "One bar: the ratio the fixture run measured."
    text = fixture.visible(html)
    assert "Drawn by this build from run ch90-fixture/hello (diagrams/ch90-fixture/bars.plot.py)." in text
    assert "Ran live during this build on the build machine\u2019s CPU" in text \
        or "Ran live during this build on the build machine's CPU" in text


def test_a_page_states_the_machine_its_outputs_ran_on_once_in_full(tree):
    chapter = tree.read("repo/chapters/ch90-fixture.md")
    tree.write("repo/chapters/ch90-fixture.md", chapter.replace(
        "## Exercises", "Again:\n\n```{program-output} hello\n```\n\n## Exercises"))
    _, warnings, _ = tree.sphinx()
    assert warnings == ""
    paras = [" ".join(re.sub(r"<[^>]+>", "", p).split()) for p in
             re.findall(r'<p class="book-provenance">(.*?)</p>', tree.html(), re.S)]
    cpu = [p for p in paras if "build machine" in p]
    assert len(cpu) == 2, paras
    assert cpu[0].startswith("Ran live during this build on the build machine") and "built with g++" in cpu[0]
    assert "as above; at commit" in cpu[1] and "built with" not in cpu[1]


def test_the_pdf_gets_the_plots_pdf_and_not_the_dark_drawing(tree):
    _, warnings, _ = latex_with_plot(tree)
    assert warnings == ""
    tex = tree.read("out/latex/book.tex")
    assert r"\sphinxincludegraphics{{bars}.pdf}" in tex
    assert "bars-dark" not in tex and "bars-phone" not in tex
    assert "Drawn by this build from run" in tex


def test_a_missing_plot_is_an_error_at_the_directive(tree):
    add_plot(tree)
    os.unlink(tree.path("build/plots/ch90-fixture/bars-dark.svg"))
    _, warnings, _ = tree.sphinx(strict=False)
    assert re.search(r"ch90-fixture\.md:\d+: ERROR: plot 'ch90-fixture/bars' was not drawn "
                     r"\(.*bars-dark\.svg is missing\)", warnings)


def test_the_exercises_download_sits_before_the_first_exercise(tree):
    archive = tree.path("build/downloads/ch90-fixture-exercises.tar.gz")
    os.makedirs(os.path.dirname(archive))
    with tarfile.open(archive, "w:gz") as tar:
        tar.add(tree.path("repo/exercises/ch90-fixture/ex01-fixture/README.md"), "x/README.md")
    tree.write("build/downloads/downloads.json", json.dumps(
        {"chapters": {"ch90-fixture": {"archive": archive, "exercises": ["ex01-fixture"]}}}))
    _, warnings, _ = tree.sphinx()
    assert warnings == ""
    html = tree.html()
    box = html.index('class="book-download')
    assert box < html.index("Exercise 90.1")
    assert re.search(r'<a class="[^"]*download[^"]*" download="" '
                     r'href="_downloads/[0-9a-f]+/ch90-fixture-exercises\.tar\.gz">', html)
    assert "the 1 exercise of this chapter" in fixture.visible(html)
    # listed, but the chapter is not: an error at the exercise
    tree.write("build/downloads/downloads.json", json.dumps({"chapters": {}}))
    tree.touch_later("build/downloads/downloads.json")
    _, warnings, _ = tree.sphinx(strict=False)
    assert "chapter ch90-fixture has exercises, but the build made no download of them" in warnings


def test_the_build_info_page_lists_runs_figures_and_tools(tree):
    add_plot(tree)
    tree.write("repo/chapters/built.md", "---\norphan: true\n---\n# Built\n\n```{build-info}\n```\n")
    tree.write("build/site/site.json", json.dumps({"toolchain": {"Doxygen": "9.9.9"}}))
    _, warnings, _ = tree.sphinx(book_site_file=tree.path("build/site/site.json"))
    assert warnings == ""
    page = fixture.visible(tree.html("built"))
    assert "ch90-fixture/hello (program ch90-fixture/prog)" in page
    assert "ran live in this build" in page
    assert "recording, fresh: its inputs are unchanged" in page
    assert "diagrams/ch90-fixture/pic.mmd" in page and "diagrams/ch90-fixture/bars.plot.py" in page
    assert "plot, drawn by matplotlib from run ch90-fixture/hello" in page
    assert re.search(r"Doxygen\s*(Version:)?\s*9\.9\.9", page)  # (a cell's label for narrow screens)
    assert re.search(r"Sphinx\s*(Version:)?\s*5\.", page)
    # "shown in" links the chapter that shows the run
    assert 'href="ch90-fixture.html"' in tree.html("built")


def test_the_build_info_page_says_a_run_is_shown_only_where_a_page_shows_it(tree):
    # A page that reads hello's record for a check, and shows nothing of it, is not
    # where it is shown (a page that only reads a record once counted as one).
    tree.write("repo/chapters/built.md", "---\norphan: true\n---\n# Built\n\n"
               "It counts more than one {check}`ch90-fixture/hello:count > 1`.\n\n```{build-info}\n```\n")
    _, warnings, _ = tree.sphinx()
    assert warnings == ""
    page = tree.html("built")
    row = re.search(r"<tr[^>]*>(?:(?!</tr>).)*ch90-fixture/hello(?:(?!</tr>).)*</tr>", page, re.S)
    assert row, "no row for ch90-fixture/hello"
    shown_in = re.findall(r'href="([^"]*)"', row.group(0))
    assert shown_in == ["ch90-fixture.html"], shown_in


def test_a_measured_figure_has_a_readable_name():
    from bookpy.ext.buildinfo import readable
    assert readable({}, "best_over_cub_2e16") == "best over CUB, 2^16"
    assert readable({}, "graph_us_2e20_pdl") == "graph µs PDL, 2^20"
    record = {"checks": [{"id": "step2-beats-step1", "what": "Step 2 takes less time than step 1."}]}
    assert readable(record, "check:step2-beats-step1") == "Step 2 takes less time than step 1."


def test_bold_terms_of_a_chapter_are_in_the_index(tree):
    add_plot(tree)
    tree.sphinx()
    index = tree.read("out/html/genindex.html")
    assert "fixture term" in index
    # a bold phrase in a caption or a sentence-long lead-in is not a term
    assert ">fixture<" not in index


def test_with_a_repository_every_page_names_it_and_a_chapter_links_its_source(tree):
    add_plot(tree)
    _, warnings, _ = tree.sphinx(book_repository_url="https://example.org/o/r/", book_repository_ref="abc123")
    assert warnings == ""
    page = tree.html()
    source = "https://example.org/o/r/blob/abc123/chapters/ch90-fixture.md"
    # the icon at the top of the page (furo's "edit this page") and the footer's line
    assert re.search(r'<div class="edit-this-page book-view-source">\s*<a class="muted-link" href="'
                     + re.escape(source) + '"', page)
    footer = re.search(r'<p class="book-source-line">(.*?)</p>', page, re.S)
    assert footer and f'href="{source}"' in footer.group(1)
    assert 'href="https://example.org/o/r"' in footer.group(1)
    # a page made by the build (the glossary) names the repository, and no source
    glossary = tree.html("glossary")
    assert "book-view-source" not in glossary
    line = re.search(r'<p class="book-source-line">(.*?)</p>', glossary, re.S)
    assert line and "The book's repository" in line.group(1) and "/blob/" not in line.group(1)


def test_without_a_repository_no_page_links_one(tree):
    _, warnings, _ = tree.sphinx()
    assert warnings == ""
    for doc in ("ch90-fixture", "genindex"):
        page = tree.html(doc)
        assert "book-view-source" not in page and "book-source-line" not in page
        assert "Edit this page" not in page


def test_the_pdf_ends_with_the_glossary(tree):
    _, warnings, _ = latex_with_plot(tree)
    assert warnings == ""
    tex = tree.read("out/latex/book.tex")
    at = tex.find(r"\chapter{Glossary}")
    assert at > 0, "the PDF has no glossary"
    glossary = tex[at:]
    assert r"\sphinxlineitem{fixture term" in glossary
    # the definition, linked to where the chapter gives it, with its page
    assert "A word the fixture chapter sets in bold to test the glossary. See" in glossary
    assert r"\hyperref[\detokenize{ch90-fixture:define-fixture-term}]" in glossary
    assert r"\autopageref*{\detokenize{ch90-fixture:define-fixture-term}}" in glossary


def test_the_pdf_has_the_front_page_as_front_matter_and_each_page_as_a_chapter(tree):
    # A front page with sections of its own before its table of contents, as the
    # book's has: in the PDF they are one chapter, "About this book", and the
    # chapter a chapter of its own after it, not a section inside the last.
    tree.write("repo/chapters/index.md", "# Fixture book\n\nThe book.\n\n## What you need\n\nA GPU.\n\n"
               "## Where to start\n\nThe fixture chapter.\n\n```{toctree}\n:glob:\n\nch[0-9][0-9]-*\n```\n")
    _, warnings, _ = latex_with_plot(tree)
    assert warnings == ""
    tex = tree.read("out/latex/book.tex")
    chapters = re.findall(r"\\chapter\{([^}]*)\}", tex)
    assert chapters[:2] == ["About this book", "90. A fixture chapter"], chapters
    assert r"\section{What you need}" in tex and r"\section{Where to start}" in tex
    assert tex.index("The book.") < tex.index(r"\section{What you need}") < tex.index(r"\chapter{90.")


def test_the_pdf_sets_try_it_answers_at_the_chapters_end(tree):
    chapter = tree.read("repo/chapters/ch90-fixture.md")
    tree.write("repo/chapters/ch90-fixture.md", chapter.replace("## Exercises", TRY_IT, 1))
    _, warnings, _ = latex_with_plot(tree)
    assert warnings == ""
    tex = tree.read("out/latex/book.tex")
    question = tex.index("Count the things")
    pointer = tex.index("Answer 1 is at the end of the chapter.", question)
    heading = tex.index(r"\section{Answers to Try it}", pointer)
    assert tex.index("again.", question) > heading, "the answer is printed under its question"
    assert r"\textbf{Answer.}" not in tex


def define(tree, text):
    chapter = tree.read("repo/chapters/ch90-fixture.md")
    tree.write("repo/chapters/ch90-fixture.md", chapter.replace("## Exercises", text + "\n\n## Exercises", 1))
    _, warnings, _ = tree.sphinx(strict=False)
    return warnings


@pytest.mark.parametrize("definition, message", [
    ("That is the fixture term.", r"starts with a pronoun \('That'\)"),
    ("Its lanes wait for the fixture term.", r"starts with a pronoun \('Its'\)"),
    ("The fixture term is the fixture term.", r"only repeats the term"),
    ("This is a fixture term.", r"starts with a pronoun \('This'\)"),
    ("A fixture term takes the overlap one step further.", r"points back at the text around it \('further'\)"),
    ("A word of the fixture. A second sentence.", r"is more than one sentence"),
])
def test_a_glossary_definition_that_cannot_stand_alone_is_an_error_at_its_line(tree, definition, message):
    warnings = define(tree, f"A **fixture term** is used here.\n\n```{{define}} fixture term\n{definition}\n```")
    assert re.search(r"ch90-fixture\.md:\d+: ERROR: the definition of 'fixture term' " + message, warnings), warnings


def test_a_bold_term_or_a_concept_without_a_definition_is_an_error(tree):
    tree.write("repo/book/concepts.txt", "# concepts\nthings\n")
    warnings = define(tree, "A **fixture term** is used here.")
    assert re.search(r"ch90-fixture\.md:\d+: WARNING: the term 'fixture term' is set in bold, so the glossary "
                     r"lists it, but no chapter defines it", warnings), warnings
    assert re.search(r"concepts\.txt:2: the concept 'things' has no definition for the glossary", warnings), warnings
    warnings = define(tree, "```{define} fixture term\nA word the fixture sets in bold.\n```\n\n"
                            "```{define} thing\nAn object the fixture counts, one per line.\n```")
    assert "no chapter defines" not in warnings and "has no definition" not in warnings, warnings
    assert "A word the fixture sets in bold." in tree.read("out/html/glossary.html")


TRY_IT = """## Try it

Predict each before you open its answer.

1. **Count the things.** How many would it count?

   :::{answer}
   {value}`hello:count` again.
   :::

2. **On a GPU of your own.** Run it with another input.

## Exercises"""


def try_it(tree, text):
    chapter = tree.read("repo/chapters/ch90-fixture.md")
    tree.write("repo/chapters/ch90-fixture.md", chapter.replace("## Exercises", text, 1))
    _, warnings, _ = tree.sphinx()
    return warnings


def test_a_try_it_answer_is_behind_a_reveal(tree):
    assert try_it(tree, TRY_IT) == ""
    page = tree.html()
    question = page.index("Count the things")
    reveal = page.index('<details class="book-reveal"', question)
    assert page.index("<summary>Show the answer</summary>", reveal) < page.index("again.", reveal)


@pytest.mark.parametrize("change, message", [
    # A question whose answer is in plain sight (as "predict each before you look"
    # beside the figure once read).
    (("   :::{answer}\n   {value}`hello:count` again.\n   :::\n", "   It counts {value}`hello:count`.\n"),
     r"ch90-fixture\.md:\d+: WARNING: 'Try it' item 1 shows the recorded figure 3 outside its answer"),
    (("   :::{answer}\n   {value}`hello:count` again.\n   :::\n", ""),
     r"ch90-fixture\.md:\d+: WARNING: 'Try it' item 1 asks a question but has no answer behind a reveal"),
    (("How many would it count?", "How many would it count?\n\n   ```{program-output} hello\n   ```"),
     r"ch90-fixture\.md:\d+: WARNING: 'Try it' item 1 shows a run's output outside its answer"),
    # The same in a section titled otherwise in case, in a list of bullets.
    (("## Try it", "## Try It"), None),
])
def test_a_try_it_answer_in_plain_sight_is_an_error_at_its_item(tree, change, message):
    text = TRY_IT.replace(*change)
    if message is None:
        text = text.replace("1. **Count", "- **Count")
        text = text.replace("   :::{answer}\n   {value}`hello:count` again.\n   :::\n",
                            "  It counts {value}`hello:count`.\n")
        message = r"ch90-fixture\.md:\d+: WARNING: 'Try it' item 1 shows the recorded figure 3 outside its answer"
    warnings = try_it(tree, text)
    assert re.search(message, warnings), warnings


def test_a_concept_no_chapter_names_is_an_error_at_its_line(tree):
    # "things" is in the fixture chapter's running text, and "Little's law" once
    # added (its apostrophe a smart quote on the page); the last is nowhere.
    chapter = tree.read("repo/chapters/ch90-fixture.md")
    tree.write("repo/chapters/ch90-fixture.md", chapter.replace(
        "## Exercises", "Little's law counts the work in flight.\n\n```{define} Little's law\nThe rule "
        "that the work in flight is throughput times latency.\n```\n\n```{define} things\nWhat the "
        "fixture program counts, one per line of input.\n```\n\n## Exercises", 1))
    tree.write("repo/book/concepts.txt", "# concepts\nthings\nLittle's law\nwarp scheduler\n")
    _, warnings, _ = tree.sphinx()
    assert re.search(r"concepts\.txt:4: the concept 'warp scheduler' is named in no chapter's running text",
                     warnings), warnings
    assert "'things'" not in warnings and "Little" not in warnings
    index = tree.read("out/html/genindex.html")
    assert '<a href="ch90-fixture.html#concept-things">things</a>' in index
    assert re.search(r'<a href="ch90-fixture\.html#concept-little-s-law">Little(&#39;|\'|’)s law</a>', index), index


def test_questions_are_numbered_and_link_to_themselves(tree):
    _, warnings, _ = tree.sphinx()
    assert warnings == ""
    page = tree.html()
    card = page.index('<div class="book-check" id="cy-ch90-q1">')
    assert page.index('<p class="book-check-label"><a class="reference internal" href="#cy-ch90-q1">'
                      'Question 1</a></p>', card) < page.index("How many lanes", card)
