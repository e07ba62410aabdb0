"""The reader's site: where a listing's caption links to, a page per listed
source file, the site's script, and the PDF edition's link.

A listing's caption names the file and the lines it shows, as a link:

- to the repository (``book_repository_url``, e.g. https://github.com/o/r, at
  ``book_repository_ref``; GitHub's ``/blob/<ref>/<path>#L<a>-L<b>`` form, or
  any form given as ``book_repository_line_url``), where one is configured;
- otherwise to a page of this site that shows the whole file as the build read
  it, with numbered lines (``_code/<path>.html``); the lines the listing shows
  are highlighted (``?lines=a-b`` read by book.js) and scrolled to (``#L-a``).

In the PDF the caption names the file and lines, linked only to a repository.
The settings come from ``BUILD/site/site.json`` (written by cmake/BookSite.cmake
from the cache variables BOOK_REPOSITORY_URL and BOOK_REPOSITORY_REF), and any
of them from ``-D`` on the Sphinx line.

The PDF edition is linked from every page's sidebar once it has been built
(``BUILD/pdf/book.pdf``, made by the ``pdf`` target): the HTML build then
publishes a copy beside the pages.
"""
from __future__ import annotations

import html
import os
import posixpath
import shutil

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging

from .common import BookError, PerPageCollector, load_json, source_path

logger = logging.getLogger(__name__)
CODE_PAGES = "_code"
GITHUB_LINES = "{url}/blob/{ref}/{path}{lines}"


class source_ref(nodes.Inline, nodes.TextElement):
    """A file of the repository and the line ranges a listing shows:
    attributes ``path`` (from the repository root) and ``ranges`` [(a, b)]."""


def source_ref_node(path: str, ranges: list, text: str) -> source_ref:
    node = source_ref("", "", path=path, ranges=[tuple(r) for r in ranges])
    node += nodes.literal(text, text)
    return node


# ---- settings ---------------------------------------------------------------------

def site_settings(config) -> dict:
    """BUILD/site/site.json as a dict ({} where the build wrote none)."""
    path = getattr(config, "book_site_file", "") or (
        os.path.join(config.book_build_dir, "site", "site.json") if config.book_build_dir else "")
    if not path or not os.path.exists(path):
        return {}
    data = load_json(path, "site settings")
    if not isinstance(data, dict):
        raise BookError(f"site settings {path}: not a JSON object")
    return data


def config_inited(app, config) -> None:
    try:
        settings = site_settings(config)
    except BookError as e:
        logger.warning(str(e))
        settings = {}
    for key in ("repository_url", "repository_ref", "repository_line_url"):
        name = f"book_{key}"
        if not getattr(config, name) and settings.get(key):
            setattr(config, name, settings[key])
    pdf = os.path.join(os.path.abspath(config.book_build_dir), "pdf", "book.pdf") \
        if config.book_build_dir else ""
    config.book_pdf = pdf if pdf and os.path.isfile(pdf) else ""


def repository_link(config, path: str, ranges: list) -> str | None:
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


class SourceLinks(SphinxPostTransform):
    """Each source_ref becomes a link (see the module's text) or, where there
    is nothing to link to, its text."""
    default_priority = 100

    def run(self, **kwargs):
        config, builder = self.app.config, self.app.builder
        for node in list(self.document.findall(source_ref)):
            url = repository_link(config, node["path"], node["ranges"])
            if url is None and builder.format == "html":
                page = builder.get_relative_uri(self.env.docname, f"{CODE_PAGES}/{node['path']}")
                url = page + local_link(node["ranges"])
                internal = True
            else:
                internal = False
            if url is None:
                node.replace_self(node.children)
                continue
            ref = nodes.reference("", "", *node.children, refuri=url, internal=internal,
                                  classes=["book-source-link"])
            node.replace_self(ref)


class SourceCollector(PerPageCollector):
    """Per page, the repository files its listings show: env.book_sources."""
    attr = "book_sources"

    def found(self, doctree):
        return {n["path"] for n in doctree.findall(source_ref)}


# ---- a page per listed file -------------------------------------------------------------

def _source_pages(app) -> dict:
    """{path: [docnames that list it]}."""
    pages: dict = {}
    for docname, paths in sorted(SourceCollector.pages(app.env).items()):
        for path in paths:
            pages.setdefault(path, []).append(docname)
    return pages


def collect_pages(app):
    """html-collect-pages: _code/<path> for every file a listing shows."""
    if app.builder.format != "html" or app.config.book_repository_url:
        return
    from .listings import LANGUAGES
    highlighter = app.builder.highlighter
    for path, docnames in sorted(_source_pages(app).items()):
        try:
            full = source_path(app.config.book_source_root, path, app.config.book_build_dir)
            with open(full, encoding="utf-8") as f:
                code = f.read()
        except (BookError, OSError, UnicodeDecodeError) as e:
            logger.warning(f"source page for {path}: {e}")
            continue
        from .common import visible_text
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


def prune_code_pages(app) -> None:
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


# ---- the PDF edition's link -------------------------------------------------------------

def page_context(app, pagename, templatename, context, doctree):
    if app.config.book_pdf:
        context["book_pdf"] = posixpath.relpath("book.pdf", posixpath.dirname(pagename) or ".")
    else:
        context["book_pdf"] = ""


def publish_pdf(app) -> None:
    out = os.path.join(app.outdir, "book.pdf")
    if app.config.book_pdf:
        shutil.copyfile(app.config.book_pdf, out + ".tmp")
        os.replace(out + ".tmp", out)
    elif os.path.exists(out):
        os.unlink(out)


def build_finished(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    prune_code_pages(app)
    publish_pdf(app)


# ---- nodes in builders that show no link --------------------------------------------------

def visit_source_ref(self, node):
    pass


def depart_source_ref(self, node):
    pass


def setup(app) -> None:
    app.add_config_value("book_site_file", "", "env")
    app.add_config_value("book_repository_url", "", "env")
    app.add_config_value("book_repository_ref", "", "env")
    app.add_config_value("book_repository_line_url", "", "env")
    app.add_config_value("book_pdf", "", "html")
    plain = (visit_source_ref, depart_source_ref)
    app.add_node(source_ref, html=plain, latex=plain, text=plain, man=plain, texinfo=plain)
    app.add_post_transform(SourceLinks)
    app.add_env_collector(SourceCollector)
    app.connect("config-inited", config_inited)
    app.connect("html-collect-pages", collect_pages)
    app.connect("html-page-context", page_context)
    app.connect("build-finished", build_finished)
    app.add_js_file("book.js")
