# SPDX-License-Identifier: MIT
"""The build manifest, ``${BUILD}/book-manifest.json`` (CMake writes it at
generate time), and its one reader (``read``): what the build declared. The
extension shows only runs declared in it (the invariant records-declared,
docs/architecture.md: ext/manifest.py); the HTML step and the tests read it here too.

    {"source_root", "records_dir", "diagrams_dir", "edition",
     "runs": {"<key>/<run>": {"record", "program", "gpu", "live", "checks",
                              "gpus": {"<GPU name>": {"slug", "record", "pending"}}}},
     "gpus": {"model", "live", "lead", "release", "reference": [{"name", "slug", "short"}]},
     "chapters": [...], "cy_tags": <path> or null, "exercises": <path> or null,
     "compiled": [<path from the source root>...], "kept_lines": <path> or null,
     "reader": <the reader's GPU folder (tools/book mine, BOOK_READER_RECORDS)> or null}

Where ``reader`` names a folder of the reader's GPU (bookpy.records.mine: its
index mine.json), ``read`` adds that GPU to every GPU run's ``gpus`` under the
key ``reader:<its name>`` ({"slug", "record", "pending": null, "reader": true,
"gpu_name", "skipped", "missing", "failed_checks"}), and ``gpus["reader"]``
says which it is ({"name", "slug", "short": "your GPU", "compute_capability",
"index"}): the pages show it beside the reference GPUs, never in their place.

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

from .checkeval import BookError
from .jsonfile import load_json

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
    #: {"model", "live", "lead", "release", "reference": [{"name", "slug", "short"}]}: the GPU
    #: of this build's records, the lead and every reference GPU (book/gpus.json); None in a
    #: manifest that names no GPU (each GPU run then has its one record)
    gpus: dict | None = None
    #: kept-lines.json (bookpy.build.kept_lines): the lines of code/, exercises/ and
    #: solutions/ a compiler kept; None in a build without the book (or a fixture's)
    kept_lines: str | None = None
    #: the reader's GPU (tools/book mine): {"name", "slug", "short", "compute_capability",
    #: "index"}, or None in a build that shows none
    reader: dict | None = None


def _field(data: dict, key: str, kinds, path: str, nullable: bool = False):
    if key not in data:
        raise BookError(f"build manifest {path}: field '{key}' is missing")
    value = data[key]
    if value is None and nullable:
        return None
    if not isinstance(value, kinds):
        raise BookError(f"build manifest {path}: field '{key}' has the wrong type")
    return value


def read(path: str) -> Manifest:
    """The manifest at path, checked: a field missing or of the wrong type is an error naming it."""
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
        if isinstance(run.get("checks"), str):
            runs[name]["checks"] = where(run["checks"])
        per = run.get("gpus")
        if per is not None:
            if not isinstance(per, dict) or not all(
                    isinstance(e, dict) and (e.get("record") is None or isinstance(e["record"], str))
                    for e in per.values()):
                raise BookError(f"build manifest {path}: run '{name}': \"gpus\" should map each "
                                "GPU to {\"slug\", \"record\", \"pending\"}")
            runs[name]["gpus"] = {g: dict(e, record=where(e.get("record"))) for g, e in per.items()}
    gpus = data.get("gpus")
    if gpus is not None and not (isinstance(gpus, dict) and isinstance(gpus.get("reference"), list)
                                 and isinstance(gpus.get("model"), str)):
        raise BookError(f"build manifest {path}: field 'gpus' should be {{\"model\", \"lead\", "
                        "\"reference\": [...]}}")
    reader = None
    if data.get("reader") is not None:
        if not isinstance(data["reader"], str):
            raise BookError(f"build manifest {path}: field 'reader' should be a folder or null")
        reader = _merge_reader(where(data["reader"]), runs)
    return Manifest(path, where(_field(data, "source_root", str, path)),
                    where(_field(data, "records_dir", str, path)),
                    where(_field(data, "diagrams_dir", str, path)), _field(data, "edition", str, path),
                    runs, tuple(_field(data, "chapters", list, path)),
                    where(_field(data, "cy_tags", str, path, nullable=True)),
                    where(_field(data, "exercises", str, path, nullable=True)),
                    tuple(data["compiled"]) if isinstance(data.get("compiled"), list) else None,
                    gpus, where(data["kept_lines"]) if isinstance(data.get("kept_lines"), str) else None,
                    reader)


def reader_key(name: str) -> str:
    """The key of the reader's GPU in a run's "gpus" (apart from a reference GPU of that name)."""
    return "reader:" + name


def _merge_reader(folder: str, runs: dict) -> dict:
    """The reader's GPU of `folder` (bookpy.records.mine) added to each GPU run's "gpus"."""
    from . import mine
    r = mine.read(folder)
    for name, run in runs.items():
        if not run.get("gpu"):
            continue
        e = r.runs.get(name) or {"missing": "tools/book mine made no record of it (a chapter it "
                                            "did not build, or a run declared since)"}
        run.setdefault("gpus", {})
        if run["gpus"] is None:
            run["gpus"] = {}
        run["gpus"][reader_key(r.name)] = {
            "slug": r.slug, "record": e.get("record"), "pending": None, "reader": True,
            "gpu_name": r.name, "skipped": e.get("skipped"), "missing": e.get("missing"),
            "failed_checks": e.get("failed_checks") or []}
    return {"name": r.name, "slug": r.slug, "short": mine.SHORT,
            "compute_capability": r.compute_capability, "index": r.index}
