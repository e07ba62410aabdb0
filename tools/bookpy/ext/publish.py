# SPDX-License-Identifier: MIT
"""After a build: leave in the output folder only what this build made, and
list what the pages were made from.

Sphinx builds incrementally into a staging folder and never deletes there: an
image no page shows any more (a deleted diagram) and the page of a deleted
chapter would stay, and tools/bookpy/build/html.py would publish them. So a
successful HTML build removes, from the staging folder, images and downloads
no page refers to and pages of documents that no longer exist.

Sphinx writes again only the pages whose sources changed, so a page added or
removed would leave every other page's sidebar and "previous"/"next" links as
they were, pointing at a page that is gone: when the set of pages changes,
every page is written again (``env-get-updated``). After pruning, a page that
still links a page, image or download the output does not hold, or a search
index that names a page it does not hold, is an error naming the page.

It also writes ``<doctrees>/book-inputs.json``: every file a page read (the
chapters, records, listings, diagrams, exercise texts, the manifest...), from
which tools/bookpy/build/html.py writes the HTML step's depfile, so that editing any
of them re-runs the step.
"""
from __future__ import annotations

import difflib
import hashlib
import json
import os
import re
from typing import TYPE_CHECKING
from urllib.parse import unquote

from sphinx.util import logging

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

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


def pages_changed(app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str],
                  removed: set[str]) -> list[str]:
    """env-get-outdated: remember whether pages were added or removed."""
    env.book_pages_changed = bool(added or removed)
    return []


def write_all_if_pages_changed(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """env-get-updated: every page again when the set of pages changed (the
    sidebar and the previous/next links of every page list the pages)."""
    if getattr(env, "book_pages_changed", False):
        env.book_pages_changed = False
        return sorted(env.found_docs)
    return []


#: A relative link in a written page: href or src, up to a fragment or query.
LINK = re.compile(r"""(?:href|src)="(?![a-z][a-z0-9+.-]*:|#|/)([^"#?]+)""", re.I)


def dangling_links(out: str, suffix: str = ".html") -> list:
    """(page, target) for each relative link of a written page to a file the
    output does not hold, and ("searchindex.js", page) for each page the search
    index names that the output does not hold."""
    found = []
    for dirpath, dirs, files in os.walk(out):
        if dirpath == out:
            dirs[:] = [d for d in dirs if d not in KEEP_DIRS]
        for f in files:
            if not f.endswith(suffix):
                continue
            page = os.path.join(dirpath, f)
            with open(page, encoding="utf-8", errors="replace") as fh:
                text = fh.read()
            for target in sorted(set(LINK.findall(text))):
                path = os.path.normpath(os.path.join(dirpath, unquote(target)))
                if not os.path.exists(path):
                    found.append((os.path.relpath(page, out), target))
    index = os.path.join(out, "searchindex.js")
    if os.path.exists(index):
        with open(index, encoding="utf-8") as fh:
            text = fh.read()
        m = re.search(r'"?docnames"?\s*:\s*(\[[^\]]*\])', text)
        for doc in json.loads(m.group(1)) if m else []:
            if not os.path.exists(os.path.join(out, doc + suffix)):
                found.append(("searchindex.js", doc + suffix))
    return found


def check_links(app: Sphinx, exception: Exception | None) -> None:
    """build-finished, after every other step has written or removed its files."""
    if exception is not None or app.builder.format != "html":
        return
    for page, target in dangling_links(app.outdir, getattr(app.builder, "out_suffix", ".html")):
        logger.warning(f"{os.path.join(app.outdir, page)}: links {target}, which this build does "
                       "not hold (a page, image or download that is gone): nothing may link it")


def write_inputs(app: Sphinx) -> None:
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
    # ... and what each held as the pages read it, for the PDF's record of what it
    # was built from (tools/bookpy/build/pdf.py; the site's pdf-current check compares it).
    digests = {}
    for p in sorted(inputs):
        try:
            with open(p, "rb") as f:
                digests[p] = hashlib.sha256(f.read()).hexdigest()
        except OSError:
            pass
    path = os.path.join(app.doctreedir, "book-inputs.sha256.json")
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        json.dump(digests, f, indent=0, sort_keys=True)
    os.replace(path + ".tmp", path)


#: The search index's word maps: word -> the pages that hold it.
SEARCH_TERMS = ("terms", "titleterms")


def settle_search_index(out: str) -> None:
    """The search index as a clean build writes it (the invariant
    incremental-equals-clean). Sphinx loads the last build's index, takes the
    pages it writes again out of each word's pages and feeds them anew: a word
    that such a page no longer holds (an old figure of a record) stays, naming no
    page, and a new word or title goes after the old ones. So every map of the
    index (words, titles, index entries) is written sorted, each title's places
    sorted, without a word that names no page."""
    index = os.path.join(out, "searchindex.js")
    head, tail = "Search.setIndex(", ")"
    try:
        with open(index, encoding="utf-8") as f:
            text = f.read()
    except FileNotFoundError:
        return
    if not (text.startswith(head) and text.endswith(tail)):
        return
    data = json.loads(text[len(head):-len(tail)])
    for key, value in data.items():
        if isinstance(value, dict):
            data[key] = {w: sorted(v) if isinstance(v, list) and all(isinstance(x, list) for x in v)
                         else v for w, v in sorted(value.items())
                         if not (key in SEARCH_TERMS and v == [])}
    with open(index + ".tmp", "w", encoding="utf-8") as f:
        f.write(head + json.dumps(data) + tail)
    os.replace(index + ".tmp", index)


def restore_index_entries(app: Sphinx) -> list:
    """The index entries of the pages this build did not write again, given back to
    the search index (the invariant incremental-equals-clean). Sphinx 5's
    IndexBuilder.load reads the last build's words and titles but not its index
    entries, so an incremental build's index loses those of every page it does not
    write again (the API appendix's C++ entries, found by book.incremental-cmake).
    Each such page is fed again for its entries alone; what else feeding changes
    is put back as it was. An html-collect-pages handler: it runs before the index
    is written, and adds no page."""
    indexer = getattr(app.builder, "indexer", None)
    entries = getattr(indexer, "_index_entries", None)
    if indexer is None or entries is None:
        return []
    missing = [d for d in indexer._titles if d not in entries and d in app.env.all_docs]
    if not missing:
        return []
    import copy
    kept = {k: copy.deepcopy(getattr(indexer, k))
            for k in ("_titles", "_filenames", "_all_titles", "_mapping", "_title_mapping")}
    for docname in missing:
        indexer.feed(docname, kept["_filenames"].get(docname, docname), kept["_titles"][docname],
                     app.env.get_doctree(docname))
    for k, v in kept.items():
        setattr(indexer, k, v)
    return []


def differences(incremental: dict, clean: dict) -> list[str]:
    """Each file of two builds of one site (path -> its bytes or text) that differs:
    its path, where the two part (a one-line file, the search index, is shown around
    it) and the first lines that differ. The one comparison of book.incremental-equals-clean
    and book.incremental-cmake."""
    out = []
    for path in sorted(set(incremental) | set(clean)):
        a, b = incremental.get(path), clean.get(path)
        if a == b:
            continue
        if a is None or b is None:
            out.append(f"{path}: only in the {'clean' if a is None else 'incremental'} build")
            continue
        a = a.encode("utf-8") if isinstance(a, str) else a
        b = b.encode("utf-8") if isinstance(b, str) else b
        at = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))
        ta, tb = a.decode("utf-8", "replace"), b.decode("utf-8", "replace")
        diff = list(difflib.unified_diff(tb.splitlines(), ta.splitlines(), "clean", "incremental",
                                         n=0, lineterm=""))[2:8]
        out.append(f"{path}: differs at byte {at}: clean ...{b[max(0, at - 80):at + 80]!r}...\n"
                   f"  incremental ...{a[max(0, at - 80):at + 80]!r}...\n  "
                   + "\n  ".join(d[:200] for d in diff if len(d) < 2000))
    return out


def build_finished(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None:
        return
    if app.builder.format == "html":
        _prune_html(app)
        settle_search_index(app.outdir)
    write_inputs(app)


def setup(app: Sphinx) -> None:
    app.connect("env-get-outdated", pages_changed)
    app.connect("env-get-updated", write_all_if_pages_changed)
    app.connect("html-collect-pages", restore_index_entries)
    app.connect("build-finished", build_finished)
    app.connect("build-finished", check_links, priority=900)
