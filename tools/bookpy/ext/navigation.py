# SPDX-License-Identifier: MIT
"""How a reader finds their way: the front page's links, the sidebar and the index.

- The front page's roles: ``{chapter}`ch01-execution-model``` (a link, or the
  name where this build left the chapter out) and ``{repository}`text```.
- The sidebar lists each chapter's sections; the index lists concepts (the API
  appendix lists the API), a term's forms as one entry.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform

from .terms import glossary_key

if TYPE_CHECKING:
    from typing import Any

    from docutils.parsers.rst.states import Inliner
    from sphinx.application import Sphinx
    from sphinx.util.docutils import SphinxTranslator


#: Pages whose index entries are API names, not concepts.
API_PAGES = ("appendix-api",)


class chapter_link(nodes.Inline, nodes.TextElement):
    """A link to a chapter (attribute ``doc``), or its name where this build left
    the chapter out (BOOK_CHAPTERS)."""


def chapter_role(name: str, rawtext: str, text: str, lineno: int, inliner: Inliner,
                 options: dict[str, Any] | None = None,
                 content: list[str] | None = None) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    """{chapter}`ch01-execution-model` or {chapter}`text <ch01-execution-model>`."""
    import re
    m = re.match(r"^(.*?)\s*<([^<>]+)>$", text.strip())
    label, doc = (m.group(1), m.group(2)) if m else ("", text.strip())
    return [chapter_link(rawtext, label, doc=doc)], []


def repository_role(name: str, rawtext: str, text: str, lineno: int, inliner: Inliner,
                    options: dict[str, Any] | None = None,
                    content: list[str] | None = None) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    """{repository}`the code`: a link to book_repository_url where one is set;
    else the text, and that no public address is configured."""
    return [repository_link_node(rawtext, text.strip())], []


class repository_link_node(nodes.Inline, nodes.TextElement):
    pass


class FrontPageLinks(SphinxPostTransform):
    default_priority = 100

    def run(self, **kwargs: Any) -> None:
        env, config = self.env, self.app.config
        for node in list(self.document.findall(chapter_link)):
            doc = node["doc"]
            title = env.titles[doc].astext() if doc in env.titles else doc
            label = node.astext() or title
            if doc in env.all_docs and self.app.builder.format == "html":
                uri = self.app.builder.get_relative_uri(env.docname, doc)
                node.replace_self(nodes.reference("", label, refuri=uri, internal=True))
            elif doc in env.all_docs:
                node.replace_self(nodes.Text(label))  # the PDF: the chapters follow in order
            else:
                node.replace_self(nodes.Text(f"{label} (not in this build)"))
        for node in list(self.document.findall(repository_link_node)):
            url = (config.book_repository_url or "").rstrip("/")
            label = node.astext()
            from .downloads import source_archive_link
            source = source_archive_link(self.app, self.env.docname)
            if url:
                node.replace_self(nodes.reference("", label, refuri=url))
            elif source is not None:
                node.replace_self([nodes.Text(label + ": this copy of the book was built without a public "
                                              "address, so it offers the source it was built from, without "
                                              "the exercises' solutions and hidden tests, which are "
                                              "the instructors', "),
                                   source[0], nodes.Text(" (commit "),
                                   nodes.literal(source[1], source[1]),
                                   nodes.Text("; every output block's \u201cRun it yourself\u201d "
                                              "links it too)")])
            else:
                node.replace_self([nodes.Text(label + " (this copy of the book was built without its "
                                              "public address: a build given "),
                                   nodes.literal("BOOK_REPOSITORY_URL", "BOOK_REPOSITORY_URL"),
                                   nodes.Text(" links it here, and from every page's footer)")])


def navigation_by_section(context: dict[str, Any]) -> None:
    """The sidebar lists each chapter's sections, not only its title (furo lists
    titles only): furo's own tree, built from the toctree with sections. A
    chapter's sections fold (furo's checkboxes); the current one is open."""
    toctree = context.get("toctree")
    if not toctree:
        return
    try:
        from furo.navigation import get_navigation_tree
    except ImportError:
        return
    tree = toctree(collapse=False, titles_only=False, maxdepth=2, includehidden=True)
    if tree:
        context["furo_navigation_tree"] = get_navigation_tree(tree)


def concepts_only(context: dict[str, Any]) -> None:
    """The index lists the book's concepts: an entry whose every link is to the
    API appendix (a book:: name; the appendix lists them all) is left out."""
    entries = context.get("genindexentries")
    if not entries:
        return
    kept = []
    for letter, items in entries:
        keep = []
        for name, (links, subitems, key) in items:
            def concept(uri: str) -> bool:
                return not uri.split("#")[0].startswith(API_PAGES)
            links = [link for link in links if concept(link[1])]
            subitems = [(sub, [link for link in sublinks if concept(link[1])])
                        for sub, sublinks in subitems]
            subitems = [(sub, sublinks) for sub, sublinks in subitems if sublinks]
            if links or subitems:
                keep.append((name, (links, subitems, key)))
        if keep:
            kept.append((letter, one_entry_per_term(keep)))
    context["genindexentries"] = kept


def one_entry_per_term(items: list) -> list:
    """[(name, (links, subitems, key))] with a term's forms made one entry: its
    plural ("bank conflicts" beside "bank conflict") and its case ("Shared
    memory", bold at the start of a sentence, beside "shared memory"), as the
    glossary keeps them (terms.glossary_key). The entry is named by the
    singular, in lower case where one form is; its links are all the forms'."""
    singulars = {name.lower() for name, _ in items}
    merged: dict = {}
    for name, (links, subitems, key) in items:
        k = glossary_key(name, singulars)
        if k not in merged:
            merged[k] = [name, list(links), list(subitems), key]
            continue
        entry = merged[k]
        # The singular (the shorter form), then the form in lower case.
        entry[0] = min(entry[0], name, key=lambda n: (len(n), n != n.lower()))
        entry[1] += [link for link in links if link not in entry[1]]
        entry[2] += [sub for sub in subitems if sub not in entry[2]]
    return [(name, (links, subitems, key)) for name, links, subitems, key in merged.values()]


def page_context(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
                 doctree: nodes.document | None) -> None:
    if app.builder.format == "html":
        navigation_by_section(context)
        if pagename == "genindex":
            concepts_only(context)


def _replaced(self: SphinxTranslator, node: nodes.Node) -> None:
    """A link node left to a builder: FrontPageLinks replaces every one."""


def setup(app: Sphinx) -> None:
    plain = (_replaced, _replaced)
    app.add_node(chapter_link, html=plain, latex=plain, text=plain, man=plain, texinfo=plain)
    app.add_node(repository_link_node, html=plain, latex=plain, text=plain, man=plain, texinfo=plain)
    app.add_role("chapter", chapter_role)
    app.add_role("repository", repository_role)
    app.add_post_transform(FrontPageLinks)
    app.connect("html-page-context", page_context, priority=900)  # after furo's
