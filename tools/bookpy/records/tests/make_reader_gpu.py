# SPDX-License-Identifier: MIT
"""A reader's GPU nobody here has, made from a reference GPU's recordings: the
folder `tools/book mine` would leave (bookpy.records.mine: mine.json and
<key>/<run>.json), for the tests of its comparison and its pages.

    python3 make_reader_gpu.py --recordings recordings/nvidia-h100-80gb-hbm3 \
        --manifest build/book/book-manifest.json --out DIR [--name "Tesla T4" --cc 7.5 --sms 40]

Each GPU run the build manifest declares becomes, on the made-up GPU:

- skipped, with the reason the configure step gives, where its program needs a
  higher compute capability than --cc (book_program's NEEDS_CC: the manifest's
  "needs_cc");
- otherwise the recording with the GPU's name, compute capability and SM count,
  every time (ms, us, ns, cycles) multiplied by --slower (2.5) and every rate
  divided by it, in each repeat and in the medians: a GPU that is slower
  everywhere, with the same ratios (so the ratios' verdict is "same");
- for the runs named by --overlap, each repeat's times multiplied by factors
  around --overlap-scale (1.08) that spread wider than the difference: the repeats of
  the two GPUs overlap, and the verdict must be "can't tell";
- for --fail RUN:CHECK, that program check marked as not holding (the record
  as bookrun keeps a run whose check failed).

Each record's digest is computed again (bookpy.records.schema.digest), as
bookrun's would be: these are records, not hand edits of one.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys

from bookpy import ROOT
from bookpy.records import schema as record_schema
from bookpy.records.jsonfile import write_json
from bookpy.records.manifest import read as read_manifest
from bookpy.records.verdict import RATE_UNITS, TIME_UNITS

#: A repeat's factor on the runs whose repeats must overlap the reference's.
OVERLAP = [0.85, 1.0, 1.25, 0.9, 1.3]


def _scale(results: dict, factor) -> None:
    for key, res in results.items():
        if not isinstance(res, dict) or not isinstance(res.get("value"), (int, float)):
            continue
        f = factor(key)
        if res.get("unit") in TIME_UNITS:
            res["value"] = res["value"] * f
        elif res.get("unit") in RATE_UNITS:
            res["value"] = res["value"] / f


def make(recordings: str, manifest: str, out: str, name: str, cc: str, sms: str, slower: float,
         overlap: list, overlap_scale: float, fail: list) -> dict:
    schema = record_schema.load_schema(os.path.join(ROOT, "book", "record-schema.json"))
    m = read_manifest(manifest)
    runs = {}
    have = tuple(int(x) for x in cc.split("."))
    for run, entry in sorted(m.runs.items()):
        if not entry.get("gpu"):
            continue
        needs = entry.get("needs_cc")
        if needs and tuple(int(x) for x in needs.split(".")) > have:
            runs[run] = {"skipped": f"{run} needs compute capability {needs} (program "
                                    f"{entry.get('program')}, NEEDS_CC {needs.replace('.', '')}); "
                                    f"this GPU, the {name}, has {cc}"}
            continue
        path = os.path.join(recordings, run + ".json")
        if not os.path.exists(path):
            runs[run] = {"missing": f"no recording {path} to make it from"}
            continue
        record = record_schema.load_recording(path, schema)
        for k in schema["build_only"]["record"]:
            record.pop(k, None)
        record["source"] = "live"
        record["provenance"].update(gpu_name=name, compute_capability=cc, sm_count=sms)
        if run in overlap:
            for i, rep in enumerate(record.get("repeats") or []):
                _scale(rep.get("results", {}), lambda _k, i=i: overlap_scale * OVERLAP[i % len(OVERLAP)])
        else:
            for rep in record.get("repeats") or []:
                _scale(rep.get("results", {}), lambda _k: slower)
            if not record.get("repeats"):
                _scale(record["results"], lambda _k: slower)
        # The medians are the repeats' medians, as bookrun makes them.
        reps = record.get("repeats") or []
        for key, res in record["results"].items():
            vals = [r["results"][key]["value"] for r in reps if key in r.get("results", {})]
            if vals and isinstance(res.get("value"), (int, float)):
                res["value"] = statistics.median(vals)
        failed = []
        for spec in fail:
            frun, _, cid = spec.partition(":")
            if frun == run:
                for c in record.get("checks") or []:
                    if c.get("id") == cid:
                        c["ok"] = False
                        failed.append(cid)
        record["digest"] = record_schema.digest(record, schema)
        record_schema.validate(record, schema, needs_gpu=True, where=f"made from {path}")
        write_json(os.path.join(out, run + ".json"), record)
        runs[run] = {"record": run + ".json", "failed_checks": failed}
    index = {"about": f"A made-up {name}, from {recordings} (tools/bookpy/records/tests/make_reader_gpu.py)",
             "gpu": {"name": name, "compute_capability": cc}, "runs": runs}
    write_json(os.path.join(out, "mine.json"), index)
    return index


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--recordings", required=True)
    ap.add_argument("--manifest", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--name", default="Tesla T4")
    ap.add_argument("--cc", default="7.5")
    ap.add_argument("--sms", default="40")
    ap.add_argument("--slower", type=float, default=2.5)
    ap.add_argument("--overlap", action="append", default=[])
    ap.add_argument("--overlap-scale", type=float, default=1.08)
    ap.add_argument("--fail", action="append", default=[])
    a = ap.parse_args(argv)
    make(a.recordings, a.manifest, a.out, a.name, a.cc, a.sms, a.slower, a.overlap, a.overlap_scale, a.fail)
    print(a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
