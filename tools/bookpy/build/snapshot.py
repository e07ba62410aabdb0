# SPDX-License-Identifier: MIT
"""A commit's files, to prove on a copy of the tree without .git which commit it is.

    python3 -m bookpy.build.snapshot make  --root DIR --snapshot FILE   (a clean git checkout: list HEAD's files)
    python3 -m bookpy.build.snapshot check --root DIR --snapshot FILE   (any copy: compare it file by file)

`make` writes {"commit": <sha>, "files": {<path>: <git blob hash>}} for every
tracked file (`git ls-files -s`). `check` hashes every listed file of DIR the
way git does (sha1 of "blob <size>\\0<content>"), and fails, naming the files,
when one is missing or different, or when DIR holds a file the snapshot does
not list (outside build/, node_modules/, .carry/, .git and __pycache__/), so
that a recording never names a commit its sources are not. On success it
prints the commit's first 12 digits. tools/book calls both.
"""
import argparse
import hashlib
import json
import os
import subprocess
import sys

TOP_IGNORED = {"build", "node_modules", ".carry"}  # ignored by .gitignore, made here
IGNORED = {".git", "__pycache__"}


def blob_hash(path):
    if os.path.islink(path):
        data = os.readlink(path).encode()
    else:
        with open(path, "rb") as f:
            data = f.read()
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def make(root, out):
    def git(*args):
        return subprocess.run(["git", "-C", root, *args], check=True, stdout=subprocess.PIPE).stdout
    commit = git("rev-parse", "HEAD").decode().strip()
    files = {}
    for entry in git("ls-files", "-s", "-z").split(b"\0"):
        if not entry:
            continue
        meta, path = entry.split(b"\t", 1)
        mode, sha, stage = meta.decode().split()
        if stage != "0":
            sys.exit(f"snapshot: {path.decode()} is not merged")
        if mode == "160000":
            continue  # a submodule: not a file of this tree
        files[path.decode()] = sha
    tmp = out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump({"commit": commit, "files": files}, f, indent=1, sort_keys=True)
        f.write("\n")
    os.replace(tmp, out)
    print(f"snapshot: {out}: commit {commit[:12]}, {len(files)} files")


class SnapshotError(Exception):
    pass


def verify(root, snapshot_path):
    """(commit, files, differences) of the copy at root against its snapshot: files
    maps each listed path to its blob hash; differences lists (paths, how) for the
    files that differ, are missing or are not listed. SnapshotError if unreadable."""
    try:
        with open(snapshot_path, encoding="utf-8") as f:
            snap = json.load(f)
        commit, files = snap["commit"], snap["files"]
        if not isinstance(commit, str) or not isinstance(files, dict):
            raise TypeError("'commit' is not a string or 'files' not an object")
    except (OSError, ValueError, KeyError, TypeError) as e:
        raise SnapshotError(f"the snapshot {snapshot_path} cannot be read: {e}") from e
    missing, changed = [], []
    for rel, sha in sorted(files.items()):
        path = os.path.join(root, rel)
        if not os.path.lexists(path):
            missing.append(rel)
        elif blob_hash(path) != sha:
            changed.append(rel)
    extra = []
    for dirpath, dirs, names in os.walk(root):
        top = os.path.samefile(dirpath, root)
        dirs[:] = sorted(d for d in dirs if d not in IGNORED and not (top and d in TOP_IGNORED))
        for name in sorted(names):
            rel = os.path.relpath(os.path.join(dirpath, name), root)
            if rel not in files and name not in IGNORED and not name.endswith(".pyc"):
                extra.append(rel)
    problems = [(changed, "differ from"), (missing, "are missing from"), (extra, "are not in")]
    return commit, files, [(paths, how) for paths, how in problems if paths]


def check(root, snapshot_path):
    where = f"the snapshot {snapshot_path}"
    try:
        commit, _, bad = verify(root, snapshot_path)
    except SnapshotError as e:
        sys.exit(f"tools/book record: {e}")
    if bad:
        print(f"tools/book record: this tree is not commit {commit[:12]} of {where}, so a "
              f"recording made here could not name its commit:", file=sys.stderr)
        for paths, how in bad:
            shown = ", ".join(paths[:8]) + (f" and {len(paths) - 8} more" if len(paths) > 8 else "")
            print(f"  {len(paths)} files {how} that commit: {shown}", file=sys.stderr)
        print("Record on a copy of a clean commit, with its snapshot (`tools/book snapshot`).",
              file=sys.stderr)
        return 1
    print(commit[:12])
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("action", choices=["make", "check"])
    p.add_argument("--root", required=True)
    p.add_argument("--snapshot", required=True)
    a = p.parse_args()
    if a.action == "make":
        make(a.root, a.snapshot)
        return 0
    return check(a.root, a.snapshot)


if __name__ == "__main__":
    sys.exit(main())
