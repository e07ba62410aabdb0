# SPDX-License-Identifier: MIT
"""A class of submissions: who handed each in (a roster, Gradescope's metadata),
shares of a batch graded on several machines and their merge, and what a batch
writes about the class as a whole.

A batch's class summary is written by write_summary() alone, from the class's
records, whether they were graded in one batch or in shards merged afterwards
(merge()): the same records give the same files, byte for byte.

    summary.json    every record (scores per test set, seed, identity), the
                    statistics, what the roster did not match
    summary.csv     one row per submission: identity, total, each set's score
    summary.txt     the table printed, the statistics, the roster's notes
    statistics.csv  per test set: points, graded, passed, pass rate, mean, median
    gradebook.csv   one row per student, for Canvas or Moodle to import

The roster (--roster FILE) is a CSV file with a header row; its columns
(any order; others are ignored; names are matched without case):
    student   the name of the student's folder or archive in the batch folder
              (with or without the archive's suffix)
    id        the student's ID (Canvas: SIS User ID; Moodle: ID number)
    email     the student's email address
    name      the student's name as the gradebook shows it
    login     the student's login (Canvas: SIS Login ID; default: the email)
    section   the student's section (Canvas: Section)
Each row needs a student, an id or an email. A submission is matched to the
roster by its folder's name (student), else by the ID or email that Gradescope's
metadata gives for it.

Gradescope's "Download submissions" export holds submission_metadata.yml beside
the submission folders: for each folder, its submitters' names, student IDs
(:sid:) and emails. Read only from the batch folder, never from inside a
student's folder, which the student wrote and which could claim anyone's ID.

Shards: the batch folder's entries, in the order the batch grades them (sorted
by name), are dealt round-robin: entry i (from 0) goes to shard i mod N + 1.
Every shard must see the same folder; the merge checks that the shards name
the same class and together hold each of its submissions once.
"""
from __future__ import annotations

import csv
import io
import json
import re
import shutil
import statistics
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from . import reports

FORMAT = 1                         # of summary.json
METADATA = "submission_metadata.yml"
ROSTER_COLUMNS = ("student", "id", "email", "name", "login", "section")
ROSTER_ALIASES = {"folder": "student", "submission": "student", "sid": "id", "student id": "id",
                  "student_id": "id", "e-mail": "email", "email address": "email",
                  "full name": "name"}
MAX_ROSTER_BYTES = 16 << 20        # of a roster
MAX_ROSTER_ROWS = 100_000
MAX_FIELD = 256                    # characters of one roster field
MAX_METADATA_BYTES = 64 << 20      # of Gradescope's metadata (it holds every result, too)
MAX_SUMMARY_BYTES = 256 << 20      # of a shard's summary.json
MAX_SHARDS = 10_000
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet may run as a formula
SAFE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


class CourseError(Exception):
    """Bad input to the class's tools: the message names the file (and line)."""


@dataclass
class Person:
    student: str = ""   # the roster's folder name
    id: str = ""
    email: str = ""
    name: str = ""
    login: str = ""
    section: str = ""
    origin: str = ""    # where it was read: "roster.csv:3", "submission_metadata.yml"

    def keys(self) -> list[str]:
        """What identifies this person in a gradebook (the same person, the same keys)."""
        return ([f"id {self.id}"] if self.id else []) + \
               ([f"email {self.email.lower()}"] if self.email else [])

    def all_keys(self) -> list[str]:
        """keys(), or the roster's folder name for a row that has neither ID nor email."""
        return self.keys() or [f"student {self.student or self.name}"]

    def label(self) -> str:
        return self.name or self.id or self.email or self.student


def cell(value: Any) -> str:
    """A CSV cell that no spreadsheet runs as a formula: text that begins as one
    does is kept as text (a leading apostrophe)."""
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_START) else text


def _printable(text: str) -> bool:
    return all(ch.isprintable() for ch in text)


def _read_text(path: Path, limit: int, what: str) -> str:
    """A file's text (UTF-8, a BOM allowed), at most `limit` bytes, or a CourseError
    naming the file and the line of the first byte that is not UTF-8."""
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as e:
        raise CourseError(f"{path}: cannot read the {what}: {e.strerror or e}") from e
    if len(data) > limit:
        raise CourseError(f"{path}: the {what} is larger than {limit >> 20} MiB")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[:e.start].count(b"\n") + 1
        raise CourseError(f"{path}:{line}: the {what} is not UTF-8 text") from e


# -- the roster ---------------------------------------------------------------------
def read_roster(path: str | Path) -> list[Person]:
    """The roster's people, in its order; a CourseError names the file and line of
    the first thing wrong with it."""
    path = Path(path)
    text = _read_text(path, MAX_ROSTER_BYTES, "roster")
    reader = csv.reader(io.StringIO(text, newline=""))
    header: list[str] | None = None
    people: list[Person] = []
    seen: dict[str, int] = {}
    try:
        for row in reader:
            line = reader.line_num
            if not any(f.strip() for f in row):
                continue
            if header is None:
                header = [ROSTER_ALIASES.get(f.strip().lower(), f.strip().lower()) for f in row]
                known = [h for h in header if h in ROSTER_COLUMNS]
                if not {"student", "id", "email"} & set(known):
                    hint = (" (it looks separated by ';': the roster is comma-separated)"
                            if len(row) == 1 and ";" in row[0] else "")
                    raise CourseError(f"{path}:{line}: the header names no column student, id or "
                                      f"email (columns: {', '.join(ROSTER_COLUMNS)}){hint}")
                for h in known:
                    if known.count(h) > 1:
                        raise CourseError(f"{path}:{line}: the header names the column {h} twice")
                continue
            if len(row) != len(header):
                raise CourseError(f"{path}:{line}: {len(row)} fields, where the header has "
                                  f"{len(header)}")
            if len(people) >= MAX_ROSTER_ROWS:
                raise CourseError(f"{path}:{line}: more than {MAX_ROSTER_ROWS} students")
            p = Person(origin=f"{path.name}:{line}")
            for h, value in zip(header, row):
                if h not in ROSTER_COLUMNS:
                    continue
                value = value.strip()
                if len(value) > MAX_FIELD:
                    raise CourseError(f"{path}:{line}: the {h} is longer than {MAX_FIELD} characters")
                if not _printable(value):
                    raise CourseError(f"{path}:{line}: the {h} holds a control character")
                if h in ("id", "email", "login") and value.startswith(FORMULA_START):
                    raise CourseError(f"{path}:{line}: the {h} {value!r} begins with "
                                      f"{value[0]!r}, as a spreadsheet formula does")
                setattr(p, h, value)
            if not (p.student or p.id or p.email):
                raise CourseError(f"{path}:{line}: no student, id or email")
            if p.email and not re.fullmatch(r"[^@\s]+@[^@\s]+", p.email):
                raise CourseError(f"{path}:{line}: {p.email!r} is no email address")
            for key in ([f"student {p.student}"] if p.student else []) + p.keys():
                if key in seen:
                    raise CourseError(f"{path}:{line}: the {key.split(' ')[0]} "
                                      f"{key.split(' ', 1)[1]!r} is also on line {seen[key]}")
                seen[key] = line
            people.append(p)
    except csv.Error as e:
        raise CourseError(f"{path}:{reader.line_num}: {e}") from e
    if header is None:
        raise CourseError(f"{path}:1: the roster is empty (it needs a header row: "
                          f"{','.join(ROSTER_COLUMNS)})")
    return people


# -- Gradescope's metadata ----------------------------------------------------------
def _yaml_loader():
    import yaml  # Debian's python3-yaml; only a batch folder with the metadata needs it
    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    class Loader(base):  # type: ignore[misc, valid-type]
        """YAML's safe subset, where a tag no safe loader knows (Ruby's
        !ruby/object:BigDecimal, which Gradescope writes for scores) is read as
        the plain value it tags."""

    def plain(loader, suffix, node):
        if isinstance(node, yaml.MappingNode):
            return loader.construct_mapping(node)
        if isinstance(node, yaml.SequenceNode):
            return loader.construct_sequence(node)
        return loader.construct_scalar(node)

    Loader.add_multi_constructor("!", plain)
    Loader.add_multi_constructor("tag:yaml.org,2002:", plain)
    return yaml, Loader


def _text(value: Any) -> str:
    if isinstance(value, (str, int)) and not isinstance(value, bool):
        text = str(value).strip()
        if len(text) <= MAX_FIELD and _printable(text):
            return text
    return ""


METADATA_SECONDS = 120             # to read Gradescope's metadata
METADATA_MEMORY = 4 << 30          # address space of the process that reads it


def read_metadata(path: str | Path) -> dict[str, list[Person]]:
    """Gradescope's submission_metadata.yml: {submission folder: its submitters}.
    A CourseError names the file and line where it is no YAML or not that file;
    an entry of another shape gives no one (its submission is reported unmatched).
    The YAML is read in a process of its own, with a time and a memory limit:
    libyaml crashes on a document nested a few hundred thousand levels deep, and
    takes minutes on one nested a hundred thousand."""
    import resource
    import subprocess
    import sys

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (METADATA_MEMORY, METADATA_MEMORY))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))

    env = {"PYTHONPATH": str(Path(__file__).resolve().parents[1]), "PYTHONDONTWRITEBYTECODE": "1",
           "PATH": "/usr/bin:/bin"}
    try:
        p = subprocess.run([sys.executable, "-B", "-c",
                            "import sys; from grader.course import _metadata_child as m; m(sys.argv[1])",
                            str(path)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           env=env, preexec_fn=limit, timeout=METADATA_SECONDS)
    except subprocess.TimeoutExpired as e:
        raise CourseError(f"{path}: reading it took longer than {METADATA_SECONDS} s "
                          "(no Gradescope metadata does)") from e
    if p.returncode != 0:
        why = (p.stderr.decode(errors="replace").strip().splitlines() or ["no message"])[-1]
        raise CourseError(f"{path}: it could not be read (the reader ended with status "
                          f"{p.returncode}: {why[:300]})")
    answer = json.loads(p.stdout)
    if "error" in answer:
        raise CourseError(answer["error"])
    return {k: [Person(**x) for x in v] for k, v in answer["found"].items()}


def _metadata_child(path: str) -> None:
    """The reading process of read_metadata: its answer as JSON on stdout."""
    import sys
    try:
        found = _parse_metadata(Path(path))
        sys.stdout.write(json.dumps({"found": {k: [asdict(p) for p in v] for k, v in found.items()}}))
    except CourseError as e:
        sys.stdout.write(json.dumps({"error": str(e)}))


def _field(submitter: dict, key: str) -> str:
    """A submitter's field (Gradescope writes :sid:, with Ruby's colon), or "" where
    it is no short printable text or begins as a spreadsheet formula."""
    value = _text(submitter.get(f":{key}", submitter.get(key)))
    return "" if value.startswith(FORMULA_START) else value


def _parse_metadata(path: Path) -> dict[str, list[Person]]:
    text = _read_text(path, MAX_METADATA_BYTES, "Gradescope metadata")
    yaml, loader = _yaml_loader()
    try:
        data = yaml.load(text, Loader=loader)  # noqa: S506 (a safe loader)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
        line = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(e, "problem", None) or str(e).splitlines()[0]
        raise CourseError(f"{path}{line}: not YAML: {problem}") from e
    except RecursionError as e:
        raise CourseError(f"{path}: nested too deeply to be Gradescope's metadata") from e
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise CourseError(f"{path}:1: not Gradescope's {METADATA} (its top level is no mapping "
                          "of submission folders)")
    found: dict[str, list[Person]] = {}
    for folder, entry in data.items():
        folder = _text(folder)
        if not folder or not isinstance(entry, dict):
            continue
        submitters = entry.get(":submitters", entry.get("submitters"))
        people = []
        for s in submitters[:100] if isinstance(submitters, list) else []:
            if not isinstance(s, dict):
                continue
            p = Person(id=_field(s, "sid"), email=_field(s, "email"), name=_field(s, "name"),
                       origin=METADATA)
            if p.email and not re.fullmatch(r"[^@\s]+@[^@\s]+", p.email):
                p.email = ""
            if p.id or p.email:
                people.append(p)
        found[folder] = people
    return found


# -- who handed in what -------------------------------------------------------------
def identify(records: list[dict], roster: list[Person] | None) -> None:
    """Each record's people (in place): the roster's row of its folder; else, for
    each submitter Gradescope's metadata names, the roster's row of the same ID
    or email, or the submitter as the metadata gives them."""
    by_student: dict[str, Person] = {}
    by_key: dict[str, Person] = {}
    for p in roster or []:
        if p.student:
            by_student[p.student] = p
        for k in p.keys():
            by_key[k] = p
    for rec in records:
        names = [rec["source"], _stem(rec["source"]), rec["student"]]
        row = next((by_student[n] for n in names if n in by_student), None)
        if row is not None:
            rec["people"] = [asdict(row)]
            continue
        people = []
        for s in rec.get("submitters", []):
            s = Person(**s)
            match = next((by_key[k] for k in s.keys() if k in by_key), None)
            people.append(asdict(match if match is not None else s))
        rec["people"] = people


def _stem(name: str) -> str:
    from .submission import submission_name
    return submission_name(Path(name))


# -- shards -------------------------------------------------------------------------
def parse_shard(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"(\d{1,6})/(\d{1,6})", text.strip())
    if not m or not 1 <= int(m.group(1)) <= int(m.group(2)) <= MAX_SHARDS:
        raise ValueError(f"--shard takes K/N, 1 <= K <= N <= {MAX_SHARDS} (got {text!r})")
    return int(m.group(1)), int(m.group(2))


def in_shard(index: int, shard: tuple[int, int] | None) -> bool:
    """Entry `index` (from 0, in the batch's order) belongs to shard K of N."""
    return shard is None or index % shard[1] == shard[0] - 1


# -- the records --------------------------------------------------------------------
def record(name: str, source: str, result: Any, error: str) -> dict:
    """One submission's line of the class summary (result: a GradeResult, or None
    where it could not be graded)."""
    rec = {"student": name, "source": source, "score": None, "max_score": None,
           "left_out": None, "seed": None, "error": error, "sets": {}}
    if result is not None:
        rec.update(score=result.score, max_score=result.max_score, left_out=result.left_out,
                   seed=result.seed)
        if result.error:
            rec["error"] = "unreadable: " + result.error
        for e in result.exercises:
            for s in e.sets:
                status = "missing" if s.missing else s.status
                rec["sets"][f"{e.id} {s.name}"] = {"status": status, "score": s.score,
                                                   "points": s.points}
                if getattr(s, "speed", None):  # a speed line: its ratio, for the ranking
                    rec["sets"][f"{e.id} {s.name}"]["ratio"] = s.speed.get("ratio")
    return rec


def statistics_of(sets: list[dict], records: list[dict]) -> dict:
    """Per test set, over the submissions graded where the set ran (a submission
    that could not be read counts, with no points; one that could not be graded,
    or a set left out of its maximum, does not): how many, how many passed, the
    pass rate, the mean and the median score; and the same of the totals."""
    out = []
    for s in sets:
        key = f"{s['exercise']} {s['set']}"
        cells = [r["sets"][key] for r in records if r["score"] is not None and key in r["sets"]
                 and r["sets"][key]["status"] != "left out"]
        scores = [c["score"] for c in cells]
        passed = sum(1 for c in cells if c["status"] == "passed")
        out.append({"exercise": s["exercise"], "set": s["set"], "points": s["points"],
                    "graded": len(cells), "passed": passed,
                    "pass_rate": round(passed / len(cells), 4) if cells else None,
                    "mean": round(float(statistics.mean(scores)), 2) if scores else None,
                    "median": float(statistics.median(scores)) if scores else None})
    totals = [r["score"] for r in records if r["score"] is not None]
    maxima = sorted({r["max_score"] for r in records if r["score"] is not None})
    total = {"graded": len(totals), "max_score": maxima,
             "mean": round(float(statistics.mean(totals)), 2) if totals else None,
             "median": float(statistics.median(totals)) if totals else None}
    return {"sets": out, "total": total}


def class_notes(records: list[dict], roster: list[Person] | None, identified: bool) -> dict:
    """What the roster and the metadata left unmatched. identified: a roster or
    Gradescope's metadata was given (without either, nobody is reported)."""
    graded = [r for r in records]
    notes: dict[str, list] = {"not_on_roster": [], "unidentified": [], "absent": [],
                              "twice": []}
    if not identified:
        return notes
    for r in graded:
        if not r["people"]:
            notes["unidentified"].append(r["student"])
        if roster is not None and not any(p["origin"] != METADATA for p in r["people"]):
            notes["not_on_roster"].append(r["student"])
    owners: dict[str, list[str]] = {}
    for r in graded:
        for p in r["people"]:
            for k in Person(**p).all_keys():
                if r["student"] not in owners.setdefault(k, []):
                    owners[k].append(r["student"])
    notes["twice"] = [{"key": k, "students": v} for k, v in owners.items() if len(v) > 1]
    matched = {json.dumps(p, sort_keys=True) for r in graded for p in r["people"]}
    notes["absent"] = [p.label() for p in roster or []
                       if json.dumps(asdict(p), sort_keys=True) not in matched]
    return notes


# -- writing the summary ------------------------------------------------------------
def summary_doc(sets: list[dict], records: list[dict], roster: list[Person] | None,
                roster_file: str, metadata: bool, assignment: str,
                shard: dict | None = None) -> dict:
    doc = {"format": FORMAT, "assignment": assignment, "sets": sets,
           "roster": None if roster is None else {"file": roster_file,
                                                  "people": [asdict(p) for p in roster]},
           "gradescope_metadata": metadata, "submissions": records}
    if shard is not None:
        doc["shard"] = shard
    return doc


def write_summary(out: Path, doc: dict) -> str:
    """Write the class summary of `doc` (summary_doc) into `out`; return its text."""
    sets, records = doc["sets"], doc["submissions"]
    roster = None if doc["roster"] is None else [Person(**p) for p in doc["roster"]["people"]]
    identified = roster is not None or doc["gradescope_metadata"]
    doc = dict(doc, statistics=statistics_of(sets, records),
               notes=class_notes(records, roster, identified))
    reports.write_atomically(out / "summary.json", json.dumps(doc, indent=2) + "\n")
    keys = [f"{s['exercise']} {s['set']}" for s in sets]

    def joined(rec: dict, field: str) -> str:
        return "; ".join(p[field] for p in rec["people"] if p[field])

    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["student", "source", "id", "email", "score", "max_score", "left_out"] + keys
               + ["seed", "error"])
    for r in records:
        w.writerow([cell(r["student"]), cell(r["source"]), cell(joined(r, "id")),
                    cell(joined(r, "email")), r["score"], r["max_score"], r["left_out"]]
                   + [r["sets"].get(k, {}).get("score", "") for k in keys]
                   + [r["seed"] or "", cell(r["error"])])
    reports.write_atomically(out / "summary.csv", buf.getvalue())

    stats = doc["statistics"]
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["exercise", "set", "points", "graded", "passed", "pass_rate", "mean", "median"])
    for s in stats["sets"]:
        w.writerow([s["exercise"], s["set"], s["points"], s["graded"], s["passed"],
                    "" if s["pass_rate"] is None else s["pass_rate"],
                    "" if s["mean"] is None else s["mean"],
                    "" if s["median"] is None else s["median"]])
    t = stats["total"]
    w.writerow(["total", "", "/".join(map(str, t["max_score"])), t["graded"], "", "",
                "" if t["mean"] is None else t["mean"], "" if t["median"] is None else t["median"]])
    reports.write_atomically(out / "statistics.csv", buf.getvalue())

    reports.write_atomically(out / "gradebook.csv", gradebook(records, doc["assignment"], identified))
    text = summary_text(doc, identified)
    reports.write_atomically(out / "summary.txt", text)
    return text


GRADEBOOK_COLUMNS = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]


def gradebook(records: list[dict], assignment: str, identified: bool) -> str:
    """gradebook.csv: Canvas's import columns (Student, ID, SIS User ID, SIS Login
    ID, Section, then the assignment's column), one row per student of each
    graded submission (each member of a Gradescope group). With a roster or the
    metadata, a submission matched to no one is left out, and so is a student
    matched to two submissions (the summary names both); without either, a row
    names the submission's folder alone."""
    twice = {k for n in class_notes(records, None, identified)["twice"] for k in [n["key"]]}
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(GRADEBOOK_COLUMNS + [cell(assignment)])
    for r in records:
        people = [Person(**p) for p in r["people"]]
        if not people and not identified:
            people = [Person(name=r["student"])]
        for p in people:
            if any(k in twice for k in p.all_keys()):
                continue
            w.writerow([cell(p.name or r["student"]), "", cell(p.id), cell(p.login or p.email),
                        cell(p.section), "" if r["score"] is None else r["score"]])
    return buf.getvalue()


def summary_text(doc: dict, identified: bool) -> str:
    sets, records = doc["sets"], doc["submissions"]
    keys = [f"{s['exercise']} {s['set']}" for s in sets]
    width = max([len("student")] + [len(r["student"]) for r in records])
    columns = ", ".join(f"{s['exercise'].split('/')[-1]} {s['set']}" for s in sets)
    shard = doc.get("shard")
    head = (f"Class summary ({len(records)} submissions)" if shard is None else
            f"Class summary, shard {shard['index']} of {shard['count']} ({len(records)} of "
            f"{len(shard['class'])} submissions; tools/grade --merge gives the class's)")
    lines = [head, f"{'student':<{width}}  {'score':>9}  per test set: {columns}"]
    for r in records:
        who = "; ".join(p["id"] or p["email"] for p in r["people"])
        who = f"  [{who}]" if who else ""
        if r["score"] is None:
            lines.append(f"{r['student']:<{width}}  {'-':>9}  NOT GRADED: {r['error']}{who}")
            continue
        cells = []
        for k in keys:
            c = r["sets"].get(k)
            cells.append("-" if c is None else "n/a" if c["status"] == "left out"
                         else f"{c['score']}/{c['points']}")
        score = f"{r['score']} / {r['max_score']}"
        lines.append(f"{r['student']:<{width}}  {score:>9}  {'  '.join(cells)}  seed {r['seed']}"
                     + (f"  ({r['error']})" if r["error"] else "") + who)
    stats = doc["statistics"]
    lines += ["", "Per test set (of the submissions graded where it ran):"]
    w0 = max([len("test set")] + [len(k) for k in keys])
    lines.append(f"{'test set':<{w0}}  {'points':>6}  {'graded':>6}  {'passed':>6}  "
                 f"{'pass rate':>9}  {'mean':>7}  {'median':>7}")
    for s in stats["sets"]:
        rate = "-" if s["pass_rate"] is None else f"{100 * s['pass_rate']:.0f}%"
        mean = "-" if s["mean"] is None else f"{s['mean']:.2f}"
        median = "-" if s["median"] is None else f"{s['median']:g}"
        lines.append(f"{s['exercise'] + ' ' + s['set']:<{w0}}  {s['points']:>6}  {s['graded']:>6}  "
                     f"{s['passed']:>6}  {rate:>9}  {mean:>7}  {median:>7}")
    t = stats["total"]
    mean = "-" if t["mean"] is None else f"{t['mean']:.2f}"
    median = "-" if t["median"] is None else f"{t['median']:g}"
    maxima = "/".join(map(str, t["max_score"])) or "-"
    lines.append(f"{'total':<{w0}}  {maxima:>6}  {t['graded']:>6}  {'':>6}  {'':>9}  {mean:>7}  "
                 f"{median:>7}")
    lines += speed_ranking(sets, records)
    notes = doc["notes"]
    lines.append("")
    if not identified:
        lines.append("No roster and no Gradescope metadata: students are named by folder, and "
                     "gradebook.csv by folder alone (--roster FILE gives IDs and emails).")
    if notes["not_on_roster"]:
        lines.append(f"Not on the roster ({len(notes['not_on_roster'])}): "
                     + ", ".join(notes["not_on_roster"]))
    if notes["unidentified"]:
        lines.append(f"Matched to no student, left out of gradebook.csv "
                     f"({len(notes['unidentified'])}): " + ", ".join(notes["unidentified"]))
    for t in notes["twice"]:
        lines.append(f"The {t['key']} has several submissions ({', '.join(t['students'])}): "
                     "left out of gradebook.csv; keep one submission")
    if notes["absent"]:
        lines.append(f"On the roster, no submission ({len(notes['absent'])}): "
                     + ", ".join(notes["absent"]))
    return "\n".join(lines).rstrip("\n") + "\n"


def speed_ranking(sets: list[dict], records: list[dict]) -> list[str]:
    """The class ranked by speed, per exercise with speed points (a leaderboard for
    instructors who want one): the ratio of the reference's time to the student's,
    highest first; a submission that was not timed (a test set failed: correctness
    is a gate) is listed after, unranked."""
    lines = []
    for s in sets:
        if s["set"] != "speed":
            continue
        key = f"{s['exercise']} speed"
        timed = [(r["sets"][key]["ratio"], r) for r in records if r["score"] is not None and
                 key in r["sets"] and isinstance(r["sets"][key].get("ratio"), (int, float))
                 and r["sets"][key]["ratio"] > 0]
        timed.sort(key=lambda x: -x[0])
        lines += ["", f"Ranked by speed, {s['exercise']} (ratio: the reference's time over the "
                      "student's; above 1, faster than the reference):"]
        for n, (ratio, r) in enumerate(timed, 1):
            c = r["sets"][key]
            lines.append(f"  {n:>3}. {r['student']}  ratio {ratio:.3f}  {c['score']}/{c['points']}")
        untimed = [r["student"] for r in records if all(r is not t[1] for t in timed)]
        if untimed:
            lines.append("  not timed (a test set did not pass, or not graded): " + ", ".join(untimed))
    return lines


# -- merging shards -----------------------------------------------------------------
def _is_person(d: Any) -> bool:
    names = set(Person.__dataclass_fields__)
    return isinstance(d, dict) and set(d) == names and all(isinstance(v, str) for v in d.values())


def _load_shard(folder: Path) -> dict:
    path = folder / "summary.json"
    text = _read_text(path, MAX_SUMMARY_BYTES, "class summary")
    try:
        doc = json.loads(text)
    except ValueError as e:
        raise CourseError(f"{path}:{getattr(e, 'lineno', 1)}: not JSON: "
                          f"{getattr(e, 'msg', e)}") from e
    where = str(path)
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise CourseError(f"{where}: not a class summary of format {FORMAT} "
                          "(written by another tools/grade?)")
    shard = doc.get("shard")
    if not isinstance(shard, dict):
        raise CourseError(f"{where}: not a shard's summary (no shard: graded without --shard)")
    try:
        ok = (isinstance(shard["index"], int) and isinstance(shard["count"], int)
              and 1 <= shard["index"] <= shard["count"] <= MAX_SHARDS
              and isinstance(shard["class"], list)
              and all(isinstance(n, str) and SAFE_NAME.fullmatch(n) for n in shard["class"])
              and isinstance(doc["sets"], list) and isinstance(doc["submissions"], list)
              and isinstance(doc["assignment"], str)
              and isinstance(doc["gradescope_metadata"], bool))
        for s in doc["sets"]:
            ok = ok and isinstance(s, dict) and isinstance(s["exercise"], str) \
                and isinstance(s["set"], str) and isinstance(s["points"], int)
        if doc["roster"] is not None:
            ok = ok and isinstance(doc["roster"]["file"], str) \
                and all(_is_person(p) for p in doc["roster"]["people"])
        for r in doc["submissions"]:
            ok = ok and isinstance(r, dict) and r["student"] in shard["class"] \
                and isinstance(r["source"], str) and isinstance(r["sets"], dict) \
                and isinstance(r["people"], list) and isinstance(r["error"], str) \
                and all(isinstance(v, (int, type(None))) and not isinstance(v, bool)
                        for v in (r["score"], r["max_score"], r["left_out"], r["seed"]))
            ok = ok and all(_is_person(p) for p in r["people"] + r.get("submitters", []))
            for c in r["sets"].values():
                ok = ok and isinstance(c, dict) and isinstance(c["status"], str) \
                    and isinstance(c["score"], int) and isinstance(c["points"], int)
    except (KeyError, TypeError) as e:
        raise CourseError(f"{where}: not a shard's summary (bad or missing {e})") from e
    if not ok:
        raise CourseError(f"{where}: not a shard's summary (a field of the wrong kind)")
    return doc


def merge(folders: list[Path], out: Path, roster: list[Person] | None,
          roster_file: str) -> tuple[str, int]:
    """Merge shards' results folders into `out`: the per-student folders copied, the
    class summary written as one batch of the whole class writes it. Returns the
    summary's text and the number of submissions not graded or unreadable."""
    if not folders:
        raise CourseError("--merge names no folder")
    docs = []
    for f in folders:
        if f.resolve() == out.resolve():
            raise CourseError(f"--merge {f}: the merge's --out is one of the shards")
        docs.append((f, _load_shard(f)))
    first_f, first = docs[0]
    count, klass = first["shard"]["count"], first["shard"]["class"]
    seen: dict[int, Path] = {}
    for f, d in docs:
        s = d["shard"]
        if s["count"] != count or s["class"] != klass:
            raise CourseError(f"{f}: a shard of another batch than {first_f} (shard "
                              f"{s['index']} of {s['count']}, {len(s['class'])} submissions; "
                              f"{first_f}: of {count}, {len(klass)}): every shard must grade the "
                              "same folder")
        for k in ("sets", "assignment", "gradescope_metadata"):
            if d[k] != first[k]:
                raise CourseError(f"{f}: graded with other {k} than {first_f}")
        if roster is None and d["roster"] != first["roster"]:
            raise CourseError(f"{f}: graded with another roster than {first_f} (give --roster "
                              "to the merge)")
        if s["index"] in seen:
            raise CourseError(f"{f}: shard {s['index']} of {count} again (also {seen[s['index']]})")
        seen[s["index"]] = f
    missing = sorted(set(range(1, count + 1)) - set(seen))
    if missing:
        raise CourseError(f"shards missing: {', '.join(f'{k} of {count}' for k in missing)} "
                          f"(--merge names {len(seen)} of {count})")
    by_name: dict[str, tuple[Path, dict]] = {}
    for f, d in docs:
        for i, r in enumerate(d["submissions"]):
            want = d["shard"]["index"]
            if r["student"] in by_name:
                raise CourseError(f"{f}/summary.json: {r['student']} again (also in "
                                  f"{by_name[r['student']][0]})")
            if not in_shard(klass.index(r["student"]), (want, count)):
                raise CourseError(f"{f}/summary.json: {r['student']} does not belong to shard "
                                  f"{want} of {count}")
            by_name[r["student"]] = (f, r)
    lost = [n for n in klass if n not in by_name]
    if lost:
        raise CourseError(f"{seen[klass.index(lost[0]) % count + 1]}/summary.json: no record of "
                          f"{lost[0]}" + (f" (and {len(lost) - 1} more)" if len(lost) > 1 else "")
                          + ": was that shard's batch cut short?")
    records = [by_name[n][1] for n in klass]
    if roster is not None:
        identify(records, roster)
        roster_doc = {"file": roster_file, "people": [asdict(p) for p in roster]}
    else:
        roster_doc = first["roster"]
    for n in klass:
        src = by_name[n][0] / "students" / n
        dest = out / "students" / n
        if src.is_dir() and not src.is_symlink():
            if dest.exists():
                shutil.rmtree(dest)
            shutil.copytree(src, dest, symlinks=True)
    doc = {"format": FORMAT, "assignment": first["assignment"], "sets": first["sets"],
           "roster": roster_doc, "gradescope_metadata": first["gradescope_metadata"],
           "submissions": records}
    text = write_summary(out, doc)
    bad = sum(1 for r in records if r["score"] is None or r["error"])
    return text, bad
