# SPDX-License-Identifier: MIT
"""The book's structure: one title per page, and chapter numbers that agree.

A chapter page chapters/chNN-<name>.md opens with its title, ``# N. Title``,
where N is the key's NN (``ch07-ghost.md`` titled "2." is an error); no two
chapters of the build share a number (two chapters numbered 1 would both be
"1." in the table of contents); and every page has exactly one level-one
heading (a second ``#`` heading would be a page inside the page). A chapter's
sections are pages of their own, chapters/chNN-<name>/MM-<section>.md, listed by
the chapter page's table of contents: a numbered section's title carries its
chapter's number ("# 2.3 ..." in chapter 2), and a page of the chapter's folder
named otherwise is an error. Each error names the file and the line.

In the PDF (latex_front_matter), the front page's sections ("What you need",
...) make one chapter of front matter, "About this book", and each page its
tables of contents include (the setup page, the chapters, the appendices) is a
chapter of its own after it, in order: LaTeX would otherwise make each of the
front page's sections a chapter and nest the real chapters inside the last.
"""
from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx import addnodes
from sphinx.util import logging

from .common import KEY_PART, chapter_of, is_chapter_page

if TYPE_CHECKING:
    from sphinx.application import Sphinx

logger = logging.getLogger(__name__)

FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
ATX_H1 = re.compile(r"^\s{0,3}#(?:\s+|$)(.*)$")
SETEXT_H1 = re.compile(r"^\s{0,3}=+\s*$")
NUMBERED = re.compile(r"^(\d+)\.\s")
SECTION_NUMBERED = re.compile(r"^(\d+)\.\d+\s")


def level_one_headings(text: str) -> list:
    """[(line, title)] of a MyST page's level-one headings, outside fenced blocks."""
    found, fence, previous = [], None, ""
    for n, line in enumerate(text.splitlines(), 1):
        m = FENCE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) \
                    and not line.strip()[len(m.group(1)):].strip():
                fence = None
            previous = ""
            continue
        if m:
            fence = m.group(1)
            previous = ""
            continue
        h = ATX_H1.match(line)
        if h:
            found.append((n, h.group(1).strip().rstrip("#").strip()))
        elif SETEXT_H1.match(line) and previous.strip():
            found.append((n - 1, previous.strip()))
        previous = line
    return found


def check_page(app: Sphinx, docname: str, source: list[str]) -> None:
    """source-read: one level-one heading, and a chapter's title number is its key's."""
    heads = level_one_headings(source[0])
    if not heads:
        logger.warning("the page has no title (a level-one heading, '# ...')",
                       location=(docname, 1))
        return
    for line, title in heads[1:]:
        logger.warning(f"a second level-one heading '# {title}' (the page's title is at line "
                       f"{heads[0][0]}): a page has one title; make this one '## {title}'",
                       location=(docname, line))
    key = chapter_of(docname)
    folder = docname.split("/")[0]
    if key is None and "/" in docname and KEY_PART.fullmatch(folder):
        logger.warning(f"a page in chapter {folder}'s folder is a section of it, named "
                       f"chapters/{folder}/NN-<name>.md (two digits, its place in the chapter, then "
                       "lower case letters, digits and hyphens)", location=(docname, 1))
    if key is None:
        return
    line, title = heads[0]
    number = int(key[2:4])
    if not is_chapter_page(docname):
        m = SECTION_NUMBERED.match(title)
        if m and int(m.group(1)) != number:
            logger.warning(f"section '{title}' is a page of chapter {key}, numbered {number}: "
                           f"write '# {number}.N ...', or move the page to its chapter",
                           location=(docname, line))
        return
    m = NUMBERED.match(title)
    if not m:
        logger.warning(f"chapter {key}'s title '{title}' should begin with its number, "
                       f"'# {number}. ...'", location=(docname, line))
    elif int(m.group(1)) != number:
        logger.warning(f"chapter {key} is titled '{title}', but its key numbers it {number}: "
                       f"write '# {number}. ...', or rename the chapter's key",
                       location=(docname, line))


def check_numbers(app: Sphinx) -> None:
    """builder-inited: no two chapters of this build share a number."""
    by_number: dict = {}
    for name in sorted(os.listdir(app.srcdir)):
        doc, ext = os.path.splitext(name)
        key = chapter_of(doc)
        if ext != ".md" or key != doc or any(
                re.fullmatch(p.replace("*", ".*"), name) for p in app.config.exclude_patterns):
            continue
        by_number.setdefault(key[2:4], []).append(key)
    for number, keys in sorted(by_number.items()):
        for other in keys[1:]:
            logger.warning(f"chapter {other} has the number {int(number)}, as {keys[0]} "
                           f"({keys[0]}.md) has: each chapter's key has a number of its own",
                           location=(other, 1))


FRONT_MATTER = "About this book"


def latex_front_matter(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """doctree-resolved of the PDF's one document (every page inlined into the
    front page's tree, each inside a start_of_file node where its toctree was):
    the front page's own text and sections become the chapter FRONT_MATTER, and
    the inlined pages follow it as chapters, in the order of the toctrees."""
    if app.builder.format != "latex" or docname != app.config.root_doc:
        return
    top = next(iter(doctree.findall(nodes.section)), None)
    if top is None:
        return

    def outermost(node: nodes.Node) -> list:
        """The pages inlined by node's own page, not those they inline (a chapter's
        sections stay in it), found from the top down: Sphinx inlines a page by its
        children alone, whose parent stays the page's own document."""
        if isinstance(node, addnodes.start_of_file):
            return [node]
        return [page for child in node.children for page in outermost(child)]

    pages = outermost(top)
    for page in pages:
        page.parent.remove(page)
    for wrapper in list(top.findall(nodes.compound)):
        if "toctree-wrapper" in wrapper.get("classes", []) and not wrapper.children:
            wrapper.parent.remove(wrapper)
    about = nodes.section(ids=["book-about-this-book"], names=[FRONT_MATTER.lower()],
                          classes=["book-front-matter"])
    about += nodes.title(text=FRONT_MATTER)
    for child in list(top.children):
        if isinstance(child, nodes.title):
            continue
        top.remove(child)
        about += child
    top += about
    top.extend(pages)


def setup(app: Sphinx) -> None:
    app.connect("source-read", check_page)
    app.connect("builder-inited", check_numbers)
    # before the glossary is added at the end (terms.latex_glossary, priority 500)
    app.connect("doctree-resolved", latex_front_matter, priority=400)
