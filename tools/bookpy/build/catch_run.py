# SPDX-License-Identifier: MIT
"""Run one of the book's Catch2 test programs and judge it from Catch2's report.

    python3 -m bookpy.build.catch_run --test <ctest name> [--source-root DIR] [--skip-code 77] -- PROGRAM

The CTest command of every book_catch_test (cmake/BookCatchTests.cmake). A test
passes only on Catch2's own XML report, read as the grader reads a student's
(tools/grader/catch_report.py), never on an exit status alone:

- the program lists its test cases (--list-test-names-only), and every one of
  them runs once, in the report;
- every test case makes at least one assertion: a test case that returns
  before its first CHECK checks nothing and cannot fail, so it fails here,
  named with its file and line;
- no assertion failed, and the program exited 0.

- with --answers tests/<key>/answers.json: for each question [cy:<qid>] the
  program is tagged with, it read every figure the file gives that question's
  answer (book::test::answer logs each read to $BOOK_ANSWERS_LOG), so no figure
  the page states goes unchecked.

A GPU test's main exits 77 ("skipped: ...") without a GPU; with --skip-code 77
that is passed on as a skip (CTest's SKIP_RETURN_CODE), never as a pass.
Exit status: 0 passed, 1 failed, the skip code when skipped.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

from bookpy.build.cy_tags import cy_ids, split_at_dashes
from grader import catch_report


def where(tc, root):
    """A test case's file (from the source root) and line. A compiler cache may
    have made __FILE__ relative to the build folder (../../tests/x.cpp): the
    path is then found under the source root."""
    f, line = tc.get("filename", ""), tc.get("line", "")
    root = root.rstrip("/")
    if root and f.startswith(root + "/"):
        f = f[len(root) + 1:]
    elif root and not os.path.isabs(f):
        parts = os.path.normpath(f).split(os.sep)
        while parts and parts[0] == "..":
            parts.pop(0)
        if parts and os.path.exists(os.path.join(root, *parts)):
            f = "/".join(parts)
    return f"{f}:{line}" if f else "?"


def unread_answers(path, program, read, name):
    """Errors for each figure of answers.json, of a question this program is
    tagged with, that no test case read."""
    if not path or not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        text = f.read()
    try:
        answers = json.loads(text)
    except json.JSONDecodeError as e:
        return [f"{path}:{e.lineno}: error: malformed JSON: {e.msg}"]
    tags = subprocess.run(program + ["--list-tags"], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT).stdout.decode("utf-8", "replace")
    qids = cy_ids(tags.splitlines())
    out = []
    for qid in sorted(qids & set(answers)):
        start = text.find(f'"{qid}"')
        for key in answers[qid]:
            if (qid, key) in read:
                continue
            at = text.find(f'"{key}"', max(start, 0))
            line = text.count("\n", 0, at) + 1 if at >= 0 else 1
            out.append(f"{path}:{line}: error: the figure '{key}' of the answer to {qid} is read "
                       f"by no test case of test {name} (book::test::answer(\"{qid}\", "
                       f"\"{key}\")): a figure the page states must be the one its test checks")
    return out


def silent_cases(data: bytes, source_root: str, name: str) -> list[str]:
    """Where each test case without an assertion is (its TEST_CASE line), in
    Catch2's XML report data, as an error."""
    silent = []
    try:
        root = ET.fromstring(data) if data else None
    except ET.ParseError:
        root = None
    if root is not None:
        for tc in root.iter("TestCase"):
            if not any(True for _ in tc.iter("Expression")) and not any(
                    True for t in ("Exception", "FatalErrorCondition", "Failure")
                    for _ in tc.iter(t)):
                silent.append(f"{where(tc, source_root)}: error: test case "
                              f"\"{tc.get('name', '')}\" of test {name} made no assertion: "
                              "a test case that checks nothing cannot fail")
    return silent


def main() -> int:
    options, program = split_at_dashes("catch-run", "the program", required=True)
    p = argparse.ArgumentParser(prog="catch-run")
    p.add_argument("--test", required=True)
    p.add_argument("--source-root", default="")
    p.add_argument("--skip-code", type=int)
    p.add_argument("--answers")
    args = p.parse_args(options)
    name = args.test

    listed = subprocess.run(program + ["--list-test-names-only"], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT)
    text = listed.stdout.decode("utf-8", "replace")
    if listed.returncode < 0 or (listed.returncode != 0 and not text.strip()):
        print(text, end="")
        print(f"catch-run: error: test {name}: {program[0]} cannot list its test cases "
              f"(status {listed.returncode})")
        return 1
    expected = [line for line in text.splitlines() if line.strip()]

    with tempfile.TemporaryDirectory(prefix="catch-run.") as tmp:
        report = os.path.join(tmp, "report.xml")
        log = os.path.join(tmp, "answers.log")
        env = dict(os.environ, BOOK_ANSWERS_LOG=log)
        proc = subprocess.run(program + catch_report.CATCH_ARGS + ["-o", report],
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
        try:
            with open(log, encoding="utf-8") as f:
                read = {tuple(line.rstrip("\n").split("\t", 1)) for line in f if "\t" in line}
        except OSError:
            read = set()
        out = proc.stdout.decode("utf-8", "replace")
        print(out, end="" if not out or out.endswith("\n") else "\n")
        if args.skip_code is not None and proc.returncode == args.skip_code \
                and out.lstrip().startswith("skipped"):
            return args.skip_code
        try:
            with open(report, "rb") as f:
                data = f.read()
        except OSError:
            data = b""

    ended = None
    if proc.returncode < 0:
        ended = f"killed by signal {-proc.returncode}"
    elif proc.returncode:
        ended = f"exit status {proc.returncode}"
    if not expected:
        print(f"catch-run: error: test {name}: {program[0]} lists no test case: a test that "
              "runs nothing cannot fail")
        return 1
    verdict = catch_report.judge(data, expected, ended, strip_prefix=args.source_root)
    silent = silent_cases(data, args.source_root, name)
    for line in silent:
        print(line)
    if verdict.details:
        print(verdict.details)
    unread = unread_answers(args.answers, program, read, name) if verdict.passed else []
    for line in unread:
        print(line)
    if verdict.passed and unread:
        print(f"catch-run: test {name} failed: {len(unread)} figures its answers state are "
              "read by none of its test cases")
        return 1
    cases = len(verdict.cases)
    if verdict.passed:
        print(f"catch-run: test {name}: {cases} test cases, "
              f"{sum(c.passed_assertions for c in verdict.cases)} assertions, all passed "
              "(Catch2's report)")
        return 0
    print(f"catch-run: test {name} failed: {verdict.reason}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
