# SPDX-License-Identifier: MIT
"""The verdict on one figure measured on two GPUs: the reader's against a
reference GPU's, decided from both sets of repeats (``tools/book mine``).

Each measuring run keeps every repeat (each a fresh process: the record's
``repeats``, a check's ``values``). For a figure with repeats ``y`` (the
reader's GPU) and ``r`` (the reference GPU):

- ``d = median(y) / median(r) - 1``, the relative difference of the medians;
- ``spread(x) = (max(x) - min(x)) / median(x)``, each side's own noise;
- the two sets are *separated* when the two-sided Mann-Whitney U test
  (scipy.stats.mannwhitneyu, the test Google Benchmark's comparison runs) gives
  p < 0.05, where the repeat counts let it: with 3 repeats on each side the
  smallest p it can give is 2 / C(6, 3) = 0.1 (with 3 against 4, 0.057), so
  no difference can ever be significant at 0.05 there. Below that, the sets
  are separated only when their ranges do not overlap (every repeat of one GPU
  beyond every repeat of the other: the U test's most extreme outcome, U = 0).

The verdict (RULE says it in a sentence for the page):

- **faster** / **slower** (a time or a rate; for another figure, **higher** /
  **lower**): the sets are separated and ``|d|`` exceeds both 5 % and each
  side's spread, so that the difference is larger than either GPU's own
  repeat-to-repeat noise (nvbench's compare calls a difference within the
  noise the same);
- **same**: every repeat of both GPUs lies within 5 % of the reference GPU's
  median (a figure measured once on both sides: the two are equal);
- **can't tell**: anything else: the repeats overlap, the difference is within
  the noise, or a side has fewer than 3 repeats.

A time is also compared as a multiple of the same run's own ceiling (the
read stream, the copy or CUB, measured in the same process: ``ceiling_of``),
repeat by repeat: a ratio ports across GPUs where a microsecond does not.
"""
from __future__ import annotations

import math
import re
import statistics
from dataclasses import dataclass

#: The practical threshold: a difference of medians at or below it is no difference.
THRESHOLD = 0.05
#: The U test's significance level (two-sided).
ALPHA = 0.05
#: Fewer repeats than this on a side: no verdict but "same" for equal figures.
MIN_REPEATS = 3

#: Units of a time (lower is faster) and of a rate (higher is faster), as records write them.
TIME_UNITS = {"us", "µs", "ms", "ns", "s", "cycles", "cycle", "ms/wave"}
RATE_UNITS = {"TB/s", "GB/s", "Gadd/s"}

RULE = ("A figure's verdict is decided from both GPUs' repeats. Faster or slower (higher or "
        "lower for a figure that is no time or rate): the two sets of repeats are separated, and "
        "their medians differ by more than 5 % and by more than either GPU's own spread (the "
        "range of its repeats over their median). Separated means the two-sided Mann-Whitney "
        "U test gives p < 0.05 where the repeat counts let it reach that (at least 4 repeats a "
        "side, or 3 against 5); with 3 repeats a side the smallest p the test can give is 0.1, "
        "so there it means that no repeat of one GPU falls inside the other's range. Same: "
        "every repeat of both GPUs lies within 5 % of the reference GPU's median. Can't tell: "
        "anything else (overlapping repeats, a difference within the noise, or fewer than 3 "
        "repeats on a side). A time is also compared as a multiple of the same run's own "
        "ceiling (its read stream, copy or CUB call, in the same process), repeat by repeat, "
        "since a ratio ports across GPUs where a microsecond does not.")


@dataclass(frozen=True)
class Verdict:
    word: str                 # same, faster, slower, higher, lower, can't tell
    d: float | None           # median(yours) / median(reference) - 1
    p: float | None           # the U test's p, where the counts let it reach ALPHA
    why: str                  # the numbers behind it, for a reader

    def __str__(self) -> str:
        return self.word


def spread(values: list) -> float:
    m = statistics.median(values)
    return (max(values) - min(values)) / abs(m) if m else math.inf


def least_p(n: int, m: int) -> float:
    """The smallest two-sided p the exact U test can give with n and m repeats."""
    return min(1.0, 2.0 / math.comb(n + m, n))


def u_test(yours: list, reference: list) -> float:
    try:
        from scipy.stats import mannwhitneyu  # python3-scipy (tools/book deps)
    except ImportError as e:
        raise SystemExit(f"the verdict's U test needs scipy ({e}): install python3-scipy "
                         "(tools/book deps does)") from e
    return float(mannwhitneyu(yours, reference, alternative="two-sided", method="auto").pvalue)


def _direction(unit: str | None, d: float) -> str:
    if unit in TIME_UNITS:
        return "slower" if d > 0 else "faster"
    if unit in RATE_UNITS:
        return "faster" if d > 0 else "slower"
    return "higher" if d > 0 else "lower"


def compare(yours: list, reference: list, unit: str | None = None) -> Verdict:
    """The verdict on a figure whose repeats are `yours` and `reference` (numbers)."""
    y, r = [float(v) for v in yours], [float(v) for v in reference]
    if not y or not r:
        raise ValueError("a verdict needs at least one value on each side")
    my, mr = statistics.median(y), statistics.median(r)
    d = (my / mr - 1) if mr else (0.0 if my == mr else math.inf)
    counts = f"{len(y)} repeats against {len(r)}"
    if len(y) < MIN_REPEATS or len(r) < MIN_REPEATS:
        if set(y) == set(r) and len(set(y)) == 1:
            return Verdict("same", 0.0, None, f"equal ({counts})")
        return Verdict("can't tell", d, None,
                       f"{counts}: fewer than {MIN_REPEATS} on a side measure no noise")
    sy, sr = spread(y), spread(r)
    p = None
    if least_p(len(y), len(r)) < ALPHA:
        p = u_test(y, r)
        separated = p < ALPHA
        how = f"U test p = {p:.3g}"
    else:
        separated = max(y) < min(r) or max(r) < min(y)
        how = (("ranges apart" if separated else "ranges overlap")
               + f" (the U test cannot reach p < {ALPHA} with {counts})")
    numbers = (f"medians differ by {d:+.1%}; spreads {sy:.1%} (yours) and {sr:.1%}; {how}")
    if separated and abs(d) > max(THRESHOLD, sy, sr):
        return Verdict(_direction(unit, d), d, p, numbers)
    if mr and all(abs(v / mr - 1) <= THRESHOLD for v in y + r):
        return Verdict("same", d, p, numbers + f"; every repeat within {THRESHOLD:.0%} of the reference's median")
    return Verdict("can't tell", d, p, numbers)


#: A time result's parts: <what>_<unit>[_<size>] ("first_add_us_2e16", "plain_ms").
_TIME_KEY = re.compile(r"^(?P<what>.+?)_(?P<unit>us|ms|ns)(?:_(?P<size>2e\d+))?$")
#: The ceilings a run may measure in the same process, preferred in this order:
#: the read stream (ceiling), the copy, CUB's call.
CEILINGS = ("ceiling", "copy", "cub")


def ceiling_of(record: dict, key: str) -> str | None:
    """The result of the same run that is a time's own ceiling (the read stream,
    the copy or CUB at the same size and in the same unit), or None."""
    m = _TIME_KEY.match(key)
    results = record.get("results") or {}
    if not m or m.group("what") in CEILINGS:
        return None
    for name in CEILINGS:
        c = f"{name}_{m.group('unit')}" + (f"_{m.group('size')}" if m.group("size") else "")
        if c in results and c != key:
            return c
    return None


def per_repeat_ratio(record: dict, key: str, ceiling: str) -> list:
    """key / ceiling in each repeat (one process: one ratio); the medians' ratio
    for a record without repeats."""
    out = []
    for rep in record.get("repeats") or []:
        res = rep.get("results", {})
        if key in res and ceiling in res and res[ceiling]["value"]:
            out.append(res[key]["value"] / res[ceiling]["value"])
    if not out:
        res = record["results"]
        out = [res[key]["value"] / res[ceiling]["value"]] if res[ceiling]["value"] else []
    return out


def ceiling_word(ceiling: str) -> str:
    return {"ceiling": "read stream", "copy": "copy", "cub": "CUB call"}[ceiling.split("_")[0]]
