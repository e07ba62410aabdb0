# SPDX-License-Identifier: MIT
"""Check every claim of the chapters against a folder of run records, without Sphinx.

    python3 -m bookpy.build.check_claims --records DIR [--chapters DIR] [--only KEY]...
                                         [--manifest BUILD/book-manifest.json]

Each ``{check}`<expression>``` of chapters/chNN-*.md is evaluated as the book's
check role evaluates it (tools/bookpy/records/checkeval.py): on the medians and on
every recorded repeat of DIR/<key>/<run>.json. This is what the GPU machine runs
after it has measured the book (tools/book record), where Debian's Sphinx is not:
a claim that its fresh records no longer make true fails the record there, named
by its chapter file and line, instead of failing the next HTML build elsewhere.

With --manifest, a claim that reads a run pending on the build's GPU (the
manifest's ``gpus.model``; recordings/pending.json, whatever record of it the
folder holds) is neither checked nor failed: it is listed as pending, with the
reason, and counted apart from the claims that hold (the run awaits that GPU;
its page says so, and a release build refuses it).

Prints one line per claim that does not hold (file:line: the check and the values)
and a summary; exits 1 if any does not hold, 2 on bad input (no chapter, no
record folder).
"""
import argparse
import json
import os
import re
import sys

from .. import ROOT
from ..chapters import chapter_files, chapter_keys
from ..records import checkeval
from ..records import manifest as book_manifest

#: A check role in MyST: {check}`...` (a check holds no backquote).
CHECK = re.compile(r"\{check\}`([^`]+)`")
NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")


def claims(path):
    """[(line, text)]: the check roles of one chapter file, with their lines."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return [(text.count("\n", 0, m.start()) + 1, m.group(1)) for m in CHECK.finditer(text)]


def resolver(key):
    def resolve(run):
        parts = run.split("/") if "/" in run else [key, run]
        if len(parts) != 2 or not all(NAME.fullmatch(p) and ".." not in p for p in parts):
            raise checkeval.BookError(f"run '{run}' should read <name> or <chapter>/<name>")
        return "/".join(parts)
    return resolve


class Pending(checkeval.BookError):
    """A claim that reads a run pending on the build's GPU: not checked, not failed."""


def pending_runs(manifest_path):
    """{"<key>/<run>": reason}: the runs the manifest declares pending on its build's GPU."""
    m = book_manifest.read(manifest_path)
    model = (m.gpus or {}).get("model")
    out = {}
    for name, run in m.runs.items():
        entry = (run.get("gpus") or {}).get(model) or {}
        if entry.get("pending") and not run.get("live"):  # a live run's record is fresh
            out[name] = entry["pending"]
    return model, out


def loader(records, pending=None, gpu=None):
    cache = {}
    pending = pending or {}

    def load(full):
        if full in pending:
            raise Pending(f"run '{full}' waits for the {gpu} (recordings/pending.json: "
                          f"{pending[full]}): not checked")
        if full not in cache:
            path = os.path.join(records, full + ".json")
            try:
                with open(path, encoding="utf-8") as f:
                    cache[full] = json.load(f)
            except OSError:
                raise checkeval.BookError(f"no record of run '{full}' ({path})") from None
            except ValueError as e:
                raise checkeval.BookError(f"the record {path} is not JSON: {e}") from None
        return cache[full]
    return load


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--records", required=True, help="the run records, <key>/<run>.json")
    p.add_argument("--chapters", default=os.path.join(ROOT, "chapters"))
    p.add_argument("--only", action="append", default=[], metavar="KEY",
                   help="only this chapter's claims (repeatable)")
    p.add_argument("--manifest", help="the build's book-manifest.json: a claim on a run pending "
                                      "on its GPU is listed as pending, not checked")
    a = p.parse_args()
    if not os.path.isdir(a.records):
        print(f"check-claims: no record folder {a.records}", file=sys.stderr)
        return 2
    keys = chapter_keys(a.chapters)
    if a.only:
        unknown = set(a.only) - set(keys)
        if unknown:
            print(f"check-claims: no chapter {', '.join(sorted(unknown))} in {a.chapters}",
                  file=sys.stderr)
            return 2
        keys = [k for k in keys if k in a.only]
    # Each chapter's page and its sections' pages (bookpy.chapters): a claim is
    # reported at the file that holds it.
    files = [(k, path) for k in keys for path in chapter_files(a.chapters, k)]
    if not files:
        print(f"check-claims: no chapter (chNN-<name>.md) in {a.chapters}", file=sys.stderr)
        return 2
    gpu, pending = None, {}
    if a.manifest:
        try:
            gpu, pending = pending_runs(a.manifest)
        except checkeval.BookError as e:
            print(f"check-claims: {e}", file=sys.stderr)
            return 2
    load = loader(a.records, pending, gpu)
    total = failed = elsewhere = waiting = 0
    for key, path in files:
        for line, text in claims(path):
            total += 1
            try:
                checkeval.verify_with(text, resolver(key), load)
            except Pending as e:  # the run awaits this GPU: neither holds nor fails
                waiting += 1
                print(f"{os.path.relpath(path, ROOT)}:{line}: pending: {e}")
            except checkeval.NotApplicable as e:  # a claim of another GPU: neither holds nor fails
                elsewhere += 1
                print(f"{os.path.relpath(path, ROOT)}:{line}: not applicable here: {e}")
            except checkeval.BookError as e:
                failed += 1
                print(f"{os.path.relpath(path, ROOT)}:{line}: {e}")
    print(f"check-claims: {total - failed - elsewhere - waiting} of {total} claims in "
          f"{len(keys)} chapters hold in the records of {a.records}"
          + (f", {elsewhere} not applicable (scoped to another GPU)" if elsewhere else "")
          + (f", {waiting} pending (their runs wait for the {gpu}), not checked"
             if waiting else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
