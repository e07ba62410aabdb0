# SPDX-License-Identifier: MIT
"""Unit tests of the grader's judging and reading (pytest; CTest runs them as
exercises.grader-units). The end-to-end cases are in cases/ (grade_case.py)."""
import json
import os
import time
import stat
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

sys.dont_write_bytecode = True
from grader import catch_report, submission  # noqa: E402


def report(cases, closed=True, extra=""):
    """A Catch2 v2 XML report: cases is [(name, [True/False per assertion])]."""
    body = ['<?xml version="1.0" encoding="UTF-8"?>', '<Catch name="t">', '  <Group name="t">']
    for name, results in cases:
        body.append(f'    <TestCase name="{name}" filename="/src/tests/a.test.cpp" line="1">')
        for ok in results:
            body.append(f'      <Expression success="{"true" if ok else "false"}" type="CHECK" '
                        'filename="/src/tests/a.test.cpp" line="7"><Original>f() == 1</Original>'
                        '<Expanded>0 == 1</Expanded></Expression>')
        body.append(f'      <OverallResult success="{"true" if all(results) else "false"}"/>')
        body.append('    </TestCase>')
    body.append(extra)
    if closed:
        body += ['    <OverallResults successes="1" failures="0" expectedFailures="0"/>', '  </Group>',
                 '  <OverallResults successes="1" failures="0" expectedFailures="0"/>', '</Catch>']
    return "\n".join(body).encode()


def test_a_complete_passing_report_passes():
    v = catch_report.judge(report([("a", [True, True]), ("b", [True])]), ["a", "b"], None)
    assert v.passed and v.reason == ""
    assert catch_report.passed_count(v) == 2


def test_a_failed_assertion_fails_and_is_shown():
    v = catch_report.judge(report([("a", [True, False]), ("b", [True])]), ["a", "b"], "exit status 1",
                           strip_prefix="/src")
    assert not v.passed and "1 of 2 test cases failed" in v.reason
    assert "tests/a.test.cpp:7: CHECK( f() == 1 )" in v.details and "0 == 1" in v.details


def test_an_assertion_that_threw_shows_what_it_threw_once_and_no_empty_expansion():
    threw = ('<TestCase name="a" filename="/src/tests/a.test.cpp" line="1">'
             '<Expression success="false" type="CHECK" filename="/src/tests/a.test.cpp" line="9">'
             '<Original>g() == 2</Original><Expanded>g() == 2</Expanded>'
             '<Exception filename="/src/tests/a.test.cpp" line="9">not evaluated: the link to the '
             'worker broke (timed out)</Exception></Expression>'
             '<OverallResult success="false"/></TestCase>')
    v = catch_report.judge(report([], extra=threw), ["a"], "the worker: timed out after 2 s",
                           strip_prefix="/src")
    assert not v.passed
    assert "tests/a.test.cpp:9: CHECK( g() == 2 )\n" in v.details
    assert "threw: not evaluated: the link to the worker broke (timed out)" in v.details
    assert "with expansion" not in v.details and "unexpected exception" not in v.details
    assert v.details.count("not evaluated") == 1


def test_a_test_case_that_did_not_run_fails():
    v = catch_report.judge(report([("a", [True])]), ["a", "b"], None)
    assert not v.passed and 'test case "b" did not run' in v.reason


def test_an_unexpected_test_case_fails():
    v = catch_report.judge(report([("a", [True]), ("mine", [True])]), ["a"], None)
    assert not v.passed and '"mine"' in v.reason


def test_a_test_case_twice_fails():
    v = catch_report.judge(report([("a", [True]), ("a", [True])]), ["a"], None)
    assert not v.passed and "ran 2 times" in v.reason


def test_a_test_case_without_assertions_fails():
    v = catch_report.judge(report([("a", [])]), ["a"], None)
    assert not v.passed and "ran no assertion" in v.reason


def test_an_incomplete_report_fails():
    v = catch_report.judge(report([("a", [True])], closed=False), ["a"], "killed by SIGKILL")
    assert not v.passed and v.reason.startswith("the program: killed by SIGKILL; ")
    assert "incomplete" in v.reason


def test_no_report_fails():
    v = catch_report.judge(b"", ["a"], None)
    assert not v.passed and "no report" in v.reason


def test_a_perfect_report_with_a_bad_exit_fails():
    v = catch_report.judge(report([("a", [True])]), ["a"], "killed by SIGSEGV (invalid memory access)")
    assert not v.passed and "SIGSEGV" in v.reason


def test_entities_and_doctypes_are_refused():
    bomb = b'<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><Catch/>'
    v = catch_report.judge(bomb, ["a"], None)
    assert not v.passed and "document type" in v.reason


def test_a_report_of_another_shape_fails():
    v = catch_report.judge(b"<testsuites><testcase name='a'/></testsuites>", ["a"], None)
    assert not v.passed and "not Catch2's" in v.reason


def test_control_characters_are_shown_escaped():
    assert catch_report.printable("a\x1b[31mb\x00c\td\n") == "a\\x1b[31mb\\x00c\td\n"


# -- reading submissions ---------------------------------------------------------------
EX = {"ch01-x/ex01-y": ["a.cpp"]}


def test_a_folder_inside_one_folder_is_entered(tmp_path):
    (tmp_path / "alice" / "ch01-x" / "ex01-y").mkdir(parents=True)
    (tmp_path / "alice" / "ch01-x" / "ex01-y" / "a.cpp").write_text("int a;")
    sub = submission.read(tmp_path, EX)
    assert sub.exercises["ch01-x/ex01-y"].files == {"a.cpp": b"int a;"}
    assert any("alice" in n for n in sub.notes)


def test_links_pipes_and_large_files_are_no_files(tmp_path):
    d = tmp_path / "ch01-x" / "ex01-y"
    d.mkdir(parents=True)
    (tmp_path / "secret.cpp").write_text("secret")
    (d / "a.cpp").symlink_to(tmp_path / "secret.cpp")
    sub = submission.read(tmp_path, EX)
    assert "symbolic link" in sub.exercises["ch01-x/ex01-y"].problems["a.cpp"]
    (d / "a.cpp").unlink()
    os.mkfifo(d / "a.cpp")
    sub = submission.read(tmp_path, EX)
    assert "named pipe" in sub.exercises["ch01-x/ex01-y"].problems["a.cpp"]
    (d / "a.cpp").unlink()
    (d / "a.cpp").write_bytes(b"x" * (submission.MAX_FILE + 1))
    sub = submission.read(tmp_path, EX)
    assert "too large" in sub.exercises["ch01-x/ex01-y"].problems["a.cpp"]


def test_a_linked_exercise_folder_is_no_folder(tmp_path):
    (tmp_path / "real").mkdir()
    (tmp_path / "real" / "a.cpp").write_text("int a;")
    (tmp_path / "ch01-x").mkdir()
    (tmp_path / "ch01-x" / "ex01-y").symlink_to(tmp_path / "real")
    sub = submission.read(tmp_path, EX)
    assert sub.exercises["ch01-x/ex01-y"].problems["a.cpp"] == "ch01-x/ex01-y is not a folder (symbolic link)"


def test_a_zip_with_escaping_paths_and_links(tmp_path):
    z = tmp_path / "s.zip"
    with zipfile.ZipFile(z, "w") as f:
        f.writestr("../ch01-x/ex01-y/a.cpp", "escaped")
        f.writestr("/ch01-x/ex01-y/a.cpp", "absolute")
        link = zipfile.ZipInfo("ch01-x/ex01-y/a.cpp")
        link.external_attr = (stat.S_IFLNK | 0o777) << 16
        f.writestr(link, "/etc/shadow")
    sub = submission.read(z, EX)
    assert "symbolic link" in sub.exercises["ch01-x/ex01-y"].problems["a.cpp"]


def test_a_tar_with_two_members_of_one_name_takes_neither(tmp_path):
    t = tmp_path / "s.tar.gz"
    src = tmp_path / "a.cpp"
    src.write_text("int a;")
    with tarfile.open(t, "w:gz") as f:
        f.add(src, "ch01-x/ex01-y/a.cpp")
        f.add(src, "ch01-x/ex01-y/a.cpp")
    sub = submission.read(t, EX)
    assert "not a regular file" in sub.exercises["ch01-x/ex01-y"].problems["a.cpp"]


def test_a_broken_archive_is_unreadable_not_a_crash(tmp_path):
    z = tmp_path / "s.zip"
    z.write_bytes(b"PK\x03\x04 broken")
    sub = submission.read(z, EX)
    assert sub.error and "s.zip" in sub.error


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q", "-p", "no:cacheprovider"]))


# -- the sandbox -----------------------------------------------------------------------
from grader.sandbox import Bind, Limits, Sandbox  # noqa: E402


@pytest.fixture(scope="module")
def box():
    b, why = Sandbox.probe()
    if b is None:
        pytest.skip(f"no sandbox here: {why}")
    b.new_identity()
    return b


def test_a_hidden_folder_under_usr_is_empty_inside(box):
    shown = Path("/usr/share")
    box.hide = [shown / "doc"]
    try:
        r = box.run(["/bin/sh", "-c", "ls /usr/share/doc | wc -l; ls /usr/share | wc -l"], [],
                    Limits(wall=20), cwd="/tmp")
    finally:
        box.hide = []
    hidden, other = (int(x) for x in r.stdout.split())
    assert hidden == 0 and other > 0


def _toolchain():
    """A 'compiler' installed outside the system's folders, as GCC in /opt/gcc on a GPU
    machine: <prefix>/bin/cc, a script, and <prefix>/libexec/part, which it runs."""
    import tempfile
    prefix = Path(tempfile.mkdtemp(prefix="grader-tc-", dir="/var/tmp" if os.access("/var/tmp", os.W_OK)
                                   else None))
    prefix.chmod(0o755)
    (prefix / "bin").mkdir()
    (prefix / "libexec").mkdir()
    part = prefix / "libexec" / "part"
    part.write_text("#!/bin/sh\necho compiled\n")
    cc = prefix / "bin" / "cc"
    cc.write_text(f"#!/bin/sh\nexec {part}\n")
    for f in (part, cc):
        f.chmod(0o755)
    return prefix, cc


def test_a_compiler_outside_the_system_folders_runs_in_the_sandbox_only_when_shown(box):
    import shutil
    from grader.sandbox import toolchain_roots
    prefix, cc = _toolchain()
    try:
        assert toolchain_roots([str(cc), "/usr/bin/c++", "c++"]) == [prefix]
        unseen = box.run([str(cc)], [], Limits(wall=20), cwd="/tmp")
        box.toolchain = toolchain_roots([str(cc)])
        try:
            seen = box.run([str(cc)], [], Limits(wall=20), cwd="/tmp")
            written = box.run(["/bin/sh", "-c", f"touch {prefix}/x 2>/dev/null && echo written"], [],
                              Limits(wall=20), cwd="/tmp")
        finally:
            box.toolchain = []
    finally:
        shutil.rmtree(prefix)
    assert not unseen.ok
    assert seen.ok and seen.stdout.strip() == "compiled", seen.stdout + seen.stderr
    assert "written" not in written.stdout


def test_a_compiler_folder_that_would_show_a_hidden_one_is_refused(box):
    import shutil
    from grader.sandbox import SandboxError, toolchain_roots
    prefix, cc = _toolchain()
    try:
        box.toolchain = toolchain_roots([str(cc)])
        box.hide = [prefix.parent]  # the compiler inside the repository, say
        with pytest.raises(SandboxError, match="inside"):
            box.run(["/usr/bin/true"], [], Limits(wall=20), cwd="/tmp")
        trusted = Sandbox("trusted")
        trusted.toolchain, trusted.hide = box.toolchain, [prefix / "libexec"]
        with pytest.raises(SandboxError, match="--trusted cannot hide"):
            trusted.run(["/usr/bin/true"], [], Limits(wall=20), cwd="/tmp")
    finally:
        box.toolchain, box.hide = [], []
        shutil.rmtree(prefix)


def test_only_the_shown_library_folders_of_ld_library_path_reach_a_run(monkeypatch):
    box = Sandbox("trusted")
    box.toolchain = [Path("/opt/gcc")]
    monkeypatch.setenv("LD_LIBRARY_PATH", "/opt/gcc/lib64:/home/me/lib:relative:/opt/gcc-other/lib:/opt/gcc:"
                       "/usr/local/nvidia/lib64:/tmp/lib")
    assert box._env({})["LD_LIBRARY_PATH"] == "/opt/gcc/lib64:/opt/gcc:/usr/local/nvidia/lib64"
    box.toolchain = []
    assert box._env({})["LD_LIBRARY_PATH"] == "/usr/local/nvidia/lib64"
    monkeypatch.setenv("LD_LIBRARY_PATH", "/home/me/lib")
    assert "LD_LIBRARY_PATH" not in box._env({})


def test_the_kit_names_its_compilers_and_nvcc_s_host_compiler(tmp_path):
    from grader.kit import Kit
    (tmp_path / "exercises").mkdir()
    (tmp_path / "exercises" / "kit.json").write_text(json.dumps({
        "version": 1, "source_root": "/src", "catch_main": "m.o", "exercises": [],
        "cxx": {"compile": ["/opt/gcc/bin/g++", "-O2"], "link": ["/opt/gcc/bin/g++"]},
        "cuda": {"compile": ["/usr/local/cuda/bin/nvcc", "-ccbin=/opt/gcc/bin/g++"],
                 "link": ["/usr/local/cuda/bin/nvcc", "-ccbin", "/opt/gcc13/bin/g++", "--compiler-bindir=/x/bin"]}}))
    assert Kit(tmp_path).tools() == ["/opt/gcc/bin/g++", "/usr/local/cuda/bin/nvcc", "/opt/gcc13/bin/g++",
                                     "/x/bin"]


def test_nothing_but_tmp_and_writable_binds_can_be_written(box):
    import shutil
    import tempfile
    root = Path(tempfile.mkdtemp(prefix="grader-unit-"))
    try:
        root.chmod(0o755)  # as the grader's folders: the sandbox's user passes through
        out = root / "w"
        out.mkdir()
        box.give(out)
        r = box.run(["/bin/sh", "-c", "for d in / /dev /usr /etc /ro /rw /tmp "
                     "/sys/kernel/mm/transparent_hugepage; do touch $d/x "
                     "2>/dev/null && echo $d; done"], [Bind(root, "/ro"), Bind(out, "/rw", writable=True)],
                    Limits(wall=20), cwd="/tmp")
    finally:
        shutil.rmtree(root)
    assert r.stdout.split() == ["/rw", "/tmp"]


def test_of_sys_only_the_huge_page_setting_is_seen_read_only(box):
    thp = "/sys/kernel/mm/transparent_hugepage"
    r = box.run(["/bin/sh", "-c", f"ls /sys; ls /sys/kernel; ls /sys/kernel/mm; "
                 f"echo never > {thp}/enabled 2>/dev/null && echo written"], [], Limits(wall=20),
                cwd="/tmp")
    seen = r.stdout.split()
    assert "written" not in seen
    if Path(thp).is_dir():
        assert seen == ["kernel", "mm", "transparent_hugepage"]


def test_reap_ends_the_escaped_children_and_spares_the_running_steps():
    import subprocess
    from grader.sandbox import finished, spawn
    running = spawn(["/bin/sleep", "30"])
    escaped = subprocess.Popen(["/bin/sleep", "30"])  # as a child no step is waiting for
    try:
        Sandbox.reap()
        assert running.poll() is None
        with pytest.raises(ProcessLookupError):
            os.kill(escaped.pid, 0)
    finally:
        running.kill()
        running.wait()
        finished(running)
        if escaped.poll() is None:  # reaped already unless the test failed
            escaped.kill()


def test_no_process_outlives_its_run(box):
    # A duration no other process on the machine uses (other tests, run at the
    # same time, start sleeps of their own), so that only this run's count.
    secs = f"{60 + os.getpid() % 1000}.{time.time_ns() % 1000:03d}"
    r = box.run(["/bin/sh", "-c", f"(setsid sleep {secs} &); (sleep {secs} &); echo started"], [],
                Limits(wall=20), cwd="/tmp")
    assert r.exit == 0 and "started" in r.stdout
    for p in Path("/proc").iterdir():
        if p.name.isdigit():
            try:
                assert (p / "cmdline").read_bytes() != f"sleep\x00{secs}\x00".encode()
            except OSError:
                pass


# ---- results.json (reports.gradescope) ------------------------------------------

def _grade(hidden_status="passed", gpu_left=False):
    from grader.grading import ExerciseResult, GradeResult, SetResult
    e = ExerciseResult(id="ch01-x/ex01-a", title="A", gpu=False)
    e.sets = [SetResult(name="visible", points=7, hidden=False, tests=["v"], status="failed"),
              SetResult(name="hidden", points=3, hidden=True, tests=["h"], status=hidden_status,
                        score=3 if hidden_status == "passed" else 0)]
    r = GradeResult(name="s", source="s", exercises=[e])
    if gpu_left:
        g = ExerciseResult(id="ch01-x/ex02-g", title="G", gpu=True)
        g.sets = [SetResult(name="visible", points=5, hidden=False, tests=["g"], status="left out",
                            note="no GPU here")]
        r.exercises.append(g)
    return r


def test_results_json_tells_no_total_while_hidden_sets_are_hidden():
    from grader import reports
    for status in ("passed", "failed"):
        j = reports.gradescope(_grade(status), "hidden")
        assert "points" not in j["output"] and "10" not in j["output"]
        assert j["output_format"] == "text"
        assert all(t["output_format"] == "text" for t in j["tests"])
    shown = reports.gradescope(_grade("passed"), "visible")
    assert "3 of 10 points." in shown["output"]


def test_a_set_that_did_not_build_says_so_in_its_name():
    from grader import reports
    r = _grade("passed")
    r.exercises[0].sets[0].status = "error"
    names = [t["name"] for t in reports.gradescope(r)["tests"]]
    assert names[0].endswith("(did not build)") and not names[1].endswith("(did not build)")


def test_a_set_not_run_here_has_no_points_and_the_policy_is_stated():
    from grader import reports
    j = reports.gradescope(_grade("failed", gpu_left=True), "hidden", "2 GPU test sets: left out")
    g = [t for t in j["tests"] if t["name"].startswith("ch01-x/ex02-g")][0]
    assert g["max_score"] == 0 and g["score"] == 0 and "(not run here)" in g["name"]
    assert "2 GPU test sets: left out" in j["output"]
    assert j["extra_data"]["left_out_points"] == 5


# -- what a hostile archive or answer may cost the grader -----------------------------
def _tar_block(name: bytes, size: int, kind: bytes) -> bytes:
    h = bytearray(512)
    h[0:len(name)] = name
    h[100:108], h[108:116], h[116:124] = b"0000644\0", b"0000000\0", b"0000000\0"
    h[124:136], h[136:148], h[156:157] = b"%011o\0" % size, b"00000000000\0", kind
    h[257:265], h[148:156] = b"ustar\x0000", b" " * 8
    h[148:156] = b"%06o\0 " % sum(h)
    return bytes(h)


def test_a_tar_with_a_huge_extended_header_is_refused_before_it_is_read(tmp_path):
    # A pax header of 8 MiB (a 1 GiB one cost Python's tarfile 1.08 GB): refused from its
    # header block, before any of it is read, however well it compresses.
    import gzip
    size = 8 << 20
    path = tmp_path / "pax.tar.gz"
    with gzip.open(path, "wb") as g:
        record = b"%d comment=" % size
        g.write(_tar_block(b"PaxHeader", size, b"x") + record + b"a" * (size - len(record)))
        g.write(b"\0" * (-size % 512))
        g.write(_tar_block(b"a/b/x.cpp", 3, b"0") + b"abc" + b"\0" * 509 + b"\0" * 1024)
    sub = submission.read(path, {"a/b": ["x.cpp"]})
    assert "an extended header of 8388608 bytes" in sub.error


def test_a_small_pax_header_still_reads(tmp_path):
    path = tmp_path / "ok.tar"
    with tarfile.open(path, "w", format=tarfile.PAX_FORMAT) as t:
        info = tarfile.TarInfo("a/b/x.cpp")
        info.size = 3
        info.pax_headers = {"comment": "é" * 100}
        import io
        t.addfile(info, io.BytesIO(b"abc"))
    sub = submission.read(path, {"a/b": ["x.cpp"]})
    assert not sub.error and sub.exercises["a/b"].files == {"x.cpp": b"abc"}


def test_every_note_of_the_reports_is_clipped():
    from grader import reports
    from grader.grading import ExerciseResult, GradeResult, SetResult
    r = GradeResult(name="x", source="x", notes=["n" * 10**6], error="e" * 10**6)
    e = ExerciseResult(id="a/b", title="t", gpu=False, notes=["m" * 10**6])
    e.sets.append(SetResult(name="visible", points=7, hidden=False, tests=[], note="s" * 10**6))
    r.exercises.append(e)
    for text in (json.dumps(reports.gradescope(reports.clipped(r))), reports.junit(r), reports.table(r)):
        assert len(text) < 20000


def test_a_half_written_file_is_removed(tmp_path):
    from grader import reports
    (tmp_path / "summary.csv").mkdir()  # a folder where the file goes
    with pytest.raises(OSError):
        reports.write_atomically(tmp_path / "summary.csv", "x")
    assert [p.name for p in tmp_path.iterdir()] == ["summary.csv"]


# -- the shapes students hand in ---------------------------------------------------------
SHAPES = {"ch01/ex01": ["warp_map.cpp"], "ch02/ex03": ["banks.cpp"]}


def _put(z, name, text):
    info = zipfile.ZipInfo(name)
    info.external_attr = (stat.S_IFREG | 0o644) << 16  # a regular file, as zip tools write
    z.writestr(info, text)


def test_the_bundle_folder_zipped_as_handed_out_is_read(tmp_path):
    z = tmp_path / "alice.zip"
    with zipfile.ZipFile(z, "w") as f:
        _put(f, "cuda-book-exercises/CMakeLists.txt", "project(x)\n")
        _put(f, "cuda-book-exercises/tests/ch01/exercises/ex01/visible.test.cpp", "//\n")
        _put(f, "cuda-book-exercises/exercises/ch01/ex01/warp_map.cpp", "int a;\n")
        _put(f, "cuda-book-exercises/exercises/ch02/ex03/banks.cpp", "int b;\n")
    sub = submission.read(z, SHAPES)
    assert not sub.error
    assert sub.exercises["ch01/ex01"].files == {"warp_map.cpp": b"int a;\n"}
    assert sub.exercises["ch02/ex03"].files == {"banks.cpp": b"int b;\n"}


def test_loose_files_go_to_the_exercise_that_names_them(tmp_path):
    (tmp_path / "warp_map.cpp").write_text("int a;\n")
    (tmp_path / "notes.txt").write_text("hello\n")
    sub = submission.read(tmp_path, SHAPES)
    assert sub.exercises["ch01/ex01"].files == {"warp_map.cpp": b"int a;\n"}
    assert not sub.exercises["ch02/ex03"].present
    assert any("took warp_map.cpp" in n for n in sub.notes)
    assert any("ignored: notes.txt" in n for n in sub.notes)


def test_a_folder_holding_one_archive_is_that_archive(tmp_path):
    folder = tmp_path / "alice_12345_assignsubmission_file"
    folder.mkdir()
    with zipfile.ZipFile(folder / "work.zip", "w") as f:
        _put(f, "ch01/ex01/warp_map.cpp", "int a;\n")
    sub = submission.read(folder, SHAPES)
    assert sub.exercises["ch01/ex01"].files == {"warp_map.cpp": b"int a;\n"}
    assert sub.notes[0].startswith("graded the archive work.zip")


def test_an_archive_holding_one_archive_is_that_archive(tmp_path):
    inner = tmp_path / "hw.zip"
    with zipfile.ZipFile(inner, "w") as f:
        _put(f, "cuda-book-exercises/exercises/ch01/ex01/warp_map.cpp", "int a;\n")
    outer = tmp_path / "handin.tar.gz"
    with tarfile.open(outer, "w:gz") as t:
        t.add(inner, "alice/hw.zip")
    sub = submission.read(outer, SHAPES)
    assert not sub.error
    assert sub.exercises["ch01/ex01"].files == {"warp_map.cpp": b"int a;\n"}
    assert "graded the folder alice of the submission" in sub.notes[0]
    assert sub.notes[1].startswith("graded the archive hw.zip of the archive handin.tar.gz")


def test_a_folder_holding_an_archive_holding_an_archive_is_read(tmp_path):
    inner = tmp_path / "hw.zip"
    with zipfile.ZipFile(inner, "w") as f:
        _put(f, "ch01/ex01/warp_map.cpp", "int a;\n")
    folder = tmp_path / "submission"
    folder.mkdir()
    with tarfile.open(folder / "handin.tar.gz", "w:gz") as t:
        t.add(inner, "hw.zip")
    sub = submission.read(folder, SHAPES)
    assert sub.exercises["ch01/ex01"].files == {"warp_map.cpp": b"int a;\n"}
    assert sub.notes[:2] == ["graded the archive handin.tar.gz of the submission",
                             "graded the archive hw.zip of the archive handin.tar.gz"]


def test_an_archive_three_deep_is_not_entered(tmp_path):
    z1 = tmp_path / "a.zip"
    with zipfile.ZipFile(z1, "w") as f:
        _put(f, "ch01/ex01/warp_map.cpp", "int a;\n")
    z2 = tmp_path / "b.zip"
    with zipfile.ZipFile(z2, "w") as f:
        f.write(z1, "a.zip")
    z3 = tmp_path / "c.zip"
    with zipfile.ZipFile(z3, "w") as f:
        f.write(z2, "b.zip")
    sub = submission.read(z3, SHAPES)
    assert not sub.exercises["ch01/ex01"].present
    assert sub.notes[0].startswith("graded the archive b.zip of the archive c.zip")


def test_an_inner_archive_too_large_is_refused_unread(tmp_path, monkeypatch):
    monkeypatch.setattr(submission, "MAX_NESTED", 100)
    inner = tmp_path / "hw.zip"
    with zipfile.ZipFile(inner, "w") as f:
        _put(f, "ch01/ex01/warp_map.cpp", "int a;\n" * 50)
    outer = tmp_path / "handin.zip"
    with zipfile.ZipFile(outer, "w") as f:
        f.write(inner, "hw.zip")
    sub = submission.read(outer, SHAPES)
    assert "the archive hw.zip in handin.zip too large" in sub.error
    assert not sub.exercises


# ---- the seccomp filter carried to a machine without python3-seccomp ------------------
def _without_libseccomp(monkeypatch, carried=None):
    """As on a GPU machine without Debian's packages: the filter cannot be written here."""
    from grader import sandbox
    monkeypatch.setattr(sandbox, "PYTHON", "/nonexistent/python3")
    monkeypatch.setattr(sandbox, "_BPF", [])
    if carried is None:
        monkeypatch.delenv(sandbox.CARRIED_FILTER_ENV, raising=False)
    else:
        monkeypatch.setenv(sandbox.CARRIED_FILTER_ENV, str(carried))
    return sandbox


def test_a_carried_filter_is_the_filter_libseccomp_writes(tmp_path, monkeypatch):
    from grader import sandbox
    monkeypatch.setattr(sandbox, "_BPF", [])
    written = sandbox.seccomp_bpf()
    sandbox.write_carried_filter(str(tmp_path / "f.json"))
    box = _without_libseccomp(monkeypatch, tmp_path / "f.json")
    assert box.seccomp_bpf() == written


def test_without_libseccomp_or_a_carried_filter_the_sandbox_says_how_to_get_one(monkeypatch):
    box = _without_libseccomp(monkeypatch)
    with pytest.raises(box.SandboxError, match="python3-seccomp.*tools/book carry"):
        box.seccomp_bpf()


@pytest.mark.parametrize("edit,message", [
    (lambda s: {**s, "filter": "0" * 64}, "made for another filter"),
    (lambda s: {**s, "machine": "sparc"}, "is for sparc"),
    (lambda s: {**s, "bpf": s["bpf"][:-2]}, "malformed"),
    (lambda s: {"bpf": s["bpf"]}, "not a carried seccomp filter"),
])
def test_a_carried_filter_for_another_grader_or_processor_is_refused(tmp_path, monkeypatch,
                                                                     edit, message):
    from grader import sandbox
    monkeypatch.setattr(sandbox, "_BPF", [])
    good = tmp_path / "good.json"
    sandbox.write_carried_filter(str(good))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(edit(json.loads(good.read_text()))))
    box = _without_libseccomp(monkeypatch, bad)
    with pytest.raises(box.SandboxError, match=f"bad.json: .*{message}"):
        box.seccomp_bpf()


# ---- exercises.reader-edition: solutions found by their tokens -------------------------------

_SOLVED = """#include "pack.hpp"
#include <stdexcept>

int pack_rows(const int* counts, int rows, int width, int* out) {
  if (rows < 0 || width <= 0) throw std::invalid_argument("no rows");
  int used = 0;
  for (int r = 0; r < rows; ++r) {
    const int take = counts[r] < width ? counts[r] : width;
    out[r] = used + take * 3 - (take > 7 ? 5 : 1);
    used += (take + width - 1) / width;
  }
  return used;
}
"""
_STARTER = """#include "pack.hpp"

int pack_rows(const int* counts, int rows, int width, int* out) {
  (void)counts; (void)rows; (void)width; (void)out;
  return 0;  // TODO
}
"""


def _edition(tmp_path, extra=None, readme_hint="", banner=""):
    """A one-exercise book: its folder, solution and visible test, an HTML page
    of its statement, and exercises.json; returns check_reader_edition's exit
    status and output."""
    import contextlib
    import io
    import check_reader_edition
    root = tmp_path / "repo"
    ex = root / "exercises/ch90-a/ex01-pack"
    sol = root / "solutions/ch90-a/ex01-pack"
    tests = root / "tests/ch90-a/exercises/ex01-pack"
    for d in (ex, sol, tests, root / "code"):
        d.mkdir(parents=True)
    (ex / "pack.cpp").write_text(_STARTER)
    (ex / "pack.hpp").write_text("int pack_rows(const int* counts, int rows, int width, int* out);\n")
    readme = "# Pack\n\nPack the rows.\n\n## Hints\n\n" + readme_hint + "\n"
    (ex / "README.md").write_text(readme)
    if extra:
        (ex / extra[0]).write_text(extra[1])
    (sol / "pack.cpp").write_text(_SOLVED)
    (sol / "SOLUTION.md").write_text("# Notes\n\nIt packs.\n")
    (tests / "visible.test.cpp").write_text('TEST_CASE("packs", "[v]") { REQUIRE(true); }\n')
    build, html = tmp_path / "build", tmp_path / "html"
    build.mkdir()
    html.mkdir()
    (build / "exercises.json").write_text(json.dumps({"exercises": [{
        "id": "ch90-a/ex01-pack", "dir": str(ex), "solution_dir": str(sol),
        "student_files": ["pack.cpp"], "hidden_tests": [],
        "sets": {"visible": {"test_file": str(tests / "visible.test.cpp")}}}]}))
    page = "<html><body>" + banner + readme.replace("<", "&lt;")
    for f in sorted(ex.iterdir()):  # the bundle and the page show every file of the folder
        page += "<pre>" + f.read_text().replace("<", "&lt;") + "</pre>"
    (html / "ch90-a.html").write_text(page + "</body></html>")
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        argv = sys.argv
        sys.argv = ["check_reader_edition.py", "--build", str(build), "--html", str(html),
                    "--bundles", str(tmp_path / "none")]
        try:
            code = check_reader_edition.main()
        finally:
            sys.argv = argv
    return code, out.getvalue()


def test_a_page_with_the_instructor_banner_is_no_reader_edition(tmp_path):
    code, out = _edition(tmp_path, banner='<div class="book-edition-banner" role="note">'
                                          '<p>Instructor edition: not for students.</p></div>')
    assert code == 1 and "ch90-a.html is a page of the instructor edition" in out, out


def test_reader_edition_passes_an_honest_exercise(tmp_path):
    code, out = _edition(tmp_path)
    assert code == 0 and "exercises.reader-edition: ok" in out, out


def test_reader_edition_finds_a_solution_in_an_extra_header_with_a_comment_changed(tmp_path):
    # Every line of a file in the exercise folder is exempt from the line check
    # (the starter's lines give nothing away), so only the tokens find it.
    copy = _SOLVED.replace("#include <stdexcept>", "#include <stdexcept>  // helpers")
    code, out = _edition(tmp_path, extra=("pack_detail.hpp", copy))
    assert code == 1 and "holds ch90-a/ex01-pack: code of the solution pack.cpp" in out, out


def test_reader_edition_finds_a_solution_renamed_in_the_hints(tmp_path):
    renamed = (_SOLVED.replace("pack_rows", "fill").replace("counts", "c").replace("used", "acc")
               .replace("take", "t").replace("width", "w"))
    hint = "A start:\n\n```cpp\n" + renamed.split("\n", 3)[3] + "```\n"
    code, out = _edition(tmp_path, readme_hint=hint)
    assert code == 1 and "holds ch90-a/ex01-pack: code of the solution pack.cpp" in out, out
    assert "a line of the solution" not in out, "the line check alone should not see it"


# -- the Gradescope package (tools/grader/gradescope.py) -------------------------
from grader import gradescope  # noqa: E402


def test_the_gradescope_zip_is_the_same_bytes_with_fixed_dates_and_modes():
    items = {"b/x.txt": (b"x", False), "setup.sh": (b"#!/bin/sh\n", True), "a.txt": (b"a", False)}
    one = gradescope.zip_bytes(items)
    assert one == gradescope.zip_bytes(dict(reversed(list(items.items()))))
    with zipfile.ZipFile(__import__("io").BytesIO(one)) as z:
        infos = z.infolist()
        assert [i.filename for i in infos] == sorted(items)
        assert {i.date_time for i in infos} == {gradescope.DATE}
        assert {i.filename: i.external_attr >> 16 for i in infos}["setup.sh"] == 0o100755
        assert {i.filename: i.external_attr >> 16 for i in infos}["a.txt"] == 0o100644


def test_a_copy_without_git_lists_its_files_from_its_snapshot_once_it_matches(tmp_path):
    import shutil
    from bookpy.build.snapshot import blob_hash
    (tmp_path / "tools").mkdir()
    (tmp_path / "tools" / "run.sh").write_text("#!/bin/sh\n")
    (tmp_path / "tools" / "run.sh").chmod(0o755)
    (tmp_path / "a.txt").write_text("a\n")
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "x.md").write_text("left out\n")
    files = {p: blob_hash(str(tmp_path / p)) for p in ("tools/run.sh", "a.txt", "docs/x.md")}
    (tmp_path / ".carry").mkdir()
    (tmp_path / ".carry" / "snapshot.json").write_text(json.dumps({"commit": "ab" * 20, "files": files}))
    assert gradescope.tracked_files(tmp_path) == [("a.txt", False), ("tools/run.sh", True)]
    # The same copy inside another checkout, where it is ignored: still its snapshot's files.
    import subprocess
    subprocess.run(["git", "init", "-q", str(tmp_path.parent / (tmp_path.name + "-outer"))], check=True)
    inner = tmp_path.parent / (tmp_path.name + "-outer") / "copy"
    shutil.copytree(tmp_path, inner, symlinks=True)
    (tmp_path.parent / (tmp_path.name + "-outer") / ".gitignore").write_text("/copy/\n")
    assert gradescope.tracked_files(inner) == [("a.txt", False), ("tools/run.sh", True)]
    (tmp_path / "a.txt").write_text("edited\n")
    with pytest.raises(gradescope.KitError, match="not commit abababababab.*1 files differ from it .a.txt"):
        gradescope.tracked_files(tmp_path)
    (tmp_path / ".carry" / "snapshot.json").write_text("{")
    with pytest.raises(gradescope.KitError, match="snapshot.json cannot be read"):
        gradescope.tracked_files(tmp_path)
    (tmp_path / ".carry" / "snapshot.json").unlink()
    with pytest.raises(gradescope.KitError, match="no .carry/snapshot.json"):
        gradescope.tracked_files(tmp_path)


def test_run_autograder_before_setup_writes_results_with_no_points(tmp_path):
    import subprocess
    (tmp_path / "source").mkdir()
    (tmp_path / "submission").mkdir()
    script = Path(gradescope.HERE) / "run_autograder"
    p = subprocess.run([sys.executable, str(script)], env=dict(os.environ, AUTOGRADER_ROOT=str(tmp_path)),
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=60)
    assert p.returncode == 1
    res = json.loads((tmp_path / "results" / "results.json").read_text())
    assert res["score"] == 0 and "setup.sh" in res["output"] and res["tests"] == []


# ---- per-case credit (EXERCISE_CREDIT, grading.set_score) ---------------------------

def _score_set(credit, points, cases, exit_status=None, expected=None):
    """Score one set from a report of cases [(name, [assertion results])] as the
    grader does (grading._scored): returns the SetResult."""
    from grader import grading
    from grader.kit import TestSet
    names = expected or [n for n, _ in cases]
    s = TestSet(name="hidden", points=points, hidden=True, test_file="", objects=[], tests=names,
                credit=credit)
    r = grading.SetResult(name="hidden", points=points, hidden=True, tests=names)
    v = catch_report.judge(report(cases), names, exit_status)
    r.cases_passed = catch_report.passed_count(v) if v.cases else 0
    grading._scored(r, s, v)
    return r


def test_all_or_nothing_is_the_default_and_one_boundary_bug_costs_the_set():
    from grader.kit import TestSet
    assert TestSet(name="v", points=1, hidden=False, test_file="", objects=[], tests=[]).credit \
        == "all-or-nothing"
    r = _score_set("all-or-nothing", 10, [("a", [True]), ("b", [True]), ("c", [False])], "exit status 1")
    assert (r.status, r.score) == ("failed", 0)
    assert "per-case" not in r.note


def test_per_case_credit_splits_the_points_evenly_rounding_down():
    from grader.grading import set_score
    # 10 points over 3 cases: 3, 6, then the whole 10 only when the set passes
    assert [set_score(10, "per-case", k, 3, False) for k in range(3)] == [0, 3, 6]
    assert set_score(10, "per-case", 3, 3, True) == 10
    # 7 over 4: 1, 3, 5; fewer points than cases: 2 over 5 gives 0, 0, 1, 1
    assert [set_score(7, "per-case", k, 4, False) for k in (1, 2, 3)] == [1, 3, 5]
    assert [set_score(2, "per-case", k, 5, False) for k in (1, 2, 3, 4)] == [0, 0, 1, 1]
    # never more than the set's points, whatever the count says
    for points in range(0, 13):
        for n in range(1, 9):
            scores = [set_score(points, "per-case", k, n, False) for k in range(n + 1)]
            assert scores == sorted(scores) and max(scores) < points or points == 0
            assert set_score(points, "per-case", n, n, True) == points
    # all-or-nothing: nothing short of a pass
    assert set_score(10, "all-or-nothing", 2, 3, False) == 0


def test_per_case_credit_from_a_report():
    r = _score_set("per-case", 10, [("a", [True]), ("b", [True, True]), ("c", [True, False])],
                   "exit status 1")
    assert (r.status, r.score, r.cases_passed) == ("failed", 6, 2)
    assert "per-case credit: 2 of 3 test cases passed, 6 of 10 points" in r.note
    passed = _score_set("per-case", 10, [("a", [True]), ("b", [True]), ("c", [True])])
    assert (passed.status, passed.score) == ("passed", 10)


def test_per_case_credit_gives_nothing_for_a_case_that_did_not_run_or_a_failed_whole():
    # the program crashed after the first case: c never ran
    r = _score_set("per-case", 9, [("a", [True]), ("b", [False])], "killed by signal 11",
                   expected=["a", "b", "c"])
    assert (r.status, r.score) == ("failed", 3)
    # every case passed but the program ended badly: one case short of the whole set
    r = _score_set("per-case", 9, [("a", [True]), ("b", [True]), ("c", [True])], "killed by signal 6")
    assert (r.status, r.score) == ("failed", 6)


def test_per_case_scores_add_up_in_the_results():
    from grader import reports
    from grader.grading import ExerciseResult, GradeResult, SetResult
    e = ExerciseResult(id="ch01-x/ex01-a", title="A", gpu=False)
    e.sets = [SetResult(name="visible", points=7, hidden=False, tests=["a"], status="passed", score=7),
              SetResult(name="hidden", points=3, hidden=True, tests=["b", "c", "d"], status="failed",
                        score=2, cases_passed=2)]
    r = GradeResult(name="s", source="s", exercises=[e])
    assert (r.score, r.max_score) == (9, 10)
    j = reports.gradescope(r, "visible")
    assert j["score"] == 9 and sum(t["score"] for t in j["tests"]) == 9


def test_a_gpu_the_confined_probe_cannot_reach_is_said_once(tmp_path):
    """gpu_state runs the GPU probe again where the sets run, --trusted's confinement
    included: a probe that works outside and not inside means no GPU for the sets."""
    from types import SimpleNamespace
    from grader import cli
    from grader.sandbox import Sandbox
    box, why = Sandbox.probe(trusted=True)
    if box is None:
        pytest.skip(f"--trusted cannot run here: {why}")
    kit = tmp_path / "kit"
    kit.mkdir()
    device = tmp_path / "outside" / "gpu"  # stands for what the driver needs and is refused
    device.parent.mkdir()
    device.write_text("1\n")
    probe = kit / "gpu_probe"
    probe.write_text(f"#!/bin/sh\ncat {device} >/dev/null 2>&1 || "
                     "{ echo 'no usable CUDA GPU: OS call failed'; exit 1; }\necho 'gpus: 1'\n")
    probe.chmod(0o755)
    staged = SimpleNamespace(gpu_probe="/kit/gpu_probe", host=lambda p: kit / Path(p).relative_to("/kit"))
    ok, why = cli.gpu_state(SimpleNamespace(cuda=True), SimpleNamespace(staged=staged, root=tmp_path), box)
    assert not ok
    assert why.startswith("the sandbox cannot reach the GPU") and "OS call failed" in why


@pytest.mark.parametrize("gpu", [False, True])
def test_a_trusted_gpu_run_may_name_its_own_threads_and_touch_nothing_else_of_proc(gpu):
    """The NVIDIA driver writes /proc/<pid>/task/<tid>/comm in cuInit: a --trusted GPU
    run may write its own threads' entries, a CPU run may not, and neither may write
    another process's (its supervisor's oom_score_adj, which root could)."""
    from grader.sandbox import Limits, Sandbox
    box, why = Sandbox.probe(trusted=True)
    if box is None:
        pytest.skip(f"--trusted cannot run here: {why}")
    script = ("echo named > /proc/$$/task/$$/comm && echo own-written; "
              "cat /proc/$PPID/oom_score_adj > /proc/$PPID/oom_score_adj && echo other-written; true")
    r = box.run(["/bin/sh", "-c", script], [], Limits(wall=20), cwd="/tmp", gpu=gpu)
    assert r.exit == 0, r.stderr
    assert ("own-written" in r.stdout) == gpu, r.stdout + r.stderr
    assert "other-written" not in r.stdout, r.stdout
