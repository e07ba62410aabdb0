# SPDX-License-Identifier: MIT
"""The Gradescope autograder package: tools/grade --gradescope-package FILE.zip.

One zip, uploaded as a Gradescope "programming assignment" autograder. Gradescope
unpacks it into /autograder/source, runs setup.sh there once when it builds the
image, and runs run_autograder (copied to /autograder/run_autograder) for every
submission. It holds:

    setup.sh          installs from the distribution's packages what grading needs,
                      builds the grading kit (cmake --preset book, DOCS off, target
                      exercise-kit) and then removes the solutions (their sources and
                      the objects the build compiled of them) and the hidden tests'
                      sources from the image (tools/grader/gradescope/setup.sh)
    run_autograder    maps /autograder/submission to the exercises, grades it with
                      tools/grade and writes /autograder/results/results.json
                      (tools/grader/gradescope/run_autograder)
    gradescope.json   what this package grades: the CPU exercises and their points
                      (the assignment's total), and the GPU exercises left out
    README.md         the same for the instructor
    carry/catch2/     Catch2 v2's single header (BSL-1.0), taken from the machine that
                      wrote the package: the kit's build needs v2, and Ubuntu 24.04
                      packages only v3
    book/             the repository's tracked files that configuring and building the
                      kit reads (everything tracked but the web tooling, the docs and
                      the diagrams), as in the working tree

Gradescope's machines have no GPU, so the package grades the CPU exercises only:
the GPU exercises are not run there and not listed in results.json; gradescope.json,
the README and every result's output state the assignment's total (the CPU
exercises' points) so that the instructor sets it to match.

The zip is reproducible: members sorted, every date 1980-01-01, modes 0644 or 0755
(the executable bit as git records it), no owners.
"""
from __future__ import annotations

import io
import json
import os
import subprocess
import zipfile
from pathlib import Path

from bookpy.build import snapshot

from .bundle import write_atomically
from .kit import Kit, KitError

HERE = Path(__file__).resolve().parent / "gradescope"
SNAPSHOT = ".carry/snapshot.json"  # tools/book snapshot (bookpy.build.snapshot)
# Tracked folders and files the kit's configure and build never read (the site's
# JavaScript tooling, the developers' notes, the diagrams' sources, CI).
LEFT_OUT = ("node_modules/", "docs/", "diagrams/", ".github/", ".ci/", "package.json",
            "package-lock.json")
CATCH2_V2 = ("/usr/include/catch2/catch.hpp",)
DATE = (1980, 1, 1, 0, 0, 0)


def tracked_files(root: Path) -> list[tuple[str, bool]]:
    """(path, executable) of every file git tracks under root, but LEFT_OUT. A copy of
    the tree without .git (as on a GPU machine) lists its commit's files from its
    snapshot (.carry/snapshot.json, `tools/book snapshot`), once the copy matches it."""
    try:
        # root must be the top of its own work tree: a copy inside another checkout
        # (ignored there) would list that checkout's files under root, none.
        top = subprocess.run(["git", "-C", str(root), "rev-parse", "--show-toplevel"], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, check=True, text=True).stdout.strip()
        if Path(top).resolve() != Path(root).resolve():
            raise subprocess.CalledProcessError(1, "git rev-parse", stderr=f"{root} is inside the checkout {top}")
        p = subprocess.run(["git", "-C", str(root), "ls-files", "-s", "-z"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, check=True)
    except (OSError, subprocess.CalledProcessError) as e:
        snap = root / SNAPSHOT
        if not snap.is_file():
            raise KitError(f"{root}: cannot list the repository's files with git ({e}), and it has no "
                           f"{SNAPSHOT}; the package is made from a git checkout or a copy of one "
                           "with its snapshot (tools/book snapshot)") from e
        return _snapshot_files(root, snap)
    out = []
    for rec in p.stdout.decode("utf-8", "surrogateescape").split("\0"):
        if not rec:
            continue
        meta, path = rec.split("\t", 1)
        mode = meta.split()[0]
        if mode == "160000" or path.startswith(LEFT_OUT) or path in LEFT_OUT:
            continue  # a submodule, or not needed
        out.append((path, mode == "100755"))
    return sorted(out)


def _snapshot_files(root: Path, snap: Path) -> list[tuple[str, bool]]:
    try:
        commit, files, bad = snapshot.verify(str(root), str(snap))
    except snapshot.SnapshotError as e:
        raise KitError(f"{root}: no git, and {e}") from e
    if bad:
        raise KitError(f"{root}: no git, and the tree is not commit {commit[:12]} of {snap}: "
                       + "; ".join(f"{len(paths)} files {how} it ({', '.join(paths[:3])})"
                                   for paths, how in bad))
    return sorted((path, os.access(root / path, os.X_OK)) for path in files
                  if not (path.startswith(LEFT_OUT) or path in LEFT_OUT))


def plan(kit: Kit, chapters: list[str], hidden_visibility: str = "hidden") -> dict:
    """gradescope.json: the CPU exercises graded (of the chapters named, or all), the
    GPU ones left out, and the assignment's total."""
    kit.check_chapters(chapters)
    chosen = [e for e in kit.exercises if not chapters or e.id.split("/")[0] in chapters]
    cpu = [e for e in chosen if not e.gpu]
    if not cpu:
        raise KitError("no CPU exercise to grade on Gradescope (it has no GPU) in "
                       + (", ".join(chapters) if chapters else "the book"))
    return {
        "version": 1,
        "hidden_visibility": hidden_visibility,
        "exercises": [{"id": e.id, "title": e.title, "files": e.student_files, "points": e.points,
                       "sets": [{"name": s.name, "points": s.points, "hidden": s.hidden}
                                for s in e.sets]} for e in cpu],
        "total": sum(e.points for e in cpu),
        "left_out": [{"id": e.id, "title": e.title, "points": e.points}
                     for e in chosen if e.gpu],
    }


def readme(doc: dict) -> str:
    rows = "\n".join(f"| `{e['id']}` | {e['title']} | {', '.join('`%s`' % f for f in e['files'])} "
                     f"| {e['points']} |" for e in doc["exercises"])
    gpu = "\n".join(f"- `{e['id']}` ({e['title']}, {e['points']} points)" for e in doc["left_out"])
    return f"""# The Gradescope autograder of "How GPUs Run Code"

Made by `tools/grade --gradescope-package`. Upload this zip as the autograder of a
Gradescope programming assignment, with the base image **Ubuntu 22.04 or 24.04**
(setup.sh has been run on Debian 12 only, not on Ubuntu nor on Gradescope).

**Set the assignment's total to {doc['total']} points.** It grades these CPU
exercises:

| exercise | title | files | points |
|---|---|---|---|
{rows}

Gradescope has no GPU, so the GPU exercises are left out: not run, and not
listed in the results (grade them on a GPU machine with `tools/grade --batch`,
whose `gradebook.csv` goes to the course site):

{gpu or "- none"}

Students upload the files they edit, loose (`warp_map.cpp`, ...), or the
bundle's folder (or its `exercises/` folder) as a `.zip` or `.tar.gz`, or a
folder or an archive holding one such archive (one level deep). Each result's output names what was done with
each file.

## What setup.sh does (about 3 minutes on 2 cores, 190 MB)

1. `apt-get install` cmake, g++, ninja-build, python3, bubblewrap,
   python3-seccomp, nlohmann-json3-dev, libcli11-dev, libfmt-dev, and catch2
   where the distribution's is version 2 (Ubuntu 22.04). The kit needs Catch2
   version 2 (`catch2/catch.hpp`); Ubuntu 24.04 packages version 3, so there the
   kit takes the copy of Catch2 2's header in `carry/` (BSL-1.0).
2. The book's CMake needs 3.25 or later: Ubuntu 24.04's is 3.28; Ubuntu 22.04's
   is 3.22, so there setup.sh installs CMake from PyPI (`pip3 install
   "cmake>=3.25,<4"`, network that Gradescope allows during setup).
3. Builds the grading kit in `book/build/grade-kit` (no GPU, so no CUDA).
4. Removes from the image the solutions (sources, and the objects the build
   compiled of them, which grading does not use) and the hidden tests' sources
   (the kit holds the tests compiled), and makes `/autograder/source` readable by
   root alone.

## What run_autograder does

Runs `tools/grade` on `/autograder/submission`, sandboxed by bubblewrap where the
container allows user namespaces, else with `--trusted` (each program the
submission builds or runs is confined by Landlock to the system's files and its
own folders, and by the seccomp filter; `exercises.grade.trusted-reads-tests`
checks that such a program can read no test). Where neither can confine a run
(a kernel without Landlock), it grades nothing: results.json says so and gives
0 points, rather than run a student's code where it could read the tests.

The hidden test sets are listed with Gradescope's visibility
`{doc['hidden_visibility']}` (`tools/grade --gradescope-package ... --hidden-visibility`
chose it; `hidden`: never shown to students; `after_published`: shown, with
their output, once the grades are published). While a test is hidden,
Gradescope hides the total score, and the output above the tests names no total.
"""


def members(kit: Kit, chapters: list[str],
            hidden_visibility: str = "hidden") -> dict[str, tuple[bytes, bool]]:
    root = Path(kit.source_root)
    out = {}
    for rel, exe in tracked_files(root):
        p = root / rel
        if p.is_symlink() or not p.is_file():
            continue  # deleted in the working tree, or a link (none is tracked)
        out[f"book/{rel}"] = (p.read_bytes(), exe)
    for name, exe in (("setup.sh", True), ("run_autograder", True)):
        out[name] = ((HERE / name).read_bytes(), exe)
    doc = plan(kit, chapters, hidden_visibility)
    out["gradescope.json"] = ((json.dumps(doc, indent=2) + "\n").encode(), False)
    out["README.md"] = (readme(doc).encode(), False)
    for c in CATCH2_V2:
        if Path(c).is_file():
            out["carry/catch2/catch2/catch.hpp"] = (Path(c).read_bytes(), False)
            break
    return out


def zip_bytes(items: dict[str, tuple[bytes, bool]]) -> bytes:
    raw = io.BytesIO()
    with zipfile.ZipFile(raw, "w", zipfile.ZIP_DEFLATED) as z:
        for name in sorted(items):
            data, exe = items[name]
            info = zipfile.ZipInfo(name, DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3  # Unix: the mode below is read
            info.external_attr = ((0o100755 if exe else 0o100644) << 16)
            z.writestr(info, data)
    return raw.getvalue()


def write(kit: Kit, dest: str | Path, chapters: list[str], hidden_visibility: str = "hidden") -> Path:
    dest = Path(dest).resolve()
    if dest.suffix != ".zip":
        raise ValueError(f"{dest}: the Gradescope package is a .zip")
    items = members(kit, chapters, hidden_visibility)
    data = zip_bytes(items)
    write_atomically(dest, data)
    doc = json.loads(items["gradescope.json"][0])
    n = len(doc["exercises"])
    print(f"tools/grade: wrote {dest}: {len(items)} files, {len(data) >> 10} KiB; grades "
          f"{n} CPU exercise{'s' if n != 1 else ''}, {doc['total']} points (set the assignment's "
          f"total to that); left out (no GPU on Gradescope): "
          f"{', '.join(e['id'] for e in doc['left_out']) or 'none'}")
    if "carry/catch2/catch2/catch.hpp" not in items:
        print("tools/grade: WARNING: no Catch2 v2 header (/usr/include/catch2/catch.hpp) here to "
              "carry: the package's setup.sh then works only where the distribution packages "
              "Catch2 v2 (Ubuntu 22.04), not on Ubuntu 24.04")
    return dest
