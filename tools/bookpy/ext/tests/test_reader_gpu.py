# SPDX-License-Identifier: MIT
"""The reader's own GPU (tools/book mine; bookpy.records.mine and .verdict):
its records, kept out of recordings/ and named by the manifest's "reader",
appear beside the reference GPUs: a tab of its output, its figure and verdict
beside each quoted figure, a claim that does not hold there said beside the
claim (no error: a finding about that GPU), a run it skipped with the reason.
The GPU is a Tesla T4 nobody here has: its records are the fixture's made
again with its name and measured figures, their digests computed as bookrun's."""
from __future__ import annotations

import json
import os

import pytest
from sphinx.errors import ConfigError

from bookpy import ROOT
from bookpy.records import schema as record_schema

from .conftest import visible

H200, H100, T4 = "NVIDIA H200", "NVIDIA H100 80GB HBM3", "Tesla T4"
RUN = "ch90-fixture/gpu-run"
SCHEMA = record_schema.load_schema(os.path.join(ROOT, "book", "record-schema.json"))


def _with_repeats(record: dict, values: list) -> dict:
    record["repeats"] = [{"results": {"ms": {"value": v, "unit": "ms"}}} for v in values]
    record["results"]["ms"]["value"] = sorted(values)[len(values) // 2]
    return record


def _references(tree, h200: list, h100: list) -> None:
    """The H200 leads (the build's own record), the H100 beside it, each with repeats."""
    own = os.path.join(tree.build, "records/ch90-fixture/gpu-run.json")
    tree.edit_json("build/records/ch90-fixture/gpu-run.json", lambda r: _with_repeats(r, h200))
    record = json.loads(tree.read("build/records/ch90-fixture/gpu-run.json"))
    record["provenance"]["gpu_name"] = H100
    h100_path = tree.write("build/gpu-records/h100/ch90-fixture/gpu-run.json",
                           json.dumps(_with_repeats(record, h100)))

    def change(m):
        m["gpus"] = {"model": H200, "live": False, "lead": H200, "release": False,
                     "reference": [{"name": H200, "slug": "h200", "short": "H200"},
                                   {"name": H100, "slug": "h100", "short": "H100"}]}
        m["runs"][RUN]["gpus"] = {H200: {"slug": "h200", "record": own, "pending": None},
                                  H100: {"slug": "h100", "record": h100_path, "pending": None}}
        m["reader"] = os.path.join(tree.build, "mine/tesla-t4")
    tree.edit_json("build/book-manifest.json", change)


def _reader(tree, values: list | None, skipped: str | None = None) -> str:
    """The folder tools/book mine leaves for a Tesla T4: its record of gpu-run (a live
    record, digest and all) and mine.json; `skipped`: the run was skipped there."""
    if skipped:
        entry = {"skipped": skipped}
    else:
        record = _with_repeats(json.loads(tree.read("build/records/ch90-fixture/gpu-run.json")), values)
        for k in SCHEMA["build_only"]["record"]:
            record.pop(k, None)
        record.update(source="live", stdout="on the T4\n")
        record["provenance"].update(gpu_name=T4, compute_capability="7.5", sm_count="40")
        record["digest"] = record_schema.digest(record, SCHEMA)
        tree.write("build/mine/tesla-t4/ch90-fixture/gpu-run.json", json.dumps(record))
        entry = {"record": "ch90-fixture/gpu-run.json", "failed_checks": []}
    return tree.write("build/mine/tesla-t4/mine.json", json.dumps(
        {"about": "fixture", "gpu": {"name": T4, "compute_capability": "7.5"}, "runs": {RUN: entry}}))


def _chapter(tree, extra: str) -> None:
    tree.write("repo/chapters/ch90-fixture.md", tree.read("repo/chapters/ch90-fixture.md") + extra)


def test_your_gpu_beside_the_references_with_a_verdict(tree):
    _references(tree, [1.24, 1.25, 1.26], [1.30, 1.31, 1.32])
    _reader(tree, [3.1, 3.2, 3.3])
    _chapter(tree, "\nIt took {value}`gpu-run:ms|.2f` ms; {gpu-values}`gpu-run:ms|.2f` ms.\n")
    _, warnings, _ = tree.sphinx()
    assert warnings == "", warnings
    html = tree.html()
    page = visible(html)
    # A tab of its own, after the reference GPUs', with where it ran.
    assert html.index('>H200 (lead)') < html.index('>H100<') < html.index('>your GPU (Tesla T4)')
    assert "on the T4" in page
    assert "Ran on your GPU by tools/book mine: Tesla T4 (compute capability 7.5, 40 SMs)" in page
    # The figure in prose: the lead's, and the reader's with its verdict.
    assert ("It took 1.25 (1.24 to 1.26 over 3 runs) (your GPU: 3.20 (3.10 to 3.30 over 3 runs), "
            "slower than the H200) ms") in page
    assert ("1.25 (1.24 to 1.26 over 3 runs) on the H200, 1.31 (1.30 to 1.32 over 3 runs) on the "
            "H100 and 3.20 (3.10 to 3.30 over 3 runs) on your GPU (slower than the H200) ms.") in page


def test_overlapping_repeats_cannot_tell(tree):
    """Medians 10 % apart, but the repeats overlap: no verdict either way."""
    _references(tree, [1.20, 1.25, 1.40], [1.30, 1.31, 1.32])
    _reader(tree, [1.10, 1.375, 1.45])
    _chapter(tree, "\nIt took {value}`gpu-run:ms|.2f` ms.\n")
    _, warnings, _ = tree.sphinx()
    assert warnings == "", warnings
    assert "(your GPU: 1.38 (1.10 to 1.45 over 3 runs), can\u2019t tell against the H200)" \
        in visible(tree.html())


def test_a_claim_that_does_not_hold_on_your_gpu_is_a_finding_not_an_error(tree):
    _references(tree, [1.24, 1.25, 1.26], [1.30, 1.31, 1.32])
    _reader(tree, [3.1, 3.2, 3.3])
    _chapter(tree, "\nIt is quick {check}`gpu-run:ms < 2`.\n")
    _, warnings, _ = tree.sphinx()
    assert warnings == "", warnings
    page = visible(tree.html())
    assert ("It is quick [On your GPU, the Tesla T4, this does not hold: check \u2018gpu-run:ms < 2\u2019 "
            "does not hold in the medians") in page


def test_a_run_your_gpu_skipped_says_why(tree):
    _references(tree, [1.24, 1.25, 1.26], [1.30, 1.31, 1.32])
    why = ("ch90-fixture/gpu-run needs compute capability 9.0 (program ch90-fixture/gprog, "
           "NEEDS_CC 90); this GPU, the Tesla T4, has 7.5")
    _reader(tree, None, skipped=why)
    _chapter(tree, "\nIt took {gpu-values}`gpu-run:ms|.2f` ms.\n")
    _, warnings, _ = tree.sphinx()
    assert warnings == "", warnings
    page = visible(tree.html())
    assert f"Skipped on your GPU. {why}: the run is not made there" in page
    assert f"not yet run on your GPU (skipped: {why})" in page


def test_a_hand_edited_record_of_your_gpu_is_an_error_naming_it(tree):
    _references(tree, [1.24, 1.25, 1.26], [1.30, 1.31, 1.32])
    _reader(tree, [3.1, 3.2, 3.3])
    tree.edit_json("build/mine/tesla-t4/ch90-fixture/gpu-run.json",
                   lambda r: r["results"]["ms"].update(value=1.0))
    _, warnings, _ = tree.sphinx()
    assert "mine/tesla-t4/ch90-fixture/gpu-run.json" in warnings and "digest" in warnings, warnings


def test_a_malformed_index_of_your_gpu_is_an_error_naming_it(tree):
    _references(tree, [1.24, 1.25, 1.26], [1.30, 1.31, 1.32])
    index = _reader(tree, [3.1, 3.2, 3.3])
    tree.write("build/mine/tesla-t4/mine.json", '{"gpu": {"name": "Tesla T4"}, "runs": {}}')
    with pytest.raises(ConfigError) as e:
        tree.sphinx()
    assert f"the reader's GPU index {index}: \"gpu\" should be" in str(e.value)
