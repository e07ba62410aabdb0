# SPDX-License-Identifier: MIT
"""Text that is not what it seems: bidirectional controls and invisible characters.

A bidirectional override or isolate (U+202A-202E, U+2066-2069, U+061C, U+200E,
U+200F) reorders what a reader sees: a listing that shows
``if (is_uniform) { paths = 2; }`` can compile to ``paths = 2`` run always, an
output "0.12" can read "21.0" ("Trojan Source", CVE-2021-42574). A zero-width
character (U+200B-200D, U+2060-2064, U+FEFF) hides inside a word or a number.
None of them has a use in this book, so each is refused wherever the reader
would see it: in a chapter's prose (at its file and line), in a listing (at the
listed file's line) and in a run's output or recorded text (the record, its
stream and line, at the directive's line).
"""
from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING

from sphinx.util import logging

if TYPE_CHECKING:
    from collections.abc import Callable

    from sphinx.application import Sphinx

logger = logging.getLogger(__name__)

#: Every Unicode format character (category Cf): beside the bidirectional controls
#: and zero-width characters above, the soft hyphen, the Mongolian vowel separator,
#: the interlinear annotations, the tags and the rest. English prose, C++ and a
#: program's output need none of them, so none is exempt.
FORMAT = "".join(chr(c) for c in range(0x110000) if unicodedata.category(chr(c)) == "Cf")
HIDDEN = re.compile("[" + re.escape(FORMAT) + "]")


def find(text: str) -> tuple[int, int, str] | None:
    """(line, column, description) of the first hidden character of text, both
    1-based, or None."""
    m = HIDDEN.search(text)
    if not m:
        return None
    line = text.count("\n", 0, m.start()) + 1
    col = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
    ch = m.group()
    return line, col, f"U+{ord(ch):04X} {unicodedata.name(ch, 'invisible character')}"


def problem(what: Callable[[int], str], text: str) -> str | None:
    """The error for the first hidden character of text, `what` naming where it is
    (a callable of the line number gives e.g. 'prog.cpp:12'), or None."""
    hit = find(text)
    if hit is None:
        return None
    line, col, name = hit
    return (f"{what(line)}, column {col}: {name}: a bidirectional or invisible character "
            "makes the text read otherwise than it is (Trojan Source); remove it")


def check_source(app: Sphinx, docname: str, source: list[str]) -> None:
    """source-read: a page's own text, before MyST parses it."""
    text = source[0]
    msg = problem(lambda line: f"line {line}", text)
    if msg:
        line = find(text)[0]
        logger.warning(msg.replace(f"line {line}, ", "", 1), location=(docname, line))


def setup(app: Sphinx) -> None:
    app.connect("source-read", check_source)
