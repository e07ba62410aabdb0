# SPDX-License-Identifier: MIT
"""The index of terms: a chapter defines a term in bold where it first uses it
(book/STYLE.md), so each bold term in a chapter's running text becomes an
index entry pointing there: the PDF's index and the site's index page list
the book's vocabulary, not only the library's API.

The glossary (glossary.html, linked from every page's sidebar, and the PDF's
last chapter) is written, not extracted: a chapter defines each of its terms in
a ``define`` directive placed right after the paragraph that first uses it, so
that the definition is read, and changed, beside the text it summarises:

    ```{define} divergence
    Lanes of one warp taking different paths at a branch, so that the warp runs
    each path in turn with the other lanes masked off.
    ```

The directive shows nothing on the page. Its text is one sentence that stands
alone: a definition that starts with a pronoun ("That is divergence."), that
says nothing but the term ("Temporal blocking is temporal blocking.") or that
points back at the text ("... one step further.") is an error at its line
(``definition_problem``). In a build of every chapter, a term a chapter sets in
bold, and a concept of book/concepts.txt, without a definition is an error at
its line (``terms_defined``).

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
from sphinx.util.docutils import SphinxDirective

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
                                  book_line=strong.parent.line or 0)
            entry = addnodes.index(entries=[("single", term, ident, "", None)], inline=True)
            parent = strong.parent
            at = parent.index(strong)
            parent.insert(at, target)
            parent.insert(at, entry)
            self.document.note_explicit_target(target)


SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")


#: Words a definition may not start with: a pronoun points back at text the
#: glossary does not show.
PRONOUNS = frozenset("it its it's this that these those they them their there here he she we "
                     "you which such".split())
#: Words that say nothing of a term: "This is temporal blocking." has none but them.
EMPTY_WORDS = frozenset("a an the is are was be of to in on at by for and or as it its this that "
                        "these those they there called named known".split())
WORD = re.compile(r"[A-Za-z0-9_'’+-]+")
#: Words that point back at the text around the definition, which the glossary
#: does not show ("The prefetch takes the overlap one step further.").
POINTING_BACK = frozenset("further again also above below previous latter former likewise".split())


def definition_problem(term: str, text: str) -> str | None:
    """Why a glossary definition of `term` cannot stand alone, or None: empty, not
    one sentence ending in a full stop, starting with a pronoun, or only
    repeating the term."""
    text = " ".join(text.split())
    if not text:
        return f"the definition of '{term}' is empty"
    words = WORD.findall(text)
    if words and words[0].lower().replace("’", "'") in PRONOUNS:
        return (f"the definition of '{term}' starts with a pronoun ('{words[0]}'): write a sentence "
                "that stands alone, as the glossary shows it without the text around it")
    if not text.endswith("."):
        return f"the definition of '{term}' is not a sentence ending in a full stop"
    if len(SENTENCE.split(text)) > 1:
        return f"the definition of '{term}' is more than one sentence: the glossary shows one"
    back = [w for w in words if w.lower() in POINTING_BACK]
    if back:
        return (f"the definition of '{term}' points back at the text around it ('{back[0]}'): "
                "the glossary shows it alone")
    own = {w.lower() for w in WORD.findall(term)}
    own |= {w + "s" for w in own} | {w + "es" for w in own}
    said = [w for w in words if w.lower() not in own and w.lower() not in EMPTY_WORDS]
    if len(said) < 3:
        return (f"the definition of '{term}' only repeats the term ('{text}'): say what it is "
                "in words of its own")
    return None


class Define(SphinxDirective):
    """```{define} <term>```: the glossary's definition of a term, beside the
    paragraph that first uses it; nothing on the page."""
    required_arguments = 1
    final_argument_whitespace = True
    has_content = True

    def run(self) -> list[nodes.Node]:
        term = " ".join(self.arguments[0].split())
        text = " ".join(" ".join(self.content).split())
        why = definition_problem(term, text)
        if why:
            return [self.state.document.reporter.error(why, line=self.lineno)]
        ident = f"define-{nodes.make_id(term)}"
        target = nodes.target("", "", ids=[ident], book_define=term, book_definition=text,
                              book_line=self.lineno)
        self.state.document.note_explicit_target(target)
        return [target]


class GlossaryCollector(PerPageCollector):
    """Per page, its definitions: [(term, anchor, sentence)] in env.book_glossary."""
    attr = "book_glossary"

    def found(self, doctree: nodes.document) -> list[tuple[str, str, str]]:
        # (docutils moves an empty target's id to the element after it, and
        # leaves the target a refid to it.)
        return [(n["book_define"], n["ids"][0] if n["ids"] else n["refid"], n.get("book_definition", ""))
                for n in doctree.findall(nodes.target) if n.get("book_define")]


class BoldTermCollector(PerPageCollector):
    """Per page, the terms it sets in bold: [(term, line)] in env.book_bold_terms."""
    attr = "book_bold_terms"

    def found(self, doctree: nodes.document) -> list[tuple[str, int]]:
        return [(n["book_term"], n.get("book_line") or 0)
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
            '<p>The terms the chapters define, each with its definition and a link to where the '
            'chapter first uses it. The <a class="reference internal" href="genindex.html">index of concepts</a> '
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
    section += nodes.paragraph(text="The terms the chapters define, each with its definition and where "
                                    "the chapter first uses it. The index lists every place a concept "
                                    "is discussed.")
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


def terms_defined(app: Sphinx, env: BuildEnvironment) -> None:
    """env-check-consistency: in a build of every chapter, each term a chapter
    sets in bold and each concept of book/concepts.txt has a definition (a
    ``define`` directive) in some chapter, for the glossary."""
    import glob
    import os
    from sphinx.util import logging
    chapters = {os.path.splitext(os.path.basename(f))[0]
                for f in glob.glob(os.path.join(app.srcdir, "ch[0-9][0-9]-*.md"))}
    if not chapters or not chapters <= set(env.found_docs):
        return
    defined = {t.lower() for found in GlossaryCollector.pages(env).values() for t, _a, _s in found}
    log = logging.getLogger(__name__)
    for docname, terms in sorted(BoldTermCollector.pages(env).items()):
        for term, line in terms:
            if glossary_key(term, defined) not in defined:
                log.warning(f"the term '{term}' is set in bold, so the glossary lists it, but no chapter "
                            "defines it: add a ```{define} ...``` after the paragraph",
                            location=(docname, line))
    path = os.path.join(app.config.book_source_root or "", "book", "concepts.txt")
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                if not line.strip() or line.lstrip().startswith("#"):
                    continue
                names = [x.strip().strip("`").lower() for x in line.split("|")]
                if not any(glossary_key(x, defined) in defined for x in names):
                    log.warning(f"{path}:{n}: the concept '{names[0]}' has no definition for the "
                                "glossary: add a ```{define} ...``` after the paragraph of the "
                                "chapter that first uses it")


def setup(app: Sphinx) -> None:
    app.add_directive("define", Define)
    app.add_env_collector(BoldTermCollector)
    app.connect("env-check-consistency", terms_defined)
    app.add_env_collector(ConceptCollector)
    app.connect("env-check-consistency", concepts_indexed)
    app.add_transform(TermIndex)
    app.add_transform(ConceptIndex)
    app.add_env_collector(GlossaryCollector)
    app.connect("html-collect-pages", collect_glossary)
    app.connect("doctree-resolved", latex_glossary)
    app.connect("html-page-context", page_context)
