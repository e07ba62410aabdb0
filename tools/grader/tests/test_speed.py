# SPDX-License-Identifier: MIT
"""Speed grading on the CPU (pytest; CTest runs it as exercises.grader-speed, with
BOOK_KIT the build folder): the scale, the stop rule, the digest check, the report,
the rounds' order and seeds (with rounds made up here), and the timed protocol
between the speed judge and a fake exercise's worker (speed_fake_worker.cpp),
honest and hostile. The GPU's hostile cases are gpu_cases/speed-* (gpu_check.sh)."""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

sys.dont_write_bytecode = True
from grader import speed  # noqa: E402

SPEC = speed.Spec(harness="sum", points=10, full=0.9, none=0.5, calls=8, size=1 << 17,
                  per_worker=2, max_rounds=6, rse=0.01, wall=60, round_timeout=20)


# -- the scale, the stop rule, the check ------------------------------------------
def test_points_follow_the_scale():
    assert speed.points_for(1.3, SPEC) == 10
    assert speed.points_for(0.9, SPEC) == 10
    assert speed.points_for(0.7, SPEC) == 5
    assert speed.points_for(0.89, SPEC) == 9      # rounded down
    assert speed.points_for(0.5, SPEC) == 0
    assert speed.points_for(0.49, SPEC) == 0
    assert speed.points_for(float("nan"), SPEC) == 0
    assert speed.points_for(float("inf"), SPEC) == 0


def test_the_spec_is_checked():
    raw = {"harness": "sum", "points": "4", "full": "0.9", "none": "0.5", "calls": "20"}
    assert speed.spec_from(raw).points == 4
    for bad in ({**raw, "full": "0.4"}, {**raw, "points": "0"}, {**raw, "speedy": "1"},
                {**raw, "calls": "many"}, {k: v for k, v in raw.items() if k != "harness"},
                {**raw, "max_rounds": "2"}):
        with pytest.raises(speed.SpecError):
            speed.spec_from(bad)


def test_rounds_stop_by_the_relative_error_rule():
    assert speed.stop_reason([1.0, 1.0], SPEC, 0) == ""                 # fewer than 3
    assert "standard error" in speed.stop_reason([1.0, 1.001, 0.999], SPEC, 0)
    assert speed.stop_reason([1.0, 1.2, 0.8], SPEC, 0) == ""           # 6.7%: go on
    assert "rounds" in speed.stop_reason([1.0, 1.2, 0.8, 1.1, 0.9, 1.0], SPEC, 0)
    assert "s of rounds" in speed.stop_reason([1.0, 1.2, 0.8], SPEC, 61)


def test_outputs_are_checked_without_telling_them():
    assert speed.mismatch([[1.0, 2.0]], [[1.0, 2.0]], SPEC) == ""
    why = speed.mismatch([[1.0, 2.5]], [[1.0, 2.0]], SPEC)
    assert why == "span 1, call 2: a wrong output" and "2.5" not in why
    assert speed.mismatch([[1.0, None]], [[1.0, 2.0]], SPEC)            # NaN came as null
    assert speed.mismatch([[1.0]], [[1.0, 2.0]], SPEC)
    assert speed.mismatch([], [[1.0]], SPEC)
    loose = speed.Spec(harness="s", points=1, full=0.9, none=0.5, atol=0.5)
    assert speed.mismatch([[2.4]], [[2.0]], loose) == ""


# -- the rounds, made up ------------------------------------------------------------
class Rounds:
    """run_round for speed.run: the student's calls take `student` ns, the
    reference's `reference`, the harness alone `base`; outputs are the seeds."""

    def __init__(self, student, reference=1_000_000, base=500_000, wrong_at=None, fail=None):
        self.student, self.reference, self.base = student, reference, base
        self.wrong_at, self.fail = wrong_at, fail
        self.log = []

    def __call__(self, side, seeds, null, round_seed):
        self.log.append((side, tuple(seeds), null, round_seed))
        n = len([x for x in self.log if x[0] == side])
        if self.fail == side:
            return speed.Round(False, "the worker closed its end (it ended, or was ended), in #go")
        t = self.reference if side == "reference" else self.student
        t = t(n) if callable(t) else t
        outputs = [[float(s % 1000)] * SPEC.calls for s in seeds]
        if side == "student" and self.wrong_at == n:
            outputs[-1][3] += 1
        return speed.Round(True, "", [self.base + t] * len(seeds),
                           [self.base] * len(seeds) if null else [], outputs)


def test_a_solution_as_fast_as_the_reference_earns_full_points():
    res = speed.run(SPEC, Rounds(student=1_000_000))
    assert res.status == "passed" and res.points == 10 and res.ratio == pytest.approx(1.0)
    assert len(res.rounds) == speed.MIN_ROUNDS and "standard error" in res.stopped


def test_the_harness_own_time_is_taken_off_both_sides():
    # 2x slower in the function, 1.5 ms of harness: spans of 2.5 and 1.5 ms, ratio 0.5.
    res = speed.run(SPEC, Rounds(student=2_000_000, base=500_000))
    assert res.ratio == pytest.approx(0.5) and res.points == 0
    res = speed.run(SPEC, Rounds(student=1_000_000 / 0.7))
    assert res.points == 5 and res.status == "failed" and res.ratio == pytest.approx(0.7)


def test_rounds_alternate_and_share_fresh_seeds():
    r = Rounds(student=lambda n: 1_000_000 + 100_000 * (n % 2))  # noisy: all rounds run
    res = speed.run(SPEC, r)
    assert len(res.rounds) == SPEC.max_rounds
    sides = [x[0] for x in r.log]
    assert sides[:4] == ["reference", "student", "student", "reference"]
    for i in range(0, len(r.log), 2):
        a, b = r.log[i], r.log[i + 1]
        assert a[1] == b[1] and a[3] == b[3]                  # the same seeds, both sides
        assert (a[2], b[2]) == ((a[0] == "reference"), (b[0] == "reference"))  # null: reference only
    seeds = [s for x in r.log[::2] for s in x[1]]
    assert len(set(seeds)) == len(seeds)                      # fresh every round


def test_a_ratio_above_the_plausible_cap_earns_nothing():
    spec = speed.Spec(**{**SPEC.__dict__, "plausible": 1.5})
    res = speed.run(spec, Rounds(student=200_000))   # 5x the reference
    assert res.points == 0 and "instructor" in res.note
    assert speed.run(spec, Rounds(student=900_000)).points == 10


def test_one_wrong_output_gates_the_speed_points():
    res = speed.run(SPEC, Rounds(student=100_000, wrong_at=2))    # 10x faster, one wrong output
    assert res.points == 0 and res.status == "failed"
    assert "round 2" in res.note and "gate" in res.note


def test_a_worker_that_fails_its_round_earns_nothing_and_says_why():
    res = speed.run(SPEC, Rounds(student=100_000, fail="student"))
    assert res.points == 0 and "closed its end" in res.note
    res = speed.run(SPEC, Rounds(student=100_000, fail="reference"))
    assert res.status == "error" and res.points == 0


def test_the_report_shows_times_ratio_points_and_gpu_but_no_input():
    res = speed.run(SPEC, Rounds(student=1_250_000),
                    seed=lambda: 4242424242)
    res.gpu = {"before": {"name": "NVIDIA H100 80GB HBM3", "clocks.sm": "1980", "clocks.max.sm": "1980",
                          "clocks_throttle_reasons.active": "0x0000000000000000",
                          "temperature.gpu": "40", "power.draw": "120"},
               "after": {"error": "nvidia-smi: timed out"}}
    text = speed.report(res, SPEC)
    for want in ("your time:", "the reference's:", "ratio (reference / yours): 0.800", "7 of 10",
                 "NVIDIA H100 80GB HBM3", "SM clock 1980", "throttle reasons 0x0", "full points (10)",
                 "0.1562 ms per call", "timed out"):
        assert want in text, want
    assert "4242424242" not in text


def test_gpu_state_never_hangs_or_crashes():
    def timeout(*a, **k):
        raise subprocess.TimeoutExpired(a[0], 10)

    def garbage(*a, **k):
        return subprocess.CompletedProcess(a[0], 0, "\x00\x01 garbage\n", "")

    def good(*a, **k):
        return subprocess.CompletedProcess(a[0], 0, "NVIDIA H100, 1980, 1980, 0x0, 40, 100.5\n", "")
    assert "error" in speed.gpu_state(timeout)
    assert "error" in speed.gpu_state(garbage)
    assert speed.gpu_state(good)["clocks.sm"] == "1980"


# -- the protocol, with real processes ------------------------------------------
KIT = os.environ.get("BOOK_KIT", "")
need_kit = pytest.mark.skipif(not KIT, reason="BOOK_KIT (the build folder) is not set")


def binaries():
    judge = Path(KIT) / "exercises" / "book_exercise_speed_judge"
    fake = Path(KIT) / "exercises" / "tests" / "grader-speed-fake-worker"
    assert judge.is_file() and fake.is_file(), "build the target exercise-kit first"
    return str(judge), str(fake)


def round_with(mode, seeds=(11, 12), null=False, spec=SPEC):
    judge, fake = binaries()
    procs = []

    def start(to_r, from_w):
        env = dict(os.environ, BOOK_FAKE_MODE=mode, BOOK_FAKE_OUT_FD=str(from_w))
        p = subprocess.Popen([fake, str(to_r), str(from_w)], pass_fds=(to_r, from_w), env=env,
                             stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
        os.close(to_r)
        os.close(from_w)
        procs.append(p)

        def finish():
            try:
                p.wait(timeout=5)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()
        return finish
    return speed.judge_round(judge, start, spec, list(seeds), null)


@need_kit
def test_an_honest_round_is_timed_and_answers_every_call():
    r = round_with("honest", null=True)
    assert r.ok, r.why
    assert len(r.ns) == 2 and len(r.null_ns) == 2 and all(t > 0 for t in r.ns)
    assert len(r.outputs) == 2 and len(r.outputs[0]) == SPEC.calls
    again = round_with("honest")
    assert again.outputs == r.outputs                  # the same seeds, the same inputs
    other = round_with("honest", seeds=(13, 14))
    assert other.outputs != r.outputs                  # fresh seeds, fresh inputs


@need_kit
@pytest.mark.parametrize("mode", ["cached", "first", "frequency", "forge"])
def test_hostile_workers_give_wrong_outputs(mode):
    reference = round_with("honest", null=True)
    r = round_with(mode)
    assert r.ok, r.why                                 # they answered, in time...
    assert speed.mismatch(r.outputs, reference.outputs, SPEC)   # ...but wrongly


@need_kit
@pytest.mark.parametrize("mode,why", [("die", "closed its end"), ("garbage", "over the limits"),
                                      ("huge", "over the limits")])
def test_a_broken_worker_fails_its_round_with_a_clear_error(mode, why):
    start = time.monotonic()
    r = round_with(mode)
    assert not r.ok and why in r.why
    assert time.monotonic() - start < 10


@need_kit
def test_a_worker_that_never_answers_is_ended_by_the_round_time_limit():
    spec = speed.Spec(**{**SPEC.__dict__, "round_timeout": 2})
    start = time.monotonic()
    r = round_with("hang", spec=spec)
    assert not r.ok and "no answer within 2 s" in r.why
    assert time.monotonic() - start < 12


@need_kit
def test_the_speed_judge_refuses_bad_arguments():
    judge, _ = binaries()
    for args in ([], ["--harness", "sum"], ["--harness", "sum", "--seeds", "1,x", "--worker-fds", "5,6"],
                 ["--harness", "sum", "--seeds", "1", "--worker-fds", "5,6", "--params", "{"],
                 ["--bogus", "1"]):
        p = subprocess.run([judge] + args, capture_output=True, timeout=10)
        assert p.returncode == 2, args


@need_kit
def test_graded_end_to_end_slow_earns_less_than_honest():
    judge, fake = binaries()

    # Arrays large enough that the sum, not the making of the inputs, is most of a
    # span, on a machine whose other work adds noise.
    spec = speed.Spec(**{**SPEC.__dict__, "size": 1 << 19})

    def rounds(mode):
        def run_round(side, seeds, null, round_seed):
            return round_with("honest" if side == "reference" else mode, seeds, null, spec)
        return speed.run(spec, run_round)

    def timed(mode):
        # This host's other work (ctest runs tests side by side) can bury a span's time
        # under the harness's own, an error the grader reports as such: that grading is
        # made again, three tries in all, and never counted as passed.
        for _ in range(3):
            r = rounds(mode)
            if not (r.status == "error" and "lost in the harness" in r.note):
                break
        return r
    honest = timed("honest")
    assert honest.status in ("passed", "failed") and honest.rounds and honest.ratio > 0.3, honest
    cheat = rounds("cached")
    assert cheat.points == 0 and "gate" in cheat.note
    for _ in range(3):  # the same: a noisy grading of the slow worker is made again
        slow = timed("slow")
        if slow.points < SPEC.points and slow.ratio < honest.ratio:
            break
    assert slow.points < SPEC.points and slow.ratio < honest.ratio, (slow, honest)
    print(json.dumps({"honest": honest.ratio, "slow": slow.ratio}))


def test_the_class_summary_ranks_by_ratio():
    from grader import course
    sets = [{"exercise": "ch03-reductions/ex05-fast-sum", "set": "speed", "points": 4, "gpu": True}]
    key = "ch03-reductions/ex05-fast-sum speed"

    def rec(name, ratio, score):
        cell = {"status": "failed", "score": score, "points": 4}
        if ratio is not None:
            cell["ratio"] = ratio
        return {"student": name, "score": score, "sets": {key: cell}}
    lines = course.speed_ranking(sets, [rec("ann", 0.7, 2), rec("bob", 1.1, 4), rec("cy", None, 0)])
    text = "\n".join(lines)
    assert text.index("bob") < text.index("ann") and "1. bob  ratio 1.100  4/4" in text
    assert "not timed" in text and "cy" in text.split("not timed")[1]


# -- the speed-graded exercises: their scales, their statements, their GPU cases ------
ROOT = Path(__file__).resolve().parents[3]
CASES = Path(__file__).resolve().parent / "gpu_cases"


def speed_exercises():
    """(id, Spec) of every exercise with EXERCISE_SPEED in the kit."""
    from grader.kit import Kit
    return [(e.id, speed.spec_from(e.speed)) for e in Kit(KIT).exercises if e.speed]


@need_kit
def test_each_speed_exercise_scores_its_ratio_on_its_stated_scale():
    exercises = speed_exercises()
    assert len(exercises) >= 3, "chapters 2, 3 and 4 each have a speed-graded exercise"
    for ex, spec in exercises:
        assert speed.points_for(spec.full, spec) == spec.points, ex
        assert speed.points_for(spec.full + 0.3, spec) == spec.points, ex
        assert speed.points_for(spec.none - 1e-6, spec) == 0, ex
        assert speed.points_for(0.0, spec) == 0, ex
        mid = (spec.full + spec.none) / 2
        assert speed.points_for(mid, spec) == spec.points // 2, ex   # linear, rounded down
        steps = [speed.points_for(spec.none + (spec.full - spec.none) * i / 100, spec) for i in range(101)]
        assert steps == sorted(steps) and steps[-1] == spec.points, ex
        # The statement states the scale, the cap and the stop rule the contract sets.
        readme = (ROOT / "exercises" / ex / "README.md").read_text()
        text = " ".join(readme.split())
        for said in (f"full speed points ({spec.points}) at a ratio of {spec.full:g} or more, none "
                     f"below {spec.none:g}, in proportion between (rounded down)",
                     f"a ratio above {spec.plausible:g}",
                     f"below {100 * spec.rse:g}% of it, or after {spec.max_rounds} rounds, or {spec.wall:g} s",
                     f"{spec.calls} fresh arrays", "correctness is a gate"):
            assert said in text, f"{ex}: its README does not say {said!r}"


@need_kit
def test_correctness_gates_each_speed_exercise_s_points():
    for ex, spec in speed_exercises():
        spec = speed.Spec(**{**spec.__dict__, "calls": SPEC.calls})
        fast = speed.run(spec, Rounds(student=100_000, wrong_at=1))   # 10x faster, one wrong output
        assert fast.points == 0 and "gate" in fast.note, ex
        same = speed.run(spec, Rounds(student=1_000_000))
        assert same.points == spec.points, ex


@need_kit
def test_each_speed_exercise_is_graded_on_the_gpu_as_the_issue_asks():
    """gpu_check.sh grades each speed-graded exercise's solution (full points), its
    starter (none), its slow version (partial: the window its case expects earns
    some points and not all, on the exercise's own scale) and the hostile cases."""
    def case(name):
        return json.loads((CASES / name / "case.json").read_text())
    solution, slow, starters = case("speed-solution"), case("speed-slow"), case("starters")
    for ex, spec in speed_exercises():
        assert solution["expect"].get(f"{ex} speed") == "gpu:passed", ex
        assert starters["expect"].get(f"{ex} speed") == "failed", ex
        assert slow["expect"].get(f"{ex} speed") == "gpu:partial", ex
        lo, hi = slow["expect_speed"][ex]["ratio"]
        for i in range(21):
            points = speed.points_for(lo + (hi - lo) * i / 20, spec)
            assert 0 < points < spec.points, (ex, lo, hi, points)
        assert any(f["to"].startswith(ex + "/") for f in slow["files"]), ex
    hostile = [d.name for d in CASES.glob("speed-*") if d.name not in ("speed-solution", "speed-slow")]
    assert len(hostile) >= 4
    for name in hostile:
        c = case(name)
        assert c.get("trusted_ok") and any(v == "gpu:failed" for k, v in c["expect"].items()
                                           if k.endswith(" speed")), name


def test_the_gpu_table_reads_the_student_s_report():
    import speed_table
    res = speed.run(SPEC, Rounds(student=1_250_000))
    res.gpu = {"before": {"name": "NVIDIA H100 80GB HBM3", "clocks.sm": "1980", "clocks.max.sm": "1980",
                          "clocks_throttle_reasons.active": "0x0", "temperature.gpu": "40",
                          "power.draw": "100"},
               "after": {"error": "nvidia-smi exited 9"}}

    def results(r):
        return {"tests": [{"name": "ch9/ex [speed tests]: t", "score": r.points, "max_score": 10,
                           "status": r.status, "output": speed.report(r, SPEC)},
                          {"name": "ch9/ex [visible tests]: t", "score": 1, "max_score": 1,
                           "status": "passed", "output": ""}]}
    got = speed_table.speed_lines(results(res))["ch9/ex"]
    assert got["ratio"][0] == pytest.approx(0.8, abs=1e-3) and got["score"] == res.points == 7
    assert got["student"][0] == pytest.approx(1.25 / SPEC.calls, rel=1e-3)
    assert got["reference"][0] == pytest.approx(1.0 / SPEC.calls, rel=1e-3)
    assert got["gpu"] == "NVIDIA H100 80GB HBM3" and got["clock"][0] == "1980/1980 MHz (0x0)"
    assert got["rounds"] == len(res.rounds)
    assert "ch9/ex" in speed_table.row("speed-slow", "ch9/ex", got)
    # Two gradings agree: the same points, ratios within speed.AGREE; else they do not.
    again = speed_table.speed_lines(results(speed.run(SPEC, Rounds(student=1_260_000))))
    assert speed_table.agree({"ch9/ex": got}, again) == []
    apart = speed_table.speed_lines(results(speed.run(SPEC, Rounds(student=1_000_000))))
    why = speed_table.agree({"ch9/ex": got}, apart)
    assert any("speed points" in w for w in why) and any("apart" in w for w in why)
    assert speed_table.agree({"ch9/ex": got}, {}) == ["ch9/ex: graded once only"]
    assert speed_table.agree({}, {}) == ["no speed line in either grading"]


def test_an_exercise_is_graded_on_speed_only_where_it_can_be():
    from grader.kit import Exercise
    base = dict(id="ch9/ex", title="t", gpu=True, built=True, timeout=1, dir="d", student_files=[],
                sources=[], contract_files=[], include_dirs=[], defines=[], link=[],
                speed={"harness": "sum"}, reference_worker="/w")
    assert Exercise(**base).speed_graded
    for missing in ({"speed": {}}, {"built": False}, {"reference_worker": ""}):
        assert not Exercise(**{**base, **missing}).speed_graded, missing


def test_a_gpu_case_checks_the_slow_version_s_points_against_its_ratio(tmp_path):
    """grade_case.py's expect_speed: the ratio in the case's window, and the points
    those the scale gives that ratio; either wrong is a problem."""
    import grade_case
    from types import SimpleNamespace
    (tmp_path / "exercises").mkdir()
    (tmp_path / "exercises" / "kit.json").write_text(json.dumps({"exercises": [
        {"id": "ch9/ex", "speed": {"harness": "h", "points": "4", "full": "0.9", "none": "0.5"}}]}))
    spec = speed.Spec(harness="h", points=4, full=0.9, none=0.5)

    def problems(ratio, score, window=(0.6, 0.88)):
        case = object.__new__(grade_case.Case)
        case.a, case.problems = SimpleNamespace(kit=str(tmp_path)), []
        res = speed.SpeedResult(status="failed", points=score, ratio=ratio, ratio_range=(ratio, ratio),
                                rounds=[{"reference_ms": 1.0, "student_ms": 1 / ratio, "harness_ms": 0.1,
                                         "ratio": ratio}], stopped="3 rounds")
        tests = {"ch9/ex speed": {"score": score, "max_score": 4, "output": speed.report(res, spec)}}
        case.check_speed(tests, {"ch9/ex": {"ratio": list(window)}})
        return case.problems
    assert problems(0.82, 3) == []                     # 0.82: 3 of 4
    assert problems(0.82, 2) and "whose points" in problems(0.82, 2)[0]
    assert problems(0.95, 4) and "want 0.6 to 0.88" in problems(0.95, 4)[0]
    assert problems(0.7, 2) == []
