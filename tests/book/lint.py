#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every Python file, shell script and CMake file of the book passes its linter,
and its text passes the spelling checker.

    lint.py flake8 <python> <source root>       (the settings: <root>/.flake8)
    lint.py shellcheck <shellcheck> <source root>
    lint.py cmake-lint <cmake-lint> <source root>   (<root>/.cmake-format.yaml)
    lint.py codespell <codespell> <source root>     (<root>/.codespellrc)

The files are those git tracks (bookpy.lint.tracked: every file under the root,
where the tree is no git checkout, but for build/, node_modules/ and .carry/): a
Python file ends in .py or starts with a python #! line (tools/grade); a shell script ends in .sh or
starts with a sh, bash or dash #! line (tools/book, .ci/run); a CMake file is a
CMakeLists.txt or ends in .cmake; the spelling checker reads every file under
SPELLED (codespell itself leaves out binary files). The linter names each file,
line and finding; the test fails on any.
"""
import os
import re
import subprocess
import sys

from bookpy.lint.tracked import first_line, python_files, regular, tracked

SHELL_SHEBANG = re.compile(rb"^#!.*\b(sh|bash|dash)\b")
KINDS = ("flake8", "shellcheck", "cmake-lint", "codespell")
# What the spelling checker reads: the book's text and its code.
SPELLED = ("chapters/", "book/", "docs/", "exercises/", "tools/", "README.md", "CONTRIBUTING.md")


def files(kind: str, root: str) -> list[str]:
    if kind == "flake8":
        return python_files(root)
    out = []
    for name in tracked(root):
        if not regular(root, name):
            continue
        if kind == "cmake-lint":
            if os.path.basename(name) == "CMakeLists.txt" or name.endswith(".cmake"):
                out.append(name)
        elif kind == "codespell":
            if name.startswith(SPELLED):
                out.append(name)
        elif name.endswith(".sh") or SHELL_SHEBANG.match(first_line(os.path.join(root, name))):
            out.append(name)
    return sorted(out)


def main() -> int:
    if len(sys.argv) != 4 or sys.argv[1] not in KINDS:
        print("usage: lint.py flake8|shellcheck|cmake-lint|codespell <tool> <source root>", file=sys.stderr)
        return 2
    kind, tool, root = sys.argv[1:4]
    names = files(kind, root)
    if not names:
        print(f"lint: no files for {kind} under {root}")
        return 1
    if kind == "flake8":
        cmd = [tool, "-m", "flake8", "--config", os.path.join(root, ".flake8"), *names]
    elif kind == "shellcheck":
        cmd = [tool, "--format=gcc", "--external-sources", *names]
    elif kind == "cmake-lint":
        # (-c takes one or more files: it comes after the names.)
        cmd = [tool, "--suppress-decorations", *names, "-c", os.path.join(root, ".cmake-format.yaml")]
    else:
        cmd = [tool, "--config", os.path.join(root, ".codespellrc"), *names]
    proc = subprocess.run(cmd, cwd=root, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    findings = [line for line in proc.stdout.splitlines() if line.strip()]
    if kind == "cmake-lint":
        # cmake-lint prints a heading per file and a summary: the findings are
        # the lines of the form <file>:<line>,<col>: [<code>] <message>.
        findings = [line for line in findings if re.search(r": \[[A-Z][0-9]{4}\] ", line)]
    print(proc.stdout, end="")
    if proc.returncode != 0:
        print(f"lint: {kind}: {len(findings)} findings in {len(names)} files (the lines above)")
        return 1
    print(f"lint: {kind}: {len(names)} files, no findings")
    return 0


if __name__ == "__main__":
    sys.exit(main())
