# SPDX-License-Identifier: MIT
"""Diagrams: ```{diagram} <name>``` with a caption as content shows
diagrams/<key>/<name>.mmd as the build rendered it (build/diagrams/<key>/<name>.svg).

The image is given to Sphinx as ``<name>.*``, so each builder picks the format
it can show from what the build rendered (SVG for HTML; the PDF beside it,
which the ``pdf`` target renders, for LaTeX). Its alt text is ``:alt:`` where
given, else the description the diagram gives itself (Mermaid's ``accTitle``
and ``accDescr``, which also become the SVG's title and description), else the
caption; a diagram with none of them is an error. A click on it opens it at
full size (figures.py).
"""
from __future__ import annotations

import os

from docutils import nodes
from docutils.parsers.rst import directives

from .common import BookDirective, BookError, resolve_key
from .figures import describe, mermaid_description, zoom
from .manifest import manifest


class Diagram(BookDirective):
    required_arguments = 1
    has_content = True
    option_spec = {"name": directives.unchanged, "width": directives.unchanged,
                   "alt": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        try:
            key = resolve_key(self.env.docname, self.arguments[0], "diagram")
            m = manifest(self.env)
        except BookError as e:
            return self.fail(str(e))
        mmd = os.path.join(self.config.book_source_root, "diagrams", key + ".mmd")
        svg = os.path.join(m.diagrams_dir, key + ".svg")
        if not os.path.exists(mmd):
            return self.fail(f"no diagram '{key}': diagrams/{key}.mmd does not exist")
        if not os.path.exists(svg):
            return self.fail(f"diagram '{key}' was not rendered ({svg} is missing); "
                             "build through CMake, which renders diagrams/**.mmd")
        self.env.note_dependency(svg)
        docdir = os.path.dirname(self.env.doc2path(self.env.docname))
        stem = os.path.relpath(svg, docdir)[:-len(".svg")]
        figure = nodes.figure(classes=["book-diagram"])
        caption_nodes = self.caption_nodes()
        if not caption_nodes:
            return self.no_caption()
        self.env.note_dependency(mmd)
        with open(mmd, encoding="utf-8") as f:
            own = mermaid_description(f.read())
        alt = describe(self.options.get("alt"), own, caption_nodes)
        if not alt:
            return self.fail(f"diagram '{key}' has no description for readers who cannot see it: give "
                             f"diagrams/{key}.mmd an accTitle and accDescr, or the directive a caption")
        image = nodes.image(uri=stem + ".*", alt=alt)
        if "width" in self.options:
            image["width"] = self.options["width"]
        figure += zoom("", image)
        if caption_nodes:
            figure += nodes.caption("", "", *caption_nodes)
        # Every figure is numbered: one without a :name: gets one from its key
        # (Sphinx numbers only figures that have an id).
        self.options.setdefault("name", "fig-" + key.replace("/", "-"))
        self.add_name(figure)
        return [figure]
