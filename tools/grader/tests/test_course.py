# SPDX-License-Identifier: MIT
"""Unit tests of the grader's class tools (tools/grader/course.py; pytest, CTest runs
them as exercises.grader-course): the roster and Gradescope's metadata, bad input
named by file and line, shards and their merge, the statistics and the gradebook.
A whole batch, sharded and merged, is check_shards.py's (exercises.grade.shards)."""
import csv
import io
import json
import sys
from dataclasses import asdict

import pytest

sys.dont_write_bytecode = True
from grader import course  # noqa: E402
from grader.course import CourseError  # noqa: E402
from grader.grading import ExerciseResult, GradeResult, SetResult  # noqa: E402

E1, E2, G = "ch01-a/ex01-one", "ch01-a/ex02-two", "ch02-b/ex01-gpu"
SETS = [{"exercise": E1, "set": "visible", "points": 3, "gpu": False},
        {"exercise": E1, "set": "hidden", "points": 7, "gpu": False},
        {"exercise": G, "set": "visible", "points": 10, "gpu": True}]


def write(tmp_path, name, data):
    p = tmp_path / name
    p.write_bytes(data.encode() if isinstance(data, str) else data)
    return p


# -- the roster ---------------------------------------------------------------------
def test_a_roster_is_read_with_its_documented_columns(tmp_path):
    p = write(tmp_path, "roster.csv", "\ufeffStudent,SID,E-mail,Name,notes,Section\n"
              "alice,1001,alice@u.edu,\"Smith, Alice\",late,A\n\n , , , , , \n"
              "bob,1002,bob@u.edu,Bob Jones,,B\n,1003,carol@u.edu,Carol,,\n")
    people = course.read_roster(p)
    assert [(x.student, x.id, x.email, x.name, x.section) for x in people] == [
        ("alice", "1001", "alice@u.edu", "Smith, Alice", "A"),
        ("bob", "1002", "bob@u.edu", "Bob Jones", "B"),
        ("", "1003", "carol@u.edu", "Carol", "")]
    assert people[0].origin == "roster.csv:2" and people[2].origin == "roster.csv:6"


@pytest.mark.parametrize("text, where, what", [
    ("student,id\nalice,1\nbob,2,extra\n", ":3:", "3 fields, where the header has 2"),
    ("student,id\nalice,1\nbob,2\ncarol,1\n", ":4:", "the id '1' is also on line 2"),
    ("student,email\nalice,A@u.edu\nbob,a@U.EDU\n", ":3:", "also on line 2"),
    ("student;id;email\nalice;1;a@u.edu\n", ":1:", "separated by ';'"),
    ("who,what\nalice,1\n", ":1:", "names no column student, id or email"),
    ("student,id,id\nalice,1,2\n", ":1:", "the column id twice"),
    ("student,id,email\nalice,1,not-an-address\n", ":2:", "is no email address"),
    ("student,id\nalice,1\n,\nbob,=HYPERLINK(1)\n", ":4:", "as a spreadsheet formula does"),
    ("student,id\nalice,1\nbob\x07,2\n", ":3:", "control character"),
    ("student,name\nalice,Alice\n,Nobody\n", ":3:", "no student, id or email"),
    ("student,id\nalice," + "9" * 300 + "\n", ":2:", "longer than 256"),
    ("student,id\nalice,\"" + "9" * 200_000 + "\"\n", ":2:", "field larger than field limit"),
    ("", ":1:", "the roster is empty"),
])
def test_bad_roster_input_is_named_by_file_and_line(tmp_path, text, where, what):
    p = write(tmp_path, "roster.csv", text)
    with pytest.raises(CourseError) as e:
        course.read_roster(p)
    assert f"{p}{where}" in str(e.value) and what in str(e.value), str(e.value)


def test_a_roster_that_is_no_utf8_text_names_the_line(tmp_path):
    p = write(tmp_path, "roster.csv", b"student,id\nalice,1\nb\xe9b,2\n")
    with pytest.raises(CourseError, match=r"roster.csv:3: the roster is not UTF-8 text"):
        course.read_roster(p)


def test_a_huge_roster_is_refused_unread(tmp_path, monkeypatch):
    monkeypatch.setattr(course, "MAX_ROSTER_BYTES", 1000)
    p = write(tmp_path, "roster.csv", "student,id\n" + "x,1\n" * 1000)
    with pytest.raises(CourseError, match="larger than"):
        course.read_roster(p)
    with pytest.raises(CourseError, match="cannot read the roster"):
        course.read_roster(tmp_path / "none.csv")


# -- Gradescope's metadata ----------------------------------------------------------
METADATA = """\
submission_101:
  :submitters:
  - :name: Fay Fox
    :sid: '101'
    :email: fay@u.edu
  :created_at: 2024-05-01 10:00:00.000000000 -07:00
  :score: !ruby/object:BigDecimal 18:0.1e2
  :status: processed
  :history: []
submission_102:
  :submitters:
  - :name: Gus
    :sid: 102
    :email: gus@u.edu
  - :name: "=cmd|' /C calc'!A0"
    :sid: '103'
    :email: hal@u.edu
submission_103:
  :status: no submitters here
"""


def test_gradescope_metadata_names_each_folders_submitters(tmp_path):
    found = course.read_metadata(write(tmp_path, course.METADATA, METADATA))
    assert [(p.id, p.email, p.name) for p in found["submission_101"]] == [("101", "fay@u.edu", "Fay Fox")]
    assert [(p.id, p.email, p.name) for p in found["submission_102"]] == [
        ("102", "gus@u.edu", "Gus"), ("103", "hal@u.edu", "")]  # a name that is a formula: dropped
    assert found["submission_103"] == []


@pytest.mark.parametrize("text, what", [
    ("a: [1, 2\nb: 3\n", r"submission_metadata.yml:\d+: not YAML"),
    ("- one\n- two\n", r"submission_metadata.yml:1: not Gradescope's"),
    ("a: " + "[" * 300_000 + "]" * 300_000,
     r"submission_metadata.yml: it could not be read \(the reader ended with status -11"),
], ids=["no-yaml", "no-mapping", "crashes-libyaml"])
def test_bad_metadata_is_named_by_file_and_line(tmp_path, text, what):
    with pytest.raises(CourseError, match=what):
        course.read_metadata(write(tmp_path, course.METADATA, text))


def test_metadata_with_aliases_is_read_once_not_expanded(tmp_path):
    # A billion laughs: each level names the one below nine times.
    lines = ["l0: &l0 [x, x, x, x, x, x, x, x, x]"]
    lines += [f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * 9) + "]" for i in range(1, 12)]
    lines.append("submission_1: {':submitters': *l11}")
    found = course.read_metadata(write(tmp_path, course.METADATA, "\n".join(lines) + "\n"))
    assert found["submission_1"] == []
    deep = "submission_1: " + "[" * 5000 + "]" * 5000 + "\n"
    assert course.read_metadata(write(tmp_path, course.METADATA, deep)) == {}  # no mapping: no one


# -- shards -------------------------------------------------------------------------
@pytest.mark.parametrize("n", [1, 2, 3, 7])
def test_every_entry_is_in_exactly_one_shard_and_shards_differ_by_one_at_most(n):
    sizes = [sum(course.in_shard(i, (k, n)) for i in range(20)) for k in range(1, n + 1)]
    for i in range(20):
        assert sum(course.in_shard(i, (k, n)) for k in range(1, n + 1)) == 1
    assert sum(sizes) == 20 and max(sizes) - min(sizes) <= 1


@pytest.mark.parametrize("bad", ["0/3", "4/3", "3", "1/0", "a/b", "-1/3", "1/99999999"])
def test_a_bad_shard_is_refused(bad):
    with pytest.raises(ValueError, match="--shard takes K/N"):
        course.parse_shard(bad)


# -- records, statistics, gradebook -------------------------------------------------
def result(name, scores, error="", gpu_status="passed"):
    """A GradeResult: scores[i] for SETS[i] (None: the set failed, no points)."""
    ex1 = ExerciseResult(id=E1, title="one", gpu=False)
    gpu = ExerciseResult(id=G, title="gpu", gpu=True)
    for s, got in zip(SETS, scores):
        status = "passed" if got == s["points"] else "failed"
        if s["gpu"]:
            status = gpu_status if got == s["points"] else "failed"
        r = SetResult(name=s["set"], points=s["points"], hidden=s["set"] == "hidden", tests=[],
                      status=status, score=got or 0)
        (gpu if s["gpu"] else ex1).sets.append(r)
    return GradeResult(name=name, source=name, exercises=[ex1, gpu], error=error, seed=7)


def records():
    rows = [course.record("alice", "alice", result("alice", [3, 7, 10]), ""),
            course.record("bob", "bob.zip", result("bob", [3, 0, 0]), ""),
            course.record("carol", "carol", result("carol", [0, 0, 10]), ""),
            course.record("erin", "erin.txt", result("erin", [0, 0, 0], error="not an archive"), ""),
            course.record("frank", "frank", None, "RuntimeError: the grader broke")]
    for r in rows:
        r["submitters"] = []
    return rows


def test_statistics_per_set_count_unreadable_as_zero_and_leave_out_the_ungraded():
    stats = course.statistics_of(SETS, records())
    vis, hid, gpu = stats["sets"]
    assert (vis["graded"], vis["passed"], vis["pass_rate"], vis["mean"], vis["median"]) == \
        (4, 2, 0.5, 1.5, 1.5)
    assert (hid["graded"], hid["passed"], hid["pass_rate"], hid["mean"], hid["median"]) == \
        (4, 1, 0.25, 1.75, 0.0)
    # The GPU set's scores count as any other set's (a batch on a GPU machine).
    assert (gpu["graded"], gpu["passed"], gpu["mean"], gpu["median"]) == (4, 2, 5.0, 5.0)
    assert stats["total"] == {"graded": 4, "max_score": [20], "mean": 8.25, "median": 6.5}


def test_a_set_left_out_of_the_maximum_is_left_out_of_its_statistics():
    recs = [course.record("a", "a", result("a", [3, 7, 0], gpu_status="left out"), "")]
    recs[0]["sets"][f"{G} visible"]["status"] = "left out"
    stats = course.statistics_of(SETS, recs)
    assert stats["sets"][2]["graded"] == 0 and stats["sets"][2]["mean"] is None
    assert stats["sets"][0]["graded"] == 1


def rows_of(text):
    return list(csv.reader(io.StringIO(text)))


def test_the_gradebook_has_canvas_columns_and_the_gpu_sets_in_each_score(tmp_path):
    recs = records()
    roster = course.read_roster(write(tmp_path, "r.csv",
                                      "student,id,email,name,section\n"
                                      "alice,1,alice@u.edu,Alice,A\nbob,2,bob@u.edu,Bob,B\n"
                                      "erin,5,erin@u.edu,Erin,A\nzed,9,zed@u.edu,Zed,A\n"))
    course.identify(recs, roster)
    doc = course.summary_doc(SETS, recs, roster, "r.csv", False, "Homework 3")
    text = course.write_summary(tmp_path / "out", doc)
    book = rows_of((tmp_path / "out" / "gradebook.csv").read_text())
    assert book[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "Homework 3"]
    assert book[1:] == [["Alice", "", "1", "alice@u.edu", "A", "20"],   # 10 of them the GPU set's
                        ["Bob", "", "2", "bob@u.edu", "B", "3"],
                        ["Erin", "", "5", "erin@u.edu", "A", "0"]]      # unreadable: no points
    assert "Not on the roster (2): carol, frank" in text
    assert "Matched to no student, left out of gradebook.csv (2): carol, frank" in text
    assert "On the roster, no submission (1): Zed" in text
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert summary["notes"]["absent"] == ["Zed"]
    assert [s["pass_rate"] for s in summary["statistics"]["sets"]] == [0.5, 0.25, 0.5]
    assert "ch01-a/ex01-one visible       3       4       2        50%     1.50      1.5" in text
    st = rows_of((tmp_path / "out" / "statistics.csv").read_text())
    assert st[1] == ["ch01-a/ex01-one", "visible", "3", "4", "2", "0.5", "1.5", "1.5"]
    assert st[-1] == ["total", "", "20", "4", "", "", "8.25", "6.5"]


def test_gradescope_groups_give_a_row_each_and_a_student_twice_gives_none(tmp_path):
    recs = records()[:3]
    fay = course.Person(id="101", email="fay@u.edu", name="Fay", origin=course.METADATA)
    gus = course.Person(id="102", email="gus@u.edu", name="Gus", origin=course.METADATA)
    recs[0]["submitters"] = [asdict(fay), asdict(gus)]
    recs[1]["submitters"] = [asdict(course.Person(id="103", name="=evil()", origin=course.METADATA))]
    recs[2]["submitters"] = [asdict(gus)]  # Gus handed in twice
    course.identify(recs, None)
    text = course.write_summary(tmp_path, course.summary_doc(SETS, recs, None, "", True, "=A1"))
    book = rows_of((tmp_path / "gradebook.csv").read_text())
    assert book == [course.GRADEBOOK_COLUMNS + ["'=A1"],
                    ["Fay", "", "101", "fay@u.edu", "", "20"],
                    ["'=evil()", "", "103", "", "", "3"]]
    assert "The id 102 has several submissions (alice, carol)" in text


def test_without_roster_or_metadata_the_gradebook_names_folders(tmp_path):
    recs = records()
    course.identify(recs, None)
    text = course.write_summary(tmp_path, course.summary_doc(SETS, recs, None, "", False, "Ex"))
    book = rows_of((tmp_path / "gradebook.csv").read_text())
    assert [r[0] for r in book[1:]] == ["alice", "bob", "carol", "erin", "frank"]
    assert book[-1][-1] == ""  # not graded: no score
    assert "No roster and no Gradescope metadata" in text


def test_csv_cells_that_a_spreadsheet_would_run_are_text(tmp_path):
    recs = records()[:1]
    recs[0]["source"] = "=HYPERLINK(\"http://x\")"
    course.identify(recs, None)
    course.write_summary(tmp_path, course.summary_doc(SETS, recs, None, "", False, "Ex"))
    assert rows_of((tmp_path / "summary.csv").read_text())[1][1] == "'=HYPERLINK(\"http://x\")"


# -- merging shards -----------------------------------------------------------------
def shards(tmp_path, n, roster=None):
    """The records of records(), graded as n shards (their summaries and folders)."""
    recs = records()
    names = [r["student"] for r in recs]
    course.identify(recs, roster)
    folders = []
    for k in range(1, n + 1):
        mine = [r for i, r in enumerate(recs) if course.in_shard(i, (k, n))]
        f = tmp_path / f"shard-{k}"
        for r in mine:
            (f / "students" / r["student"]).mkdir(parents=True)
            (f / "students" / r["student"] / "table.txt").write_text(r["student"])
        course.write_summary(f, course.summary_doc(SETS, mine, roster, "r.csv", False, "Ex",
                                                   {"index": k, "count": n, "class": names}))
        folders.append(f)
    return recs, folders


def test_shards_merged_write_what_one_batch_writes(tmp_path):
    roster = [course.Person(student="bob", id="2", email="bob@u.edu", origin="r.csv:2")]
    recs, folders = shards(tmp_path, 3, roster)
    one = tmp_path / "one"
    course.write_summary(one, course.summary_doc(SETS, recs, roster, "r.csv", False, "Ex"))
    merged = tmp_path / "merged"
    text, bad = course.merge(list(reversed(folders)), merged, None, "")
    assert bad == 2  # erin unreadable, frank not graded
    for f in ("summary.json", "summary.csv", "summary.txt", "statistics.csv", "gradebook.csv"):
        assert (merged / f).read_text() == (one / f).read_text(), f
    assert sorted(p.name for p in (merged / "students").iterdir()) == sorted(r["student"] for r in recs)
    assert (merged / "students" / "carol" / "table.txt").read_text() == "carol"


def test_a_merge_with_a_roster_identifies_anew(tmp_path):
    _, folders = shards(tmp_path, 2)
    roster = [course.Person(student="carol", id="3", email="c@u.edu", name="Carol", origin="r:2")]
    course.merge(folders, tmp_path / "m", roster, "r.csv")
    assert ["Carol", "", "3", "c@u.edu", "", "10"] in rows_of((tmp_path / "m" / "gradebook.csv").read_text())


def test_a_merge_refuses_missing_repeated_foreign_and_tampered_shards(tmp_path):
    _, folders = shards(tmp_path, 3)
    out = tmp_path / "m"
    with pytest.raises(CourseError, match="shards missing: 2 of 3"):
        course.merge([folders[0], folders[2]], out, None, "")
    with pytest.raises(CourseError, match="shard 1 of 3 again"):
        course.merge([folders[0], folders[0], folders[1], folders[2]], out, None, "")
    with pytest.raises(CourseError, match="the merge's --out is one of the shards"):
        course.merge(folders, folders[1], None, "")
    _, other = shards(tmp_path / "other", 2)
    with pytest.raises(CourseError, match="a shard of another batch"):
        course.merge(folders + other[:1], out, None, "")
    s = folders[1] / "summary.json"
    doc = json.loads(s.read_text())
    doc["submissions"][0]["student"] = "../../escape"
    s.write_text(json.dumps(doc))
    with pytest.raises(CourseError, match="not a shard's summary"):
        course.merge(folders, out, None, "")
    s.write_text("{\n  \"format\": 1,\n  oops\n}")
    with pytest.raises(CourseError, match=r"shard-2/summary.json:3: not JSON"):
        course.merge(folders, out, None, "")
    s.write_text(json.dumps({"format": 1, "submissions": []}))
    with pytest.raises(CourseError, match="graded without --shard"):
        course.merge(folders, out, None, "")
    assert not out.exists()


def test_a_shard_cut_short_is_named(tmp_path):
    _, folders = shards(tmp_path, 2)
    s = folders[0] / "summary.json"
    doc = json.loads(s.read_text())
    doc["submissions"].pop()
    s.write_text(json.dumps(doc))
    with pytest.raises(CourseError, match="shard-1/summary.json: no record of frank"):
        course.merge(folders, tmp_path / "m", None, "")
