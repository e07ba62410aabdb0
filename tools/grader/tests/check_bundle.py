#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The student bundle holds what a student needs and nothing it must not, is the
same bytes each time it is written from the same sources, and builds and runs
from a clean folder with Debian's Catch2.

    check_bundle.py --grade tools/grade --kit BUILD --work DIR --cmake CMAKE --ctest CTEST
                    [--site HTML --chapter KEY]

The test exercises.bundle (no --site): writes the bundle of every exercise with
tools/grade --bundle, twice (the same bytes), and one chapter's bundle (only that
chapter's exercises); a --chapter that names no chapter fails and writes nothing.

The test exercises.bundle.catch2-v3 (--catch2-v3 PREFIX): the same bundle built
against Catch2 version 3, installed under PREFIX (a CMake package, as Ubuntu
24.04's catch2 is), chosen over version 2 (-DEXERCISES_CATCH2=3), with every
Catch2 main compiled from the bundle's own files (catch_session.cpp under version
3 included). Without a PREFIX (no Catch2 3 on Debian 12) it reports skipped (77).

The test site.downloads.build (--site HTML --chapter KEY): the chapter's download
as the built site offers it (the archive its page links, under HTML/_downloads/),
which must be the bytes tools/grade --bundle --chapter KEY writes now.

Then, for the one archive: its contents (each exercise's statement, contract,
starter, visible tests and the test headers the sets share, the build files; no solutions/, no hidden test, no
SOLUTION.md), unpacked into an empty folder, configured, built and run: each
starter's test program runs and reports failed test cases (a GPU exercise skips
without a GPU). Then the solutions' files are dropped in and it is rebuilt: the
CPU exercises pass. Catch2's main is linked from the kit (compiled by the same
compiler) to keep the test quick.
"""
import argparse
import json
import re
import shutil
import subprocess
import sys
import tarfile
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote

from scaffold import fresh, report

# What Catch2 prints when test cases failed (the starters' tests must).
FAILED = re.compile(r"^test cases:\s*\d+(\s*\|\s*\d+ passed)?\s*\|\s*[1-9]\d* failed", re.M)


def run(cmd, cwd=None, timeout=None):
    print("$ " + " ".join(str(c) for c in cmd), flush=True)
    p = subprocess.run([str(c) for c in cmd], cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, errors="replace", timeout=timeout)
    return p.returncode, p.stdout


def write_bundle(a, archive, chapters=()):
    """tools/grade --bundle (reads the kit's description only); (exit status, output)."""
    cmd = [sys.executable, a.grade, "--bundle", archive, "--kit", a.kit]
    for c in chapters:
        cmd += ["--chapter", c]
    rc, out = run(cmd)
    print(out)
    return rc, out


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs = []

    def handle_starttag(self, tag, attrs):
        href = dict(attrs).get("href")
        if tag == "a" and href:
            self.hrefs.append(unquote(href.split("#")[0]))


def site_archive(html, chapter, problems):
    """The archive the chapter's pages link (one, under _downloads/), or None: its
    page, <chapter>.html, or one of its sections' pages, <chapter>/NN-<name>.html
    (the Exercises section's)."""
    page = Path(html) / f"{chapter}.html"
    if not page.is_file():
        problems.append(f"{page}: no such page in the built site")
        return None
    name = f"{chapter}-exercises.tar.gz"
    found = set()
    for p in [page] + sorted((Path(html) / chapter).glob("[0-9][0-9]-*.html")):
        links = Links()
        links.feed(p.read_text(errors="replace"))
        found |= {(p.parent / h).resolve() for h in links.hrefs if h.endswith("/" + name) and "_downloads/" in h}
    if len(found) != 1:
        problems.append(f"{page} and its sections' pages link {len(found)} downloads named {name} (want one): "
                        f"{sorted(map(str, found))}")
        return None
    archive = found.pop()
    if not archive.is_file():
        problems.append(f"{page}: its pages link {archive}, which is not in the site")
        return None
    print(f"the site's download of {chapter}: {archive}")
    return archive


def check_contents(archive, top, kit, exercises, work, problems):
    """The members of archive against the kit's description; unpacks it into work."""
    with tarfile.open(archive) as t:
        members = t.getmembers()
        names = [m.name for m in members]
        for m in members:
            if not m.isfile() or m.name.startswith("/") or ".." in m.name.split("/"):
                problems.append(f"member {m.name}: not a plain file inside the bundle")
            elif m.mtime != 0 or m.uid != 0 or m.gid != 0 or m.uname or m.gname:
                problems.append(f"member {m.name}: has a date or an owner (mtime {m.mtime}, "
                                f"owner {m.uid}:{m.gid} {m.uname}:{m.gname})")
        t.extractall(work, filter="data") if hasattr(tarfile, "data_filter") else t.extractall(work)
    prefix = top + "/"
    for n in names:
        if not n.startswith(prefix):
            problems.append(f"{n}: outside {prefix}")
        if "/solutions/" in n or n.endswith("SOLUTION.md") or re.search(r"/hidden[^/]*$", n):
            problems.append(f"{n}: a solution or a hidden test in the bundle")
    wanted = {e["id"] for e in exercises}
    for n in names:
        m = re.match(rf"{re.escape(prefix)}exercises/([^/]+/[^/]+)/", n)
        if m and m.group(1) not in wanted:
            problems.append(f"{n}: an exercise that was not asked for")
    for e in exercises:
        key, ex = e["id"].split("/")
        need = [f"exercises/{e['id']}/{f}" for f in ["README.md", "exercise.cmake"] +
                e["student_files"] + e["contract_files"]]
        need += [f"tests/{key}/exercises/{ex}/{Path(s['test_file']).name}"
                 for s in e["sets"] if not s["hidden"]]
        need += [f"tests/{key}/exercises/{ex}/{Path(h).name}" for h in e.get("test_support", [])]
        for f in need:
            if prefix + f not in names:
                problems.append(f"{f}: missing from the bundle")
        for s in e["sets"]:
            if s["hidden"]:
                text = Path(s["test_file"]).read_text()
                for m in members:
                    if m.isfile():
                        data = (work / m.name).read_text(errors="replace")
                        if text.strip() and text.strip() in data:
                            problems.append(f"{m.name}: holds the hidden test {s['test_file']}")
    for f in ("CMakeLists.txt", "README.md", "cmake/BookExerciseContract.cmake",
              "cmake/BookExerciseSettings.cmake", "cmake/BookLanguages.cmake", "cmake/libraries.cmake"):
        if prefix + f not in names:
            problems.append(f"{f}: missing from the bundle")
    return names


#: The commands a student runs, from the bundle's folder: those check_build runs.
README_COMMANDS = ["cmake -B build", "cmake --build build", "ctest --test-dir build --output-on-failure"]


def readme_problems(src: Path) -> list:
    """The bundle's README gives the complete commands (README_COMMANDS, in a sh
    block) and says which versions of Catch2 it was built with, and which GPU
    architecture the GPU exercises compile for and how to give another; no Markdown file
    of the bundle sends the student to a tool the bundle does not hold (tools/...),
    and each exercise's statement gives the whole build (cmake -B build first)."""
    problems = []
    readme = (src / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```sh\n(.*?)```", readme, re.S)
    commands = [c.strip() for c in block.group(1).splitlines() if c.strip()] if block else []
    if commands != README_COMMANDS:
        problems.append(f"README.md: its commands are {commands}, not {README_COMMANDS}")
    if not re.search(r"Catch2 version 2\b.*version 3\b", readme, re.S):
        problems.append("README.md: does not say which versions of Catch2 it builds with")
    if not re.search(r"compile for compute capability [0-9.]+", readme) or \
            "-DCMAKE_CUDA_ARCHITECTURES=" not in readme:
        problems.append("README.md: does not say which GPU architecture the GPU exercises compile for "
                        "and how to give another (-DCMAKE_CUDA_ARCHITECTURES=)")
    for md in sorted(src.rglob("*.md")):
        text = md.read_text(encoding="utf-8")
        for m in re.finditer(r"`(tools/[^`\s]+)", text):
            if not (src / m.group(1)).exists():
                problems.append(f"{md.relative_to(src)}: names {m.group(1)}, which is not in the bundle")
        if md.parent.parent.parent.name == "exercises" and "cmake --build build" in text \
                and "cmake -B build" not in text:
            problems.append(f"{md.relative_to(src)}: builds without configuring (no cmake -B build)")
    return problems


def check_build(src, build, a, kit, exercises, repo, problems):
    """Configure, build and run the unpacked bundle as a student would: the starters
    fail their tests; with the solutions dropped in, the CPU exercises pass."""
    problems += readme_problems(src)
    cfg = [a.cmake, "-S", src, "-B", build, "-G", "Ninja"]
    if a.catch2_v3:
        # Version 3, as a student on Ubuntu 24.04 has it; the mains from the
        # bundle's files (the kit's are built with version 2).
        cfg += ["-DEXERCISES_CATCH2=3", f"-DCMAKE_PREFIX_PATH={a.catch2_v3}"]
    else:
        cfg.append(f"-DEXERCISES_CATCH_MAIN={kit['catch_main']}")
        # The Catch2 the book's build uses: Debian's (as a student has it), or the
        # copy carried to a machine without Debian's packages (the GPU machine).
        if a.catch2_include:
            cfg.append(f"-DEXERCISES_CATCH2_INCLUDE={a.catch2_include}")
        if kit.get("gpu_main"):
            cfg.append(f"-DEXERCISES_GPU_MAIN={kit['gpu_main']}")
    for step in (cfg, [a.cmake, "--build", build]):
        rc, out = run(step)
        print(out[-4000:])
        if rc != 0:
            problems.append(f"{step[1]} failed (exit {rc})")
            return
        if step is cfg and a.catch2_v3 and not re.search(r"Catch2 version 3\.", out):
            problems.append("configured with -DEXERCISES_CATCH2=3, the bundle does not say it "
                            "builds with Catch2 version 3")
            return
    rc, out = run([a.ctest, "--test-dir", build, "--output-on-failure"])
    print(out[-6000:])
    for e in exercises:
        status = re.search(rf"Test +#\d+: {re.escape(e['id'])} \.+\**\s*(\w+)", out)
        got = status.group(1) if status else "absent"
        allowed = {"Failed", "Skipped"} if e["gpu"] else {"Failed"}
        if got not in allowed:
            problems.append(f"starter {e['id']}: {got}, want {' or '.join(sorted(allowed))}")
            continue
        # Failed must mean the tests ran and found the starter wrong, not a crash.
        prog = build / e["id"].replace("/", ".")
        colour = ["--colour-mode", "none"] if a.catch2_v3 else ["--use-colour", "no"]  # (3's, 2's)
        rc, text = run([prog, "--order", "decl", *colour], timeout=e["timeout"] + 30)
        if e["gpu"] and rc == 77:
            print(f"starter {e['id']}: skipped (no GPU)")
        elif rc == 0 or not FAILED.search(text):
            print(text[-3000:])
            problems.append(f"starter {e['id']}: exit {rc}, and Catch2 reports no failed test case")
    cpu = [e for e in exercises if not e["gpu"]]
    if not cpu:
        return
    for e in cpu:
        for f in e["student_files"]:
            shutil.copyfile(repo / "solutions" / e["id"] / f, src / "exercises" / e["id"] / f)
    rc, out = run([a.cmake, "--build", build])
    if rc != 0:
        print(out[-4000:])
        problems.append("the bundle with the solutions dropped in does not build")
        return
    rc, out = run([a.ctest, "--test-dir", build, "--output-on-failure", "-R",
                   "|".join("^" + re.escape(e["id"]) + "$" for e in cpu)])
    print(out[-3000:])
    # ctest's summary: "100% tests passed, 0 tests failed out of N" (CMake 3.25),
    # "100% tests passed out of N" (CMake 4).
    if rc != 0 or not re.search(rf"100% tests passed(, 0 tests failed)? out of {len(cpu)}\b", out):
        problems.append("with the solutions dropped in, the CPU exercises' tests do not pass")


def main():
    ap = argparse.ArgumentParser()
    for o in ("--grade", "--kit", "--work", "--cmake", "--ctest"):
        ap.add_argument(o, required=True)
    ap.add_argument("--catch2-include", default="",
                    help="the folder holding catch2/catch.hpp that the book's build uses")
    ap.add_argument("--catch2-v3", metavar="PREFIX",
                    help="build the bundle against the Catch2 version 3 installed under PREFIX "
                         "(empty: none here, the test reports skipped)")
    ap.add_argument("--site", metavar="HTML", help="check the download the built site offers")
    ap.add_argument("--chapter", metavar="KEY", help="the chapter whose bundle is checked")
    a = ap.parse_args()
    if bool(a.site) and not a.chapter:
        ap.error("--site needs --chapter")
    if a.catch2_v3 is not None and a.site:
        ap.error("--catch2-v3 checks the whole bundle: no --site")
    name = "site.downloads.build" if a.site else "exercises.bundle"
    if a.catch2_v3 is not None:
        name = "exercises.bundle.catch2-v3"
        if not a.catch2_v3:
            print(f"{name}: skipped: no Catch2 version 3 is installed here (Debian 12 packages "
                  "version 2); configure with -DBOOK_CATCH2_V3_PREFIX=<its install prefix>")
            return 77
        prefix = Path(a.catch2_v3)
        if not any(prefix.glob(g) for g in ("lib*/cmake/Catch2", "lib/*/cmake/Catch2", "share/Catch2")):
            print(f"{name}: FAILED: {a.catch2_v3} holds no Catch2 CMake package (lib/cmake/Catch2)")
            return 1
    repo, work = Path(a.grade).resolve().parent.parent, fresh(a.work)
    kit = json.loads((Path(a.kit) / "exercises" / "kit.json").read_text())
    cuda = bool(kit.get("cuda"))
    problems = []

    def bundle(file, chapters=()):
        rc, _ = write_bundle(a, work / file, chapters)
        if rc != 0 or not (work / file).is_file():
            problems.append(f"tools/grade --bundle {file} {' '.join(chapters)} exited {rc}")
            return None
        return (work / file).read_bytes()

    chapters = [a.chapter] if a.chapter else []
    first = bundle("first.tar.gz", chapters)
    again = bundle("again.tar.gz", chapters)
    if first is not None and again is not None and first != again:
        problems.append("two bundles written from the same sources differ")
    if a.site:
        archive = site_archive(a.site, a.chapter, problems)
        if archive is not None and first is not None and archive.read_bytes() != first:
            problems.append(f"the site's {archive.name} is not what tools/grade --bundle "
                            f"--chapter {a.chapter} writes from these sources")
        top = f"{a.chapter}-exercises"
    else:
        archive = work / "first.tar.gz" if first is not None else None
        top = "cuda-book-exercises"
        if a.chapter is None and a.catch2_v3 is None:
            # A chapter's bundle holds that chapter's exercises only (checked below on the
            # site's); a chapter that has none is refused and nothing is written.
            rc, out = write_bundle(a, work / "none.tar.gz", ["ch77-no-such-chapter"])
            if rc == 0 or "--chapter ch77-no-such-chapter: no exercises of that chapter" not in out:
                problems.append(f"--chapter ch77-no-such-chapter: exit {rc}, want a refusal naming it")
            if (work / "none.tar.gz").exists():
                problems.append("--chapter ch77-no-such-chapter left an archive behind")
    if archive is None:
        return report(name, problems or ["no archive"])

    # Every exercise goes in (a GPU one also where this build has no nvcc: the
    # student may have it); the bundle's build makes those it can.
    exercises = [e for e in kit["exercises"] if not a.chapter or e["id"].split("/")[0] == a.chapter]
    if not exercises:
        problems.append(f"no exercises to check (chapter {a.chapter})")
    names = check_contents(archive, top, kit, exercises, work / "unpacked", problems)
    if not problems:
        check_build(work / "unpacked" / top, work / "build", a, kit,
                    [e for e in exercises if cuda or not e["gpu"]], repo, problems)
    return report(name, problems, f"{archive.name}: {len(names)} files, {len(exercises)} exercises, no "
                  "solutions or hidden tests, the same bytes twice; builds from a clean folder; "
                  "starters fail, solutions pass")


if __name__ == "__main__":
    sys.exit(main())
