# SPDX-License-Identifier: MIT
"""Speed grading: an exercise's points for its speed against the book's reference,
timed on the same GPU in the same grading, where the student's code cannot reach.

An exercise opts in with EXERCISE_SPEED in its exercise.cmake (the harness, the
points and the scale; Spec). Its timed harness (grade_worker.hpp, Timed) is
trusted test code in the worker: it makes the inputs from a seed, flushes the L2
before each call, calls the function, waits for the device and returns every
output. The clock is the speed judge's (tools/grader/judge/speed_judge.cpp,
steady_clock, outside the sandbox): it runs from the "#go" that carries the seed
until the worker's answer has arrived whole.

One round (run): fresh secret seeds (secrets, here: the worker learns each only
with its "#go"); a fresh reference worker (the exercise's solution, which is the
book's reference; never a process that loaded student code), which also times
the harness alone (null: no calls) for the same seeds; and a fresh worker of the
student's. Their order alternates (reference first in even rounds, the student's
first in odd ones: A B B A ...), so that a drift of the GPU's speed falls on both.
Each side's time is the median span of its calls less the median span of the
harness alone; the round's ratio is the reference's time over the student's. Every
output of the student's is compared with the reference's for the same seed (exactly,
or within the Spec's tolerance): one wrong output and the exercise earns no speed
points, whatever the times.

Rounds stop (stop_reason) once at least MIN_ROUNDS have run and the standard error
of the mean ratio is below Spec.rse of it, or after Spec.max_rounds, or once
Spec.wall seconds have passed. The grade is the median ratio of the rounds; its
points follow the scale (points_for). The SM clock and the throttle state
(nvidia-smi) before and after the rounds are recorded with the grade.
"""
from __future__ import annotations

import json
import math
import os
import secrets
import statistics
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

MIN_ROUNDS = 3
# Two gradings of the same code agree when they give the same points and median
# ratios at most this far apart (tools/grader/tests/gpu_check.sh checks it on a GPU).
AGREE = 0.05
RATIO_CAP = 10.0        # a ratio above it is reported as this (a time lost in the noise)
JUDGE_OUTPUT_LIMIT = 4 << 20  # bytes of the speed judge's output read back
NVIDIA_SMI_TIMEOUT = 10


class SpecError(ValueError):
    pass


@dataclass
class Spec:
    """EXERCISE_SPEED of exercise.cmake, checked (spec_from)."""
    harness: str
    points: int
    full: float                 # full points at a ratio of at least this
    none: float                 # no points below this; linear between
    calls: int = 20             # calls of the function per timed span (K)
    size: int = 1 << 24         # elements of each input
    per_worker: int = 3         # timed spans per fresh worker (each with its own seed)
    max_rounds: int = 12
    rse: float = 0.01           # stop when the mean ratio's standard error is below this of it
    wall: float = 180.0         # seconds of rounds at most
    atol: float = 0.0           # an output matches when |student - reference| <= atol + rtol |reference|
    rtol: float = 0.0
    round_timeout: float = 60.0  # seconds one worker may take for its round
    plausible: float = 0.0      # a ratio above it earns nothing, flagged for review (0: no cap)

    def params(self) -> dict:
        return {"calls": self.calls, "size": self.size}

    def scale(self) -> str:
        return (f"full points ({self.points}) at a ratio of {self.full:g} or more, none below "
                f"{self.none:g}, in proportion between (rounded down)")


_KEYS = {"harness": str, "points": int, "full": float, "none": float, "calls": int, "size": int,
         "per_worker": int, "max_rounds": int, "rse": float, "wall": float, "atol": float,
         "rtol": float, "round_timeout": float, "plausible": float}


def spec_from(raw: dict) -> Spec:
    """A Spec from kit.json's "speed" (EXERCISE_SPEED's pairs), or SpecError."""
    values = {}
    for k, v in raw.items():
        if k not in _KEYS:
            raise SpecError(f"EXERCISE_SPEED: unknown key {k!r} (known: {', '.join(_KEYS)})")
        try:
            values[k] = _KEYS[k](v)
        except (TypeError, ValueError):
            raise SpecError(f"EXERCISE_SPEED: {k} {v!r} is no {_KEYS[k].__name__}") from None
    for k in ("harness", "points", "full", "none"):
        if k not in values:
            raise SpecError(f"EXERCISE_SPEED: {k} is missing")
    s = Spec(**values)
    if not (0 < s.none < s.full <= RATIO_CAP) or s.points < 1:
        raise SpecError("EXERCISE_SPEED: want 0 < none < full and points >= 1")
    if not (1 <= s.calls <= 1000 and 1 <= s.per_worker <= 20 and MIN_ROUNDS <= s.max_rounds <= 100
            and 0 < s.rse < 1 and s.wall > 0 and s.atol >= 0 and s.rtol >= 0 and s.size >= 1):
        raise SpecError("EXERCISE_SPEED: a setting out of its range")
    return s


def points_for(ratio: float, spec: Spec) -> int:
    """The speed points of a ratio (reference time / student time) on the spec's scale."""
    if not math.isfinite(ratio) or ratio < spec.none:
        return 0
    if ratio >= spec.full:
        return spec.points
    return int(math.floor(spec.points * (ratio - spec.none) / (spec.full - spec.none) + 1e-9))


def stop_reason(ratios: list[float], spec: Spec, elapsed: float) -> str:
    """Why the rounds stop now ("" to go on): the relative-error rule, the cap on
    rounds, the cap on wall time."""
    n = len(ratios)
    if n >= MIN_ROUNDS:
        mean = statistics.fmean(ratios)
        rse = statistics.stdev(ratios) / math.sqrt(n) / mean if mean > 0 else math.inf
        if rse < spec.rse:
            return f"the mean ratio's standard error is {100 * rse:.2f}% of it (< {100 * spec.rse:g}%)"
    if n >= spec.max_rounds:
        return f"{spec.max_rounds} rounds (the most; the error rule was not met)"
    if elapsed >= spec.wall:
        return f"{spec.wall:g} s of rounds (the most; the error rule was not met)"
    return ""


def mismatch(student: list, reference: list, spec: Spec) -> str:
    """"" when every output of the student's matches the reference's; else which
    span and call did not (never the input or the values: they would tell a
    hidden input)."""
    if len(student) != len(reference):
        return f"{len(student)} timed spans answered, {len(reference)} asked"
    for i, (s, r) in enumerate(zip(student, reference)):
        if not isinstance(s, list) or len(s) != len(r):
            return f"span {i + 1}: {len(s) if isinstance(s, list) else 'no'} outputs, want {len(r)}"
        for k, (a, b) in enumerate(zip(s, r)):
            if not isinstance(a, (int, float)) or not isinstance(b, (int, float)) or \
                    not abs(a - b) <= spec.atol + spec.rtol * abs(b):
                return f"span {i + 1}, call {k + 1}: a wrong output"
    return ""


@dataclass
class Round:
    """What one worker's round gave: the span of each timed call (ns), of the
    harness alone (null_ns: the reference's worker only), the outputs; or why not."""
    ok: bool
    why: str = ""
    ns: list = field(default_factory=list)
    null_ns: list = field(default_factory=list)
    outputs: list = field(default_factory=list)


# run_round(side, seeds, null, round_seed) -> Round; side is "reference" or
# "student"; round_seed goes to the harness's prepare (both sides of a round get
# the same: what the inputs share, e.g. a pool they are cut from; not secret).
RunRound = Callable[[str, list, bool, int], Round]


@dataclass
class SpeedResult:
    status: str = "failed"       # passed (full points) | failed | error | left out
    points: int = 0
    ratio: float = 0.0
    note: str = ""
    rounds: list = field(default_factory=list)  # per round: ref, student, base (ms per call), ratio
    stopped: str = ""
    gpu: dict = field(default_factory=dict)
    ratio_range: tuple = (0.0, 0.0)


def run(spec: Spec, run_round: RunRound, now: Callable[[], float] = time.monotonic,
        seed: Callable[[], int] = lambda: secrets.randbits(63)) -> SpeedResult:
    """The rounds, until stop_reason; see the module's doc."""
    res = SpeedResult()
    start = now()
    ratios: list[float] = []
    for i in range(spec.max_rounds):
        seeds = [seed() for _ in range(spec.per_worker)]
        round_seed = seed()
        order = ("reference", "student") if i % 2 == 0 else ("student", "reference")
        got = {side: run_round(side, seeds, side == "reference", round_seed) for side in order}
        ref, stu = got["reference"], got["student"]
        if not ref.ok or len(ref.ns) != len(seeds) or len(ref.null_ns) != len(seeds):
            res.status, res.note = "error", f"the reference's round failed: {ref.why or 'no times'}"
            return res
        if not stu.ok:
            res.note = f"round {i + 1}: your worker's round failed: {stu.why}"
            return res
        wrong = mismatch(stu.outputs, ref.outputs, spec)
        if wrong:
            res.note = (f"round {i + 1}: {wrong} on a timed input (correctness is a gate: no speed "
                        "points)")
            return res
        base = statistics.median(ref.null_ns)
        t_ref = statistics.median(ref.ns) - base
        t_stu = statistics.median(stu.ns) - base
        if t_ref <= 0:
            res.status, res.note = "error", ("the reference's time is lost in the harness's own: "
                                             "EXERCISE_SPEED's size or calls are too small")
            return res
        ratio = min(RATIO_CAP, t_ref / t_stu) if t_stu > 0 else RATIO_CAP
        ratios.append(ratio)
        res.rounds.append({"reference_ms": t_ref / spec.calls / 1e6, "student_ms": t_stu / spec.calls / 1e6,
                           "harness_ms": base / spec.calls / 1e6, "ratio": ratio})
        res.stopped = stop_reason(ratios, spec, now() - start)
        if res.stopped:
            break
    res.ratio = statistics.median(ratios)
    res.ratio_range = (min(ratios), max(ratios))
    res.points = points_for(res.ratio, spec)
    res.status = "passed" if res.points == spec.points else "failed"
    res.note = f"ratio {res.ratio:.3f}: {res.points} of {spec.points} speed points"
    if spec.plausible and res.ratio > spec.plausible:
        # Faster than the work can be done (the reference runs near the GPU's ceiling):
        # a shortcut the outputs do not show, e.g. code that reads the harness's seed.
        res.points, res.status = 0, "failed"
        res.note = (f"ratio {res.ratio:.3f} is above {spec.plausible:g}, faster than the work can "
                    "be done on this GPU: no speed points until an instructor has read the code")
    return res


def _ms(values: list[float]) -> str:
    lo, mid, hi = min(values), statistics.median(values), max(values)
    return f"{mid:.4g} ms per call (rounds: {lo:.4g} to {hi:.4g})"


def report(res: SpeedResult, spec: Spec) -> str:
    """What the student sees: the times with ranges, the ratio, the points, the
    scale, the grading GPU and its clocks; no input, no seed."""
    lines = [f"{res.status}: {res.note}" if res.note else res.status]
    if res.rounds:
        lines += [f"  your time:        {_ms([r['student_ms'] for r in res.rounds])}",
                  f"  the reference's:  {_ms([r['reference_ms'] for r in res.rounds])}",
                  f"  ratio (reference / yours): {res.ratio:.3f} (rounds: {res.ratio_range[0]:.3f} "
                  f"to {res.ratio_range[1]:.3f}; above 1: faster than the reference)",
                  f"  rounds: {len(res.rounds)}; stopped at {res.stopped}"]
    lines += [f"  scale: {spec.scale()}",
              f"  each round: a fresh worker of yours and one of the reference's, in turn; "
              f"{spec.per_worker} timed spans each of {spec.calls} calls on fresh inputs, the L2 "
              "flushed before each call; the harness's own time (making the inputs, the flush) is "
              "measured in the reference's worker and taken off both"]
    if res.gpu:
        lines.append("  grading GPU: " + describe_gpu(res.gpu))
    return "\n".join(lines)


# -- the GPU's state -----------------------------------------------------------
GPU_FIELDS = ("name", "clocks.sm", "clocks.max.sm", "clocks_throttle_reasons.active",
              "temperature.gpu", "power.draw")


def gpu_state(run: Callable[..., Any] = subprocess.run) -> dict:
    """The GPU's name, SM clock and throttle reasons now (nvidia-smi, with a
    timeout); {"error": why} where they cannot be read."""
    cmd = ["nvidia-smi", "--query-gpu=" + ",".join(GPU_FIELDS), "--format=csv,noheader,nounits"]
    visible = os.environ.get("CUDA_VISIBLE_DEVICES", "")
    if visible and "," not in visible:
        cmd.insert(1, f"--id={visible}")
    try:
        out = run(cmd, capture_output=True, text=True, timeout=NVIDIA_SMI_TIMEOUT)
    except (OSError, subprocess.SubprocessError) as e:
        return {"error": f"nvidia-smi: {e}"[:200]}
    if out.returncode != 0:
        return {"error": f"nvidia-smi exited {out.returncode}"}
    first = (out.stdout.strip().splitlines() or [""])[0][:400]
    values = [v.strip() for v in first.split(",")]
    if len(values) != len(GPU_FIELDS):
        return {"error": "nvidia-smi: an answer of another shape"}
    return dict(zip(GPU_FIELDS, values))


def describe_gpu(gpu: dict) -> str:
    def one(g: dict) -> str:
        if "error" in g:
            return g["error"]
        return (f"SM clock {g.get('clocks.sm')} of {g.get('clocks.max.sm')} MHz, throttle reasons "
                f"{g.get('clocks_throttle_reasons.active')}, {g.get('temperature.gpu')} C, "
                f"{g.get('power.draw')} W")
    before, after = gpu.get("before", {}), gpu.get("after", {})
    name = before.get("name") or after.get("name") or "unknown"
    return f"{name}; before the rounds: {one(before)}; after: {one(after)}"


# -- one round through the speed judge -------------------------------------------
def judge_round(judge: str, start_worker: Callable[[int, int], Callable[[], None]], spec: Spec,
                seeds: list, null: bool, round_seed: int = 0, judge_prefix: list | None = None) -> Round:
    """One worker's round: start_worker(to_read_fd, from_write_fd) starts a fresh
    worker on those descriptors (and closes them once it has: they are its) and
    returns a callable that waits for it to end (killing it if it must); the
    speed judge holds the other ends and the clock."""
    to_r, to_w = os.pipe()
    from_r, from_w = os.pipe()
    try:
        finish_worker = start_worker(to_r, from_w)
    except BaseException:
        for fd in (to_r, to_w, from_r, from_w):
            os.close(fd)
        raise
    cmd = (judge_prefix or []) + [judge, "--worker-fds", f"{to_w},{from_r}", "--harness", spec.harness,
                                  "--params", json.dumps({**spec.params(), "round": round_seed}),
                                  "--seeds", ",".join(str(s) for s in seeds)] + (["--null"] if null else [])
    out = b""
    try:
        jp = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, pass_fds=(to_w, from_r))
    finally:
        os.close(to_w)
        os.close(from_r)
    timer = threading.Timer(spec.round_timeout, jp.kill)
    timer.start()
    try:
        out = jp.stdout.read(JUDGE_OUTPUT_LIMIT)
        jp.stdout.close()
        jp.wait()
    finally:
        timer.cancel()
        finish_worker()
    timed_out = jp.returncode is not None and jp.returncode < 0
    try:
        line = json.loads(out.decode("utf-8", "replace").strip().splitlines()[-1])
    except (ValueError, IndexError):
        line = None
    if not isinstance(line, dict):
        why = (f"no answer within {spec.round_timeout:g} s (the round was ended)" if timed_out
               else f"the speed judge gave no verdict (exit status {jp.returncode})")
        return Round(False, why)
    r = Round(bool(line.get("ok")) and jp.returncode == 0, str(line.get("why", ""))[:2000],
              list(line.get("ns", [])), list(line.get("null_ns", [])), list(line.get("outputs", [])))
    if timed_out:
        r.ok, r.why = False, f"no answer within {spec.round_timeout:g} s (the round was ended)"
    return r
