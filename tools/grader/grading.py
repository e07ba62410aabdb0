# SPDX-License-Identifier: MIT
"""Grading one submission: stage, compile, link and run each exercise, sandboxed.

For each exercise of the kit, in a grading folder of its own (fresh, outside
the repository, removed afterwards):

  stage    src/<tid>/: the contract's headers (the book's copy) and the student's
           files, exactly those the contract names; nothing else.
  compile  each student source, in a sandbox that sees src/<tid>/ (read-only),
           the public headers of the libraries (/kit/include) and obj/<tid>/
           (writable): no test, no solution, no other exercise.
  link     an exercise with a bridge (EXERCISE_FUNCTIONS): one worker, in a sandbox
           that sees the student's objects, the bridge's worker side, the driver
           and the libraries (no test); otherwise one program per test set, with
           that set's test objects.
  run      a bridged exercise: per set, the worker in a sandbox that sees it alone,
           and the set's judge (the kit's, trusted) outside it, talking over two
           pipes, the judge with the grading's seed (--rng-seed; fresh for each
           submission unless tools/grade --seed names one) and Catch2's XML report;
           otherwise each program in a sandbox, with its report. The set passes
           only on that report (catch_report.judge).
  score    a set that passes earns its points. One that does not earns none
           (all-or-nothing, the default), or, where its contract says
           EXERCISE_CREDIT per-case, its points split evenly over its test cases:
           k of n passed earn floor(points * k / n) (set_score), so a set earns
           its whole points only when every case passes, and the sets' scores add
           up to the exercise's. A case passes as catch_report counts it (run
           once, every assertion held, at least one); a case that did not run
           (the program crashed or hung before it) earns nothing, and a set
           that failed with every case passed counts one case short.

The exercises of a submission are graded side by side, each in a thread of its
own, and their steps (a compile, a link, a test set) take one of Options.jobs
slots each; within an exercise the steps run in order, as one user id of its own
(where the grader is root), and a GPU set runs alone on the GPU.

A set that cannot run (a GPU set without nvcc, or without a GPU the grader's
own probe can use) is left out of the maximum score, with a note; it is never
counted as passed or as zero. The student's program is never asked whether a
GPU is there.
"""
from __future__ import annotations

import os
import secrets
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from . import catch_report, speed, submission, timing
from .sandbox import (CANCEL_GRACE_S, GiB, MiB, Bind, Limits, Sandbox, SandboxError, finished, gpu_env, spawn,
                      toolchain_roots)

if TYPE_CHECKING:
    from .kit import Exercise, Kit

OUTPUT_SHOWN = 20000  # characters of a program's or compiler's output kept in the results

# glibc's malloc asks for transparent huge pages for its large blocks (the machine
# allows them on request: /sys/kernel/mm/transparent_hugepage/enabled "madvise"), in
# the judge and the worker: the arrays a test sends (2^25 floats in Exercise 3.4's
# visible set) cost a page fault per 4 KiB otherwise, which on a virtual machine is
# most of a grading's CPU time. The sandbox shows glibc the machine's setting
# (sandbox._system_binds). It changes no result: only how memory is mapped.
MALLOC_TUNING = {"GLIBC_TUNABLES": "glibc.malloc.hugetlb=1"}


@dataclass
class SetResult:
    name: str
    points: int
    hidden: bool
    tests: list
    status: str = "failed"     # passed | failed | error (did not build) | left out
    score: int = 0
    note: str = ""
    output: str = ""
    cases_passed: int = 0
    wall: float = 0.0
    missing: bool = False      # an error because the student's file was not handed in
    speed: dict = field(default_factory=dict)  # a speed line's measurements (tools/grader/speed.py)


@dataclass
class ExerciseResult:
    id: str
    title: str
    gpu: bool
    build: str = ""            # "" when it built; else why not
    build_log: str = ""
    notes: list = field(default_factory=list)
    sets: list = field(default_factory=list)


@dataclass
class GradeResult:
    name: str
    source: str
    exercises: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    error: str = ""            # the submission could not be graded at all
    execution_time: float = 0.0
    seed: int = 0              # every test set's inputs were drawn from it (Catch2's --rng-seed)

    @property
    def score(self) -> int:
        return sum(s.score for e in self.exercises for s in e.sets)

    @property
    def max_score(self) -> int:
        return sum(s.points for e in self.exercises for s in e.sets if s.status != "left out")

    @property
    def left_out(self) -> int:
        return sum(s.points for e in self.exercises for s in e.sets if s.status == "left out")


@dataclass
class Pending:
    """A grading between its two phases (Grader.begin, Grader.finish)."""
    result: GradeResult
    work: Path                 # the grading's folder: the workers the hidden sets run
    later: list                # one callable per hidden test set
    elapsed: float = 0.0       # seconds the first phase took


@dataclass
class JudgeRun:
    """What one test set's judge and worker left: the judge's exit status (None
    where it was killed), a note on how it ended, its output and its report, and
    the worker's sandboxed run (a SandboxError where the sandbox failed, None where
    it said nothing), and the seconds from the judge's start to both ends."""
    exit: int | None = None
    note: str = ""
    out: str = ""
    report: bytes = b""
    run: object = None
    wall: float = 0.0


@dataclass
class Options:
    timeout: int = 0           # cap on each set's timeout (0: the contract's)
    build_timeout: int = 120   # seconds per compile or link
    memory: int = 2 * GiB      # per test process (CPU tests)
    gpu_memory: int = 16 * GiB  # RLIMIT_DATA per GPU test process
    only: tuple = ()           # exercise ids to grade (empty: all)
    keep: bool = False         # keep the grading folder (for debugging the grader)
    work_root: str = ""        # where grading folders go (default: the system's temp folder)
    without_gpu: str = "leave-out"  # GPU sets that cannot run here: leave-out | zero
    jobs: int = 1              # steps (a compile, a link, a test set) run at a time
    seed: int = 0              # the seed of every grading's inputs (0: a fresh one each)


def clip(text: str, limit: int = OUTPUT_SHOWN) -> str:
    text = catch_report.printable(text)
    return text if len(text) <= limit else text[:limit // 2] + "\n...\n" + text[-limit // 2:]


class Grader:
    """Grades submissions against one staged kit with one sandbox."""

    def __init__(self, kit: Kit, sandbox: Sandbox, options: Options,
                 timings: timing.Timings = timing.NONE) -> None:
        self.kit = kit
        self.timings = timings         # tools/grade --timings
        self.box = sandbox
        self.opt = options
        # Set by tools/grade once its GPU probe has run (cli.gpu_state), before any grading:
        self.gpu_ok = False            # a GPU test can run here
        self.gpu_note = "no GPU probe"  # why not, when it cannot
        self.policy = ""               # what was done with GPU sets that cannot run (stated)
        # The steps of the exercises (and, in a batch, of the submissions) run side by
        # side, at most opt.jobs at a time; a GPU test set runs alone on the GPU.
        self.slots = threading.BoundedSemaphore(max(1, options.jobs))
        self.gpu_lock = threading.Lock()
        root = Path(options.work_root or tempfile.gettempdir()).resolve()
        repo = Path(kit.source_root).resolve()
        if root == repo or repo in root.parents:
            root = Path("/tmp")
        self.root = Path(tempfile.mkdtemp(prefix="book-grade-", dir=root))
        self.root.chmod(0o711)  # the sandbox's user may pass through, not list
        with timings.span("stage the kit"):
            self.staged = kit.stage(self.root / "kit")
        sandbox.hide += [repo, Path(kit.build_dir).resolve()]
        sandbox.toolchain = toolchain_roots(kit.tools())

    def close(self) -> None:
        if not self.opt.keep:
            shutil.rmtree(self.root, ignore_errors=True)

    def exercises(self) -> list[Exercise]:
        return [e for e in self.kit.exercises if not self.opt.only or e.id in self.opt.only]

    # -- one submission ------------------------------------------------------------
    def grade(self, path: str | Path) -> GradeResult:
        """Grade one submission: every visible test set of its exercises, then,
        once none of them is running, the hidden ones (begin, finish)."""
        return self.finish(self.begin(path))

    def begin(self, path: str | Path) -> Pending:
        """The first phase of a grading: read the submission, build each exercise
        and run its visible test sets. What the hidden sets need waits in the
        Pending for finish(). A batch begins every submission before it finishes
        any: no hidden set's worker runs while a worker whose output a student
        sees is running, in this submission or any other."""
        start = time.monotonic()
        exercises = self.exercises()
        with self.timings.span("read the submission", str(path)):
            sub = submission.read(Path(path), {e.id: e.student_files for e in exercises},
                                  known=[e.id for e in self.kit.exercises])
        result = GradeResult(name=sub.name, source=sub.source, notes=list(sub.notes),
                             seed=self.opt.seed or secrets.randbelow(2**31 - 1) + 1)
        if sub.error:
            result.error = sub.error
        work = Path(tempfile.mkdtemp(prefix="sub-", dir=self.root))
        work.chmod(0o711)
        pending = Pending(result, work, [], time.monotonic() - start)
        try:
            # One thread per exercise; each step waits for one of the slots (jobs).
            with ThreadPoolExecutor(max_workers=max(1, len(exercises)),
                                    thread_name_prefix="exercise") as pool:
                futures = [pool.submit(self._grade_exercise, ex, sub, work, pending.later,
                                       result.seed)
                           for ex in exercises]
                result.exercises = [f.result() for f in futures]
        except BaseException:
            self.drop(pending)
            raise
        pending.elapsed = time.monotonic() - start
        return pending

    def finish(self, pending: Pending) -> GradeResult:
        """The second phase: the hidden test sets begin() left, then the clean-up."""
        start = time.monotonic()
        try:
            with ThreadPoolExecutor(max_workers=max(1, len(pending.later)),
                                    thread_name_prefix="hidden") as pool:
                for f in [pool.submit(step) for step in pending.later]:
                    f.result()
        finally:
            self.drop(pending)
        pending.result.execution_time = pending.elapsed + time.monotonic() - start
        return pending.result

    def drop(self, pending: Pending) -> None:
        """Remove a grading's folder (unless --keep)."""
        pending.later = []
        if not self.opt.keep:
            with self.timings.span("clean up"):
                shutil.rmtree(pending.work, ignore_errors=True)

    @contextmanager
    def _step(self, phase, what, gpu=False):
        """One step of a grading: it waits for a slot (and for the GPU), and is timed."""
        with self.slots:
            if gpu:
                self.gpu_lock.acquire()
            try:
                with self.timings.span(phase, what):
                    yield
            finally:
                if gpu:
                    self.gpu_lock.release()

    def _grade_exercise(self, ex, sub, work, later, seed):
        """Build the exercise and run its visible sets; each hidden set is appended
        to `later` (a callable, run by finish())."""
        files = sub.exercises.get(ex.id) or submission.ExerciseFiles()
        res, spec = self._new_result(ex, files)
        if self._not_graded(ex, sub, files, res):
            return res
        src, obj, bin_, uid = self._stage(ex, files, work)
        with self._step("compile", ex.id):
            ok, log = self._compile(ex, src, obj, uid)
            self.box.reap()
        if not ok:
            res.build = "did not compile"
            res.build_log = clip(log)
            _every_set(res, "error", "did not compile", "did not compile:\n" + clip(log))
        elif ex.bridged:
            self._judged_sets(ex, res, spec, log, obj, bin_, uid, seed, later)
        else:
            self._test_programs(ex, res, log, obj, bin_, uid, later)
        return res

    @staticmethod
    def _new_result(ex, files):
        """(the exercise's result with a line per set, its speed spec or None)."""
        res = ExerciseResult(id=ex.id, title=ex.title, gpu=ex.gpu)
        for s in ex.sets:
            res.sets.append(SetResult(name=s.name, points=s.points, hidden=s.hidden, tests=s.tests))
        spec = None
        if ex.speed:
            # The speed points (tools/grader/speed.py): one more line of the results,
            # "speed", graded after every test set of the exercise has passed.
            try:
                spec = speed.spec_from(ex.speed)
                res.sets.append(SetResult(name="speed", points=spec.points, hidden=False, tests=[]))
            except speed.SpecError as e:
                res.notes.append(f"no speed points: {e}")
        if files.ignored:
            res.notes.append("ignored (not part of the exercise): " + ", ".join(files.ignored[:20])
                             + (" ..." if len(files.ignored) > 20 else ""))
        return res, spec

    def _not_graded(self, ex, sub, files, res) -> bool:
        """Whether the exercise is not built at all (not built in the kit, a broken
        submission, files missing or refused, no GPU), each set saying why."""
        if ex.gpu and not ex.built and not self.kit.cuda:
            why = ex.not_built or "no CUDA compiler (nvcc) where the kit was built"
            _every_set(res, "left out", "not built: " + why)
            return True
        if sub.error:
            res.build = sub.error
            _every_set(res, "error", "not graded: " + sub.error, sub.error)
            return True
        # A file not handed in has one label everywhere: "missing" (the table, the
        # Gradescope test's name and output, JUnit's message, the class summary).
        missing = {n for n, why in files.problems.items() if why == "missing"}
        if not files.present or (files.problems and missing == set(files.problems)):
            res.build = (f"missing: no folder {ex.id}/ in the submission" if not files.present
                         else "missing: " + ", ".join(submission.shown(n) for n in sorted(missing)))
            _every_set(res, "error", res.build, res.build)
            for r in res.sets:
                r.missing = True
            return True
        if files.problems:
            res.build = "did not compile: " + "; ".join(
                f"{submission.shown(n)}: {why}" for n, why in files.problems.items())
            _every_set(res, "error", res.build, res.build)
            return True
        if ex.gpu and (not self.gpu_ok or not ex.built):
            # Nothing is compiled that will not run; the instructor chose what the
            # sets count (--without-gpu). A kit configured where no GPU was found
            # holds no GPU test programs, even where a GPU is now.
            why = self.gpu_note if not self.gpu_ok else "not built: " + ex.not_built
            if self.opt.without_gpu == "zero":
                note = f"not run here ({why}): counted as zero (--without-gpu zero)"
                _every_set(res, "failed", note, note)
            else:
                _every_set(res, "left out", why, why)
            return True
        return False

    def _stage(self, ex, files, work):
        """(src, obj, bin, uid): the contract's headers, then the student's files
        (their names are the contract's, so nothing of the student's can shadow a
        header), and the folders the exercise's own user writes."""
        src = work / "src" / ex.tid
        obj = work / "obj" / ex.tid
        bin_ = work / "bin" / ex.tid
        for d in (src, obj, bin_):
            d.mkdir(parents=True)
        for c in ex.contract_files:
            shutil.copyfile(self.staged.contract[ex.id] / c, src / c)
        for name, data in files.files.items():
            (src / name).write_bytes(data)
        for p in src.iterdir():
            p.chmod(0o644)
        src.chmod(0o755)
        # Every step of this exercise runs as a user of its own (where the grader is
        # root): no other exercise's or submission's step, side by side, shares it.
        uid = self.box.fresh_uid()
        self.box.give(obj, uid)
        self.box.give(bin_, uid)
        return src, obj, bin_, uid

    def _judged_sets(self, ex, res, spec, log, obj, bin_, uid, seed, later):
        """A bridged exercise: link its worker, then judge each set (and time its
        speed after the hidden sets, where it has speed points)."""
        with self._step("link the worker", ex.id):
            ok_w, log_w = self._link(ex, obj, bin_, uid)
            self.box.reap()
        res.build_log = clip(log + log_w)
        if not ok_w:
            res.build = "did not link"
            _every_set(res, "error", "did not link", "did not link:\n" + clip(log_w))
            return
        # Only the worker is needed from here on.
        shutil.rmtree(obj, ignore_errors=True)
        own = []
        for s, r in zip(ex.sets, res.sets):
            def judged(s=s, r=r):
                with self._step("judge a set", f"{ex.id} {s.name}", gpu=ex.gpu):
                    self._run_judged(ex, s, r, bin_, uid, seed)
            self._now_or_later(s, judged, own)
        if spec is None:
            later.extend(own)
            return

        def timed():
            # After this exercise's hidden sets (the gate), in the second phase.
            for step in own:
                step()
            with self._step("time the speed", ex.id, gpu=ex.gpu):
                self._run_speed(ex, spec, res, bin_, uid)
        later.append(timed)

    def _test_programs(self, ex, res, log, obj, bin_, uid, later):
        """An exercise of test programs: link one per set, then run each."""
        links = {}
        for s in ex.sets:
            with self._step("link a test program", f"{ex.id} {s.name}"):
                ok_s, log_s = self._link(ex, obj, bin_, uid, s)
            links[s.name] = (ok_s, log_s)
            if not ok_s and not s.hidden:
                log += log_s
        res.build_log = clip(log)
        for s, r in zip(ex.sets, res.sets):
            ok_s, log_s = links[s.name]
            if not ok_s:
                r.status, r.note = "error", "did not link"
                r.output = "did not link:\n" + clip(log_s)
                continue
            if ex.gpu and not self.gpu_ok:
                r.status, r.note = "left out", self.gpu_note
                r.output = r.note
                continue

            def program(s=s, r=r):
                with self._step("run a test program", f"{ex.id} {s.name}", gpu=ex.gpu):
                    self._run_set(ex, s, r, bin_, uid)
                    self.box.reap()
            self._now_or_later(s, program, later)

    @staticmethod
    def _now_or_later(s, step, later):
        """Run a visible set's step now; keep a hidden set's for the second phase."""
        if s.hidden:
            later.append(step)
        else:
            step()

    def _set_limits(self, ex):
        """(wall, limits, environment) of the student's code running one test set."""
        wall = min(ex.timeout, self.opt.timeout) if self.opt.timeout else ex.timeout
        limits = Limits(memory=self.opt.memory, processes=16, cpu=int(wall) + 5, file_size=64 * MiB,
                        open_files=256, tmp_size=256 * MiB, wall=wall, output=16 * MiB)
        env = dict(MALLOC_TUNING)
        if ex.gpu:
            limits.memory, limits.data, limits.open_files = 0, self.opt.gpu_memory, 1024
            env.update(gpu_env())
        return wall, limits, env

    def _limits(self, wall):
        return Limits(memory=4 * GiB, processes=32, cpu=int(wall) + 5, file_size=256 * MiB,
                      open_files=256, tmp_size=512 * MiB, wall=wall, output=16 * MiB)

    def _compile(self, ex, src, obj, uid):
        kit = self.kit
        binds = [Bind(src, "/work/src"), Bind(obj, "/work/obj", writable=True),
                 Bind(self.root / "kit" / "include", "/kit/include")]
        log = ""
        ok = True
        incs = []
        for i in self.staged.includes[ex.id]:
            incs += ["-I", i]
        defs = ["-D" + d for d in ex.defines]
        limits = self._limits(self.opt.build_timeout)
        for name in ex.sources:
            lang = kit.cuda if name.endswith(".cu") else kit.cxx
            if lang is None:
                return False, f"{name}: no CUDA compiler in the kit\n"
            cmd = lang["compile"] + ["-I", "/work/src"] + incs + defs + \
                ["-c", f"/work/src/{name}", "-o", f"/work/obj/{name}.o"]
            r = self.box.run(cmd, binds, limits, cwd="/work/src", uid=uid)
            log += f"$ compile {name}\n" + _streams(r)
            if not r.ok:
                if r.exit is None or r.timed_out:
                    log += f"the compiler: {r.how_it_ended(limits)}\n"
                ok = False
        return ok, log

    def _link(self, ex, obj, bin_, uid, s=None):
        """Set s's test program: the student's objects, the set's tests and the Catch2
        main; or, without s, the worker: the student's objects, the bridge's worker
        side, the driver and the libraries, no test code."""
        binds = [Bind(obj, "/work/obj"), Bind(bin_, "/work/bin", writable=True),
                 Bind(self.root / "kit" / "lib", "/kit/lib")]
        objs = [f"/work/obj/{n}.o" for n in ex.sources]
        if s is None:
            name, what = "worker", "the worker"
            binds.append(Bind(self.root / "kit" / "worker" / ex.tid, f"/kit/worker/{ex.tid}"))
            objs += self.staged.worker_objects[ex.id] + [self.staged.worker_main] + self.staged.link[ex.id]
        else:
            name, what = s.name, f"the {s.name} tests"
            binds.append(Bind(self.root / "kit" / "tests" / ex.tid / s.name, f"/kit/tests/{ex.tid}/{s.name}"))
            objs += self.staged.objects[(ex.id, s.name)] + self.staged.link[ex.id] \
                + [self.staged.gpu_main if ex.gpu else self.staged.catch_main]
        driver = self.kit.cuda["link"] if ex.gpu else self.kit.cxx["link"]
        limits = self._limits(self.opt.build_timeout)
        r = self.box.run(driver + objs + ["-o", f"/work/bin/{name}"], binds, limits, cwd="/work/obj", uid=uid)
        log = f"$ link {what}\n" + _streams(r)
        if not r.ok and (r.exit is None or r.timed_out):
            log += f"the linker: {r.how_it_ended(limits)}\n"
        return r.ok and (bin_ / name).is_file(), log

    def _run_judged(self, ex, s, r, bin_, uid, seed):
        """One test set of a bridged exercise: the worker in the sandbox, the judge
        (trusted, never loading the student's code) outside it; they talk over two
        pipes. The worker is told nothing but the calls: not the set, not the seed."""
        wall, limits, env = self._set_limits(ex)
        jr = self._judge_and_worker(ex, s, bin_, uid, seed, wall, limits, env)
        r.wall = jr.wall
        run = jr.run
        if isinstance(run, SandboxError):
            r.status, r.note = "failed", f"the sandbox failed: {run}"
            r.output = r.note
            return
        lost = [line for line in jr.out.splitlines() if "the link to the worker broke" in line]
        ended, worker_end = _how_it_ended(jr, lost, limits)
        verdict = catch_report.judge(jr.report, s.tests, ended, strip_prefix=self.kit.source_root)
        r.cases_passed = catch_report.passed_count(verdict) if verdict.cases else 0
        _scored(r, s, verdict)
        lines = [f"{r.status}: {r.note}" if r.note else r.status,
                 f"(inputs drawn from seed {seed}: tools/grade --seed {seed} repeats them)"]
        lines += _case_lines(verdict)
        if verdict.details:
            lines += ["", verdict.details]
        if lost:
            lines += ["", lost[0]]
        if worker_end:
            lines.append(worker_end)
        if run is not None:
            student = (run.stdout + run.stderr).rstrip()
            if student:
                lines += ["", "--- your code's output (the worker's) ---", student]
                if run.stdout_truncated or run.stderr_truncated:
                    lines.append("[... output cut short]")
            if run.output_limit:
                lines.append("the worker was stopped: it wrote more output than the limit")
        r.output = clip("\n".join(lines))

    def _judge_and_worker(self, ex, s, bin_, uid, seed, wall, limits, env) -> JudgeRun:
        """Run the worker (in the sandbox, on a thread) and the judge of set s, joined
        by two pipes, until both have ended; what the judge said and reported."""
        to_r, to_w = os.pipe()
        from_r, from_w = os.pipe()
        private = Path(tempfile.mkdtemp(prefix="judge-", dir=self.root))
        report = private / "report.xml"
        cancel = threading.Event()
        box_result = []

        def worker() -> None:
            try:
                box_result.append(self.box.run(["/work/worker", str(to_r), str(from_w)],
                                               [Bind(bin_ / "worker", "/work/worker")], limits,
                                               cwd="/tmp", env=env, gpu=ex.gpu,
                                               pass_fds=(to_r, from_w), cancel=cancel,
                                               uid=uid))
            except SandboxError as e:
                box_result.append(e)

        t = threading.Thread(target=worker, daemon=True)
        t.start()
        # The judge is trusted code, but what it reads is the worker's: it runs under
        # limits of its own (JUDGE_LIMITS), its output and report go to files of
        # bounded size, and only a bounded part of each is read back.
        judge_cmd = [str(self.staged.judges[(ex.id, s.name)]), "--worker-fds", f"{to_w},{from_r}",
                     "--rng-seed", str(seed)] + catch_report.CATCH_ARGS + ["-o", str(report)]
        judge_cmd = judge_limits(wall, ex.gpu) + ["--"] + judge_cmd
        out_path = private / "judge.out"
        start = time.monotonic()
        jr = JudgeRun()
        try:
            with open(out_path, "wb") as out_file:
                jp = spawn(judge_cmd, stdin=subprocess.DEVNULL, stdout=out_file,
                           stderr=subprocess.STDOUT, pass_fds=(to_w, from_r), cwd=private,
                           env=_tuned(os.environ))
        finally:
            os.close(to_w)
            os.close(from_r)
        try:
            jr.exit = jp.wait(timeout=wall + 15)
        except subprocess.TimeoutExpired:
            jp.kill()
            jp.wait()
            jr.note = f"timed out after {wall:g} s"
        finished(jp)
        if jr.exit is not None and jr.exit < 0:
            jr.note = judge_ended(-jr.exit)
        jr.out = read_bounded(out_path, JUDGE_OUTPUT_READ).decode("utf-8", "replace")
        self.timings.add("the judge (trusted)", f"{ex.id} {s.name}", start, time.monotonic())
        cancel.set()
        t.join()
        self.box.reap()
        jr.wall = time.monotonic() - start
        jr.run = box_result[0] if box_result else None
        try:
            if report.is_file():
                if report.stat().st_size > JUDGE_LIMITS["report"]:
                    jr.note = jr.note or "the judge's report is larger than the limit"
                else:
                    jr.report = read_bounded(report, JUDGE_LIMITS["report"])
        finally:
            shutil.rmtree(private, ignore_errors=True)
        return jr

    def _run_speed(self, ex, spec, res, bin_, uid):
        """The speed points (tools/grader/speed.py): rounds of a fresh reference
        worker (the solution's, in a sandbox of its own and as a user of its own)
        and a fresh worker of the student's, in turn, each judged by the speed
        judge (trusted, outside the sandbox: it holds the clock). Only where every
        test set of the exercise passed: correctness is a gate."""
        r = res.sets[-1]
        failed = [x.name for x in res.sets[:-1] if x.status != "passed"]
        if failed:
            r.status = "failed"
            r.note = ("not timed: correctness is a gate, and the " + ", ".join(failed) +
                      " test set" + ("s" if len(failed) > 1 else "") + " did not pass")
            r.output = r.note
            return
        reference = self.staged.reference_workers.get(ex.id)
        if reference is None or self.staged.speed_judge is None:
            r.status, r.note = "error", "not timed: the kit has no reference worker or speed judge"
            r.output = r.note
            return
        _, limits, env = self._set_limits(ex)
        limits.wall = spec.round_timeout
        limits.cpu = int(spec.round_timeout) + 5
        ref_uid = self.box.fresh_uid()

        def start_worker(binary, as_uid):
            def start(to_r, from_w):
                cancel = threading.Event()
                out = []

                def go():
                    try:
                        out.append(self.box.run(["/work/worker", str(to_r), str(from_w)],
                                                [Bind(binary, "/work/worker")], limits, cwd="/tmp",
                                                env=env, gpu=ex.gpu, pass_fds=(to_r, from_w),
                                                cancel=cancel, uid=as_uid))
                    except SandboxError as e:
                        out.append(e)
                t = threading.Thread(target=go, daemon=True)
                t.start()

                def finish():
                    # The judge is done: the worker ends on its closed pipe, or is
                    # killed with its whole sandbox (PID namespace) CANCEL_GRACE_S later.
                    cancel.set()
                    t.join()
                    self.box.reap()
                return finish
            return start

        workers = {"reference": start_worker(reference, ref_uid),
                   "student": start_worker(bin_ / "worker", uid)}
        prefix = speed_prlimit(spec)

        def run_round(side, seeds, null, round_seed):
            return speed.judge_round(str(self.staged.speed_judge), workers[side], spec, seeds, null,
                                     round_seed, judge_prefix=prefix)
        start = time.monotonic()
        gpu = {"before": speed.gpu_state()} if ex.gpu else {}
        result = speed.run(spec, run_round)
        if ex.gpu:
            gpu["after"] = speed.gpu_state()
        result.gpu = gpu
        r.wall = time.monotonic() - start
        r.status, r.score, r.note = result.status, result.points, result.note
        r.output = clip(speed.report(result, spec))
        r.speed = {"ratio": result.ratio, "range": list(result.ratio_range), "points": result.points,
                   "rounds": result.rounds, "stopped": result.stopped, "gpu": gpu}
        self.timings.add("speed rounds", f"{ex.id}: {len(result.rounds)}", start, time.monotonic())

    def _run_set(self, ex, s, r, bin_, uid):
        _, limits, env = self._set_limits(ex)
        binds = [Bind(bin_ / s.name, "/work/test")]
        report = "/tmp/catch-report.xml"
        cmd = ["/work/test"] + catch_report.CATCH_ARGS + ["-o", report]
        try:
            run = self.box.run(cmd, binds, limits, cwd="/tmp", env=env, report=report, gpu=ex.gpu,
                               uid=uid)
        except SandboxError as e:
            r.status, r.note = "failed", f"the sandbox failed: {e}"
            r.output = r.note
            return
        r.wall = run.wall
        ended = None if run.exit == 0 else run.how_it_ended(limits)
        if run.timed_out or run.output_limit or run.supervisor_lost:
            verdict = catch_report.Verdict(False, ended, [], [])
        elif run.report_too_large:
            verdict = catch_report.Verdict(False, "the report is larger than the limit", [], [])
        else:
            verdict = catch_report.judge(run.report, s.tests, ended, strip_prefix=self.kit.source_root)
        r.cases_passed = catch_report.passed_count(verdict) if verdict.cases else 0
        _scored(r, s, verdict)
        lines = [f"{r.status}: {r.note}" if r.note else r.status]
        lines += _case_lines(verdict)
        if verdict.details:
            lines += ["", verdict.details]
        if run.stdout.strip():
            lines += ["", "--- the program's output ---", run.stdout.rstrip()]
            if run.stdout_truncated:
                lines.append("[... output cut short]")
        if run.stderr.strip():
            lines += ["", "--- the program's error output ---", run.stderr.rstrip()]
            if run.stderr_truncated:
                lines.append("[... output cut short]")
        r.output = clip("\n".join(lines))


# What the trusted judge may use while it reads a worker's answers: address space
# (data segment for a GPU set's judge, which links the CUDA runtime), the size of
# any file it writes (its report, its output), and CPU time beyond the set's wall.
# A judge past one fails the set (its worker's doing); the grader goes on.
JUDGE_LIMITS = {"memory": 3 * GiB, "file_size": 32 * MiB, "report": 32 * MiB}
JUDGE_OUTPUT_READ = 64 * 1024  # of the judge's own output (its lines on a broken link)


def set_score(points: int, credit: str, passed: int, cases: int, set_passed: bool) -> int:
    """A test set's score: its points when the set passed (catch_report.judge);
    otherwise none (all-or-nothing), or per case floor(points * k / cases), k
    the cases that passed: rounded down, so a partial set never earns more than
    its share. A set that failed with every case passed (the program ended
    badly, or ran a test case nobody expected) counts one case short: only a
    set that passes earns its whole points."""
    if set_passed:
        return points
    if credit != "per-case" or cases <= 0:
        return 0
    return points * max(0, min(passed, cases - 1)) // cases


def _scored(r, s, verdict) -> None:
    """r's status, score and note from the verdict on set s."""
    if verdict.passed:
        r.status, r.score = "passed", s.points
        r.note = f"{len(s.tests)} of {len(s.tests)} test cases"
        return
    r.status, r.note = "failed", verdict.reason
    r.score = set_score(s.points, s.credit, r.cases_passed, len(s.tests), False)
    if s.credit == "per-case":
        r.note += (f"; per-case credit: {r.cases_passed} of {len(s.tests)} test cases passed, "
                   f"{r.score} of {s.points} points")


def speed_prlimit(spec):
    """The prlimit words that run a speed judge (it reads a worker's answers)."""
    from .sandbox import PRLIMIT
    return [PRLIMIT, f"--as={JUDGE_LIMITS['memory']}", f"--fsize={JUDGE_LIMITS['file_size']}",
            f"--cpu={int(spec.round_timeout) + 15}", "--core=0", "--"]


def judge_limits(wall, gpu):
    """The prlimit words that run a set's judge within JUDGE_LIMITS."""
    from .sandbox import PRLIMIT
    memory = f"--data={JUDGE_LIMITS['memory']}" if gpu else f"--as={JUDGE_LIMITS['memory']}"
    return [PRLIMIT, memory, f"--fsize={JUDGE_LIMITS['file_size']}", f"--cpu={int(wall) + 15}",
            "--core=0"]


def judge_ended(sig):
    """Why a judge ended on signal `sig`, for the set's note."""
    why = {signal.SIGXFSZ: "it wrote more than the limit of "
                           f"{JUDGE_LIMITS['file_size'] // MiB} MiB (the worker's answers)",
           signal.SIGXCPU: "it ran out of CPU time",
           signal.SIGSEGV: "it ran out of memory or stack (the worker's answers)",
           signal.SIGABRT: "it ran out of memory (the worker's answers), or aborted"}
    try:
        name = signal.Signals(sig).name
    except ValueError:
        name = f"signal {sig}"
    return f"the judge was ended by {name}: " + why.get(sig, "a limit of its own")


def read_bounded(path, limit):
    """At most `limit` bytes of the file at `path` (b"" if it cannot be read)."""
    try:
        with open(path, "rb") as f:
            return f.read(limit)
    except OSError:
        return b""


def _how_it_ended(jr: JudgeRun, lost: list[str], limits) -> tuple:
    """(how the set's run ended, for the verdict, or None where it ended cleanly;
    what is wrong with the worker's end, or "")."""
    run = jr.run
    ended = None
    if jr.note:
        ended = jr.note
    elif run is not None and run.timed_out:
        ended = f"the worker: {run.how_it_ended(limits)}"
    elif jr.exit != 0:
        ended = lost[0] if lost else f"exit status {jr.exit}"
    # The set passes only if the worker also ended by itself, cleanly, when the
    # judge was done: a worker whose supervisor is gone (a program that kills
    # what it can), that did not end within the grace, or that ended on a signal
    # or a nonzero status fails however many answers reached the judge first.
    worker_end = ""
    if run is None:
        worker_end = "the worker: no word from its sandbox"
    elif run.cancelled:
        worker_end = (f"the worker: it did not end within {CANCEL_GRACE_S:g} s of the judge's "
                      "last call, and was killed")
    elif not run.ok:
        worker_end = f"the worker: {run.how_it_ended(limits)}"
    if worker_end:
        if ended and not (run is not None and run.timed_out):
            ended += f" ({worker_end})"
        elif not ended:
            ended = worker_end
    return ended, worker_end


def _every_set(res, status: str, note: str, output: str = "") -> None:
    """Give every set of an exercise's result one status, note and output."""
    for s in res.sets:
        s.status, s.note, s.output = status, note, output


def _tuned(environ):
    """environ with MALLOC_TUNING added (to the tunables it sets already, if any)."""
    env = dict(environ)
    for k, v in MALLOC_TUNING.items():
        env[k] = f"{env[k]}:{v}" if env.get(k) else v
    return env


def _case_lines(verdict):
    """One line a test case of the verdict: passed, FAILED or did not run."""
    def mark(c):
        if c.seen == 1 and c.success and not c.failed_assertions and c.passed_assertions:
            return "passed"
        return "did not run" if c.seen == 0 else "FAILED"
    return [f"  [{mark(c)}] {c.name}" for c in verdict.cases]


def _streams(r):
    text = r.stdout + r.stderr
    if r.stdout_truncated or r.stderr_truncated:
        text += "\n[... output cut short]\n"
    return text
