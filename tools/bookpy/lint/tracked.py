# SPDX-License-Identifier: MIT
"""The files of the book that the code lints read (tests/book/lint.py and
python_code.py): those git tracks, or, where the tree is no git checkout, every
file under the root but for build/, node_modules/ and .carry/."""
import os
import re
import subprocess

SKIP_DIRS = {".git", "build", "node_modules", ".carry", "__pycache__"}
#: A Python file ends in .py or starts with a python #! line (tools/grade).
PYTHON_SHEBANG = re.compile(rb"^#!.*\bpython3?\b")


def tracked(root: str) -> list[str]:
    """The files under root, relative to it."""
    proc = subprocess.run(["git", "-C", root, "ls-files", "-z"],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    if proc.returncode == 0 and os.path.exists(os.path.join(root, ".git")):
        return [n for n in proc.stdout.decode().split("\0") if n]
    names = []
    for dirpath, dirs, fnames in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        names += [os.path.relpath(os.path.join(dirpath, f), root) for f in sorted(fnames)]
    return names


def first_line(path: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.readline(200)
    except OSError:
        return b""


def regular(root: str, name: str) -> bool:
    """Whether root/name is a file, not a link."""
    path = os.path.join(root, name)
    return not os.path.islink(path) and os.path.isfile(path)


def python_files(root: str) -> list[str]:
    """The Python files under root, relative to it, sorted."""
    return sorted(n for n in tracked(root) if regular(root, n) and (
        n.endswith(".py") or PYTHON_SHEBANG.match(first_line(os.path.join(root, n)))))
