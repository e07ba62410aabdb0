# SPDX-License-Identifier: MIT
"""Plots: ```{plot} <name>``` with a caption as content shows the plot that
diagrams/<key>/<name>.plot.py draws from run records (plotting.py), as the
build rendered it (build/plots/<key>/<name>.svg, -dark.svg and .pdf).

    ```{plot} divergence-sweep
    :name: fig-ch01-sweep
    What the reader should see in it.
    ```

In HTML the page shows the light or the dark drawing with the reader's theme,
on a phone the phone's drawing (its panels stacked, -phone.svg and
-phone-dark.svg), and a click opens it at full size; the PDF gets the vector PDF. Under the
caption, each record the plot reads says where it ran (the same words as under
an output block), with the stale banner where a recording is stale. The spec,
the drawings and the records are dependencies of the page; a run the spec
names must be declared by the build, as for any record the book shows. A plot
draws one series per GPU whose fresh record of its runs the build has
(plotting.Run.gpus: the lead's first), and its legend says where each ran.

A plot of a run that waits for the build's GPU (recordings/pending.json) and
has no record here is not drawn (cmake/BookSite.cmake): the page shows its
caption under a note that names the run and why it waits, as an output block
of the run says it, and the plot appears once the run is recorded.
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING

from docutils import nodes
from docutils.parsers.rst import directives

from .common import BookDirective, BookError, resolve_key, source_path
from .config import plots_dir
from .figures import describe, zoom
from ..build.plotting import PlotError, read_spec
from .records import gpu_records, load_record, provenance_text, shows, stale_banner

if TYPE_CHECKING:
    from sphinx.application import Sphinx


class Plot(BookDirective):
    required_arguments = 1
    has_content = True
    option_spec = {"name": directives.unchanged, "alt": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        try:
            key = resolve_key(self.env.docname, self.arguments[0], "plot")
            rel = f"diagrams/{key}.plot.py"
            spec_path = source_path(self.config.book_source_root, rel, self.config.book_build_dir)
            if not os.path.exists(spec_path):
                raise BookError(f"no plot '{key}': {rel} does not exist")
            self.env.note_dependency(spec_path)
            try:
                spec = read_spec(spec_path, key)
            except PlotError as e:
                raise BookError(str(e)) from None
            waiting = [(run, gpus[0]) for run in spec.runs
                       for gpus in [gpu_records(self.env, run)]
                       if gpus and gpus[0].record is None and gpus[0].pending]
            if waiting:
                return self.waiting_figure(key, rel, spec, waiting)
            plots = os.path.abspath(plots_dir(self.config))
            light = os.path.join(plots, key + ".svg")
            dark = os.path.join(plots, key + "-dark.svg")
            phone = os.path.join(plots, key + "-phone.svg")
            phone_dark = os.path.join(plots, key + "-phone-dark.svg")
            for path in (light, dark, phone, phone_dark):
                if not os.path.exists(path):
                    raise BookError(f"plot '{key}' was not drawn ({path} is missing); build through "
                                    "CMake, which draws diagrams/**.plot.py from the run records")
                self.env.note_dependency(path)
            records = [load_record(self.env, run)[0] for run in spec.runs]
            # Each GPU run's other GPUs whose fresh records the plot draws a series of.
            others = [[g for g in gpu_records(self.env, run)[1:] if g.fresh] for run in spec.runs]
        except BookError as e:
            return self.fail(str(e))

        caption_nodes = self.caption_nodes()
        alt = describe(self.options.get("alt"), spec.alt, caption_nodes)
        docdir = os.path.dirname(self.env.doc2path(self.env.docname))
        stem = os.path.relpath(light, docdir)[:-len(".svg")]
        figure = shows(nodes.figure(classes=["book-plot"]), *spec.runs)
        figure += zoom("", nodes.image(uri=stem + ".*", alt=alt), classes=["only-light", "book-wide"])
        figure += zoom("", nodes.image(uri=os.path.relpath(dark, docdir), alt=alt),
                       classes=["only-dark", "book-wide"])
        # A phone's drawings, its panels stacked: book.css shows them below 46em,
        # in place of the wide ones (whose right-hand panel would be off the screen).
        figure += zoom("", nodes.image(uri=os.path.relpath(phone, docdir), alt=alt),
                       classes=["only-light", "book-narrow"])
        figure += zoom("", nodes.image(uri=os.path.relpath(phone_dark, docdir), alt=alt),
                       classes=["only-dark", "book-narrow"])
        if caption_nodes:
            figure += nodes.caption("", "", *caption_nodes)
        legend = nodes.legend()
        for run, record, more in zip(spec.runs, records, others):
            legend += stale_banner(record)
            para = nodes.paragraph(classes=["book-plot-provenance"])
            para += nodes.Text("Drawn by this build from run ")
            para += nodes.literal(run, run)
            para += nodes.Text(f" ({rel}). ")
            para += nodes.Text(provenance_text(record))
            for g in more:
                para += nodes.Text(f" The {g.label}'s series: " + provenance_text(g.record))
            legend += para
        figure += legend
        # Every figure is numbered and captioned: a caption is required, and a
        # figure without a :name: gets one from its key (Sphinx numbers only
        # figures that have an id).
        if not caption_nodes:
            return self.no_caption()
        self.options.setdefault("name", "fig-" + key.replace("/", "-"))
        self.add_name(figure)
        return [figure]

    def waiting_figure(self, key: str, rel: str, spec, waiting: list) -> list[nodes.Node]:
        """The figure of a plot whose runs wait for the build's GPU: no drawing, its
        caption, and a note naming each run and why it waits."""
        caption_nodes = self.caption_nodes()
        if not caption_nodes:
            return self.no_caption()
        figure = shows(nodes.figure(classes=["book-plot", "book-plot-waiting"]), *spec.runs)
        box = nodes.warning(classes=["book-gpu-state"])
        for run, g in waiting:
            para = nodes.paragraph()
            para += nodes.strong(text=f"Not yet drawn: not yet run on the {g.label}. ")
            para += nodes.Text(f"This plot ({rel}) draws run ")
            para += nodes.literal(run, run)
            para += nodes.Text(f", which waits for the {g.label}: {g.pending}. It will be drawn "
                               "here once the run has been recorded there.")
            box += para
        figure += box
        figure += nodes.caption("", "", *caption_nodes)
        self.options.setdefault("name", "fig-" + key.replace("/", "-"))
        self.add_name(figure)
        return [figure]


def setup(app: Sphinx) -> None:
    app.add_directive("plot", Plot)
