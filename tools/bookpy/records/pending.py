# SPDX-License-Identifier: MIT
"""The runs that wait for a GPU (recordings/pending.json, which cmake/BookGpus.cmake
reads strictly): after a GPU has recorded runs, each leaves the entries of those runs.

    python3 -m bookpy.records.pending recorded --file recordings/pending.json
            --gpu "NVIDIA H100 80GB HBM3" --manifest build/gpu/book-manifest.json
            [--chapter KEY]

Every GPU run the manifest declares (only chapter KEY's, with --chapter) was
recorded on GPU (`tools/book record` calls this once the recordings are
published): the GPU is taken off each such run's "gpus", and a run that no GPU
waits for any more leaves the file. The file is rewritten, whole and at once,
only when it changes; what was taken off is printed. Exit status 0, or 2 on bad
input (named with the file).
"""
from __future__ import annotations

import argparse
import json
import os
import sys

from .checkeval import BookError
from .jsonfile import write_json
from .manifest import read as read_manifest


class PendingError(Exception):
    """Bad input: the message names the file."""


def _load(path: str, what: str) -> dict:
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as e:
        raise PendingError(f"{path}: cannot read {what}: {e.strerror}") from None
    except ValueError as e:
        raise PendingError(f"{path}: {what} is not JSON: {e}") from None
    if not isinstance(data, dict):
        raise PendingError(f"{path}: {what} is not a JSON object")
    return data


def gpu_runs(path: str, chapter: str | None) -> list[str]:
    """The GPU runs the build manifest at path declares (of one chapter)."""
    try:
        runs = read_manifest(path).runs
    except BookError as e:
        raise PendingError(str(e)) from None
    return sorted(name for name, run in runs.items()
                  if run.get("gpu") is True and (chapter is None or name.split("/")[0] == chapter))


def take_off(pending: dict, path: str, gpu: str, recorded: list[str]) -> list[tuple[str, bool]]:
    """Takes `gpu` off the entry of each recorded run, and an entry no GPU waits
    for off the file; [(run, whether it left the file)] for each it changed."""
    runs = pending.get("runs")
    if not isinstance(runs, dict):
        raise PendingError(f"{path}: \"runs\" should be an object of the runs that wait")
    changed = []
    for name in recorded:
        entry = runs.get(name)
        if entry is None:
            continue
        gpus = entry.get("gpus") if isinstance(entry, dict) else None
        if not isinstance(gpus, list):
            raise PendingError(f"{path}: pending run {name} has no \"gpus\" list")
        if gpu not in gpus:
            continue
        entry["gpus"] = [g for g in gpus if g != gpu]
        if not entry["gpus"]:
            del runs[name]
        changed.append((name, name not in runs))
    return changed


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("recorded", help="a GPU has recorded the runs of a build manifest")
    rec.add_argument("--file", required=True, help="recordings/pending.json")
    rec.add_argument("--gpu", required=True, help="the GPU that recorded them, as the device names it")
    rec.add_argument("--manifest", required=True, help="the build manifest of that record")
    rec.add_argument("--chapter", help="only this chapter's runs were recorded")
    a = p.parse_args(argv)
    try:
        if not os.path.exists(a.file):
            print(f"{a.file}: no runs wait for a GPU")
            return 0
        pending = _load(a.file, "the pending runs")
        recorded = gpu_runs(a.manifest, a.chapter)
        changed = take_off(pending, a.file, a.gpu, recorded)
    except PendingError as e:
        print(f"pending: error: {e}", file=sys.stderr)
        return 2
    if not changed:
        print(f"{a.file}: no run recorded here waited for the {a.gpu}")
        return 0
    write_json(a.file, pending)
    for name, gone in changed:
        print(f"{a.file}: {name} recorded on the {a.gpu}"
              + ("; no GPU waits for it now" if gone else "; it still waits for "
                 + ", ".join(pending["runs"][name]["gpus"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
