# SPDX-License-Identifier: MIT
"""The test book.cc75-build: the book's programs build from compute capability
7.5, and those that need more say so (book_program's NEEDS_CC).

    cc75_build.py --root REPO --scratch DIR [--program TARGET] [--cuobjdump PATH]

It configures the book itself in DIR with BOOK_CUDA_ARCHITECTURES=75 (no pages,
no tests, no GPU), and checks that the configure step lists the runs that need
9.0 and leaves out, with the reason, exactly the programs that declare it
(device_query, cluster_sum); then it compiles one portable program (--program,
default ch01-execution-model.slow_lane: small, with the book's CUDA library) for
compute_75 and checks that nvcc was given sm_75 and compute_75 only (and, where cuobjdump
is, that the binary holds them).
(The whole set compiled for compute_75 is too slow for the suite: 2 cores.)

Exit status 0 when all hold; the failures are named.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys

from bookpy.tests.scaffold import Checklist

NEEDING = {"ch01-execution-model/device_query", "ch03-reductions/cluster_sum"}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", required=True)
    ap.add_argument("--scratch", required=True)
    ap.add_argument("--program", default="ch01-execution-model.slow_lane")
    ap.add_argument("--cuobjdump", default="/usr/local/cuda/bin/cuobjdump")
    a = ap.parse_args()
    shutil.rmtree(a.scratch, ignore_errors=True)
    checks = Checklist("book.cc75-build")
    expect = checks.expect

    conf = subprocess.run(["cmake", "-S", a.root, "-B", a.scratch, "-G", "Ninja",
                           "-DBOOK_CUDA_ARCHITECTURES=75", "-DBOOK_DOCS=OFF", "-DBOOK_TESTS=OFF",
                           "-DBOOK_GPU=OFF"],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=600)
    out = conf.stdout
    expect(conf.returncode == 0, f"the book configured for 75 (exit {conf.returncode})")
    left = set(re.findall(r"Book: left out: (\S+), which needs compute capability 9\.0; "
                          r"BOOK_CUDA_ARCHITECTURES \(75\) has no entry that high", out))
    expect(left == NEEDING, f"the programs left out for 9.0 are {sorted(NEEDING)}, not {sorted(left)}")
    expect(re.search(r"Book: runs that need compute capability 9\.0 \(every other runs from 7\.5\): "
                     r".*ch03-reductions/cluster-bench", out) is not None,
           "the configure step lists the runs that need 9.0")
    if conf.returncode == 0:
        b = subprocess.run(["cmake", "--build", a.scratch, "--target", a.program, "-j", "2"],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=900)
        expect(b.returncode == 0, f"{a.program} compiled for compute_75 (exit {b.returncode}):\n"
                                  + b.stdout[-4000:])
        key, name = a.program.split(".", 1)
        binary = os.path.join(a.scratch, "bin", key, name)
        # What nvcc was given (the compile database), and where cuobjdump is (the
        # toolkit's, beside nvcc; not every install has it), what the binary holds.
        with open(os.path.join(a.scratch, "compile_commands.json"), encoding="utf-8") as f:
            cmds = [c.get("arguments") or shlex.split(c["command"]) for c in json.load(f)
                    if c["file"].endswith(f"/{name}.cu") and f"/{key}/" in c["file"]]
        # Split as a shell would: CMake quotes an argument holding brackets on some
        # versions ("--generate-code=arch=compute_75,code=[sm_75]"), not on others.
        gen = [w for w in cmds[0] if w.startswith("--generate-code=")] if cmds else []
        expect(gen == ["--generate-code=arch=compute_75,code=[sm_75]",
                       "--generate-code=arch=compute_75,code=[compute_75]"],
               f"{name}.cu is compiled for sm_75 and compute_75 PTX only: {gen}")
        if b.returncode == 0 and os.path.exists(a.cuobjdump):
            elf = subprocess.run([a.cuobjdump, "--list-elf", binary], stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, text=True).stdout
            ptx = subprocess.run([a.cuobjdump, "--list-ptx", binary], stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, text=True).stdout
            expect("sm_75" in elf and "sm_90" not in elf, f"{binary} holds sm_75 code only:\n{elf}")
            expect("sm_75" in ptx, f"{binary} holds compute_75 PTX:\n{ptx}")
    return checks.verdict(f"configured for 75, {', '.join(sorted(NEEDING))} left out for 9.0, "
                          f"{a.program} compiled for compute_75",
                          context="---- configure said:\n" + out[-4000:])


if __name__ == "__main__":
    sys.exit(main())
