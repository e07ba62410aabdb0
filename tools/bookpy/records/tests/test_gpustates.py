# SPDX-License-Identifier: MIT
"""The test book.gpu-states: what a build says of each GPU run on each GPU
(bookpy.records.gpustates), and a release's refusal of a lead GPU's run that is
not fresh (tools/book build --release, the PDF).

    python3 test_gpustates.py <scratch folder>   (PYTHONPATH=<repo>/tools)
"""
import contextlib
import io
import json
import os
import shutil
import sys

from bookpy.records import gpustates
from bookpy.tests.scaffold import Checklist

H100, H200 = "NVIDIA H100 80GB HBM3", "NVIDIA H200"
scratch = sys.argv[1]
shutil.rmtree(scratch, ignore_errors=True)
os.makedirs(scratch)


def record(name, stale=False, commit="0123456789ab"):
    path = os.path.join(scratch, name + ".json")
    r = {"provenance": {"commit": commit}, "stale": stale}
    if stale:
        r["stale_reasons"] = ["code/x.cu changed"]
    with open(path, "w", encoding="utf-8") as f:
        json.dump(r, f)
    return path


#: The fields every build manifest has (bookpy.records.manifest reads them).
MANIFEST = {"source_root": ".", "records_dir": ".", "diagrams_dir": ".", "edition": "reader",
            "chapters": [], "cy_tags": None, "exercises": None}


def manifest(runs):
    path = os.path.join(scratch, "book-manifest.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(dict(MANIFEST, gpus={"lead": H200, "model": H200, "reference": []},
                       runs={n: dict(r, record=r.get("record", n + ".json")) for n, r in runs.items()}), f)
    return path


def run(*args):
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = gpustates.main(list(args))
    return code, out.getvalue()


def entry(record_path, pending=None):
    return {"slug": "s", "record": record_path, "pending": pending}


checks = Checklist("book.gpu-states")
expect = checks.expect


# On the lead (the H200): a fresh, b stale, c pending and never recorded there;
# on the H100: a not recorded, b fresh, c pending. A CPU run is no GPU's.
m = manifest({
    "k/a": {"gpu": True, "gpus": {H200: entry(record("a-h200")), H100: entry(None)}},
    "k/b": {"gpu": True, "gpus": {H200: entry(record("b-h200", stale=True, commit="cafecafecafe")),
                                  H100: entry(record("b-h100"))}},
    "k/c": {"gpu": True, "gpus": {H200: entry(None, "the kernel changed"),
                                  H100: entry(record("c-h100", stale=True), "the kernel changed")}},
    "k/cpu": {"gpu": False, "gpus": None}})
out_path = os.path.join(scratch, "gpu-states.json")
code, out = run("--manifest", m, "--out", out_path)
expect(code == 0, f"states: exit {code}: {out}")
expect("Book: NVIDIA H200 (lead): 1 of 3 GPU runs fresh; stale: k/b (recorded at cafecafecafe); "
       "pending: k/c" in out, f"the lead's line: {out}")
expect("Book: NVIDIA H100 80GB HBM3: 1 of 3 GPU runs fresh; pending: k/c; not recorded: k/a" in out,
       f"the H100's line: {out}")
with open(out_path, encoding="utf-8") as f:
    written = json.load(f)
expect(written["gpus"][H200]["k/b"] == {"state": "stale", "commit": "cafecafecafe", "pending": None,
                                        "reasons": ["code/x.cu changed"]}, f"the JSON: {written}")
expect(written["gpus"][H100]["k/c"]["state"] == "pending", f"pending wins over stale: {written}")
# A release refuses the lead's stale and pending runs, naming each; not the H100's.
code, out = run("--manifest", m, "--release")
expect(code == 1 and "a release shows only fresh recordings of the lead GPU, the NVIDIA H200" in out
       and "  k/b: stale (code/x.cu changed)" in out and "  k/c: pending (the kernel changed)" in out
       and "k/a:" not in out, f"release: exit {code}: {out}")
# ... and passes a lead whose every run is fresh, whatever the other GPU's are.
m = manifest({"k/a": {"gpu": True, "gpus": {H200: entry(record("a-h200")), H100: entry(None)}}})
code, out = run("--manifest", m, "--release")
expect(code == 0 and "Book: NVIDIA H100 80GB HBM3: none of the 1 GPU runs recorded yet" in out,
       f"release of a fresh lead: exit {code}: {out}")


# A test of the release (the PDF) is skipped, naming them, while the lead's only
# runs that are not fresh are pending; it fails on a stale one; it runs its
# command where every run of the lead is fresh.
def manifest_lead(state):
    e = {"fresh": entry(record("x")), "stale": entry(record("y", stale=True)),
         "pending": entry(None, "the kernel changed")}[state]
    return manifest({"k/a": {"gpu": True, "gpus": {H200: entry(record("a-h200"))}},
                     "k/x": {"gpu": True, "gpus": {H200: e}}})


gate = ["--release", "--skip-pending", "--", sys.executable, "-c", "print('the command ran')"]
code, out = run("--manifest", manifest_lead("pending"), *gate)
expect(code == 77 and "skipped: runs wait for the lead GPU, the NVIDIA H200 (recordings/pending"
       ".json), so no release can be made: k/x (the kernel changed)" in out
       and "the command ran" not in out, f"pending: {code} {out}")
code, out = run("--manifest", manifest_lead("stale"), *gate)
expect(code == 1 and "k/x: stale" in out, f"stale: {code} {out}")
code, _ = run("--manifest", manifest_lead("fresh"), "--release", "--skip-pending", "--",
              sys.executable, "-c", "import sys; sys.exit(5)")
expect(code == 5, f"fresh: the command's status, not {code}")

# Bad input: named with its file, exit status 2.
with open(m, "w", encoding="utf-8") as f:
    f.write("{")
code, out = run("--manifest", m)
expect(code == 2 and f"build manifest {m}:1: malformed JSON" in out, f"malformed: {code} {out}")
manifest({"k/a": {"gpu": True, "gpus": {H200: entry(os.path.join(scratch, "gone.json"))}}})
code, out = run("--manifest", m)
expect(code == 2 and "the record of k/a on the NVIDIA H200 " in out and "gone.json does not exist" in out,
       f"a missing record: {code} {out}")

sys.exit(checks.verdict("each GPU run's state on each GPU, the release's refusal of a lead GPU's run "
                        "that is not fresh, and bad manifests"))
