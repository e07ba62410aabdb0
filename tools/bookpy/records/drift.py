# SPDX-License-Identifier: MIT
"""Drift: every figure the book quotes, in a new recording against the committed one.

    python3 -m bookpy.records.drift --root . --old recordings/nvidia-h200 --new build/gpu/recordings-new/nvidia-h200
             [--manifest build/gpu/book-manifest.json] [--chapter KEY] [--out FILE]
             [--other "NVIDIA H100 80GB HBM3=recordings/nvidia-h100-80gb-hbm3" ...]

A figure the book quotes is a ``{value}`run:result|format``` role in a chapter
(chapters/*.md). For each, the table gives the committed recording's median and
range over its repeats, the new one's, and flags a figure whose new median lies
outside the committed range (beyond the precision the page prints): MOVED. A
measured figure's drift is for a reader to judge; the checks are what fail a
record.

A figure of a result its run declares exact (book_run EXACT, in the manifest's
"exact" patterns: a property of the GPU and the program, the same in every
run) must be the same in both: one that differs is flagged CHANGED, named on
stderr with the chapter line that quotes it, and the exit status is 3. That is
how a committed recording edited with its digest recomputed (the digest is no
signature: anyone can recompute it) fails the next GPU run. Exit status 0
otherwise.

With --other, each other reference GPU's recordings are listed after the table:
how many of the GPU runs recorded here they hold fresh at this commit (the same
input hash as this GPU's new recording), and which are stale there (with the
commit they were made at) or not recorded: what is stale, per GPU.
"""
from __future__ import annotations

import argparse
import fnmatch
import os
import re
import sys

from ..chapters import all_chapter_files, key_of
from . import schema as record_schema
from .manifest import read as read_manifest

ROLE = re.compile(r"\{(?:value|gpu-values)\}`([^`]+)`")

#: A figure: its median and the value of each repeat.
Figure = tuple[float, list[float]]


def quoted_figures(root: str, chapter: str | None = None) -> list[tuple[str, str, str, str]]:
    """(run, result, format, file:line) for each {value} role, in order, once each."""
    seen, out = set(), []
    for path in all_chapter_files(os.path.join(root, "chapters")):
        key = key_of(path)
        with open(path, encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                for m in ROLE.finditer(line):
                    ref, _, spec = m.group(1).replace("\\|", "|").partition("|")
                    run, _, result = ref.partition(":")
                    if "/" not in run:
                        run = f"{key}/{run}"
                    if chapter and not run.startswith(chapter + "/"):
                        continue
                    if (run, result, spec) in seen:
                        continue
                    seen.add((run, result, spec))
                    out.append((run, result, spec, f"{os.path.relpath(path, root)}:{lineno}"))
    return out


def figure(record: dict | None, result: str) -> Figure | None:
    """(median, [each repeat's value]) of a result or a check's value; None when absent."""
    if record is None:
        return None
    if result.startswith("check:"):
        cid = result[len("check:"):]
        for c in record.get("checks") or []:
            if c.get("id") == cid and "value" in c:
                return c["value"], list(c.get("values") or [c["value"]])
        return None
    r = (record.get("results") or {}).get(result)
    if r is None:
        return None
    values = [rep["results"][result]["value"] for rep in record.get("repeats") or []
              if result in rep.get("results", {})]
    return r["value"], values or [r["value"]]


def fmt(value: float, spec: str) -> str:
    try:
        if spec:
            return format(value, spec)
    except (ValueError, TypeError):
        pass
    if float(value).is_integer() and abs(value) < 1e15:
        return f"{int(value):,}"
    return f"{value:g}"


def shown(fig: Figure | None, spec: str) -> str:
    if fig is None:
        return "-"
    med, values = fig
    lo, hi = min(values), max(values)
    text = fmt(med, spec)
    if fmt(lo, spec) != fmt(hi, spec):
        text += f" ({fmt(lo, spec)} to {fmt(hi, spec)}, {len(values)} runs)"
    elif len(values) > 1:
        text += f" ({len(values)} runs agree)"
    return text


def moved(old: Figure | None, new: Figure | None, spec: str) -> str:
    if old is None or new is None:
        return "new" if old is None and new is not None else ("gone" if new is None else "")
    lo, hi = min(old[1]), max(old[1])
    med = new[0]
    if lo <= med <= hi:
        return ""
    printed = fmt(med, spec)
    if printed in (fmt(lo, spec), fmt(hi, spec)):
        return ""
    return "MOVED"


def changed(old: Figure | None, new: Figure | None) -> bool:
    """An exact figure that is not the same in both (or not the same in all repeats)."""
    if old is None or new is None:
        return False
    return len(set(old[1]) | set(new[1]) | {old[0], new[0]}) != 1


def exact_patterns(manifest: str | None) -> dict[str, list[str]]:
    """Each run's EXACT patterns, from the build's manifest (none without one)."""
    if not manifest:
        return {}
    runs = read_manifest(manifest).runs
    return {name: list(r.get("exact") or []) for name, r in runs.items()}


def load(folder: str, run: str, schema: dict, cache: dict[str, dict | None]) -> dict | None:
    if run not in cache:
        path = os.path.join(folder, run + ".json")
        try:
            cache[run] = record_schema.load_recording(path, schema) if os.path.exists(path) else None
        except (OSError, ValueError) as e:
            print(f"drift: {path}: {e}", file=sys.stderr)
            cache[run] = None
    return cache[run]


def other_gpus(others: list[str], new: str, manifest: str | None, chapter: str | None,
               schema: dict) -> list[str]:
    """For each other GPU's recordings ("<GPU name>=<folder>"), which of the GPU runs
    just recorded (the manifest's, of the chapter) it has fresh at this commit (the
    same input hash as this GPU's new recording), which stale (and the commit it was
    made at) and which not at all: what is stale on each reference GPU."""
    if not others or not manifest:
        return []
    runs = sorted(n for n, r in read_manifest(manifest).runs.items()
                  if r.get("gpu") and (not chapter or n.startswith(chapter + "/")))
    new_cache: dict[str, dict | None] = {}
    lines = []
    for other in others:
        gpu, sep, folder = other.partition("=")
        if not sep:
            raise SystemExit(f"drift: --other '{other}' should read <GPU name>=<recordings folder>")
        cache: dict[str, dict | None] = {}
        fresh, stale, missing = 0, [], []
        for run in runs:
            theirs, ours = load(folder, run, schema, cache), load(new, run, schema, new_cache)
            if theirs is None:
                missing.append(run)
            elif ours is not None and theirs["inputs"]["hash"] == ours["inputs"]["hash"]:
                fresh += 1
            else:
                stale.append(f"{run} (recorded at {theirs['provenance'].get('commit', '?')})")
        line = f"drift: the {gpu}'s recordings ({folder}): {fresh} of {len(runs)} fresh at this commit"
        if stale:
            line += f"; stale: {', '.join(stale)}"
        if missing:
            line += f"; not recorded: {', '.join(missing)}"
        lines.append(line)
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", required=True)
    ap.add_argument("--old", required=True, help="the committed recordings/<gpu>")
    ap.add_argument("--new", required=True, help="the new recordings/<gpu>")
    ap.add_argument("--manifest", help="the build's book-manifest.json (the runs' EXACT results)")
    ap.add_argument("--chapter")
    ap.add_argument("--out")
    ap.add_argument("--other", action="append", default=[], metavar="GPU=FOLDER",
                    help="another reference GPU's recordings: list which of the runs are "
                         "stale there, or not recorded (repeatable; needs --manifest)")
    a = ap.parse_args(argv)
    schema = record_schema.load_schema(os.path.join(a.root, "book", "record-schema.json"))
    exact = exact_patterns(a.manifest)
    old_cache, new_cache = {}, {}
    rows = []
    errors = []
    for run, result, spec, where in quoted_figures(a.root, a.chapter):
        old = figure(load(a.old, run, schema, old_cache), result)
        new = figure(load(a.new, run, schema, new_cache), result)
        if old is None and new is None:
            continue  # a CPU run's figure: no recording
        flag = moved(old, new, spec)
        if any(fnmatch.fnmatchcase(result, p) for p in exact.get(run, [])) and changed(old, new):
            flag = "CHANGED"
            errors.append(f"drift: {where}: {run}:{result} is exact (book_run EXACT), but the "
                          f"committed recording says {shown(old, spec)} and this GPU's run says "
                          f"{shown(new, spec)}")
        rows.append((f"{run}:{result}", shown(old, spec), shown(new, spec), flag, where))
    widths = [max([len(h)] + [len(r[i]) for r in rows]) for i, h in
              enumerate(("figure", "committed", "new"))]
    lines = [f"{'figure':<{widths[0]}}  {'committed':<{widths[1]}}  {'new':<{widths[2]}}  flag"]
    for r in rows:
        lines.append(f"{r[0]:<{widths[0]}}  {r[1]:<{widths[1]}}  {r[2]:<{widths[2]}}  {r[3]}")
    flagged = sum(1 for r in rows if r[3] in ("MOVED", "CHANGED"))
    lines.append(f"drift: {len(rows)} quoted figures of GPU runs; {flagged} moved beyond the "
                 "committed range")
    lines += other_gpus(a.other, a.new, a.manifest, a.chapter, schema)
    text = "\n".join(lines) + "\n"
    sys.stdout.write(text)
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            f.write(text)
    for e in errors:
        print(e, file=sys.stderr)
    if errors:
        print(f"drift: {len(errors)} exact figure(s) differ from the committed recording: it was "
              "not made by these programs on this GPU (edited, or another GPU or driver)",
              file=sys.stderr)
        return 3
    return 0


if __name__ == "__main__":
    sys.exit(main())
