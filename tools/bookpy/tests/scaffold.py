# SPDX-License-Identifier: MIT
"""What the book's test scripts share: a list of expectations whose verdict names
every one that did not hold, and a file written for a fixture.

    checks = Checklist("book.cc-skip")
    checks.expect(conf.returncode == 0, f"the fixture configured (exit {conf.returncode})")
    ...
    return checks.verdict("the run is skipped, with the reason", context="---- ctest said:\\n" + out)

The scripts that use it are tests of their own (book.cc-skip, book.cc75-build,
book.record-any-gpu, book.drift-exact, book.gpu-states, book.pending-recorded,
book.reader-gpu, book.kept-lines, unit.runner.python-reader, and the fixture of
book.bad.deps-partial-node-modules): each fails where one of its expectations
does not hold.
"""
from __future__ import annotations

import os
import stat


class Checklist:
    """The expectations of one test (`name`, the test's name), kept where they fail."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.failures: list[str] = []

    def fail(self, what: str) -> None:
        """Keeps `what` among the failures."""
        self.failures.append(what)

    def expect(self, ok: bool, what: str) -> bool:
        """Keeps `what` among the failures unless `ok`; returns `ok`."""
        if not ok:
            self.fail(what)
        return ok

    def verdict(self, passed: str, context: str = "") -> int:
        """The test's exit status: 1, once each failure is printed (then `context`,
        what they are read against), or 0 with `passed` printed."""
        for f in self.failures:
            print(f"{self.name}: FAIL: {f}")
        if self.failures:
            if context:
                print(context)
            return 1
        print(f"{self.name}: ok: {passed}")
        return 0


def write(path: str, text: str, executable: bool = False) -> None:
    """Writes `text` (UTF-8) to `path`, making its folders; `executable`: by everyone."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    if executable:
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
