"""After a build: leave in the output folder only what this build made, and
list what the pages were made from.

Sphinx builds incrementally into a staging folder and never deletes there: an
image no page shows any more (a deleted diagram) and the page of a deleted
chapter would stay, and tools/build-html.py would publish them. So a
successful HTML build removes, from the staging folder, images and downloads
no page refers to and pages of documents that no longer exist.

It also writes ``<doctrees>/book-inputs.json``: every file a page read (the
chapters, records, listings, diagrams, exercise texts, the manifest...), from
which tools/build-html.py writes the HTML step's depfile, so that editing any
of them re-runs the step.
"""
from __future__ import annotations

import json
import os

from sphinx.util import logging

logger = logging.getLogger(__name__)
KEEP_DIRS = {"_static", "_sources"}


def _prune_html(app) -> None:
    env, out = app.env, app.outdir
    keep_images = {unique for _docs, unique in env.images.values()}
    keep_downloads = {dest for _docs, dest in env.dlfiles.values()}
    for folder, keep in (("_images", keep_images), ("_downloads", keep_downloads)):
        base = os.path.join(out, folder)
        for dirpath, _dirs, files in os.walk(base):
            for f in files:
                rel = os.path.relpath(os.path.join(dirpath, f), base).replace(os.sep, "/")
                if rel not in keep:
                    os.unlink(os.path.join(dirpath, f))
    pages = set(env.all_docs) | {"genindex", "search", "py-modindex"}
    pages |= set(getattr(app.config, "html_additional_pages", {}) or {})
    pages |= set(getattr(app, "book_collected_pages", ()))  # html-collect-pages of the book's own
    for index in getattr(app.builder, "domain_indices", []) or []:
        pages.add(f"{index[0].name}-{index[1].name}")
    suffix = getattr(app.builder, "out_suffix", ".html")
    for dirpath, dirs, files in os.walk(out):
        if dirpath == out:
            dirs[:] = [d for d in dirs if d not in KEEP_DIRS and not d.startswith("_")]
        for f in files:
            if f.endswith(suffix):
                doc = os.path.relpath(os.path.join(dirpath, f), out)[:-len(suffix)].replace(os.sep, "/")
                if doc not in pages:
                    os.unlink(os.path.join(dirpath, f))
    sources = os.path.join(out, "_sources")
    for dirpath, _dirs, files in os.walk(sources):
        for f in files:
            doc = os.path.relpath(os.path.join(dirpath, f), sources).replace(os.sep, "/")
            doc = os.path.splitext(os.path.splitext(doc)[0])[0]  # x.md.txt -> x
            if doc not in pages:
                os.unlink(os.path.join(dirpath, f))


def write_inputs(app) -> None:
    env = app.env
    inputs = set()
    for doc in env.all_docs:
        inputs.add(env.doc2path(doc))
        for dep in env.dependencies.get(doc, ()):
            inputs.add(os.path.normpath(os.path.join(env.srcdir, dep)))
    path = os.path.join(app.doctreedir, "book-inputs.json")
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        json.dump(sorted(inputs), f, indent=0)
    os.replace(path + ".tmp", path)


def build_finished(app, exception) -> None:
    if exception is not None:
        return
    if app.builder.format == "html":
        _prune_html(app)
    write_inputs(app)
