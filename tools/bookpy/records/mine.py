# SPDX-License-Identifier: MIT
"""The reader's own GPU (``tools/book mine``): its records, kept out of
recordings/, and their one index, ``mine.json``, with its one reader (``read``).

``tools/book mine`` builds and runs every GPU program live (the gpu preset,
as ``tools/book explore`` does for a chapter), then ``collect`` takes each GPU
run's live record from that build into ``build/mine/records/<gpu slug>/``
(``<key>/<run>.json``, the record as bookrun wrote it, digest and all) and
writes the index::

    {"about": "...",
     "gpu": {"name": "Tesla T4", "compute_capability": "7.5"},
     "runs": {"<key>/<run>": {"record": "<key>/<run>.json",
                              "failed_checks": ["<check id>", ...]}
              | {"skipped": "<why: the program needs a higher compute capability>"}
              | {"missing": "<why there is no record>"}}}

A run whose program's own checks did not hold on the reader's GPU is kept
(bookrun keeps its record beside the build's as ``<run>.json.failed.json``):
that is a finding about their GPU, shown on the page, not a broken book.
The book's build reads the folder through ``BOOK_READER_RECORDS``
(cmake/BookManifest.cmake: the manifest's ``reader``), and shows "your GPU"
beside the reference GPUs (records/manifest.py merges it into each run).

    python3 -m bookpy.records.mine collect --manifest build/gpu/book-manifest.json --out build/mine/records
    python3 -m bookpy.records.mine compare --reader build/mine/records/<slug> --reference recordings/<slug>
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
from dataclasses import dataclass, field

from . import schema as record_schema
from . import verdict
from .checkeval import BookError, lookup_values
from .jsonfile import load_json, write_json

INDEX = "mine.json"
#: How the pages name the reader's GPU.
SHORT = "your GPU"
_ENTRY_KEYS = ({"record", "failed_checks"}, {"skipped"}, {"missing"})


def slug(name: str) -> str:
    """A GPU's folder name, as cmake/BookGpus.cmake's book_gpu_slug makes it."""
    return re.sub(r"^-|-$", "", re.sub(r"[^a-z0-9]+", "-", name.lower()))


@dataclass
class Reader:
    """The reader's GPU as its index gives it: every path absolute."""
    index: str                # the mine.json file
    name: str                 # the GPU as the device names it
    compute_capability: str
    runs: dict = field(default_factory=dict)  # {run: {"record": path} | {"skipped": why} | {"missing": why}}

    @property
    def slug(self) -> str:
        return slug(self.name)


def read(folder: str) -> Reader:
    """The index <folder>/mine.json, read strictly: an unknown key, a field of the
    wrong type, or a record it names that is not there is an error naming the file."""
    path = os.path.join(os.path.abspath(folder), INDEX)
    data = load_json(path, "the reader's GPU index")
    where = f"the reader's GPU index {path}"
    if not isinstance(data, dict) or set(data) - {"about", "gpu", "runs"}:
        raise BookError(f"{where}: should be an object with \"about\", \"gpu\" and \"runs\"")
    gpu = data.get("gpu")
    if not (isinstance(gpu, dict) and set(gpu) == {"name", "compute_capability"}
            and all(isinstance(v, str) and v for v in gpu.values())):
        raise BookError(f"{where}: \"gpu\" should be {{\"name\": ..., \"compute_capability\": ...}}, "
                        "each a non-empty string")
    runs = data.get("runs")
    if not isinstance(runs, dict):
        raise BookError(f"{where}: \"runs\" should be an object of runs")
    out = {}
    for name, entry in runs.items():
        if not re.fullmatch(r"ch[0-9][0-9]-[a-z0-9-]+/[a-z0-9][a-z0-9_.-]*", name):
            raise BookError(f"{where}: '{name}' is no run's name (<chapter key>/<run>)")
        keys = set(entry) if isinstance(entry, dict) else None
        if keys is None or not any(keys <= k and (keys & k) for k in _ENTRY_KEYS) or \
                ("record" in keys) != ("failed_checks" in keys):
            raise BookError(f"{where}: run '{name}' should be {{\"record\", \"failed_checks\"}}, "
                            "{\"skipped\"} or {\"missing\"}")
        if "record" in entry:
            if not isinstance(entry["record"], str) or not isinstance(entry["failed_checks"], list):
                raise BookError(f"{where}: run '{name}': \"record\" is a path, \"failed_checks\" a list")
            rec = os.path.normpath(os.path.join(os.path.dirname(path), entry["record"]))
            if not os.path.exists(rec):
                raise BookError(f"{where}: run '{name}': its record {rec} does not exist")
            out[name] = {"record": rec, "failed_checks": list(entry["failed_checks"])}
        else:
            (k, v), = entry.items()
            if not isinstance(v, str) or not v:
                raise BookError(f"{where}: run '{name}': \"{k}\" says why, as text")
            out[name] = {k: v}
    return Reader(path, gpu["name"], gpu["compute_capability"], out)


def load(reader: Reader, run: str, schema: dict) -> dict:
    """The reader's record of `run`, checked as every record is (bookpy.records.schema:
    its shape and its digest) and checked to be of the reader's GPU."""
    path = reader.runs[run]["record"]
    record = load_json(path, "run record")
    try:
        record_schema.validate(record, schema, needs_gpu=True, where=f"run record {path}")
        record_schema.check_digest(record, schema, where=f"run record {path}")
    except record_schema.RecordError as e:
        raise BookError(str(e)) from None
    if record.get("name") != run or record["provenance"].get("gpu_name") != reader.name:
        raise BookError(f"run record {path} is of run '{record.get('name')}' on the "
                        f"{record['provenance'].get('gpu_name')}, but {reader.index} gives it as "
                        f"'{run}' on the {reader.name}")
    return record


# ---- collect: from a live build of every chapter ------------------------------------

def collect(manifest_path: str, out: str) -> str:
    """Takes every GPU run's live record of the build whose manifest is at
    `manifest_path` into <out>/<gpu slug>/, writes its index; returns that folder."""
    from .manifest import read as read_manifest
    m = read_manifest(manifest_path)
    gpus = m.gpus or {}
    if not gpus.get("live"):
        raise BookError(f"{manifest_path}: this build ran no GPU program live (no GPU was found): "
                        "tools/book mine runs on a machine with a CUDA GPU")
    name = gpus["model"]
    folder = os.path.join(os.path.abspath(out), slug(name))
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    runs, cc = {}, ""
    for run, entry in sorted(m.runs.items()):
        if not entry.get("gpu"):
            continue
        if entry.get("skipped"):
            runs[run] = {"skipped": entry["skipped"]}
            continue
        src = entry["record"]
        failed = src + ".failed.json"
        if os.path.exists(failed) and (not os.path.exists(src)
                                       or os.path.getmtime(failed) >= os.path.getmtime(src)):
            src = failed
        if not os.path.exists(src):
            runs[run] = {"missing": "the run made no record on this GPU (it failed or timed out: "
                                    "see tools/book mine's output)"}
            continue
        record = load_json(src, "run record")
        cc = cc or str(record.get("provenance", {}).get("compute_capability", ""))
        dest = os.path.join(folder, run + ".json")
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copyfile(src, dest)
        runs[run] = {"record": run + ".json",
                     "failed_checks": [c.get("id", "?") for c in record.get("checks") or []
                                       if not c.get("ok") and "not_applicable" not in c]}
    write_json(os.path.join(folder, INDEX), {
        "about": "The records of the reader's GPU made by tools/book mine (bookpy.records.mine); "
                 "not recordings: the book shows them beside the reference GPUs' in this build only.",
        "gpu": {"name": name, "compute_capability": cc or "?"}, "runs": runs})
    return folder


# ---- compare: every figure, the reader's GPU against a reference GPU -------------------

def figures(record: dict) -> list:
    """The results of a record worth a verdict: numbers measured on the GPU (every
    result but a count of failures, a flag, or a repeat's own statistic)."""
    out = []
    for key, res in sorted((record.get("results") or {}).items()):
        if not isinstance(res, dict) or not isinstance(res.get("value"), (int, float)):
            continue
        if res.get("unit") in ("bool", "errors", "warnings") or \
                re.search(r"_(min|max|p10|p90)_|_(min|max|p10|p90|reps)$", key):
            continue
        out.append(key)
    return out


def figure_verdicts(yours: dict, ref: dict, run: str, key: str) -> tuple:
    """(verdict, verdict as a multiple of the run's own ceiling or None, the ceiling's key)."""
    unit = (yours.get("results", {}).get(key) or {}).get("unit")
    v = verdict.compare(lookup_values(yours, run, key)[1], lookup_values(ref, run, key)[1], unit)
    ceiling = verdict.ceiling_of(yours, key) if not key.startswith("check:") else None
    if ceiling and ceiling in (ref.get("results") or {}):
        ry = verdict.per_repeat_ratio(yours, key, ceiling)
        rr = verdict.per_repeat_ratio(ref, key, ceiling)
        if ry and rr:
            return v, verdict.compare(ry, rr, unit), ceiling
    return v, None, None


def compare_rows(reader: Reader, reference: str, schema: dict, keys: dict | None = None) -> list:
    """[(run, key, yours, reference's, verdict, ceiling verdict, ceiling)] for every
    run the reader ran, against the recordings in `reference` (recordings/<slug>/);
    a skipped or missing run is one row with its reason. `keys`: {run: [key...]}
    to compare only those figures."""
    rows = []
    for run, entry in sorted(reader.runs.items()):
        if "record" not in entry:
            rows.append((run, None, None, None, entry.get("skipped") or entry.get("missing"), None, None))
            continue
        yours = load(reader, run, schema)
        path = os.path.join(reference, run + ".json")
        if not os.path.exists(path):
            rows.append((run, None, None, None, f"no recording of it in {reference}", None, None))
            continue
        ref = record_schema.load_recording(path, schema)
        for key in (keys or {}).get(run) or figures(yours):
            if key not in (ref.get("results") or {}) or key not in yours["results"]:
                continue
            v, c, ceiling = figure_verdicts(yours, ref, run, key)
            rows.append((run, key, lookup_values(yours, run, key), lookup_values(ref, run, key),
                         v, c, ceiling))
    return rows


def main(argv: list | None = None) -> int:
    from bookpy import ROOT
    ap = argparse.ArgumentParser(prog="python3 -m bookpy.records.mine", description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect", help="take a live build's GPU records into a folder of the reader's GPU")
    c.add_argument("--manifest", required=True)
    c.add_argument("--out", required=True)
    k = sub.add_parser("compare", help="every figure of the reader's GPU against a reference GPU's recordings")
    k.add_argument("--reader", required=True, help="build/mine/records/<slug>")
    k.add_argument("--reference", required=True, help="recordings/<slug>")
    k.add_argument("--schema", default=os.path.join(ROOT, "book", "record-schema.json"))
    a = ap.parse_args(argv)
    try:
        if a.cmd == "collect":
            print(collect(a.manifest, a.out))
            return 0
        reader = read(a.reader)
        schema = record_schema.load_schema(a.schema)
        counts: dict = {}
        print(f"{SHORT}: the {reader.name} (compute capability {reader.compute_capability}) against "
              f"{a.reference}\n{verdict.RULE}\n")
        for run, key, yours, ref, v, c, ceiling in compare_rows(reader, a.reference, schema):
            if key is None:
                print(f"{run}: {v}")
                counts["not compared"] = counts.get("not compared", 0) + 1
                continue
            counts[v.word] = counts.get(v.word, 0) + 1
            line = (f"{run}:{key}: yours {yours[0]:.4g} ({len(yours[1])}), reference {ref[0]:.4g} "
                    f"({len(ref[1])}): {v.word} [{v.why}]")
            if c is not None:
                line += f"; over the {verdict.ceiling_word(ceiling)} ({ceiling}): {c.word}"
            print(line)
        print("verdicts: " + ", ".join(f"{n} {w}" for w, n in sorted(counts.items())))
    except (BookError, OSError, ValueError) as e:
        print(f"bookpy.records.mine: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
