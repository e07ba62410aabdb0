# SPDX-License-Identifier: MIT
"""The test book.record-any-gpu: `tools/book record` records the GPU the machine
has, whatever it is, on a machine without a GPU.

    record_any_gpu.py --root REPO --bookrun BOOKRUN --scratch DIR

It makes, in DIR/repo, a git checkout of a small project that stands in for the
book: the real tools/book, tools/bookpy, book/ (the record schema, the reference
GPUs, the lead the H200) and cmake/BookGpus.cmake, with a CMake project of its own
(one chapter, ch90-fixture, and one GPU run, `tiny`, made by the real bookrun from
a shell script that reports an H100, with an nvidia-smi stand-in naming two
H100s) and recordings/pending.json, where `tiny` waits for both reference GPUs.
Then it runs `tools/book record` there and checks that it

  - names the GPU nvidia-smi gave (the H100, not the lead) and records it into
    recordings/nvidia-h100-80gb-hbm3/ (where no folder was);
  - prints its phase times and the drift table, which lists the H200's
    recordings of the run as not recorded;
  - takes the H100 off the run's entry in recordings/pending.json and leaves the
    H200 on it.

Exit status 0 when all hold; the failures are named otherwise.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys

from bookpy.tests.scaffold import Checklist, write

H100, H200 = "NVIDIA H100 80GB HBM3", "NVIDIA H200"

CMAKELISTS = r"""
# A stand-in for the book's build, for book.record-any-gpu: the GPU of this
# machine (cmake/BookGpus.cmake, asking nvidia-smi), one GPU run made by bookrun,
# the manifest tools/book record reads, and the targets it builds.
cmake_minimum_required(VERSION 3.25)
project(record_fixture NONE)
list(APPEND CMAKE_MODULE_PATH "${CMAKE_SOURCE_DIR}/cmake")
include(BookGpus)
_book_live_gpu_model(BOOK_GPU_MODEL "${BOOK_NVIDIA_SMI}")
book_gpu_slug(BOOK_GPU_SLUG "${BOOK_GPU_MODEL}")
set(BOOK_GPU_MODEL "${BOOK_GPU_MODEL}" CACHE INTERNAL "")
set(BOOK_GPU_SLUG "${BOOK_GPU_SLUG}" CACHE INTERNAL "")
file(MAKE_DIRECTORY "${CMAKE_BINARY_DIR}/tools/runner")
file(CREATE_LINK "${BOOKRUN}" "${CMAKE_BINARY_DIR}/tools/runner/bookrun" SYMBOLIC)
set(record "${CMAKE_BINARY_DIR}/records/ch90-fixture/tiny.json")
add_custom_command(
  OUTPUT "${record}"
  COMMAND "${BOOKRUN}" run --name ch90-fixture/tiny --source-root "${CMAKE_SOURCE_DIR}"
          --source "${CMAKE_SOURCE_DIR}/code/ch90-fixture/tiny.cpp" --flags fixture --gpu
          --nvidia-smi "${BOOK_NVIDIA_SMI}" --provenance cxx=fixture --provenance nvcc=fixture
          --out "${record}" -- /bin/sh "${CMAKE_SOURCE_DIR}/code/ch90-fixture/tiny.sh"
  VERBATIM)
add_custom_target(record.ch90-fixture.tiny ALL DEPENDS "${record}")
add_custom_target(book_before_gpu)
add_custom_target(book_gpu_runs DEPENDS record.ch90-fixture.tiny)
file(WRITE "${CMAKE_BINARY_DIR}/book-manifest.json" "{\"source_root\": \"${CMAKE_SOURCE_DIR}\",
  \"records_dir\": \"${CMAKE_BINARY_DIR}/records\", \"diagrams_dir\": \"${CMAKE_BINARY_DIR}/diagrams\",
  \"edition\": \"reader\", \"chapters\": [\"ch90-fixture\"], \"cy_tags\": null, \"exercises\": null,
  \"runs\": {\"ch90-fixture/tiny\": {
  \"record\": \"${record}\", \"gpu\": true, \"exact\": []}},
  \"gpus\": {\"model\": \"${BOOK_GPU_MODEL}\", \"lead\": \"${BOOK_GPU_LEAD}\", \"reference\": [
    {\"name\": \"NVIDIA H100 80GB HBM3\", \"slug\": \"nvidia-h100-80gb-hbm3\", \"short\": \"H100\"},
    {\"name\": \"NVIDIA H200\", \"slug\": \"nvidia-h200\", \"short\": \"H200\"}]}}\n")
"""

TINY_SH = r"""#!/bin/sh
# A GPU program on an H100, as the runner sees one: provenance and a result.
printf '%s\n' '{"kind":"provenance","key":"gpu_name","value":"NVIDIA H100 80GB HBM3"}' \
  '{"kind":"provenance","key":"compute_capability","value":"9.0"}' \
  '{"kind":"provenance","key":"sm_count","value":"132"}' \
  '{"kind":"provenance","key":"runtime_version","value":"13.0"}' \
  '{"kind":"provenance","key":"driver_cuda_version","value":"13.0"}' \
  '{"kind":"result","name":"ratio","value":1.5,"unit":"ratio"}' >> "$BOOK_RESULTS"
echo "tiny on the H100: ratio 1.5"
"""

NVIDIA_SMI = r"""#!/bin/sh
# A machine of two H100s, as nvidia-smi names them.
case "$*" in
  *--query-gpu=name*) printf 'NVIDIA H100 80GB HBM3\nNVIDIA H100 80GB HBM3\n' ;;
  *--query-gpu=driver_version*) echo "580.159.04" ;;
  *) echo "nvidia-smi (fixture): unexpected arguments: $*" >&2; exit 2 ;;
esac
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", required=True)
    ap.add_argument("--bookrun", required=True)
    ap.add_argument("--scratch", required=True)
    a = ap.parse_args()
    shutil.rmtree(a.scratch, ignore_errors=True)
    repo = os.path.join(a.scratch, "repo")
    os.makedirs(repo)
    os.makedirs(os.path.join(repo, "tools"))
    shutil.copy(os.path.join(a.root, "tools", "book"), os.path.join(repo, "tools", "book"))
    shutil.copytree(os.path.join(a.root, "tools", "bookpy"), os.path.join(repo, "tools", "bookpy"),
                    ignore=shutil.ignore_patterns("__pycache__", "tests"))
    for f in ("record-schema.json", "gpus.json"):
        write(os.path.join(repo, "book", f), open(os.path.join(a.root, "book", f), encoding="utf-8").read())
    for f in ("BookGpus.cmake", "BookHelpers.cmake"):
        write(os.path.join(repo, "cmake", f), open(os.path.join(a.root, "cmake", f), encoding="utf-8").read())
    smi = os.path.join(a.scratch, "nvidia-smi")
    write(smi, NVIDIA_SMI, executable=True)
    write(os.path.join(repo, "CMakeLists.txt"), CMAKELISTS)
    write(os.path.join(repo, "CMakePresets.json"), json.dumps({
        "version": 6,
        "configurePresets": [{"name": "gpu", "generator": "Ninja", "binaryDir": "${sourceDir}/build/gpu",
                              "cacheVariables": {"BOOKRUN": os.path.abspath(a.bookrun),
                                                 "BOOK_NVIDIA_SMI": smi}}],
        "buildPresets": [{"name": "gpu", "configurePreset": "gpu"}],
        "testPresets": [{"name": "gpu", "configurePreset": "gpu",
                         "execution": {"noTestsAction": "ignore"}}]}, indent=2))
    write(os.path.join(repo, "code", "ch90-fixture", "tiny.cpp"), "// what the run hashes\nint main() {}\n")
    write(os.path.join(repo, "code", "ch90-fixture", "tiny.sh"), TINY_SH, executable=True)
    write(os.path.join(repo, "chapters", "ch90-fixture.md"),
          "# 90. Fixture\n\nIts ratio is {value}`tiny:ratio`.\n")
    write(os.path.join(repo, "recordings", "pending.json"), json.dumps({"runs": {"ch90-fixture/tiny": {
        "reason": "its program changed", "gpus": [H200, H100]}}}, indent=2) + "\n")
    write(os.path.join(repo, ".gitignore"), "build/\n")
    git = ["git", "-C", repo, "-c", "user.name=t", "-c", "user.email=t@t", "-c", "commit.gpgsign=false"]
    subprocess.run(git + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "-A"], check=True)
    subprocess.run(git + ["commit", "-q", "-m", "fixture"], check=True)

    env = dict(os.environ, BOOK_COMMIT="", BOOK_LOCK_WAIT="0")
    p = subprocess.run([os.path.join(repo, "tools", "book"), "record"], cwd=repo, env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    out = p.stdout
    checks = Checklist("book.record-any-gpu")
    expect = checks.expect

    expect(p.returncode == 0, f"tools/book record exited {p.returncode}")
    expect(f"tools/book record: this machine's GPU: {H100}, recorded into "
           "recordings/nvidia-h100-80gb-hbm3/" in out, "it names the H100 and its folder")
    recording = os.path.join(repo, "recordings", "nvidia-h100-80gb-hbm3", "ch90-fixture", "tiny.json")
    expect(os.path.exists(recording), f"{recording} was written")
    expect(not os.path.exists(os.path.join(repo, "recordings", "nvidia-h200")),
           "the lead's folder is left alone")
    expect("tools/book record: phase times (s):" in out and "GPU runs (alone, one at a time)" in out,
           "it prints its phase times")
    expect("ch90-fixture/tiny:ratio" in out and "new" in out, "the drift table lists the figure as new")
    expect(f"drift: the {H200}'s recordings (recordings/nvidia-h200): 0 of 1 fresh at this commit; "
           "not recorded: ch90-fixture/tiny" in out, "the drift table lists the H200's recordings")
    with open(os.path.join(repo, "recordings", "pending.json"), encoding="utf-8") as f:
        pending = json.load(f)
    expect(pending["runs"] == {"ch90-fixture/tiny": {"reason": "its program changed", "gpus": [H200]}},
           f"recordings/pending.json keeps only the H200 waiting: {pending}")
    return checks.verdict("the H100 recorded into recordings/nvidia-h100-80gb-hbm3/, the drift table "
                          "with the H200's, the H100 taken off recordings/pending.json",
                          context="---- tools/book record said:\n" + out[-6000:])


if __name__ == "__main__":
    sys.exit(main())
