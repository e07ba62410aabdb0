# SPDX-License-Identifier: MIT
"""Time the PDF edition and the browser test on this machine, against their
targets (the PDF in at most 5 minutes, the browser test in at most
60 seconds for the current book).

    python3 -m bookpy.bench.site [--preset book]

1. the book, built as usual (`cmake --build --preset <preset>`; not timed);
2. a clean PDF build: everything the `pdf` target makes is deleted first (the
   LaTeX stage and its doctrees, the PDF, the diagrams' PDFs), then
   `cmake --build --preset <preset> --target pdf` is timed; its page count is
   printed;
3. the browser test (tests/site/check_site.py on the built book), timed.

Prints each figure with its target and PASS or FAIL, and exits 1 if any
misses. Run it with nothing else heavy running: the figures are wall-clock.
"""
import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import time

from .. import ROOT

TARGETS = {"pdf": 300.0, "browser": 60.0}


def run(cmd, **kw):
    print(f"$ {' '.join(cmd)}", flush=True)
    start = time.monotonic()
    proc = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **kw)
    took = time.monotonic() - start
    lines = proc.stdout.splitlines()
    for line in (lines if len(lines) <= 30 else ["..."] + lines[-30:]):
        print(f"  {line}")
    print(f"  ({took:.1f} s, exit {proc.returncode})", flush=True)
    return took, proc


def book_python(build: str) -> str:
    """The Python the build found (BOOK_PYTHON: the one with Sphinx and Selenium),
    not whichever python3 comes first on PATH."""
    try:
        with open(os.path.join(build, "CMakeCache.txt"), encoding="utf-8") as f:
            for line in f:
                if line.startswith("BOOK_PYTHON:"):
                    return line.split("=", 1)[1].strip()
    except OSError:
        pass
    return sys.executable


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--preset", default="book")
    a = ap.parse_args()
    build = os.path.join(ROOT, "build", a.preset)
    _, proc = run(["cmake", "--preset", a.preset])
    if proc.returncode != 0:
        return 1
    _, proc = run(["cmake", "--build", "--preset", a.preset])
    if proc.returncode != 0:
        return 1

    for path in ("latex-stage", "latex-doctrees", "pdf"):
        shutil.rmtree(os.path.join(build, path), ignore_errors=True)
    for pdf in glob.glob(os.path.join(build, "diagrams", "**", "*.pdf"), recursive=True):
        os.unlink(pdf)
    pdf_s, proc = run(["cmake", "--build", "--preset", a.preset, "--target", "pdf"])
    if proc.returncode != 0:
        print("bench-site: the PDF did not build")
        return 1
    info = subprocess.run(["pdfinfo", os.path.join(build, "pdf", "book.pdf")], capture_output=True, text=True)
    m = re.search(r"^Pages:\s+(\d+)", info.stdout, re.M)
    pages = int(m.group(1)) if m else 0

    browser_s, proc = run([book_python(build), os.path.join(ROOT, "tests", "site", "check_site.py"),
                           "--html", os.path.join(build, "html"), "--out", os.path.join(build, "site-test")])
    views = re.search(r"= (\d+) page views", proc.stdout)
    if proc.returncode != 0:
        print("bench-site: the browser test failed (its problems are above)")

    figures = [("pdf", pdf_s, f"clean PDF build, {pages} pages"),
               ("browser", browser_s, f"browser test, {views.group(1) if views else '?'} page views")]
    print()
    print(f"{'what':<40} {'time':>9} {'target':>9}")
    browser_ok = proc.returncode == 0
    missed = False
    for key, took, what in figures:
        # A browser test that failed has no time worth comparing: FAIL.
        ok = took <= TARGETS[key] and (key != "browser" or browser_ok)
        missed |= not ok
        print(f"{what:<40} {took:>8.1f}s {TARGETS[key]:>8.0f}s  {'PASS' if ok else 'FAIL'}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
