# SPDX-License-Identifier: MIT
"""The GitHub Actions workflows (.github/workflows/*.yml) against the workflow
schema, with action-validator (npm @action-validator/cli, pinned by
package-lock.json and installed by `tools/book deps`).

    python3 -m bookpy.lint.workflows [--validator PATH] WORKFLOW.yml|FOLDER...

action-validator reports what breaks the schema as JSON paths ("/jobs/gpus");
this names each at its file and line ("gpu-record.yml:27: Additional property
'runs-onn' is not allowed"), the line of the YAML node the path leads to (Debian's
python3-yaml reads the lines). The workflows cannot run here (they need GitHub's
self-hosted GPU runners): what is checked is their syntax, nothing of what they do.

Exit status 0 when every workflow is valid, 1 otherwise, 2 when the validator is
missing or a workflow cannot be read.
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import re
import subprocess
import sys

import yaml

from .. import ROOT

VALIDATOR = os.path.join(ROOT, "node_modules", ".bin", "action-validator")


def line_of(text: str, pointer: str) -> int:
    """The line (1-based) of the YAML node at a JSON pointer ("/jobs/gpus/runs-on"),
    or of the deepest node on its way that exists."""
    try:
        node = yaml.compose(text)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        return mark.line + 1 if mark else 1
    line = node.start_mark.line + 1 if node else 1
    for part in [p.replace("~1", "/").replace("~0", "~") for p in pointer.split("/") if p]:
        found = None
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                if key.value == part:
                    found, line = value, key.start_mark.line + 1
                    break
        elif isinstance(node, yaml.SequenceNode) and part.isdigit() and int(part) < len(node.value):
            found = node.value[int(part)]
            line = found.start_mark.line + 1
        if found is None:
            break
        node = found
    return line


def leaf_errors(errors: list) -> list:
    """[(path, what)]: the errors that say what is wrong; of a oneOf's alternatives,
    those of the first (a job that runs steps, not one that calls a workflow)."""
    out = []
    for e in errors:
        if e.get("states"):
            out += leaf_errors(e["states"][0].get("errors", []))
        elif e.get("errors"):
            out += leaf_errors(e["errors"])
        else:
            out.append((e.get("path", ""), e.get("detail") or e.get("title") or e.get("code", "?")))
    return out


def check(path: str, validator: str) -> list[str]:
    """'file:line: what' for each error of one workflow ([] when it is valid)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    p = subprocess.run([validator, path], capture_output=True, text=True, timeout=120)
    if p.returncode == 0:
        return []
    try:  # the report is JSON, on stderr (on stdout in some versions)
        report = json.loads(p.stderr if p.stderr.strip().startswith("{") else p.stdout)
    except ValueError:
        return [f"{path}:1: {(p.stdout + p.stderr).strip() or f'action-validator exited {p.returncode}'}"]
    seen, out = set(), []
    for pointer, what in leaf_errors(report.get("errors", [])):
        extra = re.match(r"Additional property '(.+)' is not allowed", what)
        # An unknown key: the line of that key, not of the mapping that holds it.
        at = pointer + "/" + extra.group(1).replace("~", "~0").replace("/", "~1") if extra else pointer
        msg = f"{path}:{line_of(text, at)}: {what} (at {pointer or '/'})"
        if msg not in seen:
            seen.add(msg)
            out.append(msg)
    return out or [f"{path}:1: action-validator found the workflow invalid: "
                   f"{(p.stdout + p.stderr).strip()[:500]}"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="+")
    ap.add_argument("--validator", default=VALIDATOR)
    a = ap.parse_args(argv)
    if not os.access(a.validator, os.X_OK):
        print(f"workflows: {a.validator} is missing: action-validator (npm @action-validator/cli, "
              "package-lock.json) is installed by `tools/book deps`", file=sys.stderr)
        return 2
    files = []
    for p in a.paths:
        files += sorted(glob.glob(os.path.join(p, "*.yml")) + glob.glob(os.path.join(p, "*.yaml"))) \
            if os.path.isdir(p) else [p]
    if not files:
        print(f"workflows: no workflow in {', '.join(a.paths)}", file=sys.stderr)
        return 2
    problems = []
    for f in files:
        try:
            problems += check(f, a.validator)
        except OSError as e:
            print(f"workflows: {f}: {e.strerror}", file=sys.stderr)
            return 2
    for p in problems:
        print(p)
    print(f"workflows: {len(files)} checked, {len(files) if not problems else 'not all'} valid "
          "against GitHub's workflow schema (action-validator); none was run")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
