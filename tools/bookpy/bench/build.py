# SPDX-License-Identifier: MIT
"""Time the book's build on this machine, against the targets it must meet.

    tools/book bench, or python3 -m bookpy.bench.build [--dir build/bench] [--chapter chapters/ch01-execution-model.md]

1. clean build: configure (the `book` preset's settings) and build into a fresh
   folder, `build/bench` unless --dir names another (it is deleted first);
2. no-op rebuild: build again; Ninja must report no work;
3. one chapter: change one chapter's text (a comment line appended), rebuild,
   and put the text back byte for byte; only the Sphinx step may run;
4. the test programs, which `ctest` builds before any test runs (they are not
   part of the book's build): timed and printed, with no target.

Prints each figure with its target and PASS or FAIL, and exits 1 if any misses
(or if a build fails). Run it with nothing else heavy running: the figures are
wall-clock times. The clean build is cold: it runs without a compiler cache
(CMAKE_<LANG>_COMPILER_LAUNCHER and CCACHE_* are removed from its environment,
and a launcher found in the new cache is a failure). After the figures come the
clean build's CPU time (user + system of every step, which a busy machine
inflates less than the wall clock) and, from <dir>/.ninja_log, the sum of step
time per kind of step and the slowest steps (steps overlap, Ninja runs several
at once, so the sums exceed the wall clock).
"""
import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import time

from bookpy import ROOT

TARGETS = {"clean": 180.0, "noop": 5.0, "chapter": 20.0}
# Steps allowed in a one-chapter rebuild: Ninja's glob check and Sphinx.
CHAPTER_STEPS = ("Re-checking globbed directories...", "Sphinx: chapters -> HTML")


def timed(cmd, cwd, env=None):
    """Run cmd; return (seconds, exit status, output, CPU seconds of it and its
    children). The output is also shown."""
    print(f"$ {' '.join(cmd)}", flush=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.monotonic()
    proc = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True)
    took = time.monotonic() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    lines = proc.stdout.splitlines()
    shown = lines if len(lines) <= 40 else ["..."] + lines[-40:]
    for line in shown:
        print(f"  {line}")
    print(f"  ({took:.1f} s, exit {proc.returncode})", flush=True)
    return took, proc.returncode, proc.stdout, cpu


def cold_environment():
    """This environment without what would let a clean build reuse earlier work:
    compiler launchers (ccache) and ccache's own settings. Returns (env, removed names)."""
    env, removed = dict(os.environ), []
    for name in list(env):
        if re.fullmatch(r"CMAKE_[A-Z]+_COMPILER_LAUNCHER|CCACHE_.*", name):
            removed.append(name)
            del env[name]
    return env, sorted(removed)


def cached_launchers(build):
    """The compiler launchers a configured build folder uses (CMakeCache.txt)."""
    found = []
    try:
        with open(os.path.join(build, "CMakeCache.txt")) as f:
            for line in f:
                m = re.match(r"(CMAKE_[A-Z]+_COMPILER_LAUNCHER|RULE_LAUNCH_[A-Z]+)[:=][^=]*=(.+)$", line)
                if m and m.group(2).strip():
                    found.append(f"{m.group(1)}={m.group(2).strip()}")
    except OSError:
        pass
    return found


def ninja_steps(output):
    """The descriptions of the steps Ninja ran ("[3/7] Building CXX object ..." lines)."""
    return [m.group(1) for m in re.finditer(r"^\[\d+/\d+\] (.*)$", output, re.M)]


# The kinds of step, by an output's path in the build folder (the first that matches).
KINDS = [
    ("Catch2 main objects", r"catch_\w*(main|session)\.(cpp|cc|cu)\.o$"),
    ("nvcc .cu objects", r"\.cu\.o$"),
    ("C++ test objects", r"(^|/)(tests|exercises)/.*\.o$|/(test|exercise)[^/]*\.dir/.*\.o$"),
    ("other C++ objects", r"\.o$"),
    ("program runs (records)", r"(^|/)records/.*\.json$"),
    ("Mermaid diagrams", r"(^|/)diagrams/.*\.(svg|pdf)$"),
    ("plots", r"(^|/)plots/.*\.(svg|pdf)$"),
    ("Sphinx (HTML)", r"(^|/)html\.stamp$"),
    ("Doxygen", r"(^|/)doxygen/"),
    ("exercise downloads", r"(^|/)downloads/"),
    ("links (programs, tests, libraries)", r"(^|/)(bin|tests|exercises)/|\.(a|so)$|/bookrun$"),
]


def step_kind(output, nvcc=None):
    """The kind of the step that made output. nvcc: the outputs that nvcc compiled
    (nvcc_outputs), when known: then an object is nvcc's by its command, not its name
    (a .cu file that the host compiler compiles makes a .cu.o too)."""
    for name, pattern in KINDS:
        if name == "nvcc .cu objects" and nvcc is not None:
            if output in nvcc:
                return name
        elif re.search(pattern, output):
            return name
    return "other steps"


def nvcc_outputs(build):
    """The outputs of the build's compile steps that run nvcc (through a launcher
    or not), from `ninja -t compdb`; None when Ninja cannot say."""
    try:
        proc = subprocess.run(["ninja", "-C", build, "-t", "compdb"], stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True, check=True)
        entries = json.loads(proc.stdout)
    except (OSError, subprocess.CalledProcessError, ValueError):
        return None
    found = set()
    for e in entries:
        words = e.get("command", "").split()[:2]
        if "output" in e and any(os.path.basename(w) == "nvcc" for w in words):
            found.add(e["output"])
    return found


def ninja_log_steps(build):
    """The steps that made each output, from .ninja_log (v5: ms start, ms end,
    mtime, output, command hash; a later line for an output replaces an earlier
    one, as in Ninja): [(seconds, [outputs])], one entry per command (a command
    with several outputs has one line per output)."""
    path = os.path.join(build, ".ninja_log")
    latest = {}
    try:
        with open(path) as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) == 5 and parts[0].isdigit():
                    latest[parts[3]] = (int(parts[0]), int(parts[1]), parts[4])
    except OSError:
        return []
    steps = {}
    for output, key in latest.items():
        steps.setdefault(key, []).append(output)
    return [((end - start) / 1000.0, outs) for (start, end, _), outs in steps.items()]


def step_report(build, top=15, nvcc=None):
    """Lines: the sum of step time per kind, then the slowest steps. nvcc: as for
    step_kind (None: asked of Ninja)."""
    steps = ninja_log_steps(build)
    if not steps:
        return [f"(no {os.path.join(build, '.ninja_log')} to read)"]
    if nvcc is None:
        nvcc = nvcc_outputs(build)
    kinds = {}
    for secs, outs in steps:
        kind = step_kind(outs[0], nvcc)
        n, total, times = kinds.get(kind, (0, 0.0, []))
        kinds[kind] = (n + 1, total + secs, times + [secs])
    lines = [f"  {'steps':<36} {'count':>5} {'sum':>8} {'median':>7} {'max':>7}"]
    for kind, (n, total, times) in sorted(kinds.items(), key=lambda kv: -kv[1][1]):
        times.sort()
        lines.append(f"  {kind:<36} {n:5d} {total:7.1f}s {times[len(times) // 2]:6.1f}s "
                     f"{times[-1]:6.1f}s")
    lines.append(f"  {'all steps':<36} {len(steps):5d} {sum(s for s, _ in steps):7.1f}s")
    lines.append("")
    lines.append(f"  the {top} slowest steps:")
    for secs, outs in sorted(steps, key=lambda s: -s[0])[:top]:
        more = f" (+{len(outs) - 1} more outputs)" if len(outs) > 1 else ""
        lines.append(f"  {secs:7.1f} s  {outs[0]}{more}  [{step_kind(outs[0], nvcc)}]")
    return lines


def test_program_targets(build):
    """The targets `ctest` builds before the tests run, read from the
    CTestCustom.cmake the configure step wrote ([] when there is none)."""
    try:
        with open(os.path.join(build, "CTestCustom.cmake")) as f:
            text = f.read()
    except OSError:
        return []
    m = re.search(r"--target ([^\"]+)\"\)", text)
    return m.group(1).split() if m else []


def build_folder(root: str, name: str) -> str:
    """The build folder name names (relative to root), resolved, which the clean
    build deletes first: a folder inside root, never root itself, however ".."
    or a link lead (SystemExit otherwise)."""
    root = os.path.realpath(root)
    build = os.path.realpath(os.path.join(root, name))
    if os.path.commonpath([build, root]) != root or build == root:
        sys.exit(f"bench-build: {build} must be a folder inside {root}")
    return build


def main() -> int:
    root = ROOT
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--dir", default="build/bench", help="the build folder (deleted first)")
    p.add_argument("--chapter", default="chapters/ch01-execution-model.md",
                   help="the chapter whose text step 3 changes")
    args = p.parse_args()
    build = build_folder(root, args.dir)
    chapter = os.path.join(root, args.chapter)
    with open("/proc/loadavg") as f:
        load = f.read().split()[0]
    print(f"bench-build: {os.cpu_count()} CPUs, load average {load} before starting", flush=True)
    results, ok, notes = {}, {}, []
    clean = clean_build(root, build, notes)
    if clean is None:
        return 1
    results["clean"], failed, report, env = clean
    ok["clean"] = results["clean"] <= TARGETS["clean"] and not failed
    results["noop"], noop_ok = noop_build(root, build, notes)
    ok["noop"] = results["noop"] <= TARGETS["noop"] and noop_ok
    results["chapter"], chapter_ok = chapter_build(root, build, chapter, args.chapter, notes)
    ok["chapter"] = results["chapter"] <= TARGETS["chapter"] and chapter_ok
    tests = test_programs(root, build, env, notes)

    names = {"clean": "clean build (configure + build)", "noop": "no-op rebuild",
             "chapter": f"one chapter changed ({args.chapter})"}
    print("\nbench-build results")
    for key in ("clean", "noop", "chapter"):
        print(f"  {names[key]:<52} {results[key]:7.2f} s  (target <= {TARGETS[key]:g} s)  "
              f"{'PASS' if ok[key] else 'FAIL'}")
    if tests is not None:
        print(f"  {'test programs (built by ctest before the tests)':<52} {tests[0]:7.2f} s  "
              f"(CPU {tests[1]:.1f} s; not part of the build's budget)")
    if failed:
        notes.append("the clean build failed: the book is broken, so every figure is suspect")
    for n in notes:
        print(f"  note: {n}")
    print("\nthe clean build's steps (from .ninja_log; steps overlap, so the sums exceed "
          "the wall clock):")
    for line in report:
        print(line)
    return 0 if all(ok.values()) else 1


def clean_build(root, build, notes):
    """1. Clean: configure + build into a fresh folder, with the book preset's
    settings, cold: no compiler cache. (seconds, whether the build failed, its
    steps' report, the cold environment), or None where it cannot be timed."""
    shutil.rmtree(build, ignore_errors=True)
    env, removed = cold_environment()
    if removed:
        print(f"bench-build: a cold build: without {', '.join(removed)} from the environment",
              flush=True)
    t_conf, rc, _, c_conf = timed(["cmake", "--preset", "book", "-B", build], root, env)
    if rc != 0:
        print("bench-build: FAIL: the configure step failed")
        return None
    launchers = cached_launchers(build)
    if launchers:
        print(f"bench-build: FAIL: the clean build would not be cold: {build}/CMakeCache.txt "
              f"sets {'; '.join(launchers)}")
        return None
    # -k 0: a failing step does not stop the rest, so the time still covers all the work.
    t_build, rc, _, c_build = timed(["cmake", "--build", build, "--", "-k", "0"], root, env)
    failed = rc != 0
    if failed:
        print("bench-build: FAIL: the clean build failed (timed to the end all the same)")
    notes.append(f"configure {t_conf:.1f} s + build {t_build:.1f} s; CPU time (user + system) "
                 f"{c_conf:.1f} s + {c_build:.1f} s on {os.cpu_count()} CPUs")
    return t_conf + t_build, failed, step_report(build), env


def noop_build(root, build, notes):
    """2. No-op: nothing to do. (seconds, whether nothing ran)."""
    t, rc, out, _ = timed(["cmake", "--build", build], root)
    ran = [s for s in ninja_steps(out) if s != CHAPTER_STEPS[0]]
    noop_ok = rc == 0 and "ninja: no work to do." in out and not ran
    if not noop_ok:
        notes.append("no-op rebuild did work: " + ("; ".join(ran) or f"exit {rc}"))
    return t, noop_ok


def chapter_build(root, build, chapter, chapter_name, notes):
    """3. One chapter's text changes: only Sphinx may run. The text is put back as it
    was, unless someone changed the file meanwhile (then theirs is kept).
    (seconds, whether only Sphinx ran)."""
    with open(chapter, "rb") as f:
        original = f.read()
    changed = original + b"\n<!-- bench-build: a change to the text -->\n"
    with open(chapter, "wb") as f:
        f.write(changed)
    try:
        t, rc, out, _ = timed(["cmake", "--build", build], root)
    finally:
        with open(chapter, "rb") as f:
            now = f.read()
        if now == changed:
            with open(chapter, "wb") as f:
                f.write(original)
        else:
            notes.append(f"{chapter_name} was changed by someone else during the run; left as it is")
    steps = ninja_steps(out)
    others = [s for s in steps if s not in CHAPTER_STEPS]
    chapter_ok = rc == 0 and CHAPTER_STEPS[1] in steps and not others
    if not chapter_ok:
        notes.append("one-chapter rebuild: " + (f"exit {rc}" if rc else "") +
                     (f" ran more than Sphinx: {'; '.join(others)}" if others else "") +
                     ("" if CHAPTER_STEPS[1] in steps else " Sphinx did not run"))
    # Bring the build back in line with the restored text (not timed).
    subprocess.run(["cmake", "--build", build], cwd=root, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    return t, chapter_ok


def test_programs(root, build, env, notes):
    """4. The test programs, which `ctest` builds before the tests run (its pre-test
    step, CTestCustom.cmake): timed for the record, not against the build's budget.
    (seconds, CPU seconds), or None where there are none."""
    test_targets = test_program_targets(build)
    if not test_targets:
        return None
    t_tests, rc, _, c_tests = timed(["cmake", "--build", build, "--target", *test_targets], root, env)
    if rc != 0:
        notes.append(f"the test programs ({' '.join(test_targets)}) did not build")
    return t_tests, c_tests


if __name__ == "__main__":
    sys.exit(main())
