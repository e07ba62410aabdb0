# SPDX-License-Identifier: MIT
"""The test book.pending-recorded: what `tools/book record` does to
recordings/pending.json once a GPU has recorded runs (bookpy.records.pending).

    python3 test_pending.py <scratch folder>   (PYTHONPATH=<repo>/tools)
"""
import contextlib
import io
import json
import os
import shutil
import sys

from bookpy.records import pending
from bookpy.tests.scaffold import Checklist

H100, H200 = "NVIDIA H100 80GB HBM3", "NVIDIA H200"
scratch = sys.argv[1]
shutil.rmtree(scratch, ignore_errors=True)
os.makedirs(scratch)
path = os.path.join(scratch, "pending.json")
manifest = os.path.join(scratch, "book-manifest.json")
with open(manifest, "w", encoding="utf-8") as f:
    json.dump({"source_root": ".", "records_dir": ".", "diagrams_dir": ".", "edition": "reader",
               "chapters": [], "cy_tags": None, "exercises": None,
               "runs": {"ch01-a/both": {"gpu": True, "record": "both.json"},
                        "ch01-a/h100": {"gpu": True, "record": "h100.json"},
                        "ch01-a/cpu": {"gpu": False, "record": "cpu.json"},
                        "ch02-b/other": {"gpu": True, "record": "other.json"}}}, f)


def write(runs):
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"about": "why", "runs": runs}, f)


def run(*args):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = pending.main(["recorded", "--file", path, "--manifest", manifest, *args])
    return code, out.getvalue() + err.getvalue()


def read():
    with open(path, encoding="utf-8") as f:
        return json.load(f)


checks = Checklist("book.pending-recorded")
expect = checks.expect


# The H100 records chapter ch01-a: it leaves both entries there; "both" still waits
# for the H200, "h100" waits for nothing and leaves the file; ch02-b's is untouched.
write({"ch01-a/both": {"reason": "r", "gpus": [H200, H100]},
       "ch01-a/h100": {"reason": "r", "gpus": [H100]},
       "ch02-b/other": {"reason": "r", "gpus": [H100]}})
code, out = run("--gpu", H100, "--chapter", "ch01-a")
expect(code == 0, f"recorded: exit {code}: {out}")
expect(read() == {"about": "why", "runs": {"ch01-a/both": {"reason": "r", "gpus": [H200]},
                                           "ch02-b/other": {"reason": "r", "gpus": [H100]}}},
       f"recorded ch01-a on the H100: {read()}")
expect("ch01-a/h100 recorded on the NVIDIA H100 80GB HBM3; no GPU waits for it now" in out, out)
expect(f"ch01-a/both recorded on the NVIDIA H100 80GB HBM3; it still waits for {H200}" in out, out)
# The whole book on the H200: the file is left with no run.
code, out = run("--gpu", H200)
expect(code == 0 and read()["runs"] == {"ch02-b/other": {"reason": "r", "gpus": [H100]}},
       f"recorded the book on the H200: {read()}")
# A GPU that nothing waits for changes nothing, and does not rewrite the file.
before = os.stat(path).st_mtime_ns
code, out = run("--gpu", "NVIDIA A100-SXM4-40GB")
expect(code == 0 and "no run recorded here waited for the NVIDIA A100-SXM4-40GB" in out
       and os.stat(path).st_mtime_ns == before, f"a GPU nothing waits for: {out}")
# Bad input: named with the file, exit status 2, the file as it was.
with open(path, "w", encoding="utf-8") as f:
    f.write('{"runs": {"ch01-a/both": ')
code, out = run("--gpu", H100)
expect(code == 2 and f"{path}: the pending runs is not JSON" in out, f"malformed: {code} {out}")
write({"ch01-a/both": {"reason": "r", "gpus": "NVIDIA H200"}})
code, out = run("--gpu", H100)
expect(code == 2 and "pending run ch01-a/both has no \"gpus\" list" in out, f"gpus not a list: {out}")

sys.exit(checks.verdict("a GPU's recorded runs taken off recordings/pending.json, the others left waiting"))
