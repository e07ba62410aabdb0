"""The build manifest (the invariant records-declared, docs/architecture.md:
a page shows only runs the build declares now): what the build declared, read from
``${BUILD}/book-manifest.json``, which CMake writes at generate time.

    {"source_root", "records_dir", "diagrams_dir", "edition",
     "runs": {"<key>/<run>": {"record", "program", "gpu", "live"}},
     "chapters": [...], "cy_tags": <path> or null, "exercises": <path> or null,
     "compiled": [<path from the source root>...]}

``compiled`` lists the sources of every program and library the build declares
(a listing shows only code a compiler saw, with the headers each run's record
names as its inputs).

A page shows a record only when its run is declared in ``runs``. A build
folder without a manifest is an error: the book is built only from what a
configured build declared (configure it with CMake, ``tools/book build``).
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .common import BookError, load_json

if TYPE_CHECKING:
    from sphinx.config import Config
    from sphinx.environment import BuildEnvironment

MANIFEST = "book-manifest.json"


@dataclass(frozen=True)
class Manifest:
    path: str                 # the manifest file
    source_root: str
    records_dir: str
    diagrams_dir: str
    edition: str
    runs: dict
    chapters: tuple
    cy_tags: str | None       # a path, or None: the tests were not built
    exercises: str | None
    compiled: tuple | None = None  # sources of the declared programs and libraries


def _field(data: dict, key: str, kinds, path: str, nullable: bool = False):
    if key not in data:
        raise BookError(f"build manifest {path}: field '{key}' is missing")
    value = data[key]
    if value is None and nullable:
        return None
    if not isinstance(value, kinds):
        raise BookError(f"build manifest {path}: field '{key}' has the wrong type")
    return value


def read_manifest(config: Config) -> Manifest:
    build = os.path.abspath(config.book_build_dir) if config.book_build_dir else ""
    path = os.path.join(build, MANIFEST) if build else ""
    if not path or not os.path.exists(path):
        where = f"'{build}'" if build else "none (book_build_dir is not set)"
        raise BookError(f"no build manifest {MANIFEST} in the build folder {where}: the book is "
                        "built from what a configured build declares; configure and build it "
                        "with CMake (`tools/book build`) and pass that folder as book_build_dir")
    data = load_json(path, "build manifest")
    if not isinstance(data, dict):
        raise BookError(f"build manifest {path}: not a JSON object")
    here = os.path.dirname(os.path.abspath(path))

    def where(p: str | None) -> str | None:  # paths are absolute; a relative one is read from the manifest's folder
        return None if p is None else os.path.normpath(os.path.join(here, p))

    runs = {}
    for name, run in _field(data, "runs", dict, path).items():
        if not isinstance(run, dict) or not isinstance(run.get("record"), str):
            raise BookError(f"build manifest {path}: run '{name}' has no record path")
        runs[name] = dict(run, record=where(run["record"]))
    return Manifest(path, where(_field(data, "source_root", str, path)),
                    where(_field(data, "records_dir", str, path)),
                    where(_field(data, "diagrams_dir", str, path)), _field(data, "edition", str, path),
                    runs, tuple(_field(data, "chapters", list, path)),
                    where(_field(data, "cy_tags", str, path, nullable=True)),
                    where(_field(data, "exercises", str, path, nullable=True)),
                    tuple(data["compiled"]) if isinstance(data.get("compiled"), list) else None)


def manifest(env: BuildEnvironment) -> Manifest:
    """The manifest of this build, noted as a dependency of the page being read
    (a run declared or removed changes what the page may show)."""
    m = read_manifest(env.config)
    if getattr(env, "docname", None):
        env.note_dependency(m.path)
    return m
