#!/usr/bin/env python3
"""The test exercises.bundle: the student bundle holds what a student needs and
nothing it must not, and builds and runs from a clean folder with Debian's Catch2.

    check_bundle.py --grade tools/grade --kit BUILD --work DIR --cmake CMAKE --ctest CTEST

Writes the bundle (tools/grade --bundle), checks its contents (every exercise's
statement, contract, starter and visible tests, the build files; no solutions/, no
hidden test, no SOLUTION.md), unpacks it into an empty folder, configures, builds
and runs its tests: the starters fail (a GPU exercise skips without a GPU). Then
drops the solutions' files in and rebuilds: the CPU exercises pass. Catch2's main
is linked from the kit (compiled by the same compiler) to keep the test quick.
"""
import argparse
import json
import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path


def run(cmd, cwd=None):
    print("$ " + " ".join(str(c) for c in cmd), flush=True)
    p = subprocess.run([str(c) for c in cmd], cwd=cwd, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT, text=True, errors="replace")
    return p.returncode, p.stdout


def main():
    ap = argparse.ArgumentParser()
    for o in ("--grade", "--kit", "--work", "--cmake", "--ctest"):
        ap.add_argument(o, required=True)
    a = ap.parse_args()
    repo = Path(a.grade).resolve().parent.parent
    work = Path(a.work).resolve()
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    kit = json.loads((Path(a.kit) / "exercises" / "kit.json").read_text())
    problems = []
    archive = work / "exercises-bundle.tar.gz"
    rc, out = run([sys.executable, a.grade, "--bundle", archive, "--kit", a.kit, "--no-kit-build"])
    print(out)
    if rc != 0 or not archive.is_file():
        print(f"exercises.bundle: FAILED: tools/grade --bundle exited {rc}")
        return 1

    # The contents.
    with tarfile.open(archive) as t:
        members = t.getmembers()
        names = [m.name for m in members]
        for m in members:
            if not m.isfile() or m.name.startswith("/") or ".." in m.name.split("/"):
                problems.append(f"member {m.name}: not a plain file inside the bundle")
        t.extractall(work / "unpacked", filter="data") if hasattr(tarfile, "data_filter") \
            else t.extractall(work / "unpacked")
    top = "cuda-book-exercises/"
    for n in names:
        if not n.startswith(top):
            problems.append(f"{n}: outside {top}")
        if "/solutions/" in n or n.endswith("SOLUTION.md") or re.search(r"/hidden\.test\.", n):
            problems.append(f"{n}: a solution or a hidden test in the bundle")
    cuda = bool(kit.get("cuda"))
    for e in kit["exercises"]:
        if e["gpu"] and not cuda:
            continue
        key, ex = e["id"].split("/")
        need = [f"exercises/{e['id']}/{f}" for f in ["README.md", "exercise.cmake"] +
                e["student_files"] + e["contract_files"]]
        need += [f"tests/{key}/exercises/{ex}/{Path(s['test_file']).name}"
                 for s in e["sets"] if not s["hidden"]]
        for f in need:
            if top + f not in names:
                problems.append(f"{f}: missing from the bundle")
        for s in e["sets"]:
            if s["hidden"]:
                text = Path(s["test_file"]).read_text()
                for m in members:
                    if m.isfile():
                        data = (work / "unpacked" / m.name).read_text(errors="replace")
                        if text.strip() and text.strip() in data:
                            problems.append(f"{m.name}: holds the hidden test {s['test_file']}")
    for f in ("CMakeLists.txt", "README.md", "cmake/BookExerciseContract.cmake", "cmake/libraries.cmake"):
        if top + f not in names:
            problems.append(f"{f}: missing from the bundle")

    # Build it from a clean folder, as a student would.
    src = work / "unpacked" / "cuda-book-exercises"
    build = work / "build"
    cfg = [a.cmake, "-S", src, "-B", build, "-G", "Ninja",
           f"-DEXERCISES_CATCH_MAIN={kit['catch_main']}"]
    # The Catch2 the book's build used: Debian's (as a student has it), or the
    # copy carried to a machine without Debian's packages (the GPU machine).
    cache = Path(a.kit) / "CMakeCache.txt"
    for line in cache.read_text().splitlines() if cache.is_file() else []:
        if line.startswith("BOOK_CATCH2_INCLUDE:"):
            cfg.append("-DEXERCISES_CATCH2_INCLUDE=" + line.split("=", 1)[1])
    if kit.get("gpu_main"):
        cfg.append(f"-DEXERCISES_GPU_MAIN={kit['gpu_main']}")
    for step in (cfg, [a.cmake, "--build", build]):
        rc, out = run(step)
        print(out[-4000:])
        if rc != 0:
            problems.append(f"{step[1]} failed (exit {rc})")
            break
    else:
        rc, out = run([a.ctest, "--test-dir", build, "--output-on-failure"])
        print(out[-6000:])
        for e in kit["exercises"]:
            if e["gpu"] and not cuda:
                continue
            status = re.search(rf"Test +#\d+: {re.escape(e['id'])} \.+\**\s*(\w+)", out)
            got = status.group(1) if status else "absent"
            allowed = {"Failed", "Skipped"} if e["gpu"] else {"Failed"}
            if got not in allowed:
                problems.append(f"starter {e['id']}: {got}, want {' or '.join(sorted(allowed))}")
        # The solutions pass the same tests.
        for e in kit["exercises"]:
            if e["gpu"]:
                continue
            for f in e["student_files"]:
                shutil.copyfile(repo / "solutions" / e["id"] / f, src / "exercises" / e["id"] / f)
        rc, out = run([a.cmake, "--build", build])
        if rc != 0:
            print(out[-4000:])
            problems.append("the bundle with the solutions dropped in does not build")
        else:
            cpu = [e["id"] for e in kit["exercises"] if not e["gpu"]]
            rc, out = run([a.ctest, "--test-dir", build, "--output-on-failure", "-R",
                           "|".join(re.escape(i) for i in cpu)])
            print(out[-3000:])
            if rc != 0:
                problems.append("with the solutions dropped in, the CPU exercises' tests do not pass")
    for problem in problems:
        print(f"exercises.bundle: FAILED: {problem}")
    if not problems:
        print(f"exercises.bundle: ok: {len(names)} files, no solutions or hidden tests; "
              "builds from a clean folder; starters fail, solutions pass")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
