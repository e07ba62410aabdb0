# SPDX-License-Identifier: MIT
"""Each GPU run's recording on each GPU a build shows: fresh, stale, pending or
not recorded; and a release's refusal of any on the lead GPU that is not fresh.

    python3 -m bookpy.records.gpustates --manifest build/book/book-manifest.json
            [--out build/book/gpu-states.json] [--release]

Reads the build manifest (its "gpus" and each GPU run's "gpus": cmake/BookManifest.cmake)
and the records it names (their "stale" flag and the commit they were made at).
Prints, for each GPU, how many runs are fresh and names every one that is not:

    Book: NVIDIA H200 (lead): 31 of 31 GPU runs fresh
    Book: NVIDIA H100 80GB HBM3: 0 of 31 GPU runs fresh; not recorded: ch01-.../div-sweep, ...

--out writes the same as JSON: {"lead", "gpus": {<name>: {<run>: {"state", "commit",
"pending", "reasons"}}}}. With --release, exit status 1 when any run of the lead
GPU is not fresh (a release shows only fresh recordings of it), naming each.
Exit status 2 on bad input, named with its file.

    python3 -m bookpy.records.gpustates --manifest M --release --skip-pending -- CMD...

runs CMD (a test of the release, such as building the PDF) when every run of the
lead GPU is fresh; when the only ones that are not are pending (declared in
recordings/pending.json), it runs nothing and exits 77, a test's "skipped",
naming them: a release cannot be made while runs wait for a GPU, and that is no
failure of the release's own code.
"""
from __future__ import annotations

import argparse
import subprocess
import sys

from .checkeval import BookError
from .jsonfile import load_json, write_json
from .manifest import Manifest, read as read_manifest

STATES = ("fresh", "stale", "pending", "not recorded")


class StatesError(Exception):
    """Bad input: the message names the file."""


def _record(path: str, run: str, gpu: str) -> dict:
    """A GPU's record of a run, as the book reads every JSON file (jsonfile.load_json)."""
    try:
        data = load_json(path, f"the record of {run} on the {gpu}")
    except BookError as e:
        raise StatesError(str(e)) from None
    if not isinstance(data, dict):
        raise StatesError(f"{path}: the record of {run} on the {gpu} is not a JSON object")
    return data


def state_of(entry: dict, run: str, gpu: str, path: str) -> dict:
    """One run on one GPU: its state, the commit its recording was made at (or
    None), why it waits (or None) and what changed since it was recorded."""
    if not isinstance(entry, dict):
        raise StatesError(f"{path}: run {run}: GPU {gpu} is not an object")
    pending, record = entry.get("pending"), entry.get("record")
    out = {"state": "fresh", "commit": None, "pending": pending, "reasons": []}
    if record is not None:
        r = _record(record, run, gpu)
        prov = r.get("provenance") if isinstance(r.get("provenance"), dict) else {}
        out["commit"] = prov.get("commit")
        if r.get("stale"):
            out["state"] = "stale"
            out["reasons"] = [str(x) for x in r.get("stale_reasons") or []]
    if pending:
        out["state"] = "pending"
    elif record is None:
        out["state"] = "not recorded"
    return out


def states(m: Manifest) -> dict:
    """Each GPU run of the manifest (manifest.read) on each GPU it names."""
    gpus, runs, path = m.gpus, m.runs, m.path
    if not isinstance(gpus, dict):
        raise StatesError(f"{path}: the build manifest has no \"gpus\" object "
                          "(configure the build again)")
    shown = {}
    for name in sorted(runs):
        run = runs[name]
        if not isinstance(run, dict) or not run.get("gpu"):
            continue
        per = run.get("gpus")
        if not isinstance(per, dict):
            raise StatesError(f"{path}: GPU run {name} has no \"gpus\" object")
        for gpu, entry in per.items():
            shown.setdefault(gpu, {})[name] = state_of(entry, name, gpu, path)
    return {"lead": gpus.get("lead"), "model": gpus.get("model"), "gpus": shown}


def summary(result: dict) -> list[str]:
    lines = []
    # The lead GPU first, then the others in the manifest's order.
    for gpu in sorted(result["gpus"], key=lambda g: g != result["lead"]):
        runs = result["gpus"][gpu]
        label = gpu + (" (lead)" if gpu == result["lead"] else "")
        if all(s["state"] == "not recorded" for s in runs.values()):
            lines.append(f"Book: {label}: none of the {len(runs)} GPU runs recorded yet")
            continue
        fresh = sum(1 for s in runs.values() if s["state"] == "fresh")
        line = f"Book: {label}: {fresh} of {len(runs)} GPU runs fresh"
        for state in STATES[1:]:
            names = [n + (f" (recorded at {s['commit']})" if state == "stale" and s["commit"] else "")
                     for n, s in runs.items() if s["state"] == state]
            if names:
                line += f"; {state}: {', '.join(names)}"
        lines.append(line)
    return lines


#: The exit status of a test skipped (CTest's SKIP_RETURN_CODE in the book).
SKIPPED = 77


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = []
    if "--" in argv:
        at = argv.index("--")
        argv, command = argv[:at], argv[at + 1:]
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--manifest", required=True, help="the build manifest (book-manifest.json)")
    p.add_argument("--out", help="write the states here (JSON)")
    p.add_argument("--release", action="store_true",
                   help="fail when a run of the lead GPU is not fresh")
    p.add_argument("--skip-pending", action="store_true",
                   help="with --release: exit 77 (skipped) where the only runs of the lead GPU "
                        "that are not fresh are pending, and run the command after -- where "
                        "none is")
    a = p.parse_args(argv)
    if a.skip_pending and not (a.release and command):
        p.error("--skip-pending needs --release and a command after --")
    try:
        result = states(read_manifest(a.manifest))
    except (StatesError, BookError) as e:
        print(f"gpustates: error: {e}", file=sys.stderr)
        return 2
    for line in summary(result):
        print(line)
    if a.out:
        write_json(a.out, result)
    if a.release:
        lead = result["lead"]
        bad = {n: s for n, s in result["gpus"].get(lead, {}).items() if s["state"] != "fresh"}
        if bad and a.skip_pending and all(s["state"] == "pending" for s in bad.values()):
            waiting = ", ".join(f"{n} ({s['pending']})" for n, s in bad.items())
            print(f"skipped: runs wait for the lead GPU, the {lead} (recordings/pending.json), "
                  f"so no release can be made: {waiting}")
            return SKIPPED
        if bad:
            print(f"gpustates: a release shows only fresh recordings of the lead GPU, the {lead}, "
                  "but these are not:", file=sys.stderr)
            for n, s in bad.items():
                why = s["pending"] or "; ".join(s["reasons"]) or ""
                print(f"  {n}: {s['state']}" + (f" ({why})" if why else ""), file=sys.stderr)
            print("Record them on that GPU (tools/book record), or build without --release.",
                  file=sys.stderr)
            return 1
    if command:
        sys.stdout.flush()
        return subprocess.run(command, check=False).returncode
    return 0


if __name__ == "__main__":
    sys.exit(main())
