# SPDX-License-Identifier: MIT
"""The test book.reader-gpu: tools/book mine's records and verdicts on a GPU
nobody here has. A Tesla T4 (compute capability 7.5, 40 SMs) is made from the
H100's recordings (make_reader_gpu.py: times x 2.5, rates / 2.5, ratios as they
are; div-sweep's repeats spread to overlap the H100's; one program check failed)
and compared with them (bookpy.records.mine compare): the T4's column, the
verdicts (slower, same, and can't tell on overlapping repeats), the verdict as a
multiple of the run's own ceiling, the runs that need 9.0 skipped with the
reason; the rule's edge cases (bookpy.records.verdict); collect() over a live
build's records; and bad input (a malformed index, a hand-edited record, a
record of another GPU), each an error naming the file.

    python3 test_mine.py <source root> <build manifest> <scratch>   (PYTHONPATH=<repo>/tools)
"""
import contextlib
import io
import json
import os
import re
import shutil
import sys

try:
    import scipy.stats  # noqa: F401  (the verdict's U test; python3-scipy, tools/book deps)
except ImportError:
    print("skipped: this Python has no scipy (python3-scipy, which tools/book deps installs): "
          "the verdict's U test cannot run")
    sys.exit(77)
from bookpy.records import mine, verdict  # noqa: E402
from bookpy.records.jsonfile import write_json  # noqa: E402
from bookpy.tests.scaffold import Checklist  # noqa: E402

import make_reader_gpu  # noqa: E402  (the sibling script: its folder is sys.path[0])

root, manifest, scratch = sys.argv[1:4]
shutil.rmtree(scratch, ignore_errors=True)
os.makedirs(scratch)
H100 = os.path.join(root, "recordings", "nvidia-h100-80gb-hbm3")
checks = Checklist("book.reader-gpu")
expect = checks.expect


def compare(reader):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = mine.main(["compare", "--reader", reader, "--reference", H100])
    return code, out.getvalue(), err.getvalue()


# ---- the rule, at the book's repeat counts ----------------------------------------------
expect(abs(verdict.least_p(3, 3) - 0.1) < 1e-12, "3 against 3: the U test's least p is 0.1")
expect(verdict.least_p(5, 5) < 0.05 and verdict.least_p(3, 5) < 0.05, "5 against 5 can reach 0.05")
expect(verdict.compare([3.1, 3.2, 3.3], [1.2, 1.25, 1.3], "ms").word == "slower", "3v3 apart: slower")
expect(verdict.compare([3.1, 3.2, 3.3], [1.2, 1.25, 1.3], "TB/s").word == "faster", "a rate: faster")
expect(verdict.compare([3.1, 3.2, 3.3], [1.2, 1.25, 1.3], "ratio").word == "higher", "a ratio: higher")
expect(verdict.compare([1.1, 1.375, 1.45], [1.2, 1.25, 1.4], "ms").word == "can't tell",
       "3v3 overlapping, medians 10 % apart: can't tell")
expect(verdict.compare([1.0, 1.01, 1.02], [1.0, 1.005, 1.01], "ms").word == "same", "within 5 %: same")
expect(verdict.compare([1.06, 1.07, 1.08], [1.0, 1.005, 1.01], "ms").word == "slower",
       "apart, 6 % more than both spreads: slower")
expect(verdict.compare([1.04, 1.05, 1.058], [1.0, 1.005, 1.01], "ms").word == "can't tell",
       "apart, but under the 5 % threshold and outside the same band: can't tell")
wide = verdict.compare([1.0, 1.5, 2.0, 2.5, 3.0], [0.9, 0.95, 1.0, 1.05, 1.1], "ms")
expect(wide.word == "can't tell", f"5v5 with one overlap but a wide spread: can't tell ({wide.why})")
v = verdict.compare([2.0, 2.1, 2.2, 2.3, 2.4], [1.0, 1.01, 1.02, 1.03, 1.04], "us")
expect(v.word == "slower" and v.p is not None and v.p < 0.05, f"5v5 apart: the U test decides ({v})")
expect(verdict.compare([7], [7]).word == "same" and verdict.compare([7], [8]).word == "can't tell",
       "a figure measured once: equal or can't tell")
expect(verdict.ceiling_of({"results": {"first_add_us_2e16": {}, "ceiling_us_2e16": {}}},
                          "first_add_us_2e16") == "ceiling_us_2e16", "a time's ceiling: the read stream")
expect(verdict.ceiling_of({"results": {"plain_ms": {}, "copy_ms": {}}}, "plain_ms") == "copy_ms",
       "a time's ceiling: the copy")

# ---- a Tesla T4 made from the H100's recordings ---------------------------------------
t4 = os.path.join(scratch, "tesla-t4")
make_reader_gpu.main(["--recordings", H100, "--manifest", manifest, "--out", t4,
                      "--overlap", "ch01-execution-model/div-sweep",
                      "--fail", "ch03-reductions/reduce-bench:best-over-cub-2e16"])
code, out, err = compare(t4)
expect(code == 0, f"compare exits 0 ({err})")
expect("your GPU: the Tesla T4 (compute capability 7.5)" in out, "the T4's column")
expect("Mann-Whitney U test" in out, "the rule is stated")
for word in ("slower", "same", "can't tell"):
    expect(f": {word} [" in out, f"some figure's verdict is {word}")
# The overlap scales the T4's repeats by --overlap-scale (1.08): its median is about 8% up,
# whatever the H100 recorded; the verdict, not the digit, is the test.
div_line = out.split("div-sweep:divergent_w1_ms")[1].split("\n")[0] if "div-sweep:divergent_w1_ms" in out else ""
div_d = re.search(r"can't tell \[medians differ by \+([0-9.]+)%", div_line)
expect("ch01-execution-model/div-sweep:divergent_w1_ms: yours" in out and div_d is not None
       and 5 < float(div_d.group(1)) < 11, "overlapping repeats: can't tell")
# At 2^28 floats both GPUs' repeats lie within 5% of their medians (at 2^16 a launch's
# noise may not), so the same ratio to the read stream reads as "same".
add_line = out.split("reduce-bench:first_add_us_2e28:")[1].split("\n")[0] if "first_add_us_2e28:" in out else ""
expect("ch03-reductions/reduce-bench:first_add_us_2e28: yours" in out and "slower" in add_line
       and "over the read stream (ceiling_us_2e28): same" in add_line,
       "a time slower, and the same as a multiple of its read stream")
for run in ("ch01-execution-model/device-query", "ch03-reductions/cluster-bench", "ch03-reductions/cluster-sweep"):
    expect(f"{run}: {run} needs compute capability 9.0" in out and "this GPU, the Tesla T4, has 7.5" in out,
           f"{run} skipped with the reason")
index = json.load(open(os.path.join(t4, "mine.json"), encoding="utf-8"))
expect(index["runs"]["ch03-reductions/reduce-bench"]["failed_checks"] == ["best-over-cub-2e16"],
       "a failed program check is kept in the index")

# ---- collect(): a live build's records, a failed check's record, a skip, a crash ---------
live = os.path.join(scratch, "live")
rec = json.load(open(os.path.join(t4, "ch01-execution-model/slow-lane.json"), encoding="utf-8"))
write_json(os.path.join(live, "records/ch01-execution-model/slow-lane.json"), rec)
write_json(os.path.join(live, "records/ch03-reductions/reduce-bench.json.failed.json"),
           json.load(open(os.path.join(t4, "ch03-reductions/reduce-bench.json"), encoding="utf-8")))
write_json(os.path.join(live, "book-manifest.json"), {
    "source_root": root, "records_dir": "records", "diagrams_dir": ".", "edition": "reader",
    "chapters": [], "cy_tags": None, "exercises": None,
    "gpus": {"model": "Tesla T4", "live": True, "lead": "NVIDIA H100 80GB HBM3", "reference": []},
    "runs": {"ch01-execution-model/slow-lane": {"gpu": True, "record": "records/ch01-execution-model/slow-lane.json"},
             "ch03-reductions/reduce-bench": {"gpu": True, "record": "records/ch03-reductions/reduce-bench.json"},
             "ch03-reductions/cluster-bench": {"gpu": True, "record": "records/ch03-reductions/cluster-bench.json",
                                               "skipped": "needs compute capability 9.0"},
             "ch02-shared-memory/stencil-steps": {"gpu": True, "record": "records/ch02-shared-memory/x.json"},
             "ch90-fixture/hello": {"gpu": False, "record": "records/hello.json"}}})
folder = mine.collect(os.path.join(live, "book-manifest.json"), os.path.join(scratch, "collected"))
got = mine.read(folder)
expect(os.path.basename(folder) == "tesla-t4" and got.name == "Tesla T4" and got.compute_capability == "7.5",
       "collect names the GPU's folder and its capability")
expect(set(got.runs) == {"ch01-execution-model/slow-lane", "ch03-reductions/reduce-bench",
                         "ch03-reductions/cluster-bench", "ch02-shared-memory/stencil-steps"}, "every GPU run")
expect(got.runs["ch03-reductions/reduce-bench"].get("failed_checks") == ["best-over-cub-2e16"],
       "a run whose check failed keeps its record")
expect("skipped" in got.runs["ch03-reductions/cluster-bench"]
       and "missing" in got.runs["ch02-shared-memory/stencil-steps"], "a skip and a crash say why")

# ---- bad input: each an error naming the file ---------------------------------------------
bad = os.path.join(scratch, "bad")
shutil.copytree(t4, bad)
with open(os.path.join(bad, "mine.json"), "w", encoding="utf-8") as f:
    f.write('{"gpu": {"name": "Tesla T4"},')
code, out, err = compare(bad)
expect(code == 1 and os.path.join(bad, "mine.json") in err and "malformed JSON" in err,
       f"a malformed index is an error naming it ({err})")
shutil.rmtree(bad)
shutil.copytree(t4, bad)
path = os.path.join(bad, "ch01-execution-model/slow-lane.json")
record = json.load(open(path, encoding="utf-8"))
record["stdout"] += "edited\n"
write_json(path, record)
code, out, err = compare(bad)
expect(code == 1 and path in err and "digest" in err, f"a hand-edited record is an error naming it ({err})")
record = json.load(open(os.path.join(t4, "ch01-execution-model/slow-lane.json"), encoding="utf-8"))
write_json(path, record)
index = json.load(open(os.path.join(bad, "mine.json"), encoding="utf-8"))
index["gpu"]["name"] = "NVIDIA A100-SXM4-40GB"
write_json(os.path.join(bad, "mine.json"), index)
code, out, err = compare(bad)
expect(code == 1 and "on the Tesla T4, but" in err and "mine.json" in err,
       f"a record of another GPU than the index says is an error naming both ({err})")

sys.exit(checks.verdict("a Tesla T4 from the H100's recordings: its column, slower, same and can't tell, "
                        "the ceilings' verdicts, the 9.0 runs skipped, collect, and three bad inputs"))
