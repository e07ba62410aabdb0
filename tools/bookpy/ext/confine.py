# SPDX-License-Identifier: MIT
"""Sphinx's own file-reading directives and roles, refused or confined.

The book's directives (``listing``, ``program-output``, ``diagram``, ``exercise``,
...) read only what the build declares, and never a solution or a hidden test
in the reader's edition. Sphinx and docutils have directives that read any file
past those checks: ``literalinclude``, ``include``, ``raw``, ``csv-table``'s
``:file:``/``:url:``, ``image`` and ``figure``. Each is refused, in every
edition and builder (an ``{only}`` block is read like any other text). What a
page still links or shows as a file, a Markdown image or a ``{download}`` role,
is confined: it must lie in the book's sources (or the build's own diagrams,
plots and downloads), never in ``solutions/`` nor in an exercise's hidden tests
(``tests/<key>/exercises/<ex>/hidden*``). Each error names the file and line.
"""
from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

from docutils import nodes
from docutils.parsers.rst import Directive
from sphinx import addnodes
from sphinx.util import logging

from .common import BookError
from .config import downloads_file, plots_dir
from .manifest import read_manifest

if TYPE_CHECKING:
    from docutils.parsers.rst.directives.tables import CSVTable
    from sphinx.application import Sphinx

logger = logging.getLogger(__name__)

REFUSED = {
    "literalinclude": "use {listing}, which shows only compiled files, by their markers",
    "include": "a page is one file; show code with {listing}",
    "raw": "raw output bypasses every check of the book",
    "image": "show a figure with {diagram} or {plot}",
    "figure": "show a figure with {diagram} or {plot}",
}
HIDDEN_TEST = re.compile(r"^tests/[^/]+/exercises/[^/]+/hidden")
#: The build folder's own outputs a page may show or link.
BUILD_OUTPUTS = ("diagrams", "plots", "downloads")


def refused(name: str, why: str) -> type[Directive]:
    class Refused(Directive):
        has_content = True
        optional_arguments = 10
        final_argument_whitespace = True
        option_spec = None  # any option: refused all the same

        def run(self) -> list[nodes.Node]:
            return [self.state.document.reporter.error(
                f"the {{{name}}} directive reads files past the book's checks, and is refused: "
                f"{why}", line=self.lineno)]
    Refused.__name__ = f"Refused_{name}"
    return Refused


def csv_table() -> type[CSVTable]:
    from docutils.parsers.rst.directives.tables import CSVTable

    class BookCSVTable(CSVTable):
        def run(self) -> list[nodes.Node]:
            for opt in ("file", "url"):
                if opt in self.options:
                    return [self.state.document.reporter.error(
                        f"csv-table :{opt}: reads a file past the book's checks, and is refused: "
                        "write the table in the page, or show a run's output", line=self.lineno)]
            return super().run()
    return BookCSVTable


def _diagrams_dir(app: Sphinx) -> str:
    """The rendered diagrams' folder, as the build manifest names it (diagrams.py
    reads the same); none where there is no manifest, which the pages that read
    the build report."""
    try:
        return read_manifest(app.config).diagrams_dir
    except BookError:
        return ""


def forbidden(app: Sphinx, path: str) -> str | None:
    """Why a file a page links or shows may not be, or None."""
    real = os.path.realpath(path)
    root = os.path.realpath(app.config.book_source_root)
    for own in (plots_dir(app.config), _diagrams_dir(app), os.path.dirname(downloads_file(app.config))):
        if own and os.path.commonpath([os.path.realpath(own), real]) == os.path.realpath(own):
            return None
    build = os.path.realpath(app.config.book_build_dir) if app.config.book_build_dir else None
    if build and os.path.commonpath([build, real]) == build:
        rel = os.path.relpath(real, build).replace(os.sep, "/")
        return None if rel.split("/")[0] in BUILD_OUTPUTS else \
            "it is in the build folder, not one of the book's outputs"
    if os.path.commonpath([root, real]) != root:
        return "it is outside the book's sources"
    rel = os.path.relpath(real, root).replace(os.sep, "/")
    if rel == "solutions" or rel.startswith("solutions/"):
        return "it is a solution, which the reader's edition never shows"
    if HIDDEN_TEST.match(rel):
        return "it is a hidden test, which no edition shows"
    return None


def check_files(app: Sphinx, doctree: nodes.document) -> None:
    """doctree-read: every image and download of the page is confined."""
    env = app.env
    docname = env.docname
    shown = (nodes.image, addnodes.download_reference)
    for node in list(doctree.findall(lambda n: isinstance(n, shown))):
        if isinstance(node, nodes.image):
            target = node.get("uri", "")
        else:
            target = node.get("reftarget", "")
        if not target or "://" in target or target.startswith("data:"):
            continue
        target = target.split("?")[0].split("#")[0]
        _, path = env.relfn2path(target.replace(".*", ""), docname)
        why = forbidden(app, path if not target.endswith(".*") else os.path.dirname(path))
        if why:
            logger.error(f"{target}: a page may not show or link this file: {why}",
                         location=node)
            node.replace_self(nodes.inline(text="[refused]"))


def setup(app: Sphinx) -> None:
    for name, why in REFUSED.items():
        app.add_directive(name, refused(name, why), override=True)
    app.add_directive("csv-table", csv_table(), override=True)
    # {download} stays, confined (check_files); images from Markdown likewise.
    app.connect("doctree-read", check_files, priority=400)
