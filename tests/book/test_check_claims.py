# SPDX-License-Identifier: MIT
"""tools/bookpy/build/check_claims.py: the chapters' claims against a folder of records, as the
GPU machine checks them after recording (tools/book record), without Sphinx.

Run by CTest (book.check-claims.units) with Debian's pytest.
"""
import json
import subprocess
import sys

TOOL = ["-m", "bookpy.build.check_claims"]


def record(tmp_path, run, results, repeats=None):
    path = tmp_path / "records" / "ch90-fixture" / f"{run}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    rec = {"results": {k: {"value": v, "unit": "us"} for k, v in results.items()}}
    if repeats is not None:
        rec["repeats"] = [{"results": {k: {"value": v, "unit": "us"} for k, v in r.items()}}
                          for r in repeats]
    path.write_text(json.dumps(rec))


def chapter(tmp_path, text):
    (tmp_path / "chapters").mkdir(exist_ok=True)
    (tmp_path / "chapters" / "ch90-fixture.md").write_text(text)


def check(tmp_path, *more):
    return subprocess.run([sys.executable, *TOOL, "--records", str(tmp_path / "records"),
                           "--chapters", str(tmp_path / "chapters"), *more],
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def test_claims_that_hold_in_every_repeat_pass(tmp_path):
    record(tmp_path, "bench", {"a": 1.0, "b": 2.0}, [{"a": 1.1, "b": 2.0}, {"a": 0.9, "b": 1.9}])
    chapter(tmp_path, "# 90. Fixture\n\nA is faster {check}`bench:a < bench:b`.\n")
    p = check(tmp_path)
    assert p.returncode == 0, p.stdout
    assert "1 of 1 claims in 1 chapters hold" in p.stdout


def test_a_claim_one_repeat_breaks_fails_at_its_line(tmp_path):
    record(tmp_path, "bench", {"a": 1.0, "b": 2.0}, [{"a": 1.0, "b": 2.0}, {"a": 2.5, "b": 2.0}])
    chapter(tmp_path, "# 90. Fixture\n\nText.\n\nA is faster\n{check}`bench:a < bench:b`.\n")
    p = check(tmp_path)
    assert p.returncode == 1
    assert "ch90-fixture.md:6: check 'bench:a < bench:b' does not hold in repeat 2 of 2" in p.stdout
    assert "bench:a = 2.5" in p.stdout


def test_a_missing_record_or_folder_is_said(tmp_path):
    record(tmp_path, "bench", {"a": 1.0})
    chapter(tmp_path, "# 90. Fixture\n\n{check}`other:a < 2`\n")
    p = check(tmp_path)
    assert p.returncode == 1 and "no record of run 'ch90-fixture/other'" in p.stdout
    p = subprocess.run([sys.executable, *TOOL, "--records", str(tmp_path / "nowhere")],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert p.returncode == 2 and "no record folder" in p.stdout
    p = check(tmp_path, "--only", "ch99-none")
    assert p.returncode == 2 and "no chapter ch99-none" in p.stdout


def test_a_claim_on_an_expectation_scoped_to_other_gpus_is_not_applicable(tmp_path):
    # bookrun marks a check whose "gpus" leave out the record's GPU not_applicable:
    # on this GPU the claim is neither held nor failed.
    path = tmp_path / "records" / "ch90-fixture" / "bench.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"results": {}, "checks": [
        {"id": "fast", "what": "", "ok": False, "detail": "d", "value": 1.0,
         "not_applicable": "not applicable on the NVIDIA H200: the check holds on the "
                           "NVIDIA H100 80GB HBM3 only"}]}))
    chapter(tmp_path, "# 90. Fixture\n\nOn the H100 it is fast {check}`bench:check:fast`.\n")
    p = check(tmp_path)
    assert p.returncode == 0, p.stdout
    assert "ch90-fixture.md:3: not applicable here: check 'bench:check:fast' is not applicable" \
        in p.stdout
    assert "0 of 1 claims in 1 chapters hold in the records of" in p.stdout
    assert "1 not applicable (scoped to another GPU)" in p.stdout


def manifest(tmp_path, pending, model="NVIDIA H100 80GB HBM3", live=False):
    """A build manifest whose runs of ch90-fixture wait for its GPU where pending names them."""
    runs = {}
    for run, why in pending.items():
        runs[f"ch90-fixture/{run}"] = {
            "record": str(tmp_path / "records" / "ch90-fixture" / f"{run}.json"), "live": live,
            "gpus": {model: {"slug": "m", "record": None, "pending": why},
                     "NVIDIA H200": {"slug": "h", "record": None, "pending": None}}}
    path = tmp_path / "book-manifest.json"
    path.write_text(json.dumps({
        "source_root": str(tmp_path), "records_dir": str(tmp_path / "records"),
        "diagrams_dir": str(tmp_path), "edition": "reader", "runs": runs,
        "chapters": [], "cy_tags": None, "exercises": None,
        "gpus": {"model": model, "lead": model, "live": live, "release": False,
                 "reference": [{"name": model, "slug": "m", "short": "M"}]}}))
    return str(path)


def test_a_claim_on_a_run_pending_on_the_builds_gpu_is_listed_not_checked_nor_failed(tmp_path):
    # The run 'new' has no record on this GPU: it waits for it (recordings/pending.json).
    record(tmp_path, "bench", {"a": 1.0, "b": 2.0})
    chapter(tmp_path, "# 90. Fixture\n\nA is faster {check}`bench:a < bench:b`.\n\n"
                      "New is faster {check}`new:a < bench:b`.\n\n"
                      "Both {check}`bench:a < ch90-fixture/new:b`.\n")
    m = manifest(tmp_path, {"new": "a new program, not yet run"})
    p = check(tmp_path, "--manifest", m)
    assert p.returncode == 0, p.stdout
    assert "ch90-fixture.md:5: pending: run 'ch90-fixture/new' waits for the NVIDIA H100 80GB " \
           "HBM3 (recordings/pending.json: a new program, not yet run): not checked" in p.stdout
    assert "ch90-fixture.md:7: pending:" in p.stdout
    # Counted apart: a pending claim is not a claim that holds.
    assert "1 of 3 claims in 1 chapters hold" in p.stdout
    assert "2 pending (their runs wait for the NVIDIA H100 80GB HBM3), not checked" in p.stdout


def test_a_pending_run_with_an_old_record_is_still_not_checked(tmp_path):
    # A record of an older program is in the folder, and false: pending, it is not read.
    record(tmp_path, "new", {"a": 5.0, "b": 2.0})
    chapter(tmp_path, "# 90. Fixture\n\nNew is faster {check}`new:a < new:b`.\n")
    p = check(tmp_path, "--manifest", manifest(tmp_path, {"new": "changed"}))
    assert p.returncode == 0 and "0 of 1 claims" in p.stdout and "1 pending" in p.stdout, p.stdout


def test_without_pending_a_missing_record_still_fails_and_a_live_run_is_checked(tmp_path):
    record(tmp_path, "new", {"a": 5.0, "b": 2.0})
    chapter(tmp_path, "# 90. Fixture\n\nNew is faster {check}`new:a < new:b`.\n\n"
                      "{check}`other:a < 2`\n")
    # Pending on another GPU only: this GPU's claims are checked.
    p = check(tmp_path, "--manifest", manifest(tmp_path, {"new": None}))
    assert p.returncode == 1 and "does not hold" in p.stdout, p.stdout
    assert "no record of run 'ch90-fixture/other'" in p.stdout
    # A live run's record is fresh, whatever pending.json says: checked.
    p = check(tmp_path, "--manifest", manifest(tmp_path, {"new": "changed"}, live=True))
    assert p.returncode == 1 and "does not hold" in p.stdout and ": pending:" not in p.stdout, \
        p.stdout
    # A claim that is malformed fails even on a pending run.
    chapter(tmp_path, "# 90. Fixture\n\n{check}`new:a <`\n")
    p = check(tmp_path, "--manifest", manifest(tmp_path, {"new": "changed"}))
    assert p.returncode == 1, p.stdout
