# SPDX-License-Identifier: MIT
"""What diagrams and plots share: a click on a figure opens it at full size,
its alt text describes it, and an image meant for one theme only is left out
where there are no themes.

``zoom``      wraps a figure's image; in HTML a link to the image file itself
              (the copy the build published), elsewhere nothing
``describe``  the alt text of a figure: the directive's ``:alt:``, else the
              description its source gives (a Mermaid ``accDescr``, a plot
              spec's ``ALT``), else the caption
"""
from __future__ import annotations

import posixpath
import re
import urllib.parse
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform

if TYPE_CHECKING:
    from typing import Any

    from sphinx.application import Sphinx
    from sphinx.util.docutils import SphinxTranslator
    from sphinx.writers.html5 import HTML5Translator

ACC_DESCR = re.compile(r"^\s*accDescr\s*:\s*(.+?)\s*$", re.M)
ACC_DESCR_BLOCK = re.compile(r"^\s*accDescr\s*\{(.*?)\}", re.M | re.S)
ACC_TITLE = re.compile(r"^\s*accTitle\s*:\s*(.+?)\s*$", re.M)


class zoom(nodes.General, nodes.Element):
    """A figure's image, linked (HTML) to the image at full size."""


def mermaid_description(source: str) -> str:
    """The description a Mermaid source gives itself: 'accTitle. accDescr'
    (either may be missing), '' when it gives none."""
    m = ACC_DESCR.search(source) or ACC_DESCR_BLOCK.search(source)
    descr = " ".join(m.group(1).split()) if m else ""
    t = ACC_TITLE.search(source)
    title = t.group(1).strip() if t else ""
    if title and descr:
        return f"{title}. {descr}" if not title.endswith((".", ":")) else f"{title} {descr}"
    return title or descr


def describe(option: str | None, own: str, caption_nodes: list) -> str:
    """The alt text: the option, else the source's own description, else the caption."""
    if option and option.strip():
        return " ".join(option.split())
    if own:
        return own
    return " ".join(" ".join(n.astext() for n in caption_nodes).split())


def visit_zoom_html(self: HTML5Translator, node: nodes.Element) -> None:
    image = node.next_node(nodes.image)
    uri = image["uri"] if image is not None else ""
    if uri in self.builder.images:
        uri = posixpath.join(self.builder.imgpath, urllib.parse.quote(self.builder.images[uri]))
    classes = " ".join(["book-zoom", "reference", "internal", "image-reference", *node.get("classes", [])])
    self.body.append(f'<a class="{classes}" href="{self.encode(uri)}" title="Open the figure at full size">')


def depart_zoom_html(self: HTML5Translator, node: nodes.Element) -> None:
    self.body.append("</a>")


def visit_plain(self: SphinxTranslator, node: nodes.Node) -> None:
    pass


def depart_plain(self: SphinxTranslator, node: nodes.Node) -> None:
    pass


class ThemeOnlyImages(SphinxPostTransform):
    """Outside HTML, an image for the dark theme only (class only-dark) or for a
    phone only (class book-narrow: a plot's panels stacked) is left out: the PDF
    shows the light, wide one."""
    default_priority = 90

    def run(self, **kwargs: Any) -> None:
        if self.app.builder.format == "html":
            return
        for node in list(self.document.findall(nodes.Element)):
            if {"only-dark", "book-narrow"} & set(node.get("classes", [])):
                node.parent.remove(node)


class OneBodyBeforeCaption(SphinxPostTransform):
    """HTML: a figure whose caption is not its second child (a plot's light and
    dark images come first) has what precedes the caption wrapped in one
    container. docutils' HTML5 writer takes the figure's second child for its
    caption, and where it is not, opens a second <figcaption> for the legend that
    nothing closes (the test site.browser fails on an unclosed element)."""
    default_priority = 95
    formats = ("html",)

    def run(self, **kwargs: Any) -> None:
        for figure in list(self.document.findall(nodes.figure)):
            at = next((i for i, c in enumerate(figure.children) if isinstance(c, nodes.caption)), None)
            if at is None or at <= 1:
                continue
            body = nodes.container(classes=["book-figure-body"])
            for child in list(figure.children[:at]):
                figure.remove(child)
                body += child
            figure.insert(0, body)


def setup(app: Sphinx) -> None:
    plain = (visit_plain, depart_plain)
    app.add_node(zoom, html=(visit_zoom_html, depart_zoom_html), latex=plain, text=plain, man=plain,
                 texinfo=plain)
    app.add_post_transform(ThemeOnlyImages)
    app.add_post_transform(OneBodyBeforeCaption)
