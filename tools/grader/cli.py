# SPDX-License-Identifier: MIT
"""tools/grade: grade exercise submissions, sandboxed; or write the student bundle.

    tools/grade SUBMISSION [--out DIR]             one submission (a folder or archive
                                                   laid out like exercises/)
    tools/grade --batch FOLDER [--out DIR]         every folder or archive in FOLDER
                                                   (one per student), a results folder
                                                   each, and a class summary
    tools/grade --batch FOLDER --shard K/N --out DIR
                                                   the K-th of N shares of FOLDER (for
                                                   N machines; see tools/grader/course.py)
    tools/grade --merge DIR... --out DIR           the shards' results folders merged:
                                                   the class summary one batch writes
    tools/grade --bundle FILE.tar.gz [--chapter KEY]...
                                                   the student bundle: exercises, visible
                                                   tests, build files; no solutions, no
                                                   hidden tests; all the chapters' or
                                                   those named (the site's download of
                                                   a chapter is its bundle)
    tools/grade --gradescope-package FILE.zip [--chapter KEY]...
                                                   Gradescope's autograder: setup.sh,
                                                   run_autograder and the book's sources
                                                   (tools/grader/gradescope.py); its CPU
                                                   exercises, the GPU ones left out

Each grading writes to its output folder:
    results.json   Gradescope's format        junit.xml   one test case per test set
    table.txt      the table printed          build.log   the compilers' output
A batch writes one such folder per submission, under students/, and beside it
the class summary: summary.{txt,csv,json} (each submission's scores; per test
set the mean, the median and the pass rate), statistics.csv, and gradebook.csv
(Canvas's and Moodle's import: one row per student, keyed by the student's ID
and email where --roster or Gradescope's submission_metadata.yml in FOLDER
gives them). tools/grader/course.py says what each holds.

The grader compiles nothing of the repository's: the book's own build makes a
kit (target exercise-kit, described by <build>/exercises/kit.json): the test
objects, the Catch2 mains, the libraries. By default tools/grade configures and
builds one in build/grade-kit; --kit BUILD uses another configured build (e.g.
build/book); --no-kit-build trusts it to be built already. The bundle reads
only the kit's description (kit.json, written when the build is configured):
--bundle never builds the kit.

Untrusted code runs only inside bubblewrap (see tools/grader/sandbox.py). Where
bwrap cannot run, tools/grade says why and refuses; --trusted grades without a
sandbox, for code you trust (the solutions, your own work).

Exit status: 0 when every submission was graded (whatever the scores), 1 when a
batch (or a merge) holds one that could not be read or graded (the others are),
2 when grading could not start (bad arguments, a bad roster or metadata, no kit,
no sandbox; a merge: shards missing or of different batches).
"""
from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import traceback
from dataclasses import asdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import NoReturn

from . import course, reports, speed, submission, timing
from .grading import GradeResult, Grader, Options
from .kit import Kit, KitError
from .timing import Timings
from .sandbox import GiB, Bind, Limits, Sandbox, SandboxError, become_subreaper, gpu_env

ROOT = Path(__file__).resolve().parents[2]
STUDENTS = "students"  # a batch's per-student folders: out/students/<name>/, apart from the summary
VISIBILITIES = ("hidden", "after_due_date", "after_published", "visible")


def fail(message: str) -> NoReturn:
    print(f"tools/grade: {message}", file=sys.stderr)
    sys.exit(2)


def say(message: str) -> None:
    print(f"tools/grade: {message}", file=sys.stderr, flush=True)


def parse(argv: list[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="tools/grade", description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    _what_to_grade(ap)
    _how_to_grade(ap)
    a = ap.parse_args(argv)
    _check(ap, a)
    return a


def _what_to_grade(ap: argparse.ArgumentParser) -> None:
    """The arguments that say what to do: grade one submission or a batch (or a
    shard of one), merge shards, or write the bundle or Gradescope's package."""
    ap.add_argument("submission", nargs="?", help="a folder or archive laid out like exercises/")
    what = ap.add_mutually_exclusive_group()
    what.add_argument("--batch", metavar="FOLDER", help="grade every folder or archive in FOLDER")
    what.add_argument("--bundle", metavar="FILE", help="write the student bundle (.tar.gz) and stop")
    what.add_argument("--gradescope-package", metavar="FILE.zip",
                      help="write Gradescope's autograder package (.zip) and stop")
    what.add_argument("--merge", nargs="+", metavar="DIR",
                      help="merge the results folders of every shard of a batch (--shard) into "
                           "--out: the class summary one batch would write")
    ap.add_argument("--shard", metavar="K/N",
                    help="with --batch: grade only the K-th of N shares of FOLDER's entries (in "
                         "sorted order, entry i goes to share i mod N + 1); --merge joins them")
    ap.add_argument("--roster", metavar="FILE",
                    help="with --batch or --merge: a CSV roster (columns student, id, email, "
                         "name, login, section) naming who handed in each submission")
    ap.add_argument("--assignment", default="Exercises", metavar="NAME",
                    help="with --batch or --merge: the gradebook's score column (Canvas: the "
                         "assignment's name; default %(default)s)")
    ap.add_argument("--chapter", action="append", default=[], metavar="KEY",
                    help="with --bundle: only this chapter's exercises (repeatable; default all)")
    ap.add_argument("--depfile", metavar="FILE",
                    help="with --bundle: also write the files it was made from, as a depfile "
                         "(for the build)")


def _how_to_grade(ap: argparse.ArgumentParser) -> None:
    """The arguments that say where the results and the kit are, and how to grade:
    the limits, the GPU, the jobs, the seed, the sandbox and the folders."""
    ap.add_argument("--out", help="the results folder (default build/grade/<name>, "
                                  "or build/grade/batch)")
    ap.add_argument("--kit", metavar="BUILD",
                    help="a configured book build holding the kit "
                         "(default: build/grade-kit, made when missing)")
    ap.add_argument("--no-kit-build", action="store_true",
                    help="do not bring the kit up to date first (it is built already)")
    ap.add_argument("--exercise", action="append", default=[], metavar="ID",
                    help="grade only this exercise (<key>/<ex>; repeatable)")
    ap.add_argument("--timeout", type=int, default=0, metavar="S",
                    help="at most S seconds per test set (default: each exercise's own)")
    ap.add_argument("--build-timeout", type=int, default=120, metavar="S",
                    help="seconds per compile or link (default 120)")
    ap.add_argument("--memory", type=int, default=2, metavar="GIB",
                    help="address space per test process, GiB (default 2)")
    ap.add_argument("--hidden-visibility", default="hidden", choices=VISIBILITIES,
                    help="Gradescope visibility of the hidden test sets (default hidden)")
    ap.add_argument("--without-gpu", choices=("refuse", "leave-out", "zero"), default="refuse",
                    help="where GPU test sets cannot run (no GPU here): refuse to grade (the "
                         "default), leave them out of the maximum (leave-out), or count them as "
                         "zero (zero); the grade's output states the choice")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1, metavar="N",
                    help="steps (a compile, a link, a test set) run side by side, of the "
                         "exercises of a submission and of the submissions of a batch "
                         "(default: the number of CPUs, %(default)s here); 1: one after another")
    ap.add_argument("--seed", type=int, default=0, metavar="N",
                    help="draw every test set's inputs from seed N (1 to 2^31 - 1): a regrade "
                         "with the seed a grading reports repeats its inputs (default: a fresh "
                         "seed per submission, stated in every output)")
    ap.add_argument("--trusted", action="store_true",
                    help="no sandbox: only for code you trust")
    ap.add_argument("--work-dir", metavar="DIR", default="",
                    help="where the fresh grading folders go (default: the system's temporary "
                         "folder; never inside the repository; it must allow running programs)")
    ap.add_argument("--keep", action="store_true", help="keep the grading folder (debugging)")
    ap.add_argument("--timings", metavar="FILE",
                    help="write where the time went (JSON: one span per step; "
                         "tools/grader/tests/bench_grade.py sums them)")


def _check(ap: argparse.ArgumentParser, a: argparse.Namespace) -> None:
    """Refuse arguments that do not go together (argparse's error); --shard is
    read into its numbers."""
    if (a.bundle or a.gradescope_package) and a.submission:
        ap.error("--bundle and --gradescope-package take no submission")
    if a.chapter and not (a.bundle or a.gradescope_package):
        ap.error("--chapter goes with --bundle or --gradescope-package")
    if a.depfile and not a.bundle:
        ap.error("--depfile goes with --bundle")
    if not (a.bundle or a.gradescope_package or a.batch or a.merge or a.submission):
        ap.error("name a submission, --batch FOLDER, --merge DIR..., --bundle FILE or "
                 "--gradescope-package FILE")
    if (a.batch or a.merge) and a.submission:
        ap.error("--batch and --merge take no other submission")
    if a.shard and not a.batch:
        ap.error("--shard goes with --batch")
    if a.shard:
        try:
            a.shard = course.parse_shard(a.shard)
        except ValueError as e:
            ap.error(str(e))
    if (a.roster or a.assignment != "Exercises") and not (a.batch or a.merge):
        ap.error("--roster and --assignment go with --batch or --merge")
    if a.merge and not a.out:
        ap.error("--merge needs --out DIR (a folder apart from the shards')")
    if a.jobs < 1:
        ap.error("--jobs takes a number of 1 or more")
    if a.seed and not 1 <= a.seed < 2**31:
        ap.error("--seed takes a number from 1 to 2^31 - 1")


def load_kit(a: argparse.Namespace, built: bool = True) -> Kit:
    """The kit of --kit (or build/grade-kit, configured when missing); with built,
    brought up to date (unless --no-kit-build) and checked complete."""
    if a.kit:
        build = Path(a.kit).resolve()
    else:
        build = ROOT / "build" / "grade-kit"
        if not (build / "exercises" / "kit.json").is_file():
            say(f"configuring the grading kit in {build} (once)")
            cmd = ["cmake", "--preset", "book", "-B", str(build), "-DBOOK_DOCS=OFF"]
            carry = ROOT / ".carry" / "include"
            if carry.is_dir():
                cmd.append(f"-DBOOK_HOST_INCLUDE={carry}")
            p = subprocess.run(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, errors="replace")
            if p.returncode != 0:
                fail(f"configuring {build} failed:\n{p.stdout[-3000:]}")
    try:
        kit = Kit(build)
        if not built:
            return kit
        if not a.no_kit_build:
            say(f"bringing the kit up to date ({build}, target exercise-kit)")
            log = build / "exercises" / "kit-build.log"
            kit.build(log)
            kit = Kit(build)
        kit.check()
    except KitError as e:
        fail(str(e))
    for ex in a.exercise:
        if ex not in [e.id for e in kit.exercises]:
            fail(f"--exercise {ex}: no such exercise (known: {', '.join(e.id for e in kit.exercises)})")
    return kit


def gpu_state(kit: Kit, grader: Grader, box: Sandbox) -> tuple[bool, str]:
    """(can GPU tests run here, why not): asked of the book's own probe, never of a submission."""
    if not kit.cuda:
        return False, "no CUDA compiler (nvcc) where the kit was built"
    probe = grader.staged.host(grader.staged.gpu_probe) if grader.staged.gpu_probe else None
    if probe is None:
        return False, "the kit has no GPU probe"
    try:
        p = subprocess.run([str(probe)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, errors="replace", timeout=120)
    except subprocess.TimeoutExpired:
        return False, "no GPU (the grader's GPU probe timed out)"
    if p.returncode != 0:
        # What then becomes of the GPU sets (refused, left out, zero) main() says, once.
        return False, ("no GPU here (the grader's GPU probe: "
                       + (p.stdout.strip().splitlines() or ["it failed"])[-1] + ")")
    # Again where the sets run, confined as they are (bubblewrap, or --trusted's
    # Landlock and seccomp filter): a confinement the GPU's driver cannot work under
    # is said once, here, not as every GPU set's broken worker.
    limits = Limits(memory=0, data=16 * GiB, wall=120, cpu=120, open_files=1024)
    try:
        r = box.run([grader.staged.gpu_probe], [Bind(grader.root / "kit", "/kit")], limits,
                    cwd="/tmp", env=gpu_env(), gpu=True)
    except SandboxError as e:
        r = None
        why = str(e)
    if r is not None and r.exit == 0:
        return True, ""
    if r is not None:
        why = (r.stdout + r.stderr).strip() or r.how_it_ended(limits)
    say(f"WARNING: a GPU is here, but the sandbox cannot reach it ({why})")
    return False, f"the sandbox cannot reach the GPU ({why})"


def safe_name(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", name).strip("._") or "submission"


def main(argv: list[str] | None = None) -> int:
    a = parse(sys.argv[1:] if argv is None else argv)
    if a.bundle or a.gradescope_package:  # a package written from the kit's sources, no grading
        from . import bundle, gradescope
        kit = load_kit(a, built=False)
        try:
            if a.bundle:
                bundle.write(kit, Path(a.bundle), a.chapter, a.depfile)
            else:
                gradescope.write(kit, Path(a.gradescope_package), a.chapter, a.hidden_visibility)
        except (OSError, KitError, ValueError) as e:
            fail(f"writing {'the bundle' if a.bundle else 'the Gradescope package'} failed: {e}")
        return 0
    if a.merge:
        return merge(a)
    klass = class_inputs(a) if a.batch else None  # a bad roster stops before any grading

    kit = load_kit(a)
    become_subreaper()  # no descendant outlives tools/grade (Sandbox.reap)
    timings = Timings() if a.timings else timing.NONE
    with timings.span("probe the sandbox"):
        box, why = Sandbox.probe(trusted=a.trusted)
    if box is None:
        fail(f"{why}.\nUntrusted submissions are graded only inside the sandbox; this grader "
             "refuses to run them without one. Install bubblewrap (apt-get install bubblewrap) "
             "where user namespaces are allowed, or, for code you trust only, pass --trusted.")
    box.timings = timings
    if box.note:
        say(box.note)
    opt = Options(timeout=a.timeout, build_timeout=a.build_timeout, memory=a.memory * GiB,
                  only=tuple(a.exercise), keep=a.keep, work_root=a.work_dir, jobs=a.jobs,
                  seed=a.seed)
    grader = Grader(kit, box, opt, timings)
    try:
        with timings.span("probe the GPU"):
            grader.gpu_ok, grader.gpu_note = gpu_state(kit, grader, box)
        gpu_sets = [f"{e.id} {s.name}" for e in grader.exercises() if e.gpu for s in e.sets]
        unbuilt = [e for e in grader.exercises() if e.gpu and not e.built and kit.cuda]
        if grader.gpu_ok and unbuilt:
            # A GPU is here, but the kit was configured where none was.
            grader.gpu_ok, grader.gpu_note = False, "not built: " + unbuilt[0].not_built
        policy = ""
        if gpu_sets and not grader.gpu_ok:
            if a.without_gpu == "refuse":
                fail(f"{len(gpu_sets)} GPU test sets cannot run here ({grader.gpu_note}), and a "
                     "grade without them would count them as zero on Gradescope. Grade where a "
                     "GPU is, choose the CPU exercises (--exercise), or say what to do: "
                     "--without-gpu leave-out (out of this grade's maximum) or --without-gpu zero.")
            policy = (f"{len(gpu_sets)} GPU test sets could not run here ({grader.gpu_note}): "
                      + ("left out of this grade's maximum (--without-gpu leave-out)."
                         if a.without_gpu == "leave-out" else
                         "counted as zero (--without-gpu zero)."))
            grader.opt.without_gpu = a.without_gpu
            say(policy)
        grader.policy = policy
        if a.batch:
            return batch(a, grader, klass)
        sub = Path(a.submission)
        out = Path(a.out) if a.out else ROOT / "build" / "grade" / safe_name(submission.submission_name(sub))
        box.hide.append(out.resolve())
        say(f"grading {sub} ({box.mode}{', GPU tests run' if grader.gpu_ok else ''})")
        try:
            result = grader.grade(sub)
        except SandboxError as e:
            fail(f"the sandbox failed (a grader problem, not the submission's): {e}")
        with timings.span("write the results"):
            text = reports.write_all(result, out, a.hidden_visibility, grader.policy)
        print(text, end="")
        print(f"results: {out / 'results.json'}; JUnit: {out / 'junit.xml'}; "
              f"compiler output: {out / 'build.log'}")
        return 0
    finally:
        with timings.span("clean up"):
            grader.close()
        box.reap()
        if a.timings:
            timings.write(a.timings)


class ClassInputs:
    """What a batch knows of its class before grading: the roster and Gradescope's
    metadata (read first, so that bad input stops the batch before any grading)."""

    def __init__(self, roster: list[course.Person] | None,
                 metadata: dict[str, list[course.Person]] | None) -> None:
        self.roster, self.metadata = roster, metadata


def class_inputs(a: argparse.Namespace) -> ClassInputs:
    folder = Path(a.batch)
    if not folder.is_dir():
        fail(f"--batch {folder}: no such folder")
    try:
        roster = course.read_roster(a.roster) if a.roster else None
        meta = folder / course.METADATA
        metadata = course.read_metadata(meta) if meta.is_file() and not meta.is_symlink() else None
    except course.CourseError as e:
        fail(str(e))
    if metadata is not None:
        say(f"read {meta}: the submitters of {len(metadata)} submissions")
    return ClassInputs(roster, metadata)


def batch(a: argparse.Namespace, grader: Grader, klass: ClassInputs) -> int:
    folder = Path(a.batch)
    shard_dir = f"shard-{a.shard[0]}-of-{a.shard[1]}" if a.shard else "batch"
    out = Path(a.out) if a.out else ROOT / "build" / "grade" / shard_dir
    grader.box.hide.append(out.resolve())
    entries = sorted(p for p in folder.iterdir() if not p.name.startswith(".")
                     and not (klass.metadata is not None and p.name == course.METADATA))
    if not entries:
        fail(f"--batch {folder}: the folder is empty")
    names = _result_names(entries)
    todo = [(p, name) for i, (p, name) in enumerate(zip(entries, names))
            if course.in_shard(i, a.shard)]
    if a.shard:
        say(f"shard {a.shard[0]} of {a.shard[1]}: {len(todo)} of the {len(entries)} submissions")

    def begin(item: tuple[Path, str]):
        p, name = item
        say(f"grading {p.name} -> {out / STUDENTS / name}")
        try:
            return grader.begin(p), ""
        except Exception:  # one submission's failure never stops the others
            return None, traceback.format_exc()

    def finish(item: tuple[Path, str], started) -> tuple[str, str, GradeResult | None, str]:
        (p, name), (pending, error) = item, started
        dest = out / STUDENTS / name
        try:
            if pending is None:
                raise RuntimeError(error.strip().splitlines()[-1] if error else "not graded")
            result = grader.finish(pending)
            with grader.timings.span("write the results", name):
                reports.write_all(result, dest, a.hidden_visibility, grader.policy)
            return (name, p.name, result, "")
        except Exception as e:  # one submission's failure never stops the others
            reports.write_atomically(dest / "error.txt", error or traceback.format_exc())
            return (name, p.name, None, reports.clip_note(f"{type(e).__name__}: {e}"))

    # Two phases over the whole class: every submission's builds and visible test
    # sets, then every hidden set (Grader.begin, Grader.finish), so that no hidden
    # set's worker runs beside a worker whose output a student sees. Submissions
    # side by side (their steps share the --jobs slots), in order in the summary; a
    # few more at a time than slots, so that none waits idle.
    width = max(1, min(len(todo), grader.opt.jobs + 1))
    with ThreadPoolExecutor(max_workers=width, thread_name_prefix="submission") as pool:
        started = list(pool.map(begin, todo))
    with ThreadPoolExecutor(max_workers=width, thread_name_prefix="submission") as pool:
        rows = list(pool.map(finish, todo, started))
    errors = sum(1 for r in rows if r[2] is None or r[2].error)
    doc = _class_summary(a, grader, klass, rows, names)
    text = course.write_summary(out, doc)
    print(text, end="")
    print(f"per-student results in {out / STUDENTS}/<student>/; summary: {out / 'summary.csv'}; "
          f"gradebook: {out / 'gradebook.csv'}")
    return 1 if errors else 0


def _result_names(entries: list[Path]) -> list[str]:
    """Each entry's results folder name: its submission's name, made safe, with -2,
    -3, ... after a name already taken."""
    names = []
    used = set()
    for p in entries:
        name = safe_name(submission.submission_name(p))
        base, n = name, 2
        while name in used:
            name, n = f"{base}-{n}", n + 1
        used.add(name)
        names.append(name)
    return names


def _class_summary(a: argparse.Namespace, grader: Grader, klass: ClassInputs, rows, names) -> dict:
    """The class summary of a batch's rows (name, source, result, error): a record
    per submission with its submitters, and every set's points."""
    records = []
    for name, source, result, error in rows:
        rec = course.record(name, source, result, error)
        found = None
        if klass.metadata is not None:
            found = klass.metadata.get(source, klass.metadata.get(submission.submission_name(Path(source))))
        rec["submitters"] = [asdict(p) for p in found or []]
        records.append(rec)
    course.identify(records, klass.roster)
    sets = [{"exercise": e.id, "set": s.name, "points": s.points, "gpu": e.gpu}
            for e in grader.exercises() for s in e.sets]
    for e in grader.exercises():  # the speed points' line, where the contract gives them
        try:
            points = speed.spec_from(e.speed).points if e.speed else 0
        except speed.SpecError:
            points = 0
        if points:
            sets.append({"exercise": e.id, "set": "speed", "points": points, "gpu": e.gpu})
    shard = ({"index": a.shard[0], "count": a.shard[1], "class": names} if a.shard else None)
    return course.summary_doc(sets, records, klass.roster, a.roster or "",
                              klass.metadata is not None, a.assignment, shard)


def merge(a: argparse.Namespace) -> int:
    """--merge: the shards' results folders into one, and the class summary."""
    out = Path(a.out)
    try:
        roster = course.read_roster(a.roster) if a.roster else None
        text, bad = course.merge([Path(d) for d in a.merge], out, roster, a.roster or "")
    except course.CourseError as e:
        fail(str(e))
    except OSError as e:
        fail(f"merging into {out} failed: {e}")
    print(text, end="")
    print(f"per-student results in {out / STUDENTS}/<student>/; summary: {out / 'summary.csv'}; "
          f"gradebook: {out / 'gradebook.csv'}")
    return 1 if bad else 0
