#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The book's Python is one importable package, in functions a reader can hold.

    python -m bookpy.lint.python_code <source root>

Over every Python file of the book (bookpy.lint.tracked: tracked, .py or a python
#! line), two rules, each finding named at its file and line:

- no script changes the import path or loads another script by its path
  (sys.path.insert/append/extend, importlib's spec_from_file_location or
  SourceFileLoader, runpy.run_path, imp.load_source): a module is imported
  from the package, whose folder tools/ the test's registration puts on
  PYTHONPATH (${BOOK_PY} in CMake; tools/book sets it), and a script's
  siblings are found through its own folder, sys.path[0];
- no function is over MAX_LINES lines (from its def, decorators left out, to
  its last line).
Exit status 1 on any finding.
"""
import ast
import os
import sys

from bookpy.lint.tracked import python_files

MAX_LINES = 80
#: The calls that change the import path or load a script by its path: the last
#: parts of the called name.
PATH_CALLS = {("sys", "path", "insert"), ("sys", "path", "append"), ("sys", "path", "extend"),
              ("spec_from_file_location",), ("SourceFileLoader",), ("runpy", "run_path"),
              ("imp", "load_source")}


def dotted(node) -> tuple:
    """The called name's parts (sys.path.insert: ("sys", "path", "insert"))."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    return tuple(reversed(parts))


def findings(path: str, name: str) -> list[str]:
    """'name:line: ...' for each finding in the Python file at path."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        tree = ast.parse(text, name)
    except SyntaxError as e:
        return [f"{name}:{e.lineno}: not Python: {e.msg}"]
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            called = dotted(node.func)
            if any(called[-len(p):] == p for p in PATH_CALLS):
                out.append(f"{name}:{node.lineno}: {'.'.join(called)}(): import from the package "
                           "(PYTHONPATH=<repo>/tools), not by changing the import path or loading a script")
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            lines = node.end_lineno - node.lineno + 1
            if lines > MAX_LINES:
                out.append(f"{name}:{node.lineno}: function {node.name} is {lines} lines, "
                           f"over {MAX_LINES}: split it into named steps")
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m bookpy.lint.python_code <source root>", file=sys.stderr)
        return 2
    root = argv[0]
    names = python_files(root)
    if not names:
        print(f"python_code: no Python files under {root}")
        return 1
    out = [f for n in names for f in findings(os.path.join(root, n), n)]
    for line in out:
        print(line)
    if out:
        print(f"python_code: {len(out)} findings in {len(names)} files (the lines above)")
        return 1
    print(f"python_code: {len(names)} files, no findings")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
