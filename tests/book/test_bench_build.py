# SPDX-License-Identifier: MIT
"""tools/bookpy/bench/build.py: what it reports about a build, and that its clean build is cold.

Run by CTest (book.bench-build) with Debian's pytest, on a made-up .ninja_log
and CMakeCache.txt (the bench itself times a whole clean build, which no test
here runs).
"""

import os

import pytest

from bookpy import ROOT
from bookpy.bench import build as bench

# (ms start, ms end, output, command hash): one line per output, as Ninja writes them.
LOG = [
    (0, 12000, "code/ch02-shared-memory/CMakeFiles/ch02-shared-memory.stencil.dir/stencil.cu.o", "a1"),
    (0, 3000, "tests/CMakeFiles/book_catch_session.dir/support/catch_session.cpp.o", "a2"),
    (3000, 3500, "tests/CMakeFiles/book_catch_main.dir/support/catch_main.cpp.o", "a3"),
    (100, 2100, "tests/ch01-execution-model/CMakeFiles/test.ch01-execution-model.warp-model.dir/"
                "test_warp_model.cpp.o", "a4"),
    (200, 1200, "code/common/CMakeFiles/book_common.dir/src/report.cpp.o", "a5"),
    # One command, three outputs: one step of 5 s.
    (1000, 6000, "/b/diagrams/ch01-execution-model/hierarchy.svg", "a6"),
    (1000, 6000, "/b/diagrams/ch01-execution-model/divergence.svg", "a6"),
    (1000, 6000, "/b/diagrams/ch01-execution-model/warps.svg", "a6"),
    (6000, 6400, "/b/records/ch01-execution-model/divergence-default.json", "a7"),
    (6000, 6300, "/b/records/ch02-shared-memory/stencil-check.json", "a8"),
    (12000, 12600, "bin/ch02-shared-memory/stencil", "a9"),
    (13000, 33000, "/b/html.stamp", "aa"),
    (0, 10, "/b/CMakeFiles/cmake.verify_globs", "ab"),
]


def write_log(tmp_path, entries):
    lines = ["# ninja log v5"] + [f"{s}\t{e}\t0\t{out}\t{h}" for s, e, out, h in entries]
    (tmp_path / ".ninja_log").write_text("\n".join(lines) + "\n")


def test_each_step_has_its_kind():
    kinds = {out: bench.step_kind(out) for _, _, out, _ in LOG}
    assert kinds[LOG[0][2]] == "nvcc .cu objects"
    assert kinds[LOG[1][2]] == "Catch2 main objects"
    assert kinds[LOG[2][2]] == "Catch2 main objects"
    assert kinds[LOG[3][2]] == "C++ test objects"
    assert kinds[LOG[4][2]] == "other C++ objects"
    assert kinds[LOG[5][2]] == "Mermaid diagrams"
    assert kinds[LOG[8][2]] == "program runs (records)"
    assert kinds[LOG[10][2]] == "links (programs, tests, libraries)"
    assert kinds[LOG[11][2]] == "Sphinx (HTML)"
    assert kinds[LOG[12][2]] == "other steps"


def test_an_object_is_nvccs_by_its_command_where_ninja_says():
    # A GPU exercise's tests: .cu files that the host compiler compiles.
    host_cu = "CMakeFiles/exercise-tests.ch02.ex01.visible.dir/tests/ch02/exercises/ex01/visible.test.cu.o"
    nvcc = {LOG[0][2]}
    assert bench.step_kind(LOG[0][2], nvcc) == "nvcc .cu objects"
    assert bench.step_kind(host_cu, nvcc) == "C++ test objects"
    assert bench.step_kind(host_cu) == "nvcc .cu objects"  # unknown: by the name
    assert bench.step_kind(LOG[1][2], nvcc) == "Catch2 main objects"


def test_ninja_names_the_objects_nvcc_compiles(tmp_path):
    (tmp_path / "build.ninja").write_text(
        "rule nv\n  command = ccache /usr/local/cuda/bin/nvcc -c $in -o $out\n"
        "rule cc\n  command = /usr/bin/c++ -x c++ -c $in -o $out\n"
        "build a.cu.o: nv a.cu\nbuild b.cu.o: cc b.cu\n")
    assert bench.nvcc_outputs(str(tmp_path)) == {"a.cu.o"}
    assert bench.nvcc_outputs(str(tmp_path / "none")) is None


def test_the_report_sums_step_time_per_kind_and_counts_a_command_once(tmp_path):
    write_log(tmp_path, LOG)
    steps = bench.ninja_log_steps(str(tmp_path))
    assert len(steps) == len(LOG) - 2  # the diagrams' command has three outputs
    lines = bench.step_report(str(tmp_path), top=3)
    rows = {line[:38].strip(): line[38:].split() for line in lines[1:] if line.startswith("  ")
            and not line.strip().startswith(("the ", "steps"))}
    assert rows["Mermaid diagrams"][:2] == ["1", "5.0s"]
    assert rows["Catch2 main objects"][:2] == ["2", "3.5s"]
    assert rows["program runs (records)"][:2] == ["2", "0.7s"]
    assert rows["all steps"][:2] == [str(len(LOG) - 2), "44.8s"]
    # The kinds come largest first; the slowest steps after them, slowest first.
    kinds = [line[:38].strip() for line in lines[1:lines.index("")]]
    assert kinds[:2] == ["Sphinx (HTML)", "nvcc .cu objects"]
    slowest = lines[lines.index("") + 2:]
    assert len(slowest) == 3
    assert "html.stamp" in slowest[0] and "stencil.cu.o" in slowest[1]
    assert "hierarchy.svg (+2 more outputs)" in slowest[2]


def test_a_rebuilt_output_counts_once_with_its_last_step(tmp_path):
    write_log(tmp_path, LOG + [(40000, 40900, LOG[4][2], "b5")])
    steps = bench.ninja_log_steps(str(tmp_path))
    assert len(steps) == len(LOG) - 2
    assert [s for s, outs in steps if LOG[4][2] in outs] == [0.9]


def test_a_missing_log_is_said(tmp_path):
    assert ".ninja_log" in bench.step_report(str(tmp_path))[0]


def test_the_clean_build_runs_without_a_compiler_cache(monkeypatch, tmp_path):
    monkeypatch.setenv("CMAKE_CXX_COMPILER_LAUNCHER", "ccache")
    monkeypatch.setenv("CMAKE_CUDA_COMPILER_LAUNCHER", "ccache")
    monkeypatch.setenv("CCACHE_DIR", "/tmp/cache")
    monkeypatch.setenv("CMAKE_BUILD_PARALLEL_LEVEL", "2")
    env, removed = bench.cold_environment()
    assert removed == ["CCACHE_DIR", "CMAKE_CUDA_COMPILER_LAUNCHER", "CMAKE_CXX_COMPILER_LAUNCHER"]
    assert "CMAKE_BUILD_PARALLEL_LEVEL" in env and not set(removed) & set(env)
    # A launcher that reached the cache (a preset, a toolchain file) is found there.
    (tmp_path / "CMakeCache.txt").write_text(
        "CMAKE_CXX_COMPILER:FILEPATH=/usr/bin/c++\n"
        "CMAKE_CUDA_COMPILER_LAUNCHER:STRING=/usr/bin/ccache\n"
        "CMAKE_C_COMPILER_LAUNCHER:STRING=\n")
    assert bench.cached_launchers(str(tmp_path)) == ["CMAKE_CUDA_COMPILER_LAUNCHER=/usr/bin/ccache"]


def test_the_test_programs_are_read_from_ctests_pre_test_step(tmp_path):
    assert bench.test_program_targets(str(tmp_path)) == []
    (tmp_path / "CTestCustom.cmake").write_text(
        '# Written by cmake/Book.cmake\n'
        'set(CTEST_CUSTOM_PRE_TEST "\\"/usr/bin/cmake\\" --build \\"/b\\" --target tests/all exercise-kit")\n')
    assert bench.test_program_targets(str(tmp_path)) == ["tests/all", "exercise-kit"]


def test_the_bench_builds_in_a_folder_of_the_repository_it_lies_in(tmp_path):
    """The clean build deletes its folder first: the repository's own (bookpy.ROOT,
    which holds CMakePresets.json), and never a folder that ".." or a link leads
    outside it, nor the repository itself."""
    assert os.path.isfile(os.path.join(ROOT, "CMakePresets.json"))
    assert bench.build_folder(str(tmp_path), "build/bench") == os.path.realpath(tmp_path / "build" / "bench")
    (tmp_path / "out").symlink_to(tmp_path.parent)
    for name in ("..", "../x", "build/../../x", ".", "/tmp/elsewhere", "out/x"):
        with pytest.raises(SystemExit, match="must be a folder inside"):
            bench.build_folder(str(tmp_path), name)
