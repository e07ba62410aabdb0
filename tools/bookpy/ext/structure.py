"""The book's structure: one title per page, and chapter numbers that agree.

A chapter page chapters/chNN-<name>.md opens with its title, ``# N. Title``,
where N is the key's NN (``ch07-ghost.md`` titled "2." is an error); no two
chapters of the build share a number (two chapters numbered 1 would both be
"1." in the table of contents); and every page has exactly one level-one
heading (a second ``#`` heading would be a page inside the page). Each error
names the file and the line.
"""
from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

from sphinx.util import logging

from .common import chapter_of

if TYPE_CHECKING:
    from sphinx.application import Sphinx

logger = logging.getLogger(__name__)

FENCE = re.compile(r"^\s{0,3}(`{3,}|~{3,})")
ATX_H1 = re.compile(r"^\s{0,3}#(?:\s+|$)(.*)$")
SETEXT_H1 = re.compile(r"^\s{0,3}=+\s*$")
NUMBERED = re.compile(r"^(\d+)\.\s")


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
    if key is None:
        return
    line, title = heads[0]
    number = int(key[2:4])
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


def setup(app: Sphinx) -> None:
    app.connect("source-read", check_page)
    app.connect("builder-inited", check_numbers)
