# SPDX-License-Identifier: MIT
"""What a grading writes: Gradescope's results.json, a JUnit file, a table.

results.json follows Gradescope's autograder specification
(https://gradescope-autograders.readthedocs.io/en/latest/specs/): top-level
score, execution_time, output, output_format, stdout_visibility, and one entry
in tests[] per test set, each with name, score, max_score, status (passed or
failed), output, output_format and visibility. While hidden sets are hidden,
the top-level output tells no total (gradescope() says what it does tell). A
set that did not build has "(did not build)" in its name; one that could not
run here "(not run here)" and max_score 0; the total maximum and what was left
out are in extra_data.

The JUnit file has one test case per exercise test set: a failure is a
<failure>, a set that did not compile or link an <error>, a set left out a
<skipped> with its reason; the suite is named after the submission.
"""
from __future__ import annotations

import json
import os
import tempfile
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # for the hints only: grading imports nothing from here
    from .grading import ExerciseResult, GradeResult, SetResult

STATUS_WORD = {"passed": "passed", "failed": "failed", "error": "did not build",
               "left out": "left out"}


NOTE_SHOWN = 2000  # characters of one note (a set's, an exercise's, a submission's) kept


def clip_note(text: str, limit: int = NOTE_SHOWN) -> str:
    """A note as the reports carry it: at most `limit` characters."""
    text = str(text)
    return text if len(text) <= limit else text[:limit - 20] + f" [... {len(text) - limit + 20} cut]"


def write_atomically(path: str | os.PathLike, text: str) -> None:
    """Write a file so that no reader ever sees half of it, and nothing half-written
    is left behind when it cannot be written."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def clipped(result: GradeResult) -> GradeResult:
    """The result with every note cut to NOTE_SHOWN characters (in place)."""
    result.error = clip_note(result.error)
    result.notes = [clip_note(n) for n in result.notes[:100]]
    for e in result.exercises:
        e.notes = [clip_note(n) for n in e.notes[:100]]
        e.build = clip_note(e.build)
        for s in e.sets:
            s.note = clip_note(s.note)
    return result


def set_title(e: ExerciseResult, s: SetResult) -> str:
    return f"{e.id} [{s.name} tests]: {e.title}"


def gradescope(result: GradeResult, hidden_visibility: str = "hidden", policy: str = "") -> dict:
    """Gradescope's results.json. While a hidden set is hidden from students
    (hidden_visibility not "visible"), nothing at the top level tells its outcome:
    the top-level output names no total and no count (Gradescope itself hides the
    total score while a test is hidden). A set that did not build says so in its
    name and its first line of output; a set that could not run here is listed
    with its reason and no points (max_score 0), and the policy that chose that
    (--without-gpu) is stated at the top."""
    tests = []
    left = []
    hiding = any(s.hidden for e in result.exercises for s in e.sets) and hidden_visibility != "visible"
    for e in result.exercises:
        for s in e.sets:
            name = set_title(e, s)
            if s.status == "error":
                name += " (missing)" if s.missing else " (did not build)"
            elif s.status == "left out":
                name += " (not run here)"
                left.append(f"{e.id} [{s.name} tests], {s.points} points: {s.note}")
            tests.append({
                "name": name,
                "score": s.score,
                "max_score": 0 if s.status == "left out" else s.points,
                "status": "passed" if s.status == "passed" else "failed",
                "output": s.output or s.note,
                "output_format": "text",
                "visibility": hidden_visibility if s.hidden else "visible",
            })
    lines = []
    if not hiding:
        lines.append(f"{result.score} of {result.max_score} points.")
    if result.seed:
        lines.append(f"Inputs drawn from seed {result.seed} (tools/grade --seed {result.seed} "
                     "repeats this grading).")
    if result.error:
        lines.append(f"The submission could not be read: {result.error}")
    if policy:
        lines.append(policy)
    if left:
        lines.append(f"Not run here, and out of this grade's maximum ({result.max_score} points; "
                     "set the assignment's total to match, or Gradescope counts them as zero):")
        lines += [f"  {x}" for x in left]
    for e in result.exercises:
        for n in e.notes:
            lines.append(f"{e.id}: {n}")
    lines += result.notes
    return {
        "score": result.score,
        "execution_time": round(result.execution_time),
        "output": "\n".join(lines),
        "output_format": "text",
        "stdout_visibility": "hidden",
        "tests": tests,
        "extra_data": {"max_score": result.max_score, "left_out_points": result.left_out,
                       "left_out": left, "seed": result.seed},
    }


def junit(result: GradeResult) -> str:
    suite = ET.Element("testsuite", name=f"tools/grade: {result.name}")
    if result.seed:
        ET.SubElement(ET.SubElement(suite, "properties"), "property", name="seed",
                      value=str(result.seed))
    counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for e in result.exercises:
        for s in e.sets:
            counts["tests"] += 1
            tc = ET.SubElement(suite, "testcase", classname=e.id, name=f"{s.name} tests",
                               time=f"{s.wall:.2f}")
            if s.status == "passed":
                pass
            elif s.status == "left out":
                counts["skipped"] += 1
                ET.SubElement(tc, "skipped", message=s.note)
            elif s.status == "error":
                counts["errors"] += 1
                el = ET.SubElement(tc, "error", message=s.note or "did not build")
                el.text = s.output
            else:
                counts["failures"] += 1
                el = ET.SubElement(tc, "failure", message=s.note or "failed")
                el.text = s.output
            ET.SubElement(tc, "system-out").text = (
                f"left out of the maximum score ({s.points} points)" if s.status == "left out"
                else f"{s.score} of {s.points} points")
    for k, v in counts.items():
        suite.set(k, str(v))
    suite.set("time", f"{result.execution_time:.1f}")
    suites = ET.Element("testsuites", name="tools/grade")
    suites.append(suite)
    ET.indent(suites)
    return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


def table(result: GradeResult) -> str:
    rows = []
    for e in result.exercises:
        for s in e.sets:
            status = STATUS_WORD[s.status]
            if s.status == "error":
                status = s.note or status  # "missing: ..." for a file not handed in
            elif s.status == "passed":
                status += f" ({len(s.tests)}/{len(s.tests)} cases)"
            elif s.status == "failed" and s.note:
                status += f": {s.note}"
            elif s.note and s.note != status:
                status += f": {s.note}"
            points = f"- / {s.points}" if s.status == "left out" else f"{s.score} / {s.points}"
            rows.append((e.id, s.name, status, points))
    w0 = max([len("exercise")] + [len(r[0]) for r in rows])
    w1 = max([len("tests")] + [len(r[1]) for r in rows])
    lines = [f"Grades for {result.name} ({result.source})"
             + (f", inputs drawn from seed {result.seed}" if result.seed else "")]
    if result.error:
        lines.append(f"  the submission could not be read: {result.error}")
    lines.append(f"{'exercise':<{w0}}  {'tests':<{w1}}  {'points':>9}  status")
    for r in rows:
        status = r[2] if len(r[2]) <= 110 else r[2][:107] + "..."
        lines.append(f"{r[0]:<{w0}}  {r[1]:<{w1}}  {r[3]:>9}  {status}")
    total = f"{result.score} / {result.max_score}"
    lines.append(f"{'total':<{w0}}  {'':<{w1}}  {total:>9}"
                 + (f"  ({result.left_out} points left out: their tests could not run here)"
                    if result.left_out else ""))
    for e in result.exercises:
        for n in e.notes:
            lines.append(f"note: {e.id}: {n}")
    for n in result.notes:
        lines.append(f"note: {n}")
    return "\n".join(lines) + "\n"


def write_all(result: GradeResult, out: str | os.PathLike, hidden_visibility: str,
              policy: str = "") -> str:
    out = Path(out)
    clipped(result)
    write_atomically(out / "results.json",
                     json.dumps(gradescope(result, hidden_visibility, policy), indent=2) + "\n")
    write_atomically(out / "junit.xml", junit(result))
    text = table(result)
    write_atomically(out / "table.txt", text)
    logs = []
    for e in result.exercises:
        if e.build_log:
            logs.append(f"===== {e.id}\n{e.build_log}")
    write_atomically(out / "build.log", "\n".join(logs) + "\n")
    return text
