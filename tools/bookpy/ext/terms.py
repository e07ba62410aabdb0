"""The index of terms: a chapter defines a term in bold where it first uses it
(book/STYLE.md), so each bold term in a chapter's running text becomes an
index entry pointing there: the PDF's index and the site's index page list
the book's vocabulary, not only the library's API. The same terms make the
glossary (glossary.html, linked from every page's sidebar, and the PDF's last
chapter): each term with the sentence that defines it, linked to where it does.

A bold phrase counts as a term when it stands in a paragraph of a section (not
in a list, a table, a box, an exercise or a question), has at most four words
and does not end a sentence (a bold lead-in such as "**The two paths do not
cost the same.**" is not a term).

Every concept of book/concepts.txt is in the index of the whole book: in a
build of every chapter, a concept that no chapter names in its running text
(so the index would silently not list it) is a warning at its line of
concepts.txt (concepts_indexed).
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms import SphinxTransform

from .common import PerPageCollector, chapter_of

if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

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


def read_concepts(path: str) -> list:
    """[(concept, [patterns], code)] from book/concepts.txt (see its header)."""
    import os
    out = []
    if not path or not os.path.exists(path):
        return out
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            names = [n.strip() for n in line.split("|") if n.strip()]
            code = names[0].startswith("`") and names[0].endswith("`")
            names = [n.strip("`") for n in names]
            # (An apostrophe as typed, or as the page shows it after Sphinx's smart
            # quotes: "Little's law" is "Little’s law" in the doctree.)
            patterns = [re.compile(r"(?<![\w-])" + re.escape(n).replace("'", "['’]") + r"(?![\w-])",
                                   0 if code else re.I)
                        for n in names]
            out.append((names[0], patterns, code))
    return out


def _in_running_text(node) -> bool:
    """In a paragraph or title of a section, outside boxes, lists of options and code."""
    p = node.parent
    while p is not None and not isinstance(p, nodes.section):
        if isinstance(p, (nodes.literal_block, nodes.table, nodes.admonition, nodes.figure,
                          nodes.caption, nodes.container, addnodes.index)):
            return False
        p = p.parent
    return p is not None


class ConceptIndex(SphinxTransform):
    """Each concept of book/concepts.txt, in the index, at its first mention in
    each chapter (a heading's section, or the paragraph)."""
    default_priority = 841

    def apply(self, **kwargs: Any) -> None:
        if chapter_of(self.env.docname) is None:
            return
        import os
        path = os.path.join(self.config.book_source_root or "", "book", "concepts.txt")
        self.env.note_dependency(path)
        for n, (concept, patterns, code) in enumerate(read_concepts(path)):
            found = None
            for text in self.document.findall(nodes.Text):
                parent = text.parent
                if code != isinstance(parent, nodes.literal) or not _in_running_text(parent):
                    continue
                block = parent
                while block is not None and not isinstance(block, (nodes.paragraph, nodes.title)):
                    block = block.parent
                if block is None or not isinstance(block.parent, nodes.section):
                    continue
                if any(p.search(text.astext()) for p in patterns):
                    found = block
                    break
            if found is None:
                continue
            if isinstance(found, nodes.title):
                section = found.parent
                ident = section["ids"][0]
                section.insert(section.index(found) + 1,
                               addnodes.index(entries=[("single", concept, ident, "", None)], inline=False,
                                              book_concept=True))
            else:
                ident = f"concept-{nodes.make_id(concept) or n}"
                if ident in self.document.ids:
                    ident = f"{ident}-{n}"
                target = nodes.target("", "", ids=[ident])
                found.insert(0, target)
                found.insert(0, addnodes.index(entries=[("single", concept, ident, "", None)], inline=True,
                                               book_concept=True))
                self.document.note_explicit_target(target)


class TermIndex(SphinxTransform):
    default_priority = 840  # before the domains collect the index entries (SphinxDomains, 850)

    def apply(self, **kwargs: Any) -> None:
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
            target = nodes.target("", "", ids=[ident], book_term=term,
                                  book_definition=defining_sentence(strong))
            entry = addnodes.index(entries=[("single", term, ident, "", None)], inline=True)
            parent = strong.parent
            at = parent.index(strong)
            parent.insert(at, target)
            parent.insert(at, entry)
            self.document.note_explicit_target(target)


SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")


def defining_sentence(strong: nodes.strong) -> str:
    """The sentence of the paragraph in which the term stands."""
    text = " ".join(strong.parent.astext().split())
    term = " ".join(strong.astext().split())
    for sentence in SENTENCE.split(text):
        if term in sentence:
            return sentence
    return text


class GlossaryCollector(PerPageCollector):
    """Per page, its terms: [(term, anchor, sentence)] in env.book_glossary."""
    attr = "book_glossary"

    def found(self, doctree: nodes.document) -> list[tuple[str, str, str]]:
        return [(n["book_term"], n["ids"][0], n.get("book_definition", ""))
                for n in doctree.findall(nodes.target) if n.get("book_term")]


def glossary_key(term: str, singulars: set) -> str:
    """One key for a term and its plural ("bank conflict", "bank conflicts"), in any case."""
    key = term.lower()
    for ending in ("es", "s"):
        if key.endswith(ending) and key[:-len(ending)] in singulars:
            return key[:-len(ending)]
    return key


def glossary_entries(app: Sphinx) -> list:
    """[(term, docname, anchor, sentence)], sorted by term, of the pages built: one
    entry per term where two pages set the same term or its plural in bold: the
    first chapter's (chapter keys sort in the book's order; other pages come after)."""
    found = []
    for docname, terms in GlossaryCollector.pages(app.env).items():
        if docname not in app.env.all_docs:
            continue
        for term, anchor, sentence in terms:
            found.append((term, docname, anchor, sentence))
    singulars = {e[0].lower() for e in found}
    first = {}
    for entry in sorted(found, key=lambda e: (chapter_of(e[1]) is None, e[1], e[0].lower())):
        first.setdefault(glossary_key(entry[0], singulars), entry)
    return sorted(first.values(), key=lambda e: (e[0].lower(), e[1]))


def collect_glossary(app: Sphinx) -> Iterator[tuple[str, dict[str, Any], str]]:
    """html-collect-pages: glossary.html."""
    import html as h
    if app.builder.format != "html":
        return
    entries = glossary_entries(app)
    if not entries:
        return
    rows = []
    for term, docname, anchor, sentence in entries:
        uri = h.escape(app.builder.get_relative_uri("glossary", docname) + "#" + anchor)
        title = app.env.titles[docname].astext() if docname in app.env.titles else docname
        rows.append(f'<dt id="glossary-{h.escape(anchor)}">{h.escape(term)}</dt>\n'
                    f'<dd><p>{h.escape(sentence)} <a class="reference internal" href="{uri}">'
                    f'({h.escape(title)})</a></p></dd>')
    body = ('<section id="glossary"><h1>Glossary'
            '<a class="headerlink" href="#glossary" title="Link to this heading">#</a></h1>\n'
            '<p>The terms the chapters define, each with the sentence that defines it and a link to '
            'where it does. The <a class="reference internal" href="genindex.html">index of concepts</a> '
            'lists every place a concept is discussed.</p>\n'
            f'<dl class="glossary book-glossary">\n{chr(10).join(rows)}\n</dl></section>')
    app.book_collected_pages = set(getattr(app, "book_collected_pages", ())) | {"glossary"}
    yield "glossary", {"title": "Glossary", "body": body, "parents": [], "display_toc": False}, "page.html"


def latex_glossary(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """doctree-resolved of the PDF's one document: the glossary as its last
    chapter (before the index), each definition linked to where the chapter
    gives it, with its page (latex_show_pagerefs)."""
    if app.builder.format != "latex" or docname != app.config.root_doc:
        return
    entries = glossary_entries(app)
    if not entries:
        return
    top = next(iter(doctree.findall(nodes.section)), None)
    if top is None:
        return
    section = nodes.section(ids=["glossary"], names=["glossary"], classes=["book-glossary"])
    section += nodes.title("Glossary", "Glossary")
    section += nodes.paragraph(text="The terms the chapters define, each with the sentence that defines "
                                    "it and where it does. The index lists every place a concept is "
                                    "discussed.")
    items = nodes.definition_list(classes=["glossary", "book-glossary"])
    for term, page, anchor, sentence in entries:
        title = app.env.titles[page].astext() if page in app.env.titles else page
        item = nodes.definition_list_item()
        item += nodes.term(term, term, ids=[f"glossary-{anchor}"])
        para = nodes.paragraph()
        para += nodes.Text(sentence + " See ")
        ref = nodes.reference("", "", internal=True, refuri=f"%{page}#{anchor}")
        ref += nodes.Text(title)
        para += ref
        para += nodes.Text(".")
        definition = nodes.definition()
        definition += para
        item += definition
        items += item
    section += items
    top += section


def page_context(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
                 doctree: nodes.document | None) -> None:
    context["book_glossary"] = bool(glossary_entries(app)) if app.builder.format == "html" else False


class ConceptCollector(PerPageCollector):
    """The concepts each chapter put in the index (ConceptIndex)."""
    attr = "book_concepts"

    def found(self, doctree: nodes.document) -> list[str]:
        return sorted({entry[1] for node in doctree.findall(addnodes.index)
                       if node.get("book_concept") for entry in node["entries"]})


def concepts_indexed(app: Sphinx, env: BuildEnvironment) -> None:
    """env-check-consistency: in a build of every chapter, each concept of
    book/concepts.txt is in the index."""
    import glob
    import os
    from sphinx.util import logging
    chapters = {os.path.splitext(os.path.basename(f))[0]
                for f in glob.glob(os.path.join(app.srcdir, "ch[0-9][0-9]-*.md"))}
    if not chapters or not chapters <= set(env.found_docs):
        return  # a build of some chapters: their concepts are a part of the book's
    path = os.path.join(app.config.book_source_root or "", "book", "concepts.txt")
    indexed = {c for found in ConceptCollector.pages(env).values() for c in found}
    lines = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                name = line.split("|")[0].strip().strip("`")
                if name and not line.lstrip().startswith("#"):
                    lines.setdefault(name, n)
    log = logging.getLogger(__name__)
    for concept, _patterns, _code in read_concepts(path):
        if concept not in indexed:
            log.warning(f"{path}:{lines.get(concept, 1)}: the concept '{concept}' is named in no "
                        "chapter's running text (a paragraph or heading of a section), so the index "
                        "would not list it: name it there, or remove the line")


def setup(app: Sphinx) -> None:
    app.add_env_collector(ConceptCollector)
    app.connect("env-check-consistency", concepts_indexed)
    app.add_transform(TermIndex)
    app.add_transform(ConceptIndex)
    app.add_env_collector(GlossaryCollector)
    app.connect("html-collect-pages", collect_glossary)
    app.connect("doctree-resolved", latex_glossary)
    app.connect("html-page-context", page_context)
