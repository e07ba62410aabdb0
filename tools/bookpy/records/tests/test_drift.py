# SPDX-License-Identifier: MIT
"""The test book.drift-exact: a forged recording fails the next GPU run.

    python3 test_drift.py <source root> <scratch folder>   (PYTHONPATH=<repo>/tools)

A recording can be edited and its digest recomputed (the digest is no
signature). What catches it is the GPU CI: `tools/book record` runs every
program again and compares, with tools/bookpy/records/drift.py, every figure the book
quotes. This test takes the committed recordings as both "committed" and "this
GPU's run" and checks that drift.py:
  - passes them as they are (status 0, nothing CHANGED);
  - fails (status 3), naming the figure and the chapter line that quotes it,
    where the committed device-query says l2_mb 96 (the H200 has 60 MB of L2)
    with its digest recomputed, as `book_run(device-query ... EXACT "*")`
    declares its figures exact;
  - without the manifest (no run declared exact) only flags it MOVED (status 0):
    the declaration is what makes it fail;
  - passes a changed measured figure of a run that declares none exact.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

from bookpy.records import schema as record_schema
from bookpy.tests.scaffold import Checklist


def whole_manifest(runs: dict) -> dict:
    """A build manifest as CMake writes it (bookpy.records.manifest reads every
    field), holding the given runs, each with a record path."""
    return {"source_root": ".", "records_dir": "records", "diagrams_dir": "diagrams",
            "edition": "reader", "chapters": ["ch01-execution-model"], "cy_tags": None,
            "exercises": None,
            "runs": {name: dict(run, record=f"records/{name}.json") for name, run in runs.items()}}


def forge(committed: str, schema, run: str, result: str, value: float) -> None:
    """Set a result in the committed recording and recompute its digest."""
    path = os.path.join(committed, run + ".json")
    with open(path, encoding="utf-8") as f:
        raw = json.load(f)
    raw["results"][result]["value"] = value
    for rep in raw.get("repeats") or []:
        rep["results"][result]["value"] = value
    with open(path, "w", encoding="utf-8") as f:
        json.dump(raw, f, indent=1)
    raw["digest"] = record_schema.digest(record_schema.load_recording(path, schema), schema)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(raw, f, indent=1)
    record_schema.check_digest(record_schema.load_recording(path, schema), schema, path)


def other_gpu(scratch: str, fresh: str) -> tuple[str, str]:
    """Another reference GPU's recordings: of the runs recorded here, one as this
    GPU's (fresh), one made for other inputs (stale, with its commit), one missing.
    (its folder, the stale run's commit)."""
    other = os.path.join(scratch, "other")
    os.makedirs(os.path.join(other, "ch01-execution-model"))
    for run in ("div-sweep", "div-first-launch"):
        for suffix in (".json", ".volatile.json"):
            shutil.copy(os.path.join(fresh, "ch01-execution-model", run + suffix),
                        os.path.join(other, "ch01-execution-model", run + suffix))
    stale = os.path.join(other, "ch01-execution-model", "div-first-launch.json")
    with open(stale, encoding="utf-8") as f:
        raw = json.load(f)
    raw["inputs"]["hash"] = "0" * len(raw["inputs"]["hash"])
    with open(stale, "w", encoding="utf-8") as f:
        json.dump(raw, f, indent=1)
    with open(os.path.join(other, "ch01-execution-model", "div-first-launch.volatile.json"),
              encoding="utf-8") as f:
        commit = json.load(f)["provenance"]["commit"]
    return other, commit


def main(root: str, scratch: str) -> int:
    schema = record_schema.load_schema(os.path.join(root, "book", "record-schema.json"))
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(scratch)
    committed = os.path.join(scratch, "committed")
    fresh = os.path.join(scratch, "fresh")
    shutil.copytree(os.path.join(root, "recordings", "nvidia-h200"), committed)
    shutil.copytree(os.path.join(root, "recordings", "nvidia-h200"), fresh)
    manifest = os.path.join(scratch, "manifest.json")
    with open(manifest, "w", encoding="utf-8") as f:
        json.dump(whole_manifest({"ch01-execution-model/device-query": {"exact": ["*"]},
                                  "ch01-execution-model/div-first-launch": {"exact": []}}), f)

    def drift(*extra: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "bookpy.records.drift",
                               "--root", root, "--old", committed, "--new", fresh, *extra],
                              capture_output=True, text=True, check=False)

    checks = Checklist("book.drift-exact")

    def expect(what: str, ok: bool, p: subprocess.CompletedProcess) -> None:
        checks.expect(ok, f"{what}: status {p.returncode}\n{p.stdout[-2000:]}\n{p.stderr}")

    p = drift("--manifest", manifest)
    expect("as committed: status 0, nothing CHANGED", p.returncode == 0 and "CHANGED" not in p.stdout, p)

    forge(committed, schema, "ch01-execution-model/div-first-launch", "first_launch_ms_uniform", 0.05)
    p = drift("--manifest", manifest)
    expect("a measured figure changed: status 0", p.returncode == 0, p)

    forge(committed, schema, "ch01-execution-model/device-query", "l2_mb", 96.0)
    p = drift("--manifest", manifest)
    expect("l2_mb forged: status 3, named with its chapter line",
           p.returncode == 3 and "ch01-execution-model/device-query:l2_mb is exact" in p.stderr
           and "committed recording says 96" in p.stderr and "this GPU's run says 60" in p.stderr
           and "chapters/ch01-execution-model/" in p.stderr, p)
    p = drift()
    expect("l2_mb forged, no manifest: status 0, flagged MOVED",
           p.returncode == 0 and "MOVED" in p.stdout, p)

    other, commit = other_gpu(scratch, fresh)
    runs = os.path.join(scratch, "gpu-runs.json")
    with open(runs, "w", encoding="utf-8") as f:
        json.dump(whole_manifest({f"ch01-execution-model/{r}": {"gpu": True, "exact": []}
                                  for r in ("device-query", "div-first-launch", "div-sweep")}), f)
    p = drift("--manifest", runs, "--other", f"NVIDIA H100 80GB HBM3={other}")
    expect("another GPU's recordings: what is stale there, and what is not recorded",
           p.returncode == 0 and f"drift: the NVIDIA H100 80GB HBM3's recordings ({other}): 1 of 3 "
           f"fresh at this commit; stale: ch01-execution-model/div-first-launch (recorded at "
           f"{commit}); not recorded: ch01-execution-model/device-query" in p.stdout, p)

    return checks.verdict("as committed passes; a forged exact figure fails (status 3), naming it; a "
                          "measured one is reported only")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
