# SPDX-License-Identifier: MIT
"""The reader's site: its settings and its parts, one module each.

- sourcelinks.py: where a listing's caption links, a page per listed file, the
  repository in every page's footer;
- runyourself.py: "Run it yourself" under every output block;
- pdfedition.py: the PDF edition's link, served only while it is current;
- navigation.py: the front page's links, the sidebar's sections, the index.

The settings come from ``BUILD/site/site.json`` (written by cmake/BookSite.cmake
from the cache variables BOOK_REPOSITORY_URL and BOOK_REPOSITORY_REF), and any
of them from ``-D`` on the Sphinx line (config.py). The site's own scripts
(book.js, book-search.js) are added to every page here.
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING

from sphinx.util import logging

from . import navigation, pdfedition, runyourself, sourcelinks
from .common import BookError, load_json
from .config import site_file

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config

logger = logging.getLogger(__name__)


def site_settings(config: Config) -> dict:
    """BUILD/site/site.json as a dict ({} where the build wrote none)."""
    path = site_file(config)
    if not path or not os.path.exists(path):
        return {}
    data = load_json(path, "site settings")
    if not isinstance(data, dict):
        raise BookError(f"site settings {path}: not a JSON object")
    return data


def config_inited(app: Sphinx, config: Config) -> None:
    try:
        settings = site_settings(config)
    except BookError as e:
        logger.warning(str(e))
        settings = {}
    for key in ("repository_url", "repository_ref", "repository_line_url"):
        name = f"book_{key}"
        if not getattr(config, name) and settings.get(key):
            setattr(config, name, settings[key])


def setup(app: Sphinx) -> None:
    app.connect("config-inited", config_inited)
    sourcelinks.setup(app)
    runyourself.setup(app)
    pdfedition.setup(app)
    navigation.setup(app)
    app.add_js_file("book.js")
    app.add_js_file("book-search.js", loading_method="defer")
