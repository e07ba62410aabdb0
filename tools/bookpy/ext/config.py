# SPDX-License-Identifier: MIT
"""The extension's settings: one typed dataclass, each of whose fields is the
Sphinx config value ``book_<field>`` (declared by ``declare``, typed by its
default). book/conf.py sets the first three; the build may set any with
``-D book_<field>=...``; a folder or file left empty is the build folder's own
(``plots_dir()``, ``downloads_file()``, ``site_file()``).

What the build declared (its runs, records, diagrams, chapters) is not a
setting: it comes from the build manifest only (manifest.py).
"""
from __future__ import annotations

import os
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.config import Config


@dataclass(frozen=True)
class BookConfig:
    source_root: str = ""            # the repository: chapters/, code/, diagrams/, ...
    build_dir: str = ""              # the CMake build folder: book-manifest.json and what it names
    schema: str = ""                 # book/record-schema.json
    output_max_lines: int = 400      # the most of a run's output a page shows (a note says
    output_max_bytes: int = 32 * 1024  # what was cut)
    plots_dir: str = ""              # the drawn plots (empty: <build>/plots)
    downloads_file: str = ""         # the chapters' archives (empty: <build>/downloads/downloads.json)
    site_file: str = ""              # the site's settings (empty: <build>/site/site.json)
    repository_url: str = ""         # where a listing links its file (empty: site_file's)
    repository_ref: str = ""
    repository_line_url: str = ""
    pdf: str = ""                    # the PDF edition, set by the extension when it is current
    reviewed_sentences: str = ""     # the reviewed sentences (empty: <source_root>/book/reviewed-sentences.json)
    reviewed_stale: int = 0          # 1: a reviewed sentence a written page no longer prints is an error


#: The settings whose change writes every page again without reading any:
#: the rest change what a page is made of ("env").
HTML_ONLY = {"pdf"}


def declare(app: Sphinx) -> None:
    """Every field of BookConfig as the Sphinx config value book_<field>."""
    for f in fields(BookConfig):
        app.add_config_value(f"book_{f.name}", f.default, "html" if f.name in HTML_ONLY else "env",
                             types=(type(f.default),))


def _in_build(config: Config, value: str, *parts: str) -> str:
    if value:
        return value
    return os.path.join(config.book_build_dir, *parts) if config.book_build_dir else ""


def plots_dir(config: Config) -> str:
    return _in_build(config, config.book_plots_dir, "plots")


def downloads_file(config: Config) -> str:
    return _in_build(config, config.book_downloads_file, "downloads", "downloads.json")


def site_file(config: Config) -> str:
    return _in_build(config, config.book_site_file, "site", "site.json")
