# SPDX-License-Identifier: MIT
"""Where a listing's caption links to, and a page per listed source file.

A listing's caption names the file and the lines it shows, as a link:

- to the repository (``book_repository_url``, e.g. https://github.com/o/r, at
  ``book_repository_ref``; GitHub's ``/blob/<ref>/<path>#L<a>-L<b>`` form, or
  any form given as ``book_repository_line_url``), where one is configured;
- otherwise to a page of this site that shows the whole file as the build read
  it, with numbered lines (``_code/<path>.html``); the lines the listing shows
  are highlighted (``?lines=a-b`` read by book.js) and scrolled to (``#L-a``).

In the PDF the caption names the file and lines, linked only to a repository.
Where the repository is configured, every page's footer names it, and a page
made from a file of chapters/ links that file (an icon at the top of the page
and a line in the footer).
"""
from __future__ import annotations

import html
import os
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging

from .common import BookError, PerPageCollector, source_path, visible_text

if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import Any

    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.util.docutils import SphinxTranslator

logger = logging.getLogger(__name__)
CODE_PAGES = "_code"
GITHUB_LINES = "{url}/blob/{ref}/{path}{lines}"
#: The highlighting language of a listed file, by its extension.
LANGUAGES = {".cpp": "cpp", ".hpp": "cpp", ".cu": "cuda", ".cuh": "cuda", ".h": "cpp", ".cc": "cpp",
             ".py": "python", ".cmake": "cmake", ".txt": "text", ".json": "json", ".sh": "bash",
             ".md": "markdown"}


class source_ref(nodes.Inline, nodes.TextElement):
    """A file of the repository and the line ranges a listing shows:
    attributes ``path`` (from the repository root) and ``ranges`` [(a, b)]."""


def source_ref_node(path: str, ranges: list, text: str) -> source_ref:
    node = source_ref("", "", path=path, ranges=[tuple(r) for r in ranges])
    node += nodes.literal(text, text)
    return node


def repository_link(config: Config, path: str, ranges: list) -> str | None:
    url = (config.book_repository_url or "").rstrip("/")
    if not url:
        return None
    lines = ""
    if ranges:
        first, last = ranges[0][0], ranges[-1][1]
        lines = f"#L{first}" if first == last else f"#L{first}-L{last}"
    form = config.book_repository_line_url or GITHUB_LINES
    return form.format(url=url, ref=config.book_repository_ref or "main", path=path, lines=lines)


def local_link(ranges: list) -> str:
    if not ranges:
        return ""
    spans = ",".join(f"{a}-{b}" for a, b in ranges)
    return f"?lines={spans}#L-{ranges[0][0]}"


def path_html(text: str) -> nodes.raw:
    """A file's path (and the lines after it) as inline code that breaks only after
    a '/' or at a space, never inside a name (``ch01-execution-`` / ``model``):
    each piece ends in '/' and does not break, with a <wbr> between pieces."""
    words = []
    for word in text.split(" "):
        parts = [p for p in word.replace("/", "/\0").split("\0") if p]
        words.append("<wbr>".join(f'<span class="pre book-path-part">{html.escape(p)}</span>' for p in parts))
    return nodes.raw("", f'<code class="docutils literal notranslate book-path">{" ".join(words)}</code>',
                     format="html")


class SourceLinks(SphinxPostTransform):
    """Each source_ref becomes a link (see the module's text) or, where there
    is nothing to link to, its text."""
    default_priority = 100

    def run(self, **kwargs: Any) -> None:
        config, builder = self.app.config, self.app.builder
        for node in list(self.document.findall(source_ref)):
            url = repository_link(config, node["path"], node["ranges"])
            if url is None and builder.format == "html":
                page = builder.get_relative_uri(self.env.docname, f"{CODE_PAGES}/{node['path']}")
                url = page + local_link(node["ranges"])
                internal = True
            else:
                internal = False
            children = node.children
            if builder.format == "html":
                children = [path_html(node.astext())]
            if url is None:
                node.replace_self(children)
                continue
            ref = nodes.reference("", "", *children, refuri=url, internal=internal,
                                  classes=["book-source-link"])
            node.replace_self(ref)


class SourceCollector(PerPageCollector):
    """Per page, the repository files its listings show: env.book_sources."""
    attr = "book_sources"

    def found(self, doctree: nodes.document) -> set[str]:
        return {n["path"] for n in doctree.findall(source_ref)}


def _source_pages(app) -> dict:
    """{path: [docnames that list it]}."""
    pages: dict = {}
    for docname, paths in sorted(SourceCollector.pages(app.env).items()):
        for path in paths:
            pages.setdefault(path, []).append(docname)
    return pages


def collect_pages(app: Sphinx) -> Iterator[tuple[str, dict[str, Any], str]]:
    """html-collect-pages: _code/<path> for every file a listing shows."""
    if app.builder.format != "html" or app.config.book_repository_url:
        return
    highlighter = app.builder.highlighter
    for path, docnames in sorted(_source_pages(app).items()):
        try:
            full = source_path(app.config.book_source_root, path, app.config.book_build_dir)
            with open(full, encoding="utf-8") as f:
                code = f.read()
        except (BookError, OSError, UnicodeDecodeError) as e:
            logger.warning(f"source page for {path}: {e}")
            continue
        language = LANGUAGES.get(os.path.splitext(path)[1], "text")
        body = highlighter.highlight_block(visible_text(code).rstrip("\n"), language,
                                           linenos="inline", linespans="L")
        pagename = f"{CODE_PAGES}/{path}"
        links = ", ".join(
            f'<a href="{html.escape(app.builder.get_relative_uri(pagename, d))}">'
            f"{html.escape(app.env.titles[d].astext() if d in app.env.titles else d)}</a>"
            for d in docnames)
        lines = code.count("\n") + (0 if code.endswith("\n") else 1)
        about = (f'<p class="book-source-about">The whole file, {lines} lines, as this build '
                 f"read it. Listings of it appear in: {links}.</p>")
        body = (f'<h1>{html.escape(path)}<a class="headerlink" href="#" title="Top">#</a></h1>\n'
                f"{about}\n"
                f'<div class="highlight-{language} notranslate book-source">{body}</div>')
        yield pagename, {"title": path, "body": body, "parents": [], "display_toc": False}, "page.html"


def prune_code_pages(app: Sphinx) -> None:
    """Remove the pages of files no listing shows any more."""
    base = os.path.join(app.outdir, CODE_PAGES)
    keep = set() if app.config.book_repository_url else set(_source_pages(app))
    suffix = app.builder.out_suffix
    for dirpath, _dirs, files in os.walk(base, topdown=False):
        for f in files:
            rel = os.path.relpath(os.path.join(dirpath, f), base).replace(os.sep, "/")
            if not (rel.endswith(suffix) and rel[:-len(suffix)] in keep):
                os.unlink(os.path.join(dirpath, f))
        if dirpath != base and not os.listdir(dirpath):
            os.rmdir(dirpath)


def source_links(app: Sphinx, pagename: str, context: dict[str, Any]) -> None:
    """Where the repository is configured (book_repository_url): its address on
    every page (book_repository, in the footer) and, on a page made from a file
    of chapters/, that file there (book_source_url, book_source_path: the icon
    at the top of the page and the footer). Nothing where none is configured:
    an address is never made up."""
    url = (app.config.book_repository_url or "").rstrip("/")
    context["book_repository"] = url
    context["book_source_url"] = context["book_source_path"] = ""
    if not url or pagename not in app.env.all_docs:
        return
    doc = app.env.doc2path(pagename)
    root = os.path.abspath(app.config.book_source_root or ".")
    rel = os.path.relpath(os.path.abspath(doc), root).replace(os.sep, "/")
    if rel.startswith("../"):
        return
    context["book_source_path"] = rel
    context["book_source_url"] = repository_link(app.config, rel, [])


def page_context(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
                 doctree: nodes.document | None) -> None:
    if app.builder.format == "html":
        source_links(app, pagename, context)


def build_finished(app: Sphinx, exception: Exception | None) -> None:
    if exception is None and app.builder.format == "html":
        prune_code_pages(app)


def visit_source_ref(self: SphinxTranslator, node: nodes.Node) -> None:
    pass


def depart_source_ref(self: SphinxTranslator, node: nodes.Node) -> None:
    pass


def setup(app: Sphinx) -> None:
    plain = (visit_source_ref, depart_source_ref)
    app.add_node(source_ref, html=plain, latex=plain, text=plain, man=plain, texinfo=plain)
    app.add_post_transform(SourceLinks)
    app.add_env_collector(SourceCollector)
    app.connect("html-collect-pages", collect_pages)
    app.connect("html-page-context", page_context, priority=900)  # after furo's
    app.connect("build-finished", build_finished)
