# SPDX-License-Identifier: MIT
"""tools/bookpy/build/cy_tags.py: the check-yourself tags of the registered Catch2 programs.

Run by CTest (book.cy-tags) with Debian's pytest. Each test makes stand-ins for
Catch2 programs: shell scripts that answer --list-tags and
--list-test-names-only as Catch2 v2 does.
"""
import json
import subprocess
import sys
import time


CY_TAGS = ["-m", "bookpy.build.cy_tags"]


def catch2(tmp_path, name, tags, cases, hidden=()):
    """A stand-in Catch2 program: `tags` maps a tag to the test cases carrying it."""
    lines = ["#!/bin/sh", 'case "$*" in',
             '  "--list-tags") echo "All available tags:"']
    for tag, names in tags.items():
        lines.append(f'    echo "  {len(names):2d}  [{tag}]"')
    lines.append(f'    echo "{len(tags)} tags" ;;')
    visible = "; ".join(f'echo "{c}"' for c in cases if c not in hidden) or "true"
    lines.append(f'  "--list-test-names-only") {visible} ;;')
    for tag, names in tags.items():
        shown = "; ".join(f'echo "{c}"' for c in names)
        lines.append(f'  "[{tag}] --list-test-names-only") {shown} ;;')
    lines += ['  *) echo "unexpected: $*" >&2; exit 3 ;;', "esac"]
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n")
    path.chmod(0o755)
    return str(path)


def run(tmp_path, *programs):
    out, stamp = tmp_path / "cy-tags.json", tmp_path / "cy-tags.stamp"
    proc = subprocess.run([sys.executable, *CY_TAGS, "--out", str(out), "--stamp", str(stamp), "--",
                           *programs], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return proc, out, stamp


def test_tags_map_to_the_ctest_test_and_the_test_case(tmp_path):
    a = catch2(tmp_path, "a", {"ch01": ["one", "two"], "cy:q-one": ["one"], "cy:q-two": ["two"]},
               ["one", "two"])
    b = catch2(tmp_path, "b", {"cy:q-one": ["three"]}, ["three"])
    proc, out, stamp = run(tmp_path, f"ch01.a={a}", f"ch01.b={b}")
    assert proc.returncode == 0, proc.stdout
    assert json.loads(out.read_text()) == {"tags": {
        "q-one": [{"test": "ch01.a", "case": "one"}, {"test": "ch01.b", "case": "three"}],
        "q-two": [{"test": "ch01.a", "case": "two"}]}}
    assert stamp.exists()


def test_a_hidden_test_case_does_not_count(tmp_path):
    a = catch2(tmp_path, "a", {"cy:q": ["./later"], "cy:r": ["now"]}, ["now", "./later"],
               hidden=["./later"])
    proc, out, _ = run(tmp_path, f"t={a}")
    assert proc.returncode == 0, proc.stdout
    assert json.loads(out.read_text()) == {"tags": {"r": [{"test": "t", "case": "now"}]}}


def test_the_file_is_rewritten_only_when_a_tag_moves(tmp_path):
    a = catch2(tmp_path, "a", {"cy:q": ["one"]}, ["one"])
    _, out, stamp = run(tmp_path, f"t={a}")
    first = out.stat().st_mtime_ns
    time.sleep(0.05)
    _, out, _ = run(tmp_path, f"t={a}")
    assert out.stat().st_mtime_ns == first  # same tags: the HTML step need not run
    catch2(tmp_path, "a", {"cy:q": ["one"], "cy:p": ["one"]}, ["one"])
    _, out, _ = run(tmp_path, f"t={a}")
    assert out.stat().st_mtime_ns != first
    assert set(json.loads(out.read_text())["tags"]) == {"p", "q"}


def test_a_program_that_cannot_list_is_an_error_naming_the_test(tmp_path):
    broken = tmp_path / "broken"
    broken.write_text("#!/bin/sh\nkill -SEGV $$\n")
    broken.chmod(0o755)
    proc, out, stamp = run(tmp_path, f"ch01.broken={broken}")
    assert proc.returncode != 0
    assert "cy-tags: error: test ch01.broken:" in proc.stdout
    assert not out.exists() and not stamp.exists()
    proc, _, _ = run(tmp_path, f"ch01.gone={tmp_path / 'gone'}")
    assert "cy-tags: error: test ch01.gone: cannot run" in proc.stdout


def test_a_gpu_test_that_skips_instead_of_listing_is_named(tmp_path):
    gpu = tmp_path / "gpu"
    gpu.write_text('#!/bin/sh\necho "skipped: no CUDA GPU (no driver)"\nexit 77\n')
    gpu.chmod(0o755)
    proc, out, _ = run(tmp_path, f"exercises.x={gpu}")
    assert proc.returncode != 0
    assert "test exercises.x:" in proc.stdout and "lists no tests where there is no GPU" in proc.stdout


def test_a_bad_argument_is_named(tmp_path):
    proc, _, _ = run(tmp_path, "no-equals-sign")
    assert proc.returncode != 0 and "'no-equals-sign' is not <ctest name>=<program>" in proc.stdout
