# SPDX-License-Identifier: MIT
"""The book's Python: the reader of records, the Sphinx extension, the build's
steps and the prose lints, one importable package (tools/bookpy).

    records/  the run record and its schema (schema.py), the checks' evaluation
              (checkeval.py), the drift of a GPU's figures (drift.py)
    inputs/   the compile database against what a run's input hash covers
    ext/      the Sphinx extension (book/conf.py loads ``bookpy.ext``)
    build/    the build's steps: HTML, PDF, diagrams, plots, tags, claims, ...
    lint/     the prose lints of the chapters (claims checked, figures not typed)
    bench/    the build's and the site's timings against their targets
    tests/    what the test scripts share (scaffold.py: Checklist, write)

The package is found through PYTHONPATH=<repo>/tools, which the build
(``BOOK_PY`` in cmake/BookDependencies.cmake) and tools/book set; a step runs
as ``python3 -m bookpy.<sub-package>.<module>``.
"""
import os

#: The repository this package lies in (tools/bookpy/..).
ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
