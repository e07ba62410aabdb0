# SPDX-License-Identifier: MIT
"""The book's Sphinx extension: chapters reach code, runs, diagrams, exercises
and tests only through it, so what the reader sees is what was compiled, run
and tested.

``listing``           code from a compiled file, by named markers  (listings.py)
``program-output``    a run's output on each GPU, with provenance  (records.py)
``record-text``       a text a run recorded (SASS)                 (records.py)
``value`` (role)      one number of a run's results                (records.py)
``gpu-values`` (role) a GPU run's number on every GPU               (records.py)
``check`` (role)      a comparison of recorded figures, checked     (claims.py)
``diagram``           a Mermaid diagram as the build rendered it   (diagrams.py)
``plot``              a plot drawn from run records                (plots.py, plotting.py)
``check-yourself``    a question whose answer a test checks        (checkyourself.py)
``answer`` (role)     a figure an answer states, its test's value  (checkyourself.py)
``exercise``          an exercise from its folder                  (exercises.py)
``build-info``        the page on how the book was built           (buildinfo.py)
``answer``            a "Try it" answer behind a reveal            (reveal.py)

No page, listing or output may hold a bidirectional or invisible character
(hidden.py); what the reader reads, on every builder's resolved page, types no
figure and compares nothing unchecked unless its sentence is reviewed
(readertext.py); every page has one title, and a chapter's number is its key's
(structure.py). Sphinx's own file-reading directives are refused, and what a
page links as a file is confined to the book's sources, never a solution
(confine.py).

The reader's site around them: the theme's assets fixed (theme.py), listings
linked to their files (site.py), figures that open at full size and describe
themselves (figures.py), each chapter's exercises as a download
(downloads.py), and the bold terms of the chapters in the index (terms.py).
A build configured for a few chapters (BOOK_CHAPTERS) leaves the other
chapters' pages out (selection.py).

Inside chapters/<key>.md a run, diagram or exercise named without a '/' is
chapter <key>'s (the invariant chapter-key; the invariants are named and
explained in docs/architecture.md). The build tells the extension what it
declared through ``${BUILD}/book-manifest.json`` (manifest.py: a page shows
only runs declared now, records-declared); the record's shape is
book/record-schema.json (record-schema). Every problem is reported at the file and line
that made it; the build runs with warnings as errors, so each one fails it.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import (booknodes, buildinfo, checkyourself, claims, config, confine, diagrams, downloads,
               exercises, figures, hidden, inline, listings, outtables, plots, publish, records,
               readertext, reveal,
               selection, site, structure, terms, theme)

if TYPE_CHECKING:
    from typing import Any

    from sphinx.application import Sphinx


def setup(app: Sphinx) -> dict[str, Any]:
    config.declare(app)

    booknodes.register(app)
    app.add_directive("program-output", records.ProgramOutput)
    app.add_directive("record-text", records.RecordText)
    app.add_role("value", records.value_role)
    app.add_role("gpu-values", records.gpu_values_role)
    app.add_role("check", claims.check_role)
    app.add_role("answer", checkyourself.answer_role)
    app.add_directive("listing", listings.Listing)
    app.add_directive("diagram", diagrams.Diagram)
    app.add_directive("check-yourself", checkyourself.CheckYourself)
    app.add_directive("exercise", exercises.Exercise)
    exercises.setup(app)  # the instructor edition says so on every page
    app.add_env_collector(checkyourself.QuestionCollector)
    app.connect("env-check-consistency", checkyourself.check_tests)
    app.add_post_transform(checkyourself.AnswersAtChapterEnd)
    app.add_post_transform(checkyourself.NumberedQuestions)
    app.add_post_transform(outtables.OutputTables)
    app.add_post_transform(records.LeadTabOnly)
    app.add_post_transform(records.ProvenanceOncePerPage)
    app.add_transform(inline.RoleLines)
    app.add_transform(inline.UnparsedRoles)
    app.add_transform(claims.ScopedClaimsNamed)
    app.add_transform(records.UnitsFromRecord)
    app.add_transform(claims.CheckMarkers)
    publish.setup(app)
    app.add_css_file("book.css")
    theme.setup(app)
    site.setup(app)
    figures.setup(app)
    plots.setup(app)
    downloads.setup(app)
    buildinfo.setup(app)
    terms.setup(app)
    selection.setup(app)
    reveal.setup(app)
    hidden.setup(app)
    structure.setup(app)
    confine.setup(app)
    readertext.setup(app)
    return {"version": "2", "parallel_read_safe": True, "parallel_write_safe": True,
            "env_version": 2}
