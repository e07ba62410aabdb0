# SPDX-License-Identifier: MIT
"""bookrun (C++) and tools/bookpy/records/schema.py (Python) read records alike.

    python3 test_schema.py BOOKRUN SOURCE_ROOT SCRATCH   (PYTHONPATH=<repo>/tools)

Makes records with bookrun from the runner's fixtures (a script standing in for a
GPU program, and for nvidia-smi, compute-sanitizer, cuobjdump and ncu), then
checks that the Python reader accepts each, computes the same digest (numbers
whose JSON text differs between writers included), and, for records broken in
each way the schema forbids, refuses them with bookrun's own message.
"""
import json
import os
import shutil
import subprocess
import sys

from bookpy.records import schema as record_schema
from bookpy.tests.scaffold import Checklist

bookrun, root, scratch = sys.argv[1:4]

schema_path = os.path.join(root, "book", "record-schema.json")
schema = record_schema.load_schema(schema_path)
fixtures = os.path.join(root, "tools", "runner", "tests", "fixtures")  # the runner's own
tools = os.path.join(fixtures, "tools")
shutil.rmtree(scratch, ignore_errors=True)
os.makedirs(scratch)
os.chdir(scratch)
shutil.copytree(os.path.join(fixtures, "src"), "src")
checks = Checklist("unit.runner.python-reader")


def run(args, env=None):
    e = dict(os.environ, BOOK_COMMIT="0123456789ab", **(env or {}))
    return subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=e)


def make(name, mode, extra=(), env=None):
    out = f"{name}.json"
    p = run([bookrun, "run", "--name", f"t/{name}", "--source-root", ".", "--source", "src/prog.cu",
             "--schema", schema_path, "--provenance", "cxx=fixture", "--provenance", "nvcc=13.0",
             "--gpu", "--nvidia-smi", os.path.join(tools, "nvidia-smi"),
             "--out", out, *extra, "--", "/bin/sh", os.path.join(fixtures, "fake_gpu.sh"), mode],
            env)
    if p.returncode != 0:
        checks.fail(f"bookrun run for {name} failed:\n{p.stdout}")
        return None
    with open(out, encoding="utf-8") as f:
        return json.load(f)


records = {
    "ok": make("ok", "ok", ["--checks", os.path.join(fixtures, "checks", "good.checks.json")]),
    "gpu": make("gpu", "gpu"),
    "repeats": make("repeats", "ok", ["--repeats", "3", "--checks",
                                      os.path.join(fixtures, "checks", "good.checks.json")]),
    "floats": make("floats", "floats"),
    "big": make("big", "big"),
    "env": make("env", "env", ["--env", "BOOK_FIXTURE_WARPS=4", "--toolchain", "nvcc=13.0.88"]),
    "sanitizer": make("sanitizer", "launch-failure",
                      ["--sanitizer", os.path.join(tools, "compute-sanitizer"),
                       "--sanitizer-tool", "memcheck", "--sanitizer-expect", "errors"],
                      {"FAKE_SANITIZER_ERRORS": "2"}),
    "tools": make("tools", "ok", ["--cuobjdump", os.path.join(tools, "cuobjdump"),
                                  "--sass-function", "reduce_naive", "--sass-function", "reduce_shfl",
                                  "--ncu", os.path.join(tools, "ncu"), "--ncu-kernel", "reduce_naive",
                                  "--ncu-kernel", "reduce_shfl", "--ncu-metrics", "m1,m2",
                                  "--ncu-labels", "naive,shfl"]),
}

# Every record bookrun writes: valid for Python, and the same digest.
for name, record in records.items():
    if record is None:
        continue
    needs_gpu = "driver_cuda_version" in record["provenance"]
    try:
        record_schema.validate(record, schema, needs_gpu=needs_gpu, where=name)
        record_schema.check_digest(record, schema, where=name)
    except record_schema.RecordError as e:
        checks.fail(f"{name}: the Python reader refuses bookrun's record: {e}\n"
                    f"  canonical JSON: {record_schema.canonical(record)[:400]}")
if records["floats"] is not None:
    texts = {k: record_schema.canonical(v["value"]) for k, v in records["floats"]["results"].items()}
    print("floats as the digest writes them:", texts)


# Broken records: bookrun save and the Python reader refuse each with one message.
def broken(edit):
    r = json.loads(json.dumps(records["ok"]))
    edit(r)
    return r


def set_path(r, keys, value):
    *head, last = keys
    for k in head:
        r = r[k]
    r[last] = value


cases = {
    "no-stdout": lambda r: r.pop("stdout"),
    "string-status": lambda r: r.update(exit_status="0"),
    "string-value": lambda r: set_path(r, ["results", "ratio", "value"], "1.02"),
    "unknown-field": lambda r: r.update(stdout_extra="x"),
    "unknown-input": lambda r: set_path(r, ["inputs", "hashh"], "x"),
    "text-number": lambda r: r.update(texts={"sass:k": 3}),
    "check-ok-string": lambda r: set_path(r, ["checks", 0, "ok"], "yes"),
    "ncu-bad": lambda r: r.update(ncu={"a:m": {"value": "3", "unit": ""}}),
    "schema-4": lambda r: r.update(schema=4),
    # A record made to look older than digests: no schema of the past is read.
    "schema-1-no-digest": lambda r: (r.update(schema=1), r.pop("digest")),
    "schema-1-with-legacy-note": lambda r: r.update(schema=1, legacy="made before digests existed"),
    "legacy-note": lambda r: r.update(legacy="made before digests existed"),
    "no-driver": lambda r: r["provenance"].pop("driver_cuda_version"),
    "no-digest": lambda r: r.pop("digest"),
    "edited-stdout": lambda r: r.update(stdout="ratio = 1.50\n"),
    "edited-value": lambda r: set_path(r, ["results", "ratio", "value"], 1.05),
}
if records["ok"] is not None:
    os.makedirs("broken", exist_ok=True)
    for name, edit in cases.items():
        path = f"broken/{name}.json"
        r = broken(edit)
        with open(path, "w", encoding="utf-8") as f:
            json.dump(r, f, indent=2, ensure_ascii=False)
        p = run([bookrun, "save", "--schema", schema_path, "--record", path,
                 "--recording", f"saved/{name}.json"])
        cxx = p.stdout.strip().removeprefix("bookrun: error: ")
        try:
            record_schema.validate(r, schema, needs_gpu=True, where=path)
            record_schema.check_digest(r, schema, where=path)
            py = "(accepted)"
        except record_schema.RecordError as e:
            py = str(e)
        if p.returncode == 0:
            checks.fail(f"{name}: bookrun save accepted a broken record")
        if py == "(accepted)":
            checks.fail(f"{name}: the Python reader accepted a broken record")
        if cxx != py:
            checks.fail(f"{name}: the readers disagree:\n  bookrun: {cxx}\n  Python:  {py}")
        else:
            print(f"{name}: both say: {py}")
    if os.path.exists("saved"):
        checks.fail(f"bookrun save wrote {os.listdir('saved')} from broken records")

sys.exit(checks.verdict("the Python reader accepts bookrun's records, with the same digests, and refuses "
                        "each broken one with bookrun's own message"))
