# SPDX-License-Identifier: MIT
"""incremental-equals-clean: the published HTML of a build made incrementally,
after edits to a chapter's title and a heading (each reverted), a record and a
listed source, is the HTML a clean build of the same tree publishes, file for
file. A failure names the pages that differ.

Sphinx writes again only pages whose sources changed, and keeps what it read
of the others; a title or a heading that was changed and reverted could stay
in another page's sidebar, "Next" link or cross-reference, and a record or a
listing could stay in a page that shows it. The build is the HTML step the
book's CMake runs (bookpy.build.html), on the fixture tree and a second
chapter that links the first. No part of a page is excused as volatile: the
fixture's pages hold no time or path of the build that differs between two
builds of one tree (the provenance's date is the record's)."""
from __future__ import annotations

import shutil

from bookpy.ext import publish

from .conftest import BOOK, Tree
from .test_build import _build_html, _published


def _tree(tmp_path) -> Tree:
    tree = Tree(str(tmp_path))
    # The book's configuration without its concepts and reviewed sentences (the fixture's
    # pages name none of the one and have their own of the other), as test_build does.
    shutil.copytree(BOOK, tree.path("repo/book"), dirs_exist_ok=True,
                    ignore=shutil.ignore_patterns("tests", "__pycache__", "concepts.txt",
                                                  "reviewed-sentences.json"))
    tree.write("repo/chapters/ch91-second.md",
               "# 91. Second\n\nA page after the fixture.\n\n## The anchor\n\nIts text.\n")
    tree.edit_json("build/book-manifest.json", lambda m: m["chapters"].append("ch91-second"))
    page = tree.read("repo/chapters/ch90-fixture.md")
    tree.write("repo/chapters/ch90-fixture.md",
               page.replace("A run, named relative to this chapter:",
                            "See [the anchor](ch91-second.md#the-anchor).\n\n"
                            "A run, named relative to this chapter:"))
    return tree


def _edit(tree, rel: str, old: str, new: str) -> None:
    text = tree.read(rel)
    assert old in text, (rel, old)
    tree.write(rel, text.replace(old, new))
    tree.touch_later(rel)


def test_an_incremental_build_publishes_what_a_clean_build_does(tmp_path):
    tree = _tree(tmp_path)
    built = _build_html(tree)
    assert built.returncode == 0, built.stdout
    second = "repo/chapters/ch91-second.md"
    # A chapter's title, changed and built, then reverted: other pages' sidebars and
    # "Next" links must not keep it.
    _edit(tree, second, "# 91. Second", "# 91. Renamed")
    assert _build_html(tree).returncode == 0
    assert "Renamed" in _published(tree)["ch90-fixture.html"]
    _edit(tree, second, "# 91. Renamed", "# 91. Second")
    assert _build_html(tree).returncode == 0
    # A heading another page links, changed (the link breaks: that build may fail),
    # then reverted: the link must resolve to it again.
    _edit(tree, second, "## The anchor", "## Another anchor")
    _build_html(tree)
    _edit(tree, second, "## Another anchor", "## The anchor")
    assert _build_html(tree).returncode == 0
    # A record's figure and a listed line.
    tree.edit_json("build/records/ch90-fixture/hello.json",
                   lambda d: d["results"]["ratio"].update(value=0.75))
    tree.touch_later("build/records/ch90-fixture/hello.json")
    listed = tree.read("repo/code/ch90-fixture/prog.cpp")
    tree.write("repo/code/ch90-fixture/prog.cpp", listed.replace("int ", "long ", 1))
    tree.touch_later("repo/code/ch90-fixture/prog.cpp")
    built = _build_html(tree)
    assert built.returncode == 0, built.stdout
    incremental = _published(tree)
    assert "0.750" in incremental["ch90-fixture.html"]
    # The same tree, built clean.
    for folder in ("sphinx-stage", "sphinx-doctrees", "html"):
        shutil.rmtree(tree.path(f"build/{folder}"))
    built = _build_html(tree)
    assert built.returncode == 0, built.stdout
    differences = publish.differences(incremental, _published(tree))
    assert not differences, "the incremental build differs from the clean one:\n" + "\n".join(
        differences)
