# SPDX-License-Identifier: MIT
"""Inline roles in MyST: report each at its own line, and never let a role
that Markdown broke apart reach the page as raw text.

MyST gives an inline role the line its paragraph (or table) starts on. The
role's own line is found by looking for its text from there to the end of the
block. A role whose text a Markdown table split at a '|' is left as raw text
(``{value}`run:x`` in one cell, ``.2f``` in the next): that is an error here.
"""
from __future__ import annotations

import re

from docutils import nodes
from docutils.transforms import Transform
from sphinx import addnodes
from sphinx.util import logging

logger = logging.getLogger(__name__)

_lines_cache: dict = {}


def _source_lines(source: str) -> list:
    if source not in _lines_cache:
        try:
            with open(source, encoding="utf-8") as f:
                _lines_cache[source] = f.read().splitlines()
        except (OSError, UnicodeDecodeError):
            _lines_cache[source] = []
    return _lines_cache[source]


def role_line(document: nodes.document, lineno: int, name: str, text: str, source: str | None = None) -> int:
    """The line of role `{name}`text`` at or after `lineno`, within its block."""
    return text_line(document, lineno, [f"{{{name}}}`{text}`",
                                        f"{{{name}}}`{text.replace('|', chr(92) + '|')}`",
                                        f"`{text}`"], source)


def text_line(document: nodes.document, lineno: int, needles: list, source: str | None = None) -> int:
    """The first line at or after `lineno`, within its block (up to a blank
    line), that holds one of `needles` (tried in turn); else `lineno`."""
    lines = _source_lines(source or document.get("source") or "")
    start = max(lineno or 1, 1)
    for needle in needles:
        for n in range(start, len(lines) + 1):
            if needle in lines[n - 1]:
                return n
            if n > start and not lines[n - 1].strip():
                break
    return lineno


MYST_ROLE = re.compile(r"^:([\w:.-]+):`(.*)`$", re.S)


def _block_line(node) -> int:
    while node is not None:
        if getattr(node, "line", None):
            return node.line
        node = node.parent
    return 0


class RoleLines(Transform):
    """Give each cross-reference the line of its role, so that an unresolved
    {ref} is reported there, not at its paragraph's first line."""
    default_priority = 100

    def apply(self) -> None:
        source = self.document.get("source") or ""
        for node in self.document.findall(addnodes.pending_xref):
            m = MYST_ROLE.match(node.rawsource or "")
            if not m:
                continue
            start = _block_line(node)
            line = role_line(self.document, start, m.group(1), m.group(2), node.source or source)
            if line:
                node.line = line


UNPARSED = re.compile(r"\{[a-zA-Z][\w:.-]*\}`")
SKIP = (nodes.literal, nodes.literal_block, nodes.raw, nodes.comment, nodes.problematic,
        nodes.system_message)


class UnparsedRoles(Transform):
    """A role left as raw text is an error at its line."""
    default_priority = 101

    def apply(self) -> None:
        for text in self.document.findall(nodes.Text):
            m = UNPARSED.search(text.astext())
            if not m or any(isinstance(a, SKIP) for a in _ancestors(text)):
                continue
            start = _block_line(text.parent)
            line = text_line(self.document, start, [text.astext()[m.start():].split("\n")[0]])
            inside_table = any(isinstance(a, nodes.table) for a in _ancestors(text))
            hint = (" (a Markdown table splits a cell at '|': inside a table write "
                    "{value}`run:result\\|format`)" if inside_table else "")
            snippet = text.astext()[m.start():m.start() + 60]
            logger.warning(f"role text '{snippet}' was not parsed and would be shown raw{hint}",
                           location=(self.document.settings.env.docname, line))


def _ancestors(node):
    node = node.parent
    while node is not None:
        yield node
        node = node.parent
