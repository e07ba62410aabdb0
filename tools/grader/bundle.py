# SPDX-License-Identifier: MIT
"""The student bundle: one archive with what a student needs to build and test the
exercises with Debian's Catch2, and nothing from solutions/ or the hidden tests.
All the exercises, or those of the chapters chosen (the site's download of a
chapter is the bundle of that chapter alone):

    cuda-book-exercises/ (one chapter: <key>-exercises/)
      README.md, CMakeLists.txt, cmake/BookExerciseContract.cmake,
      cmake/BookExerciseSettings.cmake (the contract's checks, which the first includes),
      cmake/BookLanguages.cmake       C++20, and CUDA where nvcc is, as the book sets them
      cmake/libraries.cmake           the book's libraries the tests link (written here)
      exercises/<key>/<ex>/...        statement, contract, starter
      tests/<key>/exercises/<ex>/visible.test.cpp (or .cu), and the headers
                                      the test sets share
      tests/exercises/catch_main.cpp, catch_gpu_main.cpp (with catch_session.cpp
                                      and book/test/catch_run.hpp, the session it runs)
      lib/<repository path>/...       those libraries' sources and headers

It is written from the kit's description of the exercises (kit.json), so that
what the bundle holds is what the grader grades; every file is checked on the
way in: nothing under solutions/, no test file but the visible ones. It needs
only that description, none of the kit's compiled objects.

The archive is reproducible: the same sources give the same bytes (members
sorted, mtime 0, no owner, a gzip header with no name and no date). A depfile
(Makefile syntax, for the build's add_custom_command DEPFILE) can name every
file and folder it read, so that the build writes it again when one changes.
"""
from __future__ import annotations

import gzip
import io
import os
import tarfile
import tempfile
from pathlib import Path

from collections.abc import Iterable

from .kit import HEADER_SUFFIXES, Exercise, Kit, KitError
from .student_markdown import student_bytes

TOP = "cuda-book-exercises"
# The book's CMake files (cmake/) that the bundle's CMakeLists.txt includes: the
# exercises' contract, and the languages' settings.
CMAKE_FILES = ("BookExerciseContract.cmake", "BookExerciseSettings.cmake", "BookLanguages.cmake")
CATCH_MAIN = "// The Catch2 main of the exercises' tests.\n#define CATCH_CONFIG_MAIN\n#include <catch2/catch.hpp>\n"


class Bundle:
    def __init__(self, kit: Kit, chapters: Iterable[str] = ()) -> None:
        self.kit = kit
        self.root = Path(kit.source_root)
        self.members = {}   # archive path -> bytes
        self.read = set()   # every file and folder read (for the depfile)
        kit.check_chapters(chapters)
        self.chapters = sorted(set(chapters))
        self.top = f"{self.chapters[0]}-exercises" if len(self.chapters) == 1 else TOP

    def add_file(self, rel_in_bundle: str, src: str | Path) -> None:
        src = Path(src).resolve()
        self._guard(rel_in_bundle, src)
        self.members[rel_in_bundle] = student_bytes(rel_in_bundle, src.read_bytes(), str(src))
        self.read.add(src)

    def add_text(self, rel_in_bundle: str, text: str) -> None:
        self._guard(rel_in_bundle, None)
        self.members[rel_in_bundle] = text.encode()

    def _guard(self, rel: str, src: Path | None) -> None:
        parts = Path(rel).parts
        if "solutions" in parts or any(p.startswith("hidden") for p in parts) or rel.endswith("SOLUTION.md"):
            raise ValueError(f"the bundle must not hold {rel}")
        if src is not None:
            sol = (self.root / "solutions").resolve()
            if src == sol or sol in src.parents:
                raise ValueError(f"the bundle must not hold {src} (a solution)")
            for ex in self.kit.exercises:
                for s in ex.sets:
                    if s.hidden and src == Path(s.test_file).resolve():
                        raise ValueError(f"the bundle must not hold {src} (a hidden test)")

    def build(self) -> list[Exercise]:
        kit = self.kit
        included = []
        libs_needed = []
        self.left_out = []
        for ex in kit.exercises:
            if self.chapters and ex.id.split("/")[0] not in self.chapters:
                continue
            if ex.gpu and "book_cuda" not in kit.libraries:
                self.left_out.append(ex.id)  # the kit does not describe the GPU library to ship
                continue
            included.append(ex)
            d = Path(ex.dir)
            self.read.add(d.resolve())  # a file added to the folder
            for f in sorted(d.iterdir()):
                if f.is_file():
                    self.add_file(f"exercises/{ex.id}/{f.name}", f)
            tests = f"tests/{ex.id.split('/')[0]}/exercises/{ex.id.split('/')[1]}"
            for s in ex.sets:
                if not s.hidden:
                    self.add_file(f"{tests}/{Path(s.test_file).name}", s.test_file)
            for h in ex.test_support:  # the code the visible and hidden sets share
                self.add_file(f"{tests}/{Path(h).name}", h)
            for lib in self._exercise_libs(ex):
                if lib not in libs_needed:
                    libs_needed.append(lib)
        if not included:
            raise KitError("no exercise could go into the bundle")
        for f in CMAKE_FILES:
            self.add_file(f"cmake/{f}", self.root / "cmake" / f)
        template_file = Path(__file__).parent / "bundle" / "CMakeLists.txt"
        template = template_file.read_text()
        self.read.add(template_file.resolve())
        archs = "90"
        if kit.cuda:
            archs = ";".join(a.split("arch=compute_")[1].split(",")[0]
                             for a in kit.cuda["compile"] if a.startswith("--generate-code=")
                             and "code=[sm_" in a) or "90"
        self.add_text("CMakeLists.txt", template.replace("@CUDA_ARCHITECTURES@", archs))
        self.add_text("tests/exercises/catch_main.cpp", CATCH_MAIN)
        # The book's GPU main, over Catch2's session compiled beside it.
        support = self.root / "tests" / "support"
        self.add_file("tests/exercises/catch_gpu_main.cpp", support / "catch_gpu_main.cpp")
        self.add_file("tests/exercises/catch_session.cpp", support / "catch_session.cpp")
        self.add_file("tests/exercises/book/test/catch_run.hpp",
                      support / "include" / "book" / "test" / "catch_run.hpp")
        self.add_text("cmake/libraries.cmake", self._libraries(libs_needed))
        self.add_text("README.md", self._readme(included, archs))
        return included

    def _exercise_libs(self, ex: Exercise) -> list[str]:
        """The library targets an exercise's tests need (any order)."""
        roots = list(self._exercise_roots(ex))
        seen = []
        while roots:
            t = roots.pop()
            if t in seen or t not in self.kit.libraries:
                continue
            seen.append(t)
            roots += self.kit.libraries[t]["links"]
        return seen

    def _exercise_roots(self, ex: Exercise) -> list[str]:
        raw = [e for e in self.kit.raw["exercises"] if e["id"] == ex.id][0]
        return list(raw["libraries"])

    def _libraries(self, names: list[str]) -> str:
        lines = ["# The book's libraries the exercises' tests link: written by tools/grade --bundle",
                 "# from the book's build. Their sources lie under lib/, at their paths in the book.", ""]
        libs = self.kit.libraries
        # Dependencies first, so that every target exists before it is linked.
        order = []

        def visit(n: str) -> None:
            if n in order or n not in libs:
                return
            for d in libs[n]["links"]:
                visit(d)
            order.append(n)

        for n in names:
            visit(n)
        gpu = set()
        for n in order:
            info = libs[n]
            if any(s.endswith(".cu") for s in info["sources"]) or any(d in gpu for d in info["links"]):
                gpu.add(n)
        for n in order:
            info = libs[n]
            body = []
            inc_dirs = []
            for d in dict.fromkeys(x for x in info["include_dirs"] if x):
                rel = self._rel(d)
                if rel is None:
                    continue  # a system folder: the student's system has it (a Debian package)
                inc_dirs.append(f'"${{CMAKE_CURRENT_LIST_DIR}}/../lib/{rel}"')
                self._add_headers(Path(d), f"lib/{rel}")
            if info["type"] == "INTERFACE_LIBRARY":
                body.append(f"add_library({n} INTERFACE)")
                scope = "INTERFACE"
            else:
                srcs = []
                for s in info["sources"]:
                    rel = self._rel(s)
                    if rel is None:
                        raise KitError(f"library {n}: source {s} lies outside the book")
                    self.add_file(f"lib/{rel}", s)
                    srcs.append(f'"${{CMAKE_CURRENT_LIST_DIR}}/../lib/{rel}"')
                body.append(f"add_library({n} STATIC {' '.join(srcs)})")
                scope = "PUBLIC"
            if inc_dirs:
                body.append(f"target_include_directories({n} {scope} {' '.join(inc_dirs)})")
            defs = [d for d in dict.fromkeys(info["defines"]) if d]
            if defs:
                body.append(f"target_compile_definitions({n} {scope} {' '.join(defs)})")
            deps = [d for d in info["links"] if d in libs]
            if deps:
                body.append(f"target_link_libraries({n} {scope} {' '.join(deps)})")
            if n in gpu and scope == "PUBLIC":
                # Its host-compiled sources call the CUDA runtime (cuda_runtime.h).
                body.append(f"target_include_directories({n} SYSTEM PUBLIC "
                            "${CMAKE_CUDA_TOOLKIT_INCLUDE_DIRECTORIES})")
            if n in gpu:
                lines.append("if(BOOK_HAVE_CUDA)")
                lines += ["  " + b for b in body]
                lines.append("endif()")
            else:
                lines += body
        return "\n".join(lines) + "\n"

    def _rel(self, path: str | Path) -> str | None:
        try:
            return Path(path).resolve().relative_to(self.root.resolve()).as_posix()
        except ValueError:
            return None

    def _add_headers(self, src: Path, dest: str) -> None:
        if not src.is_dir():
            return
        self.read.update(p.resolve() for p in [src, *src.rglob("*")] if p.is_dir())
        for p in sorted(src.rglob("*")):
            if p.is_file() and not p.is_symlink() and p.suffix in HEADER_SUFFIXES:
                self.add_file(f"{dest}/{p.relative_to(src).as_posix()}", p)

    def _readme(self, included: list[Exercise], archs: str = "90") -> str:
        # (Its build commands are a chapter's programs' download's too,
        # cmake/BookPackPrograms.cmake: two READMEs, one written by a cmake -P script.)
        archs_text = " and ".join(f"{a[:-1]}.{a[-1]}" for a in archs.split(";") if a)
        rows = "\n".join(f"| `exercises/{e.id}/` | {e.title} | {', '.join(f'`{f}`' for f in e.student_files)} |"
                         + (" GPU |" if e.gpu else " |") for e in included)
        which = f" ({', '.join(self.chapters)})" if self.chapters else ""
        return f"""# Exercises of "How GPUs Run Code"{which}

Each exercise is a folder under `exercises/`: read its `README.md`, edit the
files it names, and check your work against the visible tests.

| folder | exercise | you edit | |
|---|---|---|---|
{rows}

## Build and test

On Debian or Ubuntu: `apt-get install cmake g++ catch2`. Catch2 version 2
(Debian 12, Ubuntu 22.04) and version 3 (Ubuntu 24.04) both work: this bundle
has been built, and its tests run, with Catch2 2.13.10 (Debian 12's) and with
Catch2 3.4.0 (Ubuntu 24.04's). Where both versions are installed,
version 2 is taken; `-DEXERCISES_CATCH2=3` on the first command below takes
version 3. For the GPU exercises
also the CUDA Toolkit (`nvcc`, found in `/usr/local/cuda/bin`) and the headers
the book's library uses (`apt-get install nlohmann-json3-dev libcli11-dev`),
and a CUDA GPU to run them.

From this folder:

```sh
cmake -B build
cmake --build build
ctest --test-dir build --output-on-failure
```

The GPU exercises compile for compute capability {archs_text} (the GPUs the book
was recorded on). For another GPU, give the first command its own, without the
dot: `cmake -B build -DCMAKE_CUDA_ARCHITECTURES=86` for compute capability 8.6
(`nvidia-smi --query-gpu=compute_cap --format=csv` prints it).

Each exercise builds one program, `build/<chapter>.<exercise>`; run it to see its
tests (Catch2 options work: `build/<chapter>.<exercise> --list-tests`). The
starters compile and fail their tests until you solve them.

Your work is graded with these visible tests and with hidden ones that check
the same promises (the headers say what each function promises). Only the
files you edit are graded: the grader uses its own copy of everything else.

## What to hand in

The files you edit, in any of these shapes (the grade's notes say what was
done with each file):

- this folder, or its `exercises/` folder, as a `.zip` or `.tar.gz`;
- the files themselves, uploaded loose (`warp_map.cpp`, `banks.cpp`, ...): each
  name belongs to one exercise;
- a folder holding one such archive.

Another file is ignored, and said to be; an exercise whose file is missing
scores 0 for it, with the note "missing".
"""


def archive_bytes(top: str, members: dict[str, bytes]) -> bytes:
    """The .tar.gz of members ({path in the bundle: bytes}) under top/, the same bytes
    for the same members: sorted, mtime 0, owner root with no names, mode 0644, and a
    gzip header with no file name and no date."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as t:
        for rel in sorted(members):
            data = members[rel]
            info = tarfile.TarInfo(f"{top}/{rel}")
            info.size, info.mtime, info.mode = len(data), 0, 0o644
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            t.addfile(info, io.BytesIO(data))
    out = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=out, mtime=0) as gz:
        gz.write(raw.getvalue())
    return out.getvalue()


def _depfile_path(p: str | Path) -> str:
    """A path as a Makefile-syntax depfile spells it (Ninja reads the same)."""
    return str(p).replace("\\", "\\\\").replace(" ", "\\ ").replace("#", "\\#").replace("$", "$$")


def write(kit: Kit, dest: str | Path, chapters: Iterable[str] = (),
          depfile: str | Path | None = None) -> Path:
    """Write the bundle to dest (.tar.gz), atomically; print what went in. With
    chapters, only their exercises. With depfile, also write there every file and
    folder the bundle was made from (the grader's own code included)."""
    dest = Path(dest).resolve()
    if dest.suffixes[-2:] != [".tar", ".gz"] and dest.suffix != ".tgz":
        raise ValueError(f"{dest}: the bundle is a .tar.gz")
    b = Bundle(kit, chapters)
    included = b.build()
    write_atomically(dest, archive_bytes(b.top, b.members))
    if depfile:
        inputs = set(b.read) | {Path(kit.file).resolve()}
        grader = Path(__file__).resolve().parent
        inputs |= {p.resolve() for p in grader.rglob("*.py")} | {grader.parent / "grade"}
        text = _depfile_path(dest) + ":" + "".join(
            f" \\\n  {_depfile_path(p)}" for p in sorted(inputs)) + "\n"
        write_atomically(Path(depfile).resolve(), text.encode())
    print(f"tools/grade: wrote {dest}: {len(b.members)} files, {len(included)} exercises "
          f"({', '.join(e.id for e in included)}); no solutions, no hidden tests")
    if b.left_out:
        print(f"tools/grade: left out (the kit does not describe the GPU library): {', '.join(b.left_out)}")
    return dest


def write_atomically(dest: Path, data: bytes) -> None:
    """Writes data to a file beside dest (mode 0644), then renames it: no reader
    sees half a download, and a failed write leaves the old one."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{dest.name}.", dir=dest.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, dest)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
