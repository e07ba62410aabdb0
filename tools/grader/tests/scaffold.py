# SPDX-License-Identifier: MIT
"""What the grader's test scripts share: their command line (--grade tools/grade
--kit BUILD --work DIR), the grader's own sandbox probe, running a command with
its output shown and its exit status checked, the repository's file hashes (a
grading must leave the repository as it found it) and the closing line that
names the test and its verdict."""
import argparse
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

sys.dont_write_bytecode = True


def arguments(*extra, empty_work=True):
    """(args, repo, work) from the command line: --grade, --kit, --work, and each of
    extra (a name: a positional argument; --name: a switch). With empty_work, the
    work folder is emptied (made anew)."""
    ap = argparse.ArgumentParser()
    for name in extra:
        ap.add_argument(name, **({"action": "store_true"} if name.startswith("--") else {}))
    for name in ("--grade", "--kit", "--work"):
        ap.add_argument(name, required=True)
    a = ap.parse_args()
    return a, Path(a.grade).resolve().parent.parent, fresh(a.work) if empty_work else Path(a.work).resolve()


def fresh(folder):
    """The folder, emptied (made anew); its absolute path."""
    folder = Path(folder).resolve()
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    return folder


def sandbox_missing():
    """Why the sandbox cannot run here (the grader's own probe), or "" where it can."""
    from grader.sandbox import Sandbox
    box, why = Sandbox.probe()
    return "" if box is not None else why


def run(cmd, problems, want_rc, env=None, shown=None):
    """Run cmd, print it (as `shown`, where given) and its output, and add a problem
    to `problems` when it exits other than want_rc. Returns its output."""
    print("$ " + (shown or " ".join(map(str, cmd))), flush=True)
    p = subprocess.run([str(c) for c in cmd], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, errors="replace")
    print(p.stdout)
    if p.returncode != want_rc:
        problems.append(f"{' '.join(map(str, cmd[1:4]))}...: exit {p.returncode}, want {want_rc}")
    return p.stdout


def report(test, problems, ok=""):
    """Print a line a problem, or one that the test passed (and `ok`); the exit status."""
    for problem in problems:
        print(f"{test}: FAILED: {problem}")
    if not problems:
        print(f"{test}: ok" + (f": {ok}" if ok else ""))
    return 1 if problems else 0


def tree_hashes(root):
    """{path: sha256} of the repository's files (tracked and untracked-not-ignored),
    and git's status; without git, every file but build folders and .git."""
    root = Path(root)
    status = ""
    try:
        quiet = {"check": True, "stdout": subprocess.PIPE, "stderr": subprocess.DEVNULL}
        files = subprocess.run(["git", "-C", str(root), "ls-files", "-z", "--cached", "--others",
                                "--exclude-standard"], **quiet).stdout.decode().split("\0")
        status = subprocess.run(["git", "-C", str(root), "status", "--porcelain"], **quiet).stdout.decode()
    except (OSError, subprocess.CalledProcessError):
        files = [str(p.relative_to(root)) for p in root.rglob("*")
                 if p.is_file() and not {"build", ".git", "node_modules"} & set(p.relative_to(root).parts)]
    out = {}
    for f in files:
        if not f:
            continue
        p = root / f
        if p.is_symlink():
            out[f] = "link:" + os.readlink(p)
        elif p.is_file():
            out[f] = hashlib.sha256(p.read_bytes()).hexdigest()
        else:
            out[f] = "missing"
    return out, status
