# SPDX-License-Identifier: MIT
"""The build manifest as the extension reads it (the invariant records-declared,
docs/architecture.md: a page shows only runs the build declares now): the one
reader, bookpy.records.manifest, on ``${book_build_dir}/book-manifest.json``,
noted as a dependency of the page that asks. A build folder without a manifest
is an error: the book is built only from what a configured build declared
(configure it with CMake, ``tools/book build``)."""
from __future__ import annotations

import os
from typing import TYPE_CHECKING

from ..records.manifest import MANIFEST, Manifest, read
from .common import BookError

if TYPE_CHECKING:
    from sphinx.config import Config
    from sphinx.environment import BuildEnvironment

__all__ = ["Manifest", "manifest", "read_manifest"]


def read_manifest(config: Config) -> Manifest:
    build = os.path.abspath(config.book_build_dir) if config.book_build_dir else ""
    path = os.path.join(build, MANIFEST) if build else ""
    if not path or not os.path.exists(path):
        where = f"'{build}'" if build else "none (book_build_dir is not set)"
        raise BookError(f"no build manifest {MANIFEST} in the build folder {where}: the book is "
                        "built from what a configured build declares; configure and build it "
                        "with CMake (`tools/book build`) and pass that folder as book_build_dir")
    return read(path)


def manifest(env: BuildEnvironment) -> Manifest:
    """The manifest of this build, noted as a dependency of the page being read
    (a run declared or removed changes what the page may show)."""
    m = read_manifest(env.config)
    if getattr(env, "docname", None):
        env.note_dependency(m.path)
    return m
