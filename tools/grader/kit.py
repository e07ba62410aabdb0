# SPDX-License-Identifier: MIT
"""The grading kit: what the book's own build compiled for grading, trusted.

cmake/BookExercises.cmake builds it (target exercise-kit) and describes it in
<build>/exercises/kit.json: each exercise's contract, the compiled objects of
each test set, the Catch2 mains, the libraries the tests link, the GPU probe,
and the compile and link commands for a student's files. None of it depends on
a submission, so it is compiled once and reused by every grading; a submission
never writes to it (the sandbox sees a read-only copy).

Kit.stage() copies what one grading needs into the grading folder, laid out as
the sandbox sees it under /kit:
    /kit/include/<n>/...        the headers of the libraries' include folders
    /kit/contract/<tid>/...     each exercise's contract headers (exercises/)
    /kit/lib/<n>-<name>         the libraries and the Catch2 mains
    /kit/tests/<tid>/<set>/...  each test set's objects (a link sees only its own set)
    /kit/worker/<tid>/...       a bridged exercise's worker side (no test in it)
and, outside /kit (never seen by a sandbox), judges/<tid>/<set>: the judge of
each set of a bridged exercise, run by the grader as trusted code; for speed
grading (EXERCISE_SPEED), judges/speed_judge and reference/<tid>/worker (the
solution's worker, which the grader times in a sandbox of its own).
    /kit/gpu_probe
"""
from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

HEADER_SUFFIXES = {".h", ".hh", ".hpp", ".hxx", ".cuh", ".inl", ".ipp", ".tcc"}
SYSTEM_PREFIXES = ("/usr/", "/lib/", "/opt/")  # visible in the sandbox anyway


class KitError(Exception):
    pass


@dataclass
class TestSet:
    name: str
    points: int
    hidden: bool
    test_file: str
    objects: list
    tests: list
    judge: str = ""  # the set's judge (an exercise with a bridge): runs outside the sandbox
    credit: str = "all-or-nothing"  # or per-case (EXERCISE_CREDIT; grading.set_score)


@dataclass
class Exercise:
    id: str
    title: str
    gpu: bool
    built: bool       # its test programs are in the kit (else not_built says why)
    timeout: int
    dir: str
    student_files: list
    sources: list
    contract_files: list
    include_dirs: list
    defines: list
    link: list
    sets: list = field(default_factory=list)
    test_support: list = field(default_factory=list)  # headers the test sets share (shipped)
    functions: list = field(default_factory=list)     # the worker's functions (EXERCISE_FUNCTIONS)
    worker_objects: list = field(default_factory=list)  # the bridge's worker side
    not_built: str = ""  # why its test programs are not in the kit (no nvcc, no GPU)
    speed: dict = field(default_factory=dict)  # EXERCISE_SPEED (tools/grader/speed.py); {}: none
    reference_worker: str = ""  # the solution's worker, timed against the student's

    @property
    def bridged(self) -> bool:
        """Judged in two processes: the set's judge (trusted) and the worker (the
        student's code with the bridge's worker side and the driver)."""
        return bool(self.functions)

    @property
    def speed_graded(self) -> bool:
        """Can be graded on its speed here: EXERCISE_SPEED, its code built, and the
        reference's worker (the solution's) that its time is measured against."""
        return bool(self.speed and self.built and self.reference_worker)

    @property
    def tid(self) -> str:
        return self.id.replace("/", ".")

    @property
    def points(self) -> int:
        return sum(s.points for s in self.sets)


class Kit:
    def __init__(self, build_dir: str | Path) -> None:
        self.build_dir = Path(build_dir).resolve()
        self.file = self.build_dir / "exercises" / "kit.json"
        if not self.file.is_file():
            raise KitError(f"no {self.file}: configure {self.build_dir} with the book's CMake "
                           "(BOOK_TESTS=ON) and build its target exercise-kit")
        try:
            raw = json.loads(self.file.read_text())
        except ValueError as e:
            raise KitError(f"{self.file}: not JSON ({e})") from e
        if raw.get("version") != 1:
            raise KitError(f"{self.file}: version {raw.get('version')!r}; this grader reads version 1")
        self.raw = raw
        self.source_root = raw["source_root"]
        self.cxx = raw["cxx"]
        self.cuda = raw.get("cuda")
        self.catch_main = raw["catch_main"]
        self.worker_main = raw.get("worker_main", "")
        self.speed_judge = raw.get("speed_judge", "")
        self.gpu_main = raw.get("gpu_main") or None
        self.gpu_probe = raw.get("gpu_probe") or None
        self.libraries = raw.get("libraries", {})
        self.exercises = []
        for e in raw["exercises"]:
            ex = Exercise(
                id=e["id"], title=e["title"], gpu=e["gpu"], built=e["built"], timeout=e["timeout"],
                dir=e["dir"], student_files=e["student_files"], sources=e["sources"],
                contract_files=e["contract_files"],
                include_dirs=_unique(e["include_dirs"]), defines=_unique(e["defines"]),
                link=_unique(e["link"]), test_support=e.get("test_support", []),
                functions=e.get("functions", []), worker_objects=_unique(e.get("worker_objects", [])),
                not_built=e.get("not_built", ""), speed=e.get("speed", {}),
                reference_worker=e.get("reference_worker", ""))
            for s in e["sets"]:
                ex.sets.append(TestSet(name=s["name"], points=s["points"], hidden=s["hidden"],
                                       test_file=s["test_file"], objects=_unique(s["objects"]),
                                       tests=s["tests"], judge=s.get("judge", ""),
                                       credit=s.get("credit", "all-or-nothing")))
            self.exercises.append(ex)

    def tools(self) -> list[str]:
        """The programs the kit's compile and link commands run: each command's first
        word, and the host compiler nvcc is given (-ccbin, --compiler-bindir)."""
        out = []
        for lang in (self.cxx, self.cuda):
            for cmd in (lang or {}).values():
                if not isinstance(cmd, list) or not cmd:
                    continue
                out.append(str(cmd[0]))
                for i, a in enumerate(cmd):
                    a = str(a)
                    for opt in ("-ccbin", "--compiler-bindir"):
                        if a.startswith(opt + "="):
                            out.append(a[len(opt) + 1:])
                        elif a == opt and i + 1 < len(cmd):
                            out.append(str(cmd[i + 1]))
        return _unique(out)

    def check_chapters(self, chapters) -> None:
        """Refuses (KitError) a chapter named that has no exercises in the kit."""
        known = sorted({e.id.split("/")[0] for e in self.exercises})
        for c in chapters:
            if c not in known:
                raise KitError(f"--chapter {c}: no exercises of that chapter (chapters with "
                               f"exercises: {', '.join(known) or 'none'})")

    def build(self, log: Path) -> None:
        """Bring the kit up to date (trusted: the repository's own code)."""
        cmd = ["cmake", "--build", str(self.build_dir), "--target", "exercise-kit"]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           errors="replace")
        log.write_text("$ " + " ".join(cmd) + "\n" + p.stdout)
        if p.returncode != 0:
            raise KitError(f"building the kit failed (log: {log}):\n" + p.stdout[-3000:])

    def check(self) -> None:
        """Every file the kit names exists."""
        missing = []
        files = [self.catch_main, self.worker_main] + (
            [self.gpu_probe] if self.cuda else []) + ([self.gpu_main] if self.gpu_main else [])
        for ex in self.exercises:
            if ex.built:
                files += ex.link + [o for s in ex.sets for o in s.objects] + ex.worker_objects
                if ex.bridged:
                    missing += [f"{ex.id} {s.name}: no judge in kit.json" for s in ex.sets
                                if not s.judge]
                    files += [s.judge for s in ex.sets]
                if ex.speed:
                    if not ex.reference_worker:
                        missing.append(f"{ex.id}: EXERCISE_SPEED, but no reference worker in kit.json")
                    files += [ex.reference_worker, self.speed_judge]
            files += [str(Path(ex.dir) / c) for c in ex.contract_files]
        for f in files:
            if f and not Path(f).is_file():
                missing.append(f)
        if missing:
            raise KitError(f"the kit in {self.build_dir} is not built (missing {missing[0]}"
                           f"{' and others' if len(missing) > 1 else ''}): run "
                           f"cmake --build {self.build_dir} --target exercise-kit")

    def stage(self, dest: str | Path) -> Staged:
        """Copy what grading needs into dest (the sandbox's /kit); return a Staged kit."""
        dest = Path(dest)
        st = Staged(dest)
        lib_no = {}

        def lib(path: str) -> str:
            if path not in lib_no:
                lib_no[path] = len(lib_no)
                name = f"{lib_no[path]}-{Path(path).name}"
                _copy(path, dest / "lib" / name)
                st.files[path] = f"/kit/lib/{name}"
            return st.files[path]

        inc_no = {}
        secret = [Path(self.source_root) / "solutions", Path(self.source_root) / "tests"]
        for ex in self.exercises:
            incs = []
            for d in ex.include_dirs:
                if d.startswith(SYSTEM_PREFIXES) or d == "/usr/include":
                    continue
                if any(_within(s, Path(d)) or _within(Path(d), s) for s in secret):
                    raise KitError(f"{ex.id}: the include folder {d} of its libraries holds or lies in "
                                   "solutions/ or tests/, which a submission must not see")
                if d not in inc_no:
                    inc_no[d] = len(inc_no)
                    _copy_headers(Path(d), dest / "include" / str(inc_no[d]))
                incs.append(f"/kit/include/{inc_no[d]}")
            st.includes[ex.id] = incs
            cdir = dest / "contract" / ex.tid
            cdir.mkdir(parents=True, exist_ok=True)
            for c in ex.contract_files:
                _copy(Path(ex.dir) / c, cdir / c)
            st.contract[ex.id] = cdir
            if not ex.built:
                continue
            st.link[ex.id] = [lib(p) if p.startswith("/") else p for p in ex.link]
            if ex.bridged:
                _stage_bridged(ex, dest, st)
                continue
            for s in ex.sets:
                objs = []
                for n, o in enumerate(s.objects):
                    name = f"{n}-{Path(o).name}"
                    _copy(o, dest / "tests" / ex.tid / s.name / name)
                    objs.append(f"/kit/tests/{ex.tid}/{s.name}/{name}")
                st.objects[(ex.id, s.name)] = objs
        st.catch_main = lib(self.catch_main)
        if self.worker_main:
            st.worker_main = lib(self.worker_main)
        if self.gpu_main:
            st.gpu_main = lib(self.gpu_main)
        # The speed judge, where an exercise graded on speed can be graded here (built,
        # with its reference worker): a kit without a GPU grades none.
        if self.speed_judge and any(e.speed_graded for e in self.exercises):
            judge = dest.parent / "judges" / "speed_judge"
            _copy(self.speed_judge, judge)
            judge.chmod(0o755)
            st.speed_judge = judge
        if self.gpu_probe:
            _copy(self.gpu_probe, dest / "gpu_probe")
            (dest / "gpu_probe").chmod(0o755)
            st.gpu_probe = "/kit/gpu_probe"
        for p in dest.rglob("*"):
            p.chmod(0o755 if p.is_dir() or p.name == "gpu_probe" else 0o644)
        dest.chmod(0o755)
        return st


def _stage_bridged(ex, dest: Path, st: Staged) -> None:
    """Stage a bridged exercise: its worker's objects in /kit, and outside it each
    set's judge and, where it is graded on speed, the reference worker."""
    objs = []
    for n, o in enumerate(ex.worker_objects):
        name = f"{n}-{Path(o).name}"
        _copy(o, dest / "worker" / ex.tid / name)
        objs.append(f"/kit/worker/{ex.tid}/{name}")
    st.worker_objects[ex.id] = objs
    # The judges run outside the sandbox; the sandbox never sees the tests.
    for s in ex.sets:
        judge = dest.parent / "judges" / ex.tid / s.name
        _copy(s.judge, judge)
        judge.chmod(0o755)
        st.judges[(ex.id, s.name)] = judge
    if ex.speed_graded:
        # The solution's worker: outside /kit, so no sandbox of the
        # student's sees it; the reference's own sandbox binds it alone.
        ref = dest.parent / "reference" / ex.tid / "worker"
        _copy(ex.reference_worker, ref)
        ref.chmod(0o755)
        st.reference_workers[ex.id] = ref


@dataclass
class Staged:
    root: Path
    files: dict = field(default_factory=dict)     # host path -> /kit path
    includes: dict = field(default_factory=dict)  # exercise id -> [/kit/include/<n>]
    contract: dict = field(default_factory=dict)  # exercise id -> host folder of its headers
    link: dict = field(default_factory=dict)      # exercise id -> [link items as seen inside]
    objects: dict = field(default_factory=dict)   # (exercise id, set) -> [/kit/tests/...]
    worker_objects: dict = field(default_factory=dict)  # exercise id -> [/kit/worker/...]
    judges: dict = field(default_factory=dict)    # (exercise id, set) -> host path (not in /kit)
    reference_workers: dict = field(default_factory=dict)  # exercise id -> host path (not in /kit)
    speed_judge: Path | None = None               # host path (not in /kit)
    worker_main: str = ""
    catch_main: str = ""
    gpu_main: str = ""
    gpu_probe: str = ""

    def host(self, inside: str) -> Path:
        """The host path of a /kit path."""
        return self.root / inside[len("/kit/"):]


def _within(path: str | Path, folder: str | Path) -> bool:
    try:
        Path(path).resolve().relative_to(Path(folder).resolve())
        return True
    except ValueError:
        return False


def _unique(items: list[str]) -> list[str]:
    out = []
    for i in items:
        if i and i not in out:
            out.append(i)
    return out


def _copy(src: str | Path, dst: str | Path) -> None:
    dst = Path(dst)
    dst.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dst)


def _copy_headers(src: Path, dst: Path) -> None:
    """The header files of an include folder (recursively), nothing else."""
    dst.mkdir(parents=True, exist_ok=True)
    if not src.is_dir():
        return
    for p in src.rglob("*"):
        if p.is_file() and not p.is_symlink() and p.suffix in HEADER_SUFFIXES:
            _copy(p, dst / p.relative_to(src))
