# SPDX-License-Identifier: MIT
"""The check role (tools/bookpy/ext/claims.py): a comparison of recorded
figures that holds builds clean and shows nothing; one that a record or one of
its repeats makes false fails at its line (tests/book/claims.cmake has those
cases as bad-input tests)."""
from __future__ import annotations

import os

import pytest

from .conftest import FIXTURE, visible
from bookpy.ext import claims
from bookpy.ext.common import BookError
from bookpy.ext.readertext import fingerprint


def _case(tree, name):
    tree.write("repo/chapters/ch90-fixture.md",
               open(os.path.join(FIXTURE, "cases", name), encoding="utf-8").read())
    tree.edit_json("build/cy-tags.json", lambda d: d["tags"].pop("ch90-q1", None))


def _review_half(tree):
    """check-repeat.md's "one half" is typed: its sentence is reviewed (readertext.py)."""
    sentence = "Its ratio is at most one half {check}, in every repeat the record holds."
    tree.edit_json("repo/book/reviewed-sentences.json", lambda d: d["pages"]["ch90-fixture"].append(
        {"fingerprint": fingerprint(sentence), "sentence": sentence, "why": "the check's bound"}))


def _repeats(*ratios):
    return [{"results": {"ratio": {"value": r, "unit": "x"}}} for r in ratios]


def test_a_check_that_holds_in_every_repeat_builds_clean_and_shows_nothing(tree):
    _case(tree, "check-repeat.md")
    tree.edit_json("build/records/ch90-fixture/hello.json",
                   lambda d: d.update(repeats=_repeats(0.5, 0.25, 0.4)))
    _review_half(tree)
    _, warnings, _ = tree.sphinx()
    assert warnings == ""
    page = visible(tree.html())
    # the check leaves nothing, not even a space before the comma that follows it
    assert "Its ratio is at most one half,\nin every repeat the record holds." in page
    assert "hello:ratio" not in page and "book-check" not in tree.html()


def test_one_repeat_that_breaks_the_comparison_fails_at_its_line(tree):
    _case(tree, "check-repeat.md")
    tree.edit_json("build/records/ch90-fixture/hello.json",
                   lambda d: d.update(repeats=_repeats(0.5, 0.55, 0.4)))
    _, warnings, _ = tree.sphinx()
    assert "ch90-fixture.md:5: ERROR: check 'hello:ratio <= 0.5 and hello:count == 3' does not " \
           "hold in repeat 2 of 3 of 'ch90-fixture/hello': hello:ratio = 0.55, hello:count = 3" \
           in warnings


def test_a_repeat_without_a_result_takes_the_median(tree):
    _case(tree, "check-repeat.md")
    tree.edit_json("build/records/ch90-fixture/hello.json",
                   lambda d: d.update(repeats=[{"results": {}}]))
    _review_half(tree)
    _, warnings, _ = tree.sphinx()
    assert warnings == ""


def test_a_named_expectation_must_have_held(tree):
    _case(tree, "check-expectation.md")
    checks = [{"id": "fast", "what": "fast", "ok": True, "detail": "ms = 1.25, expected <= 2",
               "value": 1.25}]
    tree.edit_json("build/records/ch90-fixture/gpu-run.json", lambda d: d.update(checks=checks))
    _, warnings, _ = tree.sphinx()
    assert warnings == ""
    checks[0]["ok"] = False
    tree.edit_json("build/records/ch90-fixture/gpu-run.json", lambda d: d.update(checks=checks))
    tree.touch_later("build/records/ch90-fixture/gpu-run.json")
    _, warnings, _ = tree.sphinx()
    assert "ch90-fixture.md:4: ERROR: check 'gpu-run:check:fast' does not hold: the run's " \
           "expectation 'fast' failed (ms = 1.25, expected <= 2)" in warnings


def test_a_named_expectation_scoped_to_other_gpus_neither_holds_nor_fails(tree):
    # A check of the run's checks file with "gpus" that leave out the record's GPU
    # (bookrun marks it not_applicable): the claim is not counted as checked.
    _case(tree, "check-expectation.md")
    checks = [{"id": "fast", "what": "fast", "ok": False, "detail": "ms = 1.25, expected <= 2",
               "value": 1.25, "not_applicable": "not applicable on the NVIDIA H200: the check "
               "holds on the NVIDIA H100 80GB HBM3 only"}]
    tree.edit_json("build/records/ch90-fixture/gpu-run.json", lambda d: d.update(checks=checks))
    _, warnings, _ = tree.sphinx()
    # A sentence scoped to another GPU ("on the H100 ...") is no error on this one.
    assert "gpu-run:check:fast" not in warnings


@pytest.mark.parametrize("text, message", [
    ("x:a", "compares nothing"),
    ("x:a + 1", "compares nothing"),
    ("1 < 2", "names no recorded figure"),
    ("open(x:a) > 1", "only abs, min, max may be called"),
    ("x:a > y", "'y' is no <run>:<result> reference"),
    ("x:a > 'text'", "only numbers"),
    ("x:a >", "not an expression"),
    ("(x:a if x:b else x:c) > 1", "not allowed"),
])
def test_what_a_check_may_not_say(text, message):
    with pytest.raises(BookError, match=message):
        claims.parse(text)


def test_references_and_arithmetic():
    tree, refs = claims.parse("abs(ch03-reductions/reduce-bench:cub_tbs_2e28 / "
                              "reduce-bench:ncu:s8:gpu__time_duration.sum - 1) <= 0.05")
    assert refs == [("ch03-reductions/reduce-bench", "cub_tbs_2e28"),
                    ("reduce-bench", "ncu:s8:gpu__time_duration.sum")]
    assert claims.evaluate(tree, {"r0": 1.04, "r1": 1.0})
    assert not claims.evaluate(tree, {"r0": 1.06, "r1": 1.0})
    chained, _ = claims.parse("0.9 <= a-b:x <= 1.1")
    assert claims.evaluate(chained, {"r0": 1.0}) and not claims.evaluate(chained, {"r0": 1.2})


# ---- a check that cannot fail (checkeval.vacuous) ----------------------------------

RECORD = {"results": {"tbs": {"value": 4.45, "unit": "TB/s"}, "ceiling": {"value": 4.6, "unit": "TB/s"},
                      "errors": {"value": 0, "unit": "count"}, "stall": {"value": 5.2, "unit": "ratio"},
                      "idle": {"value": 0, "unit": "ratio"}, "tiny": {"value": 1e-7, "unit": "ratio"},
                      "delta": {"value": -0.3, "unit": "ratio"}}}


def _verify(text):
    return claims.verify_with(text, lambda run: run, lambda full: RECORD)


@pytest.mark.parametrize("text, part", [
    ("r:tbs >= r:tbs", "r:tbs >= r:tbs"),
    ("r:tbs > 5.3 - 10", "r:tbs > 5.3 - 10"),
    ("r:tbs * 2 > r:tbs", "r:tbs * 2 > r:tbs"),
    ("r:tbs > 0", "r:tbs > 0"),
    ("r:tbs < r:ceiling or r:tbs >= r:ceiling", "r:tbs < r:ceiling or r:tbs >= r:ceiling"),
    # a vacuous part joined by 'and' to one that can fail, and a vacuous link of a chain
    ("r:tbs < r:ceiling and r:ceiling >= r:ceiling", "r:ceiling >= r:ceiling"),
    ("0 < r:tbs < r:ceiling", "0 < r:tbs"),
    ("abs(r:delta) >= 0", "abs(r:delta) >= 0"),
])
def test_a_check_that_holds_whatever_the_figures_are_is_refused(text, part):
    with pytest.raises(BookError) as e:
        _verify(text)
    assert f"check '{text}' holds whatever the figures are: '{part}' still holds" in str(e.value)


@pytest.mark.parametrize("text", [
    "r:tbs < r:ceiling",
    "abs(r:tbs / r:ceiling - 1) <= 0.05",
    "r:errors == 0",  # a zero: set to 1, it fails
    "r:stall > r:idle",  # beside a zero: the zero raised far enough, it fails
    "r:stall > 10 * r:tiny",  # apart by orders of magnitude: taken towards zero, it fails
    "r:delta < 0",  # a negative figure: sign-flipped, it fails
    "r:tbs < r:ceiling and r:check:anything",  # a named expectation is its checks file's
])
def test_a_check_that_some_figures_would_break_is_accepted(text):
    record = dict(RECORD, checks=[{"id": "anything", "ok": True, "value": 1}])
    assert claims.verify_with(text, lambda run: run, lambda full: record) >= 1


def test_a_figure_named_two_ways_is_one_figure():
    with pytest.raises(BookError, match="holds whatever the figures are"):
        claims.verify_with("ch/r:tbs >= r:tbs", lambda run: run if "/" in run else "ch/" + run,
                           lambda full: RECORD)


def test_a_check_that_cannot_fail_is_an_error_at_its_line(tree):
    _case(tree, "check-vacuous.md")
    _, warnings, _ = tree.sphinx()
    assert "ch90-fixture.md:5: ERROR: check 'hello:ratio >= hello:ratio' holds whatever the " \
           "figures are: 'hello:ratio >= hello:ratio' still holds" in warnings
