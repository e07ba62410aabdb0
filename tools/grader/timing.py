# SPDX-License-Identifier: MIT
"""Where a grading spends its time: spans of wall time, written by tools/grade --timings.

Each span is one step (a phase and what it was about), with its start and end in
seconds since tools/grade started, and the thread that ran it (the sets of a
submission may run side by side). A sandboxed step also records how much of it the
program itself ran (the rest is starting bubblewrap and the supervisor, and
collecting them). tools/grader/tests/bench_grade.py sums the spans per phase.
"""
from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

_T0 = time.monotonic()


class Timings:
    def __init__(self) -> None:
        self.spans = []
        self._lock = threading.Lock()

    def add(self, phase: str, what: str, start: float, end: float, program: float | None = None) -> None:
        span = {"phase": phase, "what": what, "start": round(start - _T0, 4),
                "end": round(end - _T0, 4), "thread": threading.current_thread().name}
        if program is not None:
            span["program"] = round(program, 4)
        with self._lock:
            self.spans.append(span)

    @contextmanager
    def span(self, phase: str, what: str = "") -> Iterator[None]:
        start = time.monotonic()
        try:
            yield
        finally:
            self.add(phase, what, start, time.monotonic())

    def write(self, path: str | Path) -> None:
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"spans": self.spans}, f, indent=1)
            f.write("\n")


class _NoTimings(Timings):
    """The default: records nothing."""

    def add(self, *args: Any, **kwargs: Any) -> None:
        pass


NONE = _NoTimings()
