# SPDX-License-Identifier: MIT
"""The lines of the book's sources that a compiler kept: for every translation
unit of code/, exercises/ and solutions/ in the build's compile_commands.json,
its compile command run with -E on a copy of the source tree in which each
conditional group (#if, #ifdef, #ifndef, #elif, #else) opens with a token of
its own; a group whose token reaches the output was compiled, and a line in a
group that no translation unit kept is one no compiler saw (an ``#if 0``
region, a branch of a macro never defined).

    python3 -m bookpy.build.kept_lines --root SRC --compile-commands JSON --out OUT.json

OUT.json: {"files": {"<path from SRC>": [[first, last], ...]}}, the 1-based
line ranges of each file (a source or a header under those folders) that sit in
a group no translation unit compiled; a file no translation unit included is
absent from "included". {"included": [<path>...]} lists those that one did.
The listing directive (ext/listings.py) refuses to show a line of a dropped
range, or a file no translation unit included.

A translation unit is run again only when its command or a file it included
last time changed (a cache beside OUT.json), so that editing one chapter's code
preprocesses only the units that include it.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import hashlib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

from ..records.jsonfile import write_json

#: The folders whose files a listing may show.
FOLDERS = ("code", "exercises", "solutions")
SUFFIXES = (".c", ".cc", ".cpp", ".cxx", ".cu", ".h", ".hh", ".hpp", ".cuh", ".inl")
CONDITIONAL = re.compile(r"^\s*#\s*(if|ifdef|ifndef|elif|else|endif)\b")
TOKEN = "__book_kept_group_{}__"
LINEMARK = re.compile(r'^#\s*(\d+)\s+"((?:[^"\\]|\\.)*)"')


class KeptError(Exception):
    """Bad input: the message names the file."""


def groups(lines: list) -> list:
    """[(first line, last line)] of each conditional group's body, 1-based and
    inclusive (the lines after its directive, up to the next directive of its
    #if: #elif, #else or #endif); a directive continued with a backslash ends
    at its last line."""
    out, stack = [], []  # stack: [start of the open group's body]
    i = 0
    while i < len(lines):
        m = CONDITIONAL.match(lines[i])
        end = i
        while end < len(lines) - 1 and lines[end].rstrip("\n").endswith("\\"):
            end += 1
        if m:
            kind = m.group(1)
            if kind in ("elif", "else", "endif"):
                if not stack:
                    raise KeptError(f"line {i + 1}: #{kind} without #if")
                out.append((stack.pop(), i))  # the body ended on the line before (1-based i)
            if kind != "endif":
                stack.append(end + 2)  # the body starts on the line after the directive
        i = end + 1
    if stack:
        raise KeptError(f"line {stack[-1] - 1}: an #if, #ifdef or #ifndef never closed by #endif")
    return out


def instrument(text: str, path: str, first_id: int) -> tuple[str, list]:
    """The file with a line holding a group's token after each group's directive,
    and #line to keep every later line's number and the file's name; and
    [(token id, first, last)] of its groups."""
    lines = text.splitlines(keepends=True)
    body = groups(lines)
    starts = {first: n for n, (first, _) in enumerate(body)}
    quoted = path.replace("\\", "\\\\").replace('"', '\\"')
    out = []
    for number, line in enumerate(lines, 1):
        if number in starts:
            n = first_id + starts[number]
            out.append(f"{TOKEN.format(n)}\n#line {number} \"{quoted}\"\n")
        out.append(line if line.endswith("\n") else line + "\n")
    return "".join(out), [(first_id + k, a, b) for k, (a, b) in enumerate(body)]


def mirror(root: str, into: str) -> dict:
    """Instrumented copies of every source under FOLDERS in `into`; returns
    {token id: (path from root, first, last)}."""
    found, next_id = {}, 0
    for folder in FOLDERS:
        top = os.path.join(root, folder)
        for dirpath, dirnames, names in os.walk(top):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            for name in sorted(names):
                src = os.path.join(dirpath, name)
                rel = os.path.relpath(src, root)
                dst = os.path.join(into, rel)
                os.makedirs(os.path.dirname(dst), exist_ok=True)
                if not name.endswith(SUFFIXES):
                    shutil.copyfile(src, dst)
                    continue
                with open(src, encoding="utf-8", errors="surrogateescape") as f:
                    text = f.read()
                try:
                    new, body = instrument(text, src, next_id)
                except KeptError as e:
                    raise KeptError(f"{rel}: {e}") from None
                next_id += len(body)
                for n, a, b in body:
                    found[n] = (rel.replace(os.sep, "/"), a, b)
                with open(dst, "w", encoding="utf-8", errors="surrogateescape") as f:
                    f.write(new)
    return found


def command_of(entry: dict, root: str, into: str) -> list:
    """The entry's compile command preprocessing the mirrored copy to stdout."""
    args = entry.get("arguments") or shlex.split(entry["command"])
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        if a == "-o":
            skip = True
            continue
        if a == "-c":
            a = "-E"
        for folder in FOLDERS:  # a path into a mirrored folder reads the copy
            mark = os.path.join(root, folder)
            if mark in a:
                a = a.replace(mark, os.path.join(into, folder))
        out.append(a)
    return out


def preprocess(entry: dict, root: str, into: str) -> tuple[set, set]:
    """(the group tokens in the unit's output, the files under root it included)."""
    cmd = command_of(entry, root, into)
    p = subprocess.run(cmd, cwd=entry.get("directory") or root, stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True, errors="replace")
    if p.returncode != 0:
        raise KeptError(f"{entry['file']}: preprocessing failed ({p.returncode}): "
                        + p.stderr.strip()[-2000:])
    tokens = {int(t) for t in re.findall(r"__book_kept_group_(\d+)__", p.stdout)}
    included = set()
    # A file is named by its copy (the unit itself, an #include) until its
    # first group's #line names the original.
    tops = [os.path.realpath(into) + os.sep, os.path.realpath(root) + os.sep]
    for line in p.stdout.splitlines():
        m = LINEMARK.match(line)
        if m:
            path = os.path.realpath(m.group(2))
            for top in tops:
                if path.startswith(top):
                    included.add(path[len(top):].replace(os.sep, "/"))
                    break
    return tokens, included


def units(commands: str, root: str) -> list:
    try:
        with open(commands, encoding="utf-8") as f:
            entries = json.load(f)
    except (OSError, ValueError) as e:
        raise KeptError(f"{commands}: cannot read the compile commands: {e}") from None
    real = os.path.realpath(root)
    out = {}
    for e in entries if isinstance(entries, list) else []:
        if not isinstance(e, dict) or not isinstance(e.get("file"), str):
            continue
        path = os.path.realpath(os.path.join(e.get("directory", ""), e["file"]))
        rel = os.path.relpath(path, real)
        if rel.split(os.sep)[0] in FOLDERS:
            out.setdefault(rel, e)  # one command per source is enough
    return [(rel, out[rel]) for rel in sorted(out)]


def _stamp(root: str, files: list) -> list:
    out = []
    for rel in files:
        try:
            st = os.stat(os.path.join(root, rel))
            out.append([rel, st.st_mtime_ns, st.st_size])
        except OSError:
            out.append([rel, None, None])
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--root", required=True)
    p.add_argument("--compile-commands", required=True)
    p.add_argument("--out", required=True)
    p.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    a = p.parse_args(argv)
    root = os.path.realpath(a.root)
    cache_path = a.out + ".cache.json"
    try:
        with open(cache_path, encoding="utf-8") as f:
            cache = json.load(f)
        if not isinstance(cache, dict):
            cache = {}
    except (OSError, ValueError):
        cache = {}
    try:
        todo = units(a.compile_commands, root)
        with tempfile.TemporaryDirectory(prefix="kept-lines.") as into:
            found = mirror(root, into)
            signature = hashlib.sha256(json.dumps(sorted(found.items())).encode()).hexdigest()
            results, run = {}, []
            for rel, entry in todo:
                key = hashlib.sha256(json.dumps([entry.get("command") or entry.get("arguments"),
                                                 signature]).encode()).hexdigest()
                old = cache.get(rel)
                if isinstance(old, dict) and old.get("key") == key \
                        and old.get("stamp") == _stamp(root, old.get("included", [])):
                    results[rel] = old
                else:
                    run.append((rel, entry, key))
            with concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as pool:
                done = {rel: pool.submit(preprocess, entry, root, into) for rel, entry, _ in run}
                for rel, entry, key in run:
                    tokens, included = done[rel].result()
                    results[rel] = {"key": key, "tokens": sorted(tokens), "included": sorted(included),
                                    "stamp": _stamp(root, sorted(included))}
    except KeptError as e:
        print(f"kept_lines: error: {e}", file=sys.stderr)
        return 1
    kept = set()
    included = set()
    for r in results.values():
        kept.update(r["tokens"])
        included.update(r["included"])
    dropped: dict = {}
    for n, (rel, first, last) in sorted(found.items()):
        if n not in kept and rel in included and first <= last:
            dropped.setdefault(rel, []).append([first, last])
    data = {"included": sorted(included), "dropped": dropped}
    for path, content in ((a.out, data), (cache_path, results)):
        write_json(path, content, indent=1, sort_keys=True)
    print(f"kept_lines: {len(results)} translation units ({len(run)} preprocessed now), "
          f"{len(included)} files included, {sum(len(v) for v in dropped.values())} groups dropped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
