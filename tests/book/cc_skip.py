# SPDX-License-Identifier: MIT
"""The test book.cc-skip: a run whose program needs compute capability 9.0
(book_program's NEEDS_CC) is skipped, with the reason, on a GPU below it.

    cc_skip.py --root REPO --fixture DIR --bookrun BOOKRUN --scratch DIR [--cc 7.5]

It configures the declaring fixture (DIR: tests/book/fixtures/cmake, case
ch68-needs-cc) with an nvidia-smi stand-in that reports a Tesla T4 of compute
capability --cc (7.5), then runs the run's tests (records.*, gpu.*, sanitize.*)
with ctest, and checks that

  - the configure step lists the run as needing 9.0 and as skipped on the T4;
  - every one of its tests is reported skipped (never passed), each saying
    "needs compute capability 9.0" and "has 7.5".

With --cc 9.0 (the GPU reaches the need) the same checks must fail: that is how
the test was seen to fail. Exit status 0 when all hold; the failures are named.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys

from bookpy.tests.scaffold import Checklist, write

NVIDIA_SMI = r"""#!/bin/sh
# A machine of one Tesla T4, as nvidia-smi reports it.
case "$*" in
  -L) echo "GPU 0: Tesla T4 (UUID: GPU-fixture)" ;;
  *--query-gpu=name*) echo "Tesla T4" ;;
  *--query-gpu=compute_cap*) echo "@CC@" ;;
  *--query-gpu=driver_version*) echo "580.159.04" ;;
  *) echo "nvidia-smi (fixture): unexpected arguments: $*" >&2; exit 2 ;;
esac
"""

TESTS = ["records.ch68-needs-cc.cr", "gpu.ch68-needs-cc.cr"] + [
    f"sanitize.ch68-needs-cc.cr.{t}" for t in ("memcheck", "racecheck", "synccheck", "initcheck")]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--root", required=True)
    ap.add_argument("--fixture", required=True)
    ap.add_argument("--bookrun", required=True)
    ap.add_argument("--scratch", required=True)
    ap.add_argument("--cc", default="7.5")
    a = ap.parse_args()
    shutil.rmtree(a.scratch, ignore_errors=True)
    os.makedirs(a.scratch)
    smi = os.path.join(a.scratch, "nvidia-smi")
    write(smi, NVIDIA_SMI.replace("@CC@", a.cc), executable=True)
    build = os.path.join(a.scratch, "build")
    checks = Checklist("book.cc-skip")
    expect = checks.expect

    conf = subprocess.run(["cmake", "-S", a.fixture, "-B", build, "-G", "Ninja",
                           f"-DBOOK_SOURCE={a.root}", "-DCASE=ch68-needs-cc",
                           f"-DBOOK_FIXTURE_SMI={smi}", f"-DBOOKRUN={os.path.abspath(a.bookrun)}"],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
    out = conf.stdout
    expect(conf.returncode == 0, f"the fixture configured (exit {conf.returncode})")
    expect("Book: runs that need compute capability 9.0 (every other runs from 7.5): "
           "ch68-needs-cc/cr" in out, "the configure step lists the run as needing 9.0")
    expect(re.search(r"Book: skipped: ch68-needs-cc/cr needs compute capability 9\.0 .*"
                     r"this GPU, the Tesla T4, has 7\.5", out) is not None,
           "the configure step says the run is skipped on the T4, with the reason")
    # The book's pre-test step builds its test programs (tests/all), which the
    # fixture has none of: the runs' tests need nothing built.
    custom = os.path.join(build, "CTestCustom.cmake")
    if os.path.exists(custom):
        os.remove(custom)
    test = subprocess.run(["ctest", "--test-dir", build, "-V", "-R", "ch68-needs-cc\\.cr"],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=120)
    tout = test.stdout
    for t in TESTS:
        expect(re.search(rf"{re.escape(t)} \.+\*+Skipped", tout) is not None,
               f"{t} is reported skipped")
    expect(len(re.findall(r"skipped: ch68-needs-cc/cr needs compute capability 9\.0 \(program "
                          r"ch68-needs-cc/c, NEEDS_CC 90\); this GPU, the Tesla T4, has 7\.5", tout))
           == len(TESTS), f"each of the {len(TESTS)} tests says why, naming 9.0 and 7.5")
    # (ctest's "100% tests passed" line counts a skipped test; its list of the
    # tests that did not run is the summary that tells them apart.)
    expect(re.search(r"Test +#\d+: \S+ \.+ +Passed", tout) is None,
           "no test of the run is reported passed")
    for t in TESTS:
        expect(re.search(rf"\d+ - {re.escape(t)} \(Skipped\)", tout) is not None,
               f"ctest's summary lists {t} among the tests that did not run (Skipped)")
    expect(f"out of {len(TESTS)}" in tout, f"the run has its {len(TESTS)} tests")
    return checks.verdict(f"on a GPU of compute capability {a.cc}, the run that needs 9.0 is "
                          f"listed at configure and its {len(TESTS)} tests are skipped, each with the reason",
                          context="---- configure said:\n" + out[-4000:] + "\n---- ctest said:\n" + tout[-6000:])


if __name__ == "__main__":
    sys.exit(main())
