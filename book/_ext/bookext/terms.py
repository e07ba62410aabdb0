"""The index of terms: a chapter defines a term in bold where it first uses it
(book/STYLE.md), so each bold term in a chapter's running text becomes an
index entry pointing there: the PDF's index and the site's index page list
the book's vocabulary, not only the library's API.

A bold phrase counts as a term when it stands in a paragraph of a section (not
in a list, a table, a box, an exercise or a question), has at most four words
and does not end a sentence (a bold lead-in such as "**The two paths do not
cost the same.**" is not a term).
"""
from __future__ import annotations

import re

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms import SphinxTransform

from .common import chapter_of

MAX_WORDS = 4
SENTENCE_END = re.compile(r"[.!?:;]\s*$")


def _is_term_place(strong: nodes.strong) -> bool:
    para = strong.parent
    if not isinstance(para, nodes.paragraph) or not isinstance(para.parent, nodes.section):
        return False
    section = para.parent
    while section is not None:
        if isinstance(section, nodes.section) and "book-exercise" in section.get("classes", []):
            return False
        section = section.parent
    return True


class TermIndex(SphinxTransform):
    default_priority = 840  # before the domains collect the index entries (SphinxDomains, 850)

    def apply(self, **kwargs):
        if chapter_of(self.env.docname) is None:
            return
        seen = set()
        for n, strong in enumerate(list(self.document.findall(nodes.strong))):
            if not _is_term_place(strong):
                continue
            term = " ".join(strong.astext().split())
            if not term or len(term.split()) > MAX_WORDS or SENTENCE_END.search(term):
                continue
            key = term.lower()
            if key in seen:
                continue
            seen.add(key)
            ident = f"term-{nodes.make_id(term)}"
            if ident in self.document.ids:
                ident = f"{ident}-{n}"
            target = nodes.target("", "", ids=[ident])
            entry = addnodes.index(entries=[("single", term, ident, "", None)], inline=True)
            parent = strong.parent
            at = parent.index(strong)
            parent.insert(at, target)
            parent.insert(at, entry)
            self.document.note_explicit_target(target)


def setup(app) -> None:
    app.add_transform(TermIndex)
