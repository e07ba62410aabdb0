#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every C/C++/CUDA file of the book is formatted as .clang-format says.

    check_format.py <clang-format> <source root>

Checks the files git tracks under code/, tests/, tools/, exercises/ and
solutions/ (every such file there, where the tree is no git checkout), but for
test fixtures (inputs shaped on purpose), with
`clang-format --dry-run -Werror`, which names each file and line that is not
formatted. Exits 77 (skipped) when the clang-format given is not version 14,
whose output .clang-format was written for. `clang-format -i <file>` fixes a file.
"""
import os
import re
import subprocess
import sys

FOLDERS = ("code", "tests", "tools", "exercises", "solutions")
SUFFIXES = (".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp", ".hxx", ".cu", ".cuh")


def files(root):
    proc = subprocess.run(["git", "-C", root, "ls-files", "-z", "--", *FOLDERS],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    if proc.returncode == 0 and os.path.exists(os.path.join(root, ".git")):
        names = [n for n in proc.stdout.decode().split("\0") if n]
    else:
        names = []
        for folder in FOLDERS:
            for dirpath, dirs, fnames in os.walk(os.path.join(root, folder)):
                dirs[:] = sorted(d for d in dirs if d not in ("__pycache__",))
                names += [os.path.relpath(os.path.join(dirpath, f), root) for f in sorted(fnames)]
    # Fixtures are inputs shaped on purpose (a listing marker on a given line, a
    # hostile student's submission in tools/grader/tests/cases/): left as they are.
    return sorted(n for n in names if n.endswith(SUFFIXES) and "/fixtures/" not in n
                  and not n.startswith("tools/grader/tests/cases/")
                  and os.path.isfile(os.path.join(root, n)))


def main() -> int:
    tool, root = sys.argv[1:3]
    version = subprocess.run([tool, "--version"], stdout=subprocess.PIPE, text=True).stdout
    m = re.search(r"version (\d+)\.", version)
    if not m or m.group(1) != "14":
        print(f"skipped: {tool} is not clang-format 14 ({version.strip()})")
        return 77
    names = files(root)
    if not names:
        print(f"check_format: no C/C++/CUDA files found under {root}")
        return 1
    bad = 0
    for i in range(0, len(names), 50):
        proc = subprocess.run([tool, "--dry-run", "-Werror", *names[i:i + 50]], cwd=root,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if proc.returncode != 0:
            print(proc.stdout, end="")
            bad += len({ln.split(":")[0] for ln in proc.stdout.splitlines()
                        if "clang-format-violations" in ln})
    if bad:
        print(f"check_format: {bad} of {len(names)} files are not formatted as .clang-format says; "
              "`clang-format -i <file>` formats one")
        return 1
    print(f"check_format: {len(names)} files formatted")
    return 0


if __name__ == "__main__":
    sys.exit(main())
