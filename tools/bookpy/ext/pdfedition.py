# SPDX-License-Identifier: MIT
"""The PDF edition, from the site: linked and served only while it is the book as
it is, and its output blocks fitted to the page.

The PDF edition is linked from every page's sidebar once it has been built
(``BUILD/pdf/book.pdf``, made by the ``pdf`` target): the HTML build then
publishes a copy beside the pages, but only while that PDF was built from the
book as it is, told by content, not by file times: beside the PDF,
``book.pdf.made-from.json`` (bookpy.build.pdf) holds the PDF's sha256 and that
of every file its pages read and of every file the HTML pages read when it was
built; a PDF that is not the one described, a file changed or gone since, or a
page it does not have leaves it out (``pdf_stale``). In the PDF an output wider
than the page is set in a smaller size, so that a table's rows stay whole.
"""
from __future__ import annotations

import hashlib
import json
import os
import posixpath
import shutil
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging

if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

    from sphinx.application import Sphinx
    from sphinx.config import Config

logger = logging.getLogger(__name__)


#: Beside the PDF, what it was built from (tools/bookpy/build/pdf.py writes it once the
#: PDF is in place): {"pdf": sha256 of the PDF, "inputs": {path: sha256} of every
#: file its pages read, as Sphinx's LaTeX run read them, "html": {path: sha256} of
#: the files the HTML pages read, as they were when the PDF was built}.
MADE_FROM = ".made-from.json"


def file_sha256(path: str) -> str | None:
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def pdf_made_from(pdf: str) -> dict | None:
    """The PDF's record of what it was built from, checked, or None."""
    try:
        with open(pdf + MADE_FROM, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("pdf"), str):
        return None
    for key in ("inputs", "html"):
        part = data.get(key, {})
        if not isinstance(part, dict) or not all(isinstance(v, str) for v in part.values()):
            return None
    return data


def pdf_stale(pdf: str, pages: Iterable[str], read: Iterable[str] = ()) -> str | None:
    """Why the PDF is not the book as it is, or None when it is: it is the PDF
    its record describes (by its content), every file its pages read is as it
    was (by content), every page source of `pages` is among them (a chapter
    added since), and every file of `read` (what this HTML build read) that the
    HTML pages read when the PDF was built is as it was then."""
    made = pdf_made_from(pdf)
    if made is None:
        return f"its record of what it was built from ({pdf + MADE_FROM}) is missing or unreadable"
    if file_sha256(pdf) != made["pdf"]:
        return f"{pdf} is not the PDF that {pdf + MADE_FROM} describes"
    inputs = {os.path.normpath(p): h for p, h in made.get("inputs", {}).items()}
    for path in sorted(pages):
        if os.path.normpath(path) not in inputs:
            return f"{path}: a page it does not have"
    for path, digest in sorted(inputs.items()):
        now = file_sha256(path)
        if now is None:
            return f"{path}, which it read, is gone"
        if now != digest:
            return f"{path} changed since it was built"
    html = {os.path.normpath(p): h for p, h in made.get("html", {}).items()}
    for path in sorted({os.path.normpath(p) for p in read}):
        if path in inputs or path not in html:
            continue
        now = file_sha256(path)
        if now is not None and now != html[path]:
            return f"{path} changed since it was built"
    return None


def config_inited(app: Sphinx, config: Config) -> None:
    """book_pdf: the PDF the build made, where there is one."""
    pdf = os.path.join(os.path.abspath(config.book_build_dir), "pdf", "book.pdf") \
        if config.book_build_dir else ""
    config.book_pdf = pdf if pdf and os.path.isfile(pdf) else ""


def builder_inited(app: Sphinx) -> None:
    """HTML: a PDF not built from the pages' sources as they are is not the book
    this build shows, so the site neither serves nor links it, and says so."""
    if not app.config.book_pdf or app.builder.format != "html":
        return
    docs = app.project.discover(list(app.config.exclude_patterns) + list(app.config.templates_path))
    # What the HTML pages read last time (publish.write_inputs), such as the SVG
    # of a diagram the PDF shows as a PDF figure: changed since, the PDF is stale.
    last = []
    try:
        with open(os.path.join(app.doctreedir, "book-inputs.json"), encoding="utf-8") as f:
            last = [p for p in json.load(f) if isinstance(p, str)]
    except (OSError, ValueError, TypeError):
        pass
    stale = pdf_stale(app.config.book_pdf, [app.project.doc2path(d, True) for d in docs], last)
    if stale:
        logger.info(f"site: the PDF edition {app.config.book_pdf} was not built from the book "
                    f"as it is ({stale}), so the site does not serve or link it; `tools/book pdf` "
                    "builds it again")
        app.config.book_pdf = ""
        # book_pdf is an "html" setting: with it changed, every page is written
        # again (none keeps a link to the PDF).
        app.builder.build_info = app.builder.create_build_info()


#: (most columns, font size) for an output block in the PDF: a table's rows stay
#: whole where a smaller size fits them (at 10 pt, DejaVu Sans Mono scaled 0.9,
#: the text block holds about 76 columns).
LATEX_OUTPUT_SIZES = ((76, ""), (94, r"\footnotesize"), (108, r"\scriptsize"))


class NarrowOutputsInLatex(SphinxPostTransform):
    default_priority = 100
    formats = ("latex",)

    def run(self, **kwargs: Any) -> None:
        for block in list(self.document.findall(nodes.literal_block)):
            if "book-output" not in block.get("classes", []):
                continue
            widest = max((len(line) for line in block.astext().split("\n")), default=0)
            size = next((s for cols, s in LATEX_OUTPUT_SIZES if widest <= cols), LATEX_OUTPUT_SIZES[-1][1])
            if not size:
                continue
            parent = block.parent
            at = parent.index(block)
            parent.insert(at + 1, nodes.raw("", "\\endgroup\n", format="latex"))
            parent.insert(at, nodes.raw("", f"\\begingroup\\fvset{{fontsize={size}}}\n", format="latex"))


def publish_pdf(app: Sphinx) -> None:
    out = os.path.join(app.outdir, "book.pdf")
    if app.config.book_pdf:
        # What this build read, against the PDF once more (a source edited during
        # the build, or read by a page but not by the PDF's).
        read = set()
        for doc in app.env.all_docs:
            read.add(app.env.doc2path(doc))
            read |= {os.path.normpath(os.path.join(app.env.srcdir, dep))
                     for dep in app.env.dependencies.get(doc, ())}
        pages = [app.env.doc2path(doc) for doc in app.env.all_docs]
        stale = pdf_stale(app.config.book_pdf, pages, read)
        if stale:
            logger.warning(f"the pages link the PDF edition {app.config.book_pdf}, which was not "
                           f"built from the book as it is ({stale}): build it again "
                           "(`tools/book pdf`), or build the HTML again, which leaves it out")
            if os.path.exists(out):
                os.unlink(out)
            return
        shutil.copyfile(app.config.book_pdf, out + ".tmp")
        os.replace(out + ".tmp", out)
    elif os.path.exists(out):
        os.unlink(out)


def page_context(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
                 doctree: nodes.document | None) -> None:
    if app.config.book_pdf:
        context["book_pdf"] = posixpath.relpath("book.pdf", posixpath.dirname(pagename) or ".")
    else:
        context["book_pdf"] = ""


def build_finished(app: Sphinx, exception: Exception | None) -> None:
    if exception is None and app.builder.format == "html":
        publish_pdf(app)


def setup(app: Sphinx) -> None:
    app.add_post_transform(NarrowOutputsInLatex)
    app.connect("config-inited", config_inited)
    app.connect("builder-inited", builder_inited)
    app.connect("html-page-context", page_context, priority=900)  # after furo's
    app.connect("build-finished", build_finished)
