# SPDX-License-Identifier: MIT
"""The fixture chapter built by Sphinx: what must work, and what must change
when a source changes. The failures are sphinx.cmake's cases (beside this file)."""
from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys

import pytest

from .conftest import BOOK, Tree, visible


def test_the_fixture_chapter_builds_clean(tree):
    status, warnings, _ = tree.sphinx()
    assert warnings == ""
    page = visible(tree.html())
    # values, relative and full keys, and a format in a table cell (written \|)
    assert "It counted 3 things at a ratio of 0.50" in page
    assert "a full key still works: 3" in page
    assert "0.500" in page
    # two regions of one file, joined, captioned with what they show and where
    assert "int count = 3;\ndouble ratio = 0.5;\n// ...\nstd::printf" in page
    assert "Setting up and reporting (code/ch90-fixture/prog.cpp, lines 6\u20137, 11)" in page
    # provenance: the GPU, the driver's own version, no host name
    assert "driver 580.82.07 (CUDA 13.0), CUDA runtime 13.0" in page
    assert "its inputs are unchanged since" in page
    assert "FIXTURE-HOST" not in page and "FIXTURE-HOST" not in tree.html()
    # the question: a card, the answer folded, no id or title repeated, marked as tested
    html = tree.html()
    assert '<div class="book-check" id="cy-ch90-q1">' in html
    assert '<details class="book-answer">\n<summary>Show answer</summary>' in html
    assert "ch90-q1" not in page and "Check yourself" not in page.replace("Check yourself#", "")
    assert "A test in the book\u2019s suite checks this answer." in page
    # the exercise: heading from its README, hints folded, no solution in the reader's edition
    assert "Exercise 90.1: the fixture" in page and "5 points" in page
    assert '<summary>Hints</summary>' in html
    assert "How to check your work." in page
    assert "SOLUTION-NOTES" not in page and "SOLVED" not in page and "HIDDEN-TEST-NAME" not in page


def test_the_instructor_edition_shows_solution_and_hidden_test_names(tree):
    _, warnings, _ = tree.sphinx(tags=["instructor"])
    assert warnings == ""
    page = visible(tree.html())
    assert "Six times seven is SOLUTION-NOTES." in page
    assert "about the solution" not in page  # SOLUTION.md's title line is not repeated
    assert "int answer() { return 6 * 7; }  // SOLVED" in page
    assert "HIDDEN-TEST-NAME" in page


def test_the_older_layout_solution_notes_are_found(tree):
    os.unlink(tree.path("repo/solutions/ch90-fixture/ex01-fixture/SOLUTION.md"))
    tree.write("repo/solutions/ch90-fixture/ex01-fixture/README.md",
               tree.read("repo/exercises/ch90-fixture/ex01-fixture/README.md")
               + "\n## About this solution\n\nOLD-LAYOUT-NOTES.\n")
    tree.edit_json("build/exercises.json", lambda d: d["exercises"][0].pop("student_files"))
    _, warnings, _ = tree.sphinx(tags=["instructor"])
    assert warnings == ""
    page = visible(tree.html())
    assert "OLD-LAYOUT-NOTES." in page and "// SOLVED" in page


def test_a_problem_in_an_exercise_text_is_reported_at_its_own_line(tree):
    readme = "repo/exercises/ch90-fixture/ex01-fixture/README.md"
    tree.write(readme, tree.read(readme).replace("Make `answer()` return 42.",
                                                 "Make `answer()` return {nope}`42`."))
    _, warnings, _ = tree.sphinx()
    assert "ex01-fixture/README.md:3: ERROR: Unknown interpreted text role \"nope\"" in warnings


def test_a_record_is_a_dependency_of_every_page_that_reads_it(tree):
    """pages-rebuilt: two pages cite one record; after it changes, both show the new value."""
    tree.write("repo/chapters/other.md", "# Other\n\nCount: {value}`ch90-fixture/hello:count`.\n")
    tree.write("repo/chapters/index.md", tree.read("repo/chapters/index.md").replace(
        "ch[0-9][0-9]-*", "ch[0-9][0-9]-*\nother"))
    _, warnings, _ = tree.sphinx()
    assert warnings == ""
    assert "It counted 3 things" in visible(tree.html())
    assert "Count: 3." in visible(tree.html("other"))
    tree.edit_json("build/records/ch90-fixture/hello.json",
                   lambda r: r["results"]["count"].update(value=7))
    tree.touch_later("build/records/ch90-fixture/hello.json")
    _, warnings, app = tree.sphinx()
    assert warnings == ""
    record = tree.path("build/records/ch90-fixture/hello.json")
    for doc in ("ch90-fixture", "other"):
        assert record in {os.path.join(app.env.srcdir, d) for d in app.env.dependencies[doc]}
    assert "It counted 7 things" in visible(tree.html())
    assert "Count: 7." in visible(tree.html("other"))


def test_a_listed_file_of_any_kind_is_a_dependency(tree):
    """pages-rebuilt: an exercise starter shown by {listing} rebuilds the page when edited."""
    page = "repo/chapters/ch90-fixture.md"
    tree.write(page, tree.read(page) + "\n```{listing} exercises/ch90-fixture/ex01-fixture/answer.cpp\n```\n")
    tree.sphinx()
    assert "return 0; }  // STARTER" in visible(tree.html())
    starter = "repo/exercises/ch90-fixture/ex01-fixture/answer.cpp"
    tree.write(starter, "int answer() { return -1; }  // EDITED\n")
    tree.touch_later(starter)
    _, warnings, _ = tree.sphinx()
    assert warnings == ""
    assert "// EDITED" in visible(tree.html())
    inputs = json.loads(tree.read("doctrees/book-inputs.json"))
    assert tree.path(starter) in inputs
    assert tree.path("build/book-manifest.json") in inputs
    assert tree.path("build/exercises.json") in inputs


def test_without_a_manifest_the_book_is_not_built(tree):
    """A build folder no CMake build configured: the build stops before reading
    a page, with one error naming the folder."""
    from sphinx.errors import ConfigError
    os.remove(tree.path("build/book-manifest.json"))
    with pytest.raises(ConfigError) as e:
        tree.sphinx()
    assert "no build manifest book-manifest.json in the build folder" in str(e.value)
    assert tree.path("build") in str(e.value)


def test_without_built_tests_no_question_is_checked_or_marked(tree):
    tree.edit_json("build/book-manifest.json", lambda m: m.update(cy_tags=None))
    page = "repo/chapters/ch90-fixture.md"
    tree.write(page, tree.read(page) + "\n```{check-yourself} ch90-no-test\nQ?\n+++\nA.\n```\n")
    status, warnings, _ = tree.sphinx()
    assert warnings == ""
    assert status.count("the tests were not built") == 1
    assert "checks this answer" not in tree.html()


def test_long_output_is_cut_with_a_note_and_control_characters_shown(tree):
    """output-kept (display): a 50 MB output, NUL, ESC and BEL."""
    big = "".join(f"row {i:08d} " + "x" * 90 + "\n" for i in range(500_000))
    tree.edit_json("build/records/ch90-fixture/hello.json",
                   lambda r: r.update(stdout="nul\x00 esc\x1b[31m bel\x07 tab\tok\n" + big))
    _, warnings, _ = tree.sphinx()
    assert warnings == ""
    html = tree.html()
    assert len(html) < 200_000
    page = visible(html)
    assert "nul\u2400 esc\u241b[31m bel\u2407 tab\tok" in page
    assert "[output cut here by the book:" in page and "the run record holds all of it]" in page
    assert not any(c in html for c in "\x00\x1b\x07")


def test_latex_puts_the_answers_at_the_end_of_the_chapter(tree):
    page = "repo/chapters/ch90-fixture.md"
    text = tree.read(page)
    tree.write(page, text[:text.index("```{diagram}")] + text[text.index("## Exercises"):]
               + "\n## Sources\n\nNone.\n")
    _, warnings, _ = tree.sphinx("latex")
    assert warnings == ""
    tex = tree.read("out/latex/book.tex")
    question = tex.index("{Question 1:}")
    sources = tex.index("\\section{Sources}")
    answers = tex.index("\\section{Answers to the check\\sphinxhyphen{}yourself questions}")
    assert question < tex.index("The answer is at the end of the chapter.") < sources < answers
    assert tex.index("lanes.", answers) > answers and "{32}" in tex[answers:]
    assert "\\begin{sphinxadmonition}{hint}{Hints:}" in tex
    assert "ch90-q1" not in tex.replace("cy-ch90-q1", "")


def test_published_html_holds_only_what_this_build_made(tmp_path):
    """published-whole: a deleted diagram (and a deleted page) leave the published book."""
    tree = Tree(str(tmp_path))
    # (Not the book's concepts.txt: the fixture chapter names none of its concepts,
    # which in a build of every chapter is an error of its own.)
    # (Nor its reviewed sentences: the fixture has its own, of its own pages.)
    shutil.copytree(BOOK, tree.path("repo/book"), dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("tests", "__pycache__", "concepts.txt",
                                                  "reviewed-sentences.json"))
    tree.write("repo/chapters/extra.md", "# Extra page\n")
    tree.write("repo/chapters/index.md", tree.read("repo/chapters/index.md").replace(
        "ch[0-9][0-9]-*", "ch[0-9][0-9]-*\nextra"))
    stamp = tree.path("build/html.stamp")
    cmd = [sys.executable, "-m", "bookpy.build.html", tree.repo, tree.build, stamp]
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    subprocess.run(cmd, check=True, env=env)
    html = tree.path("build/html")
    assert os.path.exists(os.path.join(html, "_images", "pic.svg"))
    assert os.path.exists(os.path.join(html, "extra.html"))
    with open(stamp + ".d", encoding="utf-8") as f:
        depfile = f.read()
    assert depfile.startswith(stamp + ":")
    assert tree.path("repo/code/ch90-fixture/prog.cpp") in depfile
    assert tree.path("build/records/ch90-fixture/hello.json") in depfile
    page = "repo/chapters/ch90-fixture.md"
    text = tree.read(page)
    tree.write(page, text[:text.index("```{diagram}")] + text[text.index("## Exercises"):])
    os.unlink(tree.path("repo/diagrams/ch90-fixture/pic.mmd"))
    os.unlink(tree.path("build/diagrams/ch90-fixture/pic.svg"))
    os.unlink(tree.path("repo/chapters/extra.md"))
    tree.write("repo/chapters/index.md", tree.read("repo/chapters/index.md").replace("\nextra", ""))
    subprocess.run(cmd, check=True, env=env)
    assert not os.path.exists(os.path.join(html, "_images", "pic.svg"))
    assert not os.path.exists(os.path.join(html, "extra.html"))
    assert not os.path.exists(os.path.join(html, "_sources", "extra.md.txt"))
    assert os.path.exists(os.path.join(html, "ch90-fixture.html"))


def test_without_an_exercise_list_the_solution_shows_the_files_it_changed(tree):
    """A build without exercises.json (a build folder from before it): no points,
    and the solved sources are those that differ from the starter's."""
    tree.edit_json("build/book-manifest.json", lambda m: m.update(exercises=None))
    tree.write("repo/exercises/ch90-fixture/ex01-fixture/contract.hpp", "int answer();  // CONTRACT\n")
    tree.write("repo/solutions/ch90-fixture/ex01-fixture/contract.hpp", "int answer();  // CONTRACT\n")
    _, warnings, _ = tree.sphinx(tags=["instructor"])
    assert warnings == ""
    page = visible(tree.html())
    assert "points" not in page
    assert "// SOLVED" in page and "// CONTRACT" not in page


def _build_html(tree):
    stamp = tree.path("build/html.stamp")
    cmd = [sys.executable, "-m", "bookpy.build.html", tree.repo, tree.build, stamp]
    return subprocess.run(cmd, env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"),
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _published(tree):
    """Every file of the published site, as text, by its path in the site."""
    html, out = tree.path("build/html"), {}
    for dirpath, _dirs, files in os.walk(html):
        for f in files:
            with open(os.path.join(dirpath, f), encoding="utf-8", errors="replace") as fh:
                out[os.path.relpath(os.path.join(dirpath, f), html)] = fh.read()
    return out


def test_a_deleted_chapter_leaves_no_page_link_or_search_entry(tmp_path):
    """published-whole: a page removed after a full build leaves no page, no
    source, no search entry and no link (sidebar, previous/next) in any page:
    first a page the front page's toctree names (no other source changes, so
    Sphinx would write no other page again), then a chapter (the build's
    manifest drops it)."""
    tree = Tree(str(tmp_path))
    # (Not the book's concepts.txt: the fixture chapter names none of its concepts,
    # which in a build of every chapter is an error of its own.)
    # (Nor its reviewed sentences: the fixture has its own, of its own pages.)
    shutil.copytree(BOOK, tree.path("repo/book"), dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("tests", "__pycache__", "concepts.txt",
                                                  "reviewed-sentences.json"))
    tree.write("repo/chapters/ch91-doomed.md", "# 91. Doomed\n\nA DOOMED-WORD page.\n")
    tree.edit_json("build/book-manifest.json", lambda m: m["chapters"].append("ch91-doomed"))
    tree.write("repo/chapters/extra.md", "# Extra page\n\nAn EXTRA-WORD page.\n")
    tree.write("repo/chapters/index.md", tree.read("repo/chapters/index.md").replace(
        "ch[0-9][0-9]-*", "ch[0-9][0-9]-*\nextra"))
    built = _build_html(tree)
    assert built.returncode == 0, built.stdout
    site = _published(tree)
    for gone in ("ch91-doomed", "extra"):
        assert f"{gone}.html" in site
        assert f"{gone}.html" in site["ch90-fixture.html"]  # the sidebar
    for gone, word, title in (("extra", "EXTRA-WORD", "Extra page"),
                              ("ch91-doomed", "DOOMED-WORD", "91. Doomed")):
        os.unlink(tree.path(f"repo/chapters/{gone}.md"))
        if gone == "extra":
            tree.write("repo/chapters/index.md",
                       tree.read("repo/chapters/index.md").replace("\nextra", ""))
        else:
            tree.edit_json("build/book-manifest.json", lambda m: m["chapters"].remove(gone))
        built = _build_html(tree)
        assert built.returncode == 0, built.stdout
        site = _published(tree)
        left = sorted(path for path, text in site.items()
                      if f"{gone}.html" in path or f"{gone}.html" in text or word in text)
        assert left == [], gone
        index = json.loads(site["searchindex.js"][len("Search.setIndex("):-1])
        assert gone not in index["docnames"]
        assert title not in index["titles"]


def test_a_link_to_a_file_the_site_lacks_is_an_error(tmp_path):
    """published-whole: dangling_links finds a page's link to a page that is gone,
    and a search entry for one."""
    from bookpy.ext.publish import dangling_links
    site = tmp_path / "site"
    (site / "_static").mkdir(parents=True)
    (site / "_static" / "x.css").write_text("")
    (site / "a.html").write_text('<a href="b.html#s">b</a> <a href="gone.html">x</a> '
                                 '<link href="_static/x.css"> <a href="https://example.org/y.html">')
    (site / "b.html").write_text('<a href="a.html">a</a><img src="_images/none.svg">')
    (site / "searchindex.js").write_text('Search.setIndex({"docnames": ["a", "b", "old"]})')
    assert sorted(dangling_links(str(site))) == [
        ("a.html", "gone.html"), ("b.html", "_images/none.svg"), ("searchindex.js", "old.html")]


def _sha256(path):
    with open(path, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def _fake_pdf(tree, html=()):
    """A PDF as tools/bookpy/build/pdf.py leaves one: book.pdf and, beside it, its record
    of what it was built from (the chapters as they are, and the `html` files)."""
    pdf = tree.write("build/pdf/book.pdf", "%PDF-1.5 FAKE\n")
    inputs = [os.path.join(tree.repo, "chapters", f) for f in ("index.md", "ch90-fixture.md")]
    tree.write("build/pdf/book.pdf.made-from.json", json.dumps({
        "pdf": _sha256(pdf), "inputs": {p: _sha256(p) for p in inputs},
        "html": {p: _sha256(p) for p in html}}))
    return pdf


def _later(path, seconds=10):
    st = os.stat(path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + seconds * 1_000_000_000))


def test_a_pdf_not_built_from_its_sources_is_neither_served_nor_linked(tree):
    """pdf-current: the site links and serves the PDF edition only while it was
    built from the pages' sources as they are, told by content (not by file
    times), and says why it left it out."""
    pdf = _fake_pdf(tree)
    _later(pdf, -3600)  # a PDF older than every file: its content is what counts
    _, warnings, _ = tree.sphinx()
    assert warnings == ""
    assert os.path.exists(tree.path("out/html/book.pdf"))
    assert 'href="book.pdf"' in tree.html() and 'href="book.pdf"' in tree.html("index")
    # A chapter touched but unchanged: the PDF is still the book.
    page = tree.path("repo/chapters/ch90-fixture.md")
    _later(page)
    _, warnings, _ = tree.sphinx()
    assert warnings == "" and 'href="book.pdf"' in tree.html()
    # A chapter edited after the PDF was built: every page is written without the link.
    tree.write("repo/chapters/ch90-fixture.md", tree.read("repo/chapters/ch90-fixture.md") + "\nAdded.\n")
    _later(pdf, 3600)  # even with a newer PDF file
    status, warnings, _ = tree.sphinx()
    assert warnings == ""
    assert f"({page} changed since it was built)" in status
    assert not os.path.exists(tree.path("out/html/book.pdf"))
    assert "book.pdf" not in tree.html() and "book.pdf" not in tree.html("index")


def test_a_pdf_other_than_the_one_its_record_describes_is_left_out(tree):
    pdf = _fake_pdf(tree)
    tree.write("build/pdf/book.pdf", "%PDF-1.5 ANOTHER\n")
    status, warnings, _ = tree.sphinx()
    assert warnings == ""
    assert f"{pdf} is not the PDF that {pdf}.made-from.json describes" in status
    assert "book.pdf" not in tree.html()
    os.unlink(pdf + ".made-from.json")
    status, warnings, _ = tree.sphinx()
    assert "its record of what it was built from" in status and "book.pdf" not in tree.html()


def test_a_pdf_without_a_chapter_added_since_is_left_out(tree):
    _fake_pdf(tree)
    new = tree.write("repo/chapters/ch91-new.md", "# 91. New\n\nText.\n")
    tree.edit_json("build/book-manifest.json", lambda m: m["chapters"].append("ch91-new"))
    status, warnings, _ = tree.sphinx()
    assert warnings == ""
    assert f"({new}: a page it does not have)" in status
    assert not os.path.exists(tree.path("out/html/book.pdf"))
    assert "book.pdf" not in tree.html()


def test_a_pdf_built_beside_other_html_inputs_is_left_out(tree):
    """pdf-current: a file the HTML pages read that the PDF does not (a diagram's
    SVG), changed since the PDF was built: the PDF is left out from the next
    build on, even after a build that failed on it; rendered again unchanged, not."""
    svg = tree.path("build/diagrams/ch90-fixture/pic.svg")
    _fake_pdf(tree, html=[svg])
    _, warnings, _ = tree.sphinx()
    assert warnings == "" and 'href="book.pdf"' in tree.html()
    assert svg in json.loads(tree.read("doctrees/book-inputs.json"))
    _later(svg)
    _, warnings, _ = tree.sphinx()
    assert warnings == "" and 'href="book.pdf"' in tree.html()
    with open(svg, "a", encoding="utf-8") as f:
        f.write("<!-- drawn again -->\n")
    status, warnings, _ = tree.sphinx()
    assert warnings == ""
    assert f"({svg} changed since it was built)" in status
    assert "book.pdf" not in tree.html() and not os.path.exists(tree.path("out/html/book.pdf"))


def test_how_it_was_built_names_the_files_git_does_not_track(tree):
    """'How this book was built' says which commit the sources are at, and a
    chapter that git does not track (it is built as much as a committed one)."""
    import subprocess
    tree.write("repo/chapters/index.md", tree.read("repo/chapters/index.md")
               + "\n```{build-info}\n```\n")
    git = ["git", "-C", tree.repo, "-c", "user.name=t", "-c", "user.email=t@t",
           "-c", "commit.gpgsign=false"]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-q", "-m", "fixture"], check=True)
    commit = subprocess.run(git + ["rev-parse", "--short=12", "HEAD"], check=True,
                            capture_output=True, text=True).stdout.strip()
    tree.sphinx(strict=False)
    page = visible(tree.html("index"))
    assert f"The sources at commit {commit}." in page
    tree.write("repo/chapters/ch91-untracked.md", "# 91. Not committed\n")
    tree.sphinx(strict=False)
    page = visible(tree.html("index"))
    assert (f"The sources at commit {commit}, with 1 file that git does not track "
            "(chapters/ch91-untracked.md).") in page


def _kept_lines(tree, included, dropped):
    tree.write("build/kept-lines.json", json.dumps({"included": included, "dropped": dropped}))
    tree.edit_json("build/book-manifest.json", lambda m: m.update(kept_lines="kept-lines.json"))


def test_a_listing_shows_no_line_the_preprocessor_dropped(tree):
    """listings-compiled: a region whose line sits in a conditional group no
    translation unit compiled (an #if 0 region) is an error naming the line."""
    _kept_lines(tree, ["code/ch90-fixture/prog.cpp"], {"code/ch90-fixture/prog.cpp": [[6, 6]]})
    _, warnings, _ = tree.sphinx(strict=False)
    assert "listing: code/ch90-fixture/prog.cpp:6 is in a conditional group (lines 6\u20136) that no " \
           "program of this build compiles" in warnings, warnings
    _kept_lines(tree, ["code/ch90-fixture/prog.cpp"], {"code/ch90-fixture/prog.cpp": [[9, 9]]})
    _, warnings, _ = tree.sphinx(strict=False)
    assert "conditional group" not in warnings, "line 9 is outside every region shown"


def test_an_exercise_file_no_unit_included_is_not_listed(tree):
    """listings-compiled: a file in an exercise folder counts as compiled only
    when a translation unit included it (a header no starter includes is not)."""
    page = "repo/chapters/ch90-fixture.md"
    tree.write(page, tree.read(page) + "\n```{listing} exercises/ch90-fixture/ex01-fixture/answer.cpp\n```\n")
    _kept_lines(tree, ["code/ch90-fixture/prog.cpp"], {})
    _, warnings, _ = tree.sphinx(strict=False)
    assert "exercises/ch90-fixture/ex01-fixture/answer.cpp is compiled by no program" in warnings, warnings
    _kept_lines(tree, ["code/ch90-fixture/prog.cpp", "exercises/ch90-fixture/ex01-fixture/answer.cpp"], {})
    _, warnings, _ = tree.sphinx(strict=False)
    assert "compiled by no program" not in warnings, warnings


def test_the_instructor_edition_says_so_on_every_page_and_shows_each_set(tree):
    """Issue 48: the instructor edition carries a banner and its title on every page,
    and each test set's points, credit and test names (the hidden ones among them);
    the reader edition carries neither the banner nor a hidden test's name, but
    states the points of each set and how they are earned."""
    def with_sets(d):
        d["exercises"][0]["sets"] = {
            "visible": {"points": 3, "credit": "all-or-nothing", "tests": ["answers 42"]},
            "hidden": {"points": 2, "credit": "per-case", "tests": ["HIDDEN-TEST-NAME", "HIDDEN-TWO"]}}
    tree.edit_json("build/exercises.json", with_sets)
    _, warnings, _ = tree.sphinx(tags=["instructor"])
    assert warnings == ""
    pages = [f for f in os.listdir(tree.path("out/html")) if f.endswith(".html")]
    assert "index.html" in pages and "ch90-fixture.html" in pages and "genindex.html" in pages
    for f in pages:
        html = tree.read(f"out/html/{f}")
        assert '<div class="book-edition-banner" role="note">' in html, f
        assert "Instructor edition: not for students." in html, f
        assert "<title>" in html and "instructor edition, not for students" \
            in html[html.index("<title>"):html.index("</title>")], f
    page = visible(tree.html())
    assert "Hidden tests (the grader runs them; students do not get them), 2 points, per-case: " \
           "HIDDEN-TEST-NAME, HIDDEN-TWO." in page
    assert "Visible tests (in the student\u2019s bundle), 3 points, all-or-nothing: answers 42." in page \
        or "Visible tests (in the student's bundle), 3 points, all-or-nothing: answers 42." in page
    assert "Points: 3 for the visible tests, 2 for the hidden tests (the grader" in page
    assert "The hidden set earns its points split evenly over its test cases" in page

    shutil.rmtree(tree.path("out"))
    shutil.rmtree(tree.path("doctrees"))
    _, warnings, _ = tree.sphinx()
    assert warnings == ""
    for f in os.listdir(tree.path("out/html")):
        if f.endswith(".html"):
            html = tree.read(f"out/html/{f}")
            assert "book-edition-banner" not in html and "not for students" not in html, f
            assert "HIDDEN-TEST-NAME" not in html and "HIDDEN-TWO" not in html, f
    page = visible(tree.html())
    assert "Points: 3 for the visible tests, 2 for the hidden tests (the grader" in page
    assert "The visible set earns its points only when every one of its test cases passes." in page
