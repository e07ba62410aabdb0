# SPDX-License-Identifier: MIT
"""The chapters of this build: a chapter page (chapters/<key>.md) whose key the
build manifest does not list is left out of the book, as if it were not there,
with its sections' pages (chapters/<key>/).

Every chapter the source tree has is listed, unless the build was configured
for a few chapters only (``BOOK_CHAPTERS``, cmake/BookChapters.cmake): then the pages of
the others, whose programs, runs and tests this build does not have, are not
read. A build folder without a manifest stops the build here, before any page
is read, with one error naming the folder (manifest.py).
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING

from sphinx.errors import ConfigError

from .common import BookError, chapter_of
from .manifest import read_manifest

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config


def leave_out_other_chapters(app: Sphinx, config: Config) -> None:
    try:
        m = read_manifest(config)
    except BookError as e:
        raise ConfigError(str(e)) from None
    listed = set(m.chapters)
    for name in sorted(os.listdir(app.srcdir)):
        doc, ext = os.path.splitext(name)
        key = chapter_of(doc)
        if ext == ".md" and key == doc and key not in listed:
            config.exclude_patterns.append(name)
            config.exclude_patterns.append(f"{key}/**")


def setup(app: Sphinx) -> None:
    app.connect("config-inited", leave_out_other_chapters)
