# SPDX-License-Identifier: MIT
"""Judging a test set from Catch2's own report, never from an exit status.

The test program runs with `-r xml -s -o <file>`: Catch2 (v2) writes every
assertion it evaluated, passed or failed, per test case. A test set passes only
when the report is complete and well formed, holds every expected test case
exactly once and no other, each with at least one assertion, every assertion
passed, and the program exited 0. Anything else fails the set, with the reason.

For an exercise with a bridge the program is the set's judge, which never loads
the student's code: the report is the book's own. For one without (its tests
linked into the student's program), code in the test's process could write the
report itself. See the README's "Editions and grading".
"""
from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field

CATCH_ARGS = ["-r", "xml", "-s", "--order", "decl", "--use-colour", "no", "--durations", "no"]


@dataclass
class Case:
    name: str
    passed_assertions: int = 0
    failed_assertions: int = 0
    success: bool = False
    failures: list[str] = field(default_factory=list)   # readable lines
    seen: int = 0


@dataclass
class Verdict:
    passed: bool
    reason: str                  # one line; "" when passed
    cases: list[Case]            # in the expected order
    unexpected: list[str]        # names of test cases nobody expected
    details: str = ""            # the failed assertions, readable


def _text(el: ET.Element | None) -> str:
    return (el.text or "").strip() if el is not None else ""


def _where(el: ET.Element, strip_prefix: str) -> str:
    f = el.get("filename", "")
    if strip_prefix and f.startswith(strip_prefix):
        f = f[len(strip_prefix):].lstrip("/")
    line = el.get("line", "")
    return f"{f}:{line}" if f else ""


def parse(data: bytes, strip_prefix: str = "") -> dict[str, Case]:
    """{test case name: Case}, or raise ValueError saying why the report is not one."""
    if not data:
        raise ValueError("no report: the program ended before Catch2 wrote one")
    head = data[:4096]
    if b"<!DOCTYPE" in head or b"<!ENTITY" in data:
        raise ValueError("the report is not Catch2's (it declares a document type)")
    try:
        root = ET.fromstring(data)
    except ET.ParseError as e:
        raise ValueError(f"the report is incomplete or not XML ({e})") from None
    if root.tag != "Catch":
        raise ValueError(f"the report is not Catch2's (root element <{root.tag}>)")
    groups = root.findall("Group")
    if len(groups) != 1 or root.find("OverallResults") is None:
        raise ValueError("the report is incomplete (no closing totals)")
    cases = {}
    for tc in groups[0].findall("TestCase"):
        name = tc.get("name", "")
        c = cases.setdefault(name, Case(name))
        c.seen += 1
        told = set()  # an assertion's own exception, shown with the assertion
        for ex in tc.iter("Expression"):
            if ex.get("success") == "true":
                c.passed_assertions += 1
                continue
            c.failed_assertions += 1
            original = _text(ex.find("Original"))
            head = f"{_where(ex, strip_prefix)}: {ex.get('type', 'CHECK')}( {original} )"
            threw = ex.find("Exception")
            if threw is not None:
                # Its expression threw: no values to show, only what it threw.
                told.add(threw)
                c.failures.append(f"{head}\n    threw: {_text(threw)}")
                continue
            expanded = _text(ex.find("Expanded"))
            c.failures.append(head + (f"\n    with expansion: {expanded}"
                                      if expanded and expanded != original else ""))
        for tag in ("Exception", "FatalErrorCondition", "Failure"):
            for el in tc.iter(tag):
                if el in told:
                    continue
                c.failed_assertions += 1
                what = {"Exception": "unexpected exception", "FatalErrorCondition": "fatal error",
                        "Failure": "FAIL"}[tag]
                c.failures.append(f"{_where(el, strip_prefix)}: {what}: {_text(el)}")
        result = tc.find("OverallResult")
        c.success = result is not None and result.get("success") == "true" and c.seen == 1
    return cases


def judge(data: bytes, expected: list[str], exit_status: str | None,
          strip_prefix: str = "") -> Verdict:
    """The verdict on one test set: its report, the expected test case names, and
    how the program ended (a one-line description, or None when it exited 0)."""
    try:
        found = parse(data, strip_prefix)
    except ValueError as e:
        reason = f"the program: {exit_status}; {e}" if exit_status else str(e)
        return Verdict(False, reason, [Case(n) for n in expected], [])
    cases = []
    problems = []
    for name in expected:
        c = found.get(name)
        if c is None:
            cases.append(Case(name))
            problems.append(f"test case \"{name}\" did not run")
            continue
        cases.append(c)
        if c.seen > 1:
            problems.append(f"test case \"{name}\" ran {c.seen} times")
        elif c.passed_assertions + c.failed_assertions == 0:
            problems.append(f"test case \"{name}\" ran no assertion")
        elif c.failed_assertions or not c.success:
            pass  # counted below
    unexpected = [n for n in found if n not in expected]
    failed = [c for c in cases if c.seen == 1 and (c.failed_assertions or not c.success)]
    if failed:
        problems.insert(0, f"{len(failed)} of {len(expected)} test cases failed")
    if unexpected:
        problems.append("unexpected test cases: " + ", ".join(f'"{n}"' for n in unexpected))
    if exit_status and (not problems or not exit_status.startswith("exit status")):
        problems.append(f"the program: {exit_status}")
    details = []
    for c in failed:
        details.append(f"FAILED: {c.name}")
        details += ["  " + line.replace("\n", "\n  ") for line in c.failures[:20]]
        if len(c.failures) > 20:
            details.append(f"  ... and {len(c.failures) - 20} more")
    return Verdict(not problems, "; ".join(problems), cases, unexpected, "\n".join(details))


def passed_count(verdict: Verdict) -> int:
    return sum(1 for c in verdict.cases
               if c.seen == 1 and c.success and not c.failed_assertions and c.passed_assertions)


_SAFE = re.compile(r"[^\t\n\x20-\x7e\u00a0-\uffff]")


def printable(text: str) -> str:
    """Output for a report: control characters shown as escapes, never raw."""
    return _SAFE.sub(lambda m: m.group(0).encode("unicode_escape").decode(), text)
