# SPDX-License-Identifier: MIT
"""Running untrusted programs: Debian's bubblewrap (bwrap) around a small supervisor.

Every compile, link and test of a submission runs as

    bwrap (new user, PID, network, IPC, UTS, cgroup namespaces; all capabilities
           dropped; a read-only view of /usr, a few files of /etc and the
           huge-page setting of /sys; a private /tmp of fixed size;
           --die-with-parent, --new-session)
      python3 supervisor (not dumpable, so the program cannot open its file
                          descriptors through /proc)
        prlimit (memory, processes, CPU time, file size, open files) program ...

and nothing of the host but what the caller binds (read-only unless asked) is
visible: no repository, no solutions, no other test set's objects. The
supervisor waits for the program, kills every other process of the sandbox,
then hands the grader one JSON line (exit status or signal) and the program's
report file (if any) on a pipe only it holds. When the program's time is up
the grader kills bwrap, and with it the PID namespace: no process of the
submission survives a run.

Every process in the sandbox runs under a seccomp filter (SECCOMP_FILTER, loaded
by bwrap --seccomp) that refuses, with EPERM, the calls through which two
sandboxes could signal each other through what they share (the read-only /usr,
the page cache, the kernel's keyrings): file locks and leases, directory and file
notification, page-cache residency, and the calls that reach another process or
the kernel's internals. The grader never runs a hidden test set beside a visible
one (grading.Grader.begin), so a channel the filter leaves (time, the load of the
machine) has no visible output to reach; see the README's "Editions and grading".

Where the grader runs as root, each sandbox runs bwrap as a user id of its own
(a high number no account uses), so that the process limit counts only that
sandbox's processes (the kernel exempts root from RLIMIT_NPROC).

Where bwrap cannot run, probe() says why; the grader then refuses untrusted
work unless told --trusted, and runs the same supervisor without bwrap: there
each program starts confined by Landlock to the system's files (read-only) and
its run's folders, and under the same seccomp filter, so that it cannot read the
repository, the tests, the solutions or another run's files, nor write outside
its folders (a Linux of 5.13 or later; where Landlock is missing, --trusted
refuses).
"""
from __future__ import annotations

import hashlib
import json
import os
import random
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import timing

BWRAP = os.environ.get("BOOK_GRADE_BWRAP", "bwrap")  # tests point this at a missing file
PYTHON = "/usr/bin/python3"
PRLIMIT = "/usr/bin/prlimit" if os.access("/usr/bin/prlimit", os.X_OK) else (shutil.which("prlimit") or "prlimit")
UID_BASE = 1_900_000_000  # sandbox user ids: UID_BASE .. UID_BASE + UID_SPAN - 1
UID_SPAN = 90_000_000
SANDBOX_UID = 65534  # the user id inside the sandbox

GiB = 1 << 30
MiB = 1 << 20
CANCEL_GRACE_S = 5  # how long a cancelled run has to end by itself before it is killed

# The supervisor, run inside the sandbox by /usr/bin/python3 -I -S -c.
# argv: ns|group fd report_path|"" program args...
# "ns": it runs in a PID namespace of its own, and ends every other process in it;
# "group" (--trusted, no namespace): it ends the program's process group only.
SUPERVISOR = r'''
import ctypes, json, os, signal, stat, struct, sys, time
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
libc.prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE 0: /proc/<me>/fd is not the program's
mode, fd, report, confined, argv = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], sys.argv[5:]


def confine(spec):
    """--trusted: no namespaces, so the program is confined here, before it starts:
    Landlock lets it read and run only the paths named (read-only, or also written
    when marked so), nothing else of the machine (no repository, no tests, no
    solutions, no other run's folder); then the seccomp filter of every sandbox."""
    abi = libc.syscall(444, None, 0, 1)  # landlock_create_ruleset(..., VERSION)
    if abi < 1:
        os.write(2, b"the grader cannot confine this run: the kernel has no Landlock\n")
        os._exit(126)
    handled = (1 << 13) - 1  # execute .. make_sym (ABI 1)
    if abi >= 3:
        handled |= 1 << 14  # truncate
    ruleset = libc.syscall(444, ctypes.byref(ctypes.c_uint64(handled)), 8, 0)
    read = (1 << 0) | (1 << 2) | (1 << 3)  # execute, read a file, read a folder
    file_rights = (1 << 0) | (1 << 1) | (1 << 2) | (1 << 14)
    for path, writable in spec["paths"]:
        try:
            pfd = os.open(path, os.O_PATH | os.O_CLOEXEC)
        except OSError:
            continue
        access = (handled if writable else read) & handled
        if not stat.S_ISDIR(os.fstat(pfd).st_mode):
            access &= file_rights
        rule = struct.pack("<Qi", access, pfd)
        if libc.syscall(445, ruleset, 1, rule, 0) != 0:  # landlock_add_rule
            os.write(2, ("cannot confine to %s\n" % path).encode())
            os._exit(126)
        os.close(pfd)
    libc.prctl(38, 1, 0, 0, 0)  # PR_SET_NO_NEW_PRIVS
    if libc.syscall(446, ruleset, 0) != 0:  # landlock_restrict_self
        os.write(2, b"the grader cannot confine this run (landlock_restrict_self)\n")
        os._exit(126)
    bpf = bytes.fromhex(spec["bpf"])
    program = ctypes.create_string_buffer(bpf, len(bpf))
    fprog = struct.pack("<HxxxxxxQ", len(bpf) // 8, ctypes.addressof(program))
    if libc.prctl(22, 2, ctypes.c_char_p(fprog), 0, 0) != 0:  # PR_SET_SECCOMP, FILTER
        os.write(2, b"the grader cannot load its seccomp filter\n")
        os._exit(126)
if mode == "group":
    # PR_SET_CHILD_SUBREAPER: a descendant whose parent ends (a double fork, setsid)
    # becomes this process's child, not init's, and is ended below with the rest.
    libc.prctl(36, 1, 0, 0, 0)
pid = os.fork()
if pid == 0:
    os.close(fd)
    null = os.open("/dev/null", os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    if mode == "group":
        os.setpgid(0, 0)
    if confined:
        confine(json.loads(confined))
    try:
        os.execv(argv[0], argv)
    except OSError as e:
        os.write(2, ("cannot run %s: %s\n" % (argv[0], e.strerror)).encode())
    os._exit(127)
t0 = time.monotonic()
while True:
    try:
        _, status = os.waitpid(pid, 0)
        break
    except InterruptedError:
        pass
wall = time.monotonic() - t0
me = os.getpid()
if mode == "group":
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    # Every descendant: as a subreaper, each one left is a child of this process
    # or a descendant of one; kill the children, reap them, until none is left.
    # (Sandbox.reap does the same for the grader: this text runs alone, -I -S,
    # inside the sandbox, and imports nothing of the grader's.)
    for _ in range(10000):
        kids = []
        for p in os.listdir("/proc"):
            if not p.isdigit():
                continue
            try:
                with open("/proc/%s/stat" % p) as f:
                    fields = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == me:
                kids.append(int(p))
        if not kids:
            break
        for k in kids:
            try:
                os.kill(k, signal.SIGKILL)
            except ProcessLookupError:
                pass
        while True:
            try:
                if os.waitpid(-1, os.WNOHANG)[0] == 0:
                    break
            except ChildProcessError:
                break
        time.sleep(0.001)
for _ in range(100 if mode == "ns" else 0):  # every other process of the sandbox, until none is left
    try:
        os.kill(-1, signal.SIGKILL)
    except ProcessLookupError:
        pass
    others = [p for p in os.listdir("/proc") if p.isdigit() and int(p) not in (1, me)]
    alive = []
    for p in others:
        try:
            with open("/proc/%s/stat" % p) as f:
                if f.read().rsplit(")", 1)[1].split()[0] != "Z":
                    alive.append(p)
        except OSError:
            pass
    if not alive:
        break
    time.sleep(0.01)
res = {"exit": os.WEXITSTATUS(status) if os.WIFEXITED(status) else None,
       "signal": os.WTERMSIG(status) if os.WIFSIGNALED(status) else None,
       "wall": wall, "report": None}
data = b""
if report:
    try:
        with open(report, "rb") as f:
            data = f.read(REPORT_LIMIT + 1)
        res["report"] = len(data)
    except OSError as e:
        res["report_error"] = e.strerror
out = os.fdopen(fd, "wb")
out.write(json.dumps(res).encode() + b"\n" + data)
out.close()
'''


# The seccomp filter of every sandbox: what it refuses, each with EPERM, and why.
# Written with Debian's libseccomp binding (python3-seccomp, run by /usr/bin/python3:
# the grader's own interpreter may be another) and handed to bwrap as BPF. Calls
# of another architecture's ABI (i386's int 0x80) are killed: libseccomp's default.
_F_LOCKS = {"F_GETLK": 5, "F_SETLK": 6, "F_SETLKW": 7, "F_OFD_GETLK": 36, "F_OFD_SETLK": 37,
            "F_OFD_SETLKW": 38, "F_SETLEASE": 1024, "F_GETLEASE": 1025, "F_NOTIFY": 1026}
RWF_NOWAIT = 0x8
SECCOMP_FILTER = {
    # File locks on a file every sandbox can open (under /usr): one sets, another tests.
    "flock": "file locks",
    "fcntl": ("file locks, leases, directory notification (dnotify)", list(_F_LOCKS.values())),
    # Events on a shared file or folder.
    "inotify_init": "file notification", "inotify_init1": "file notification",
    "inotify_add_watch": "file notification", "fanotify_init": "file notification",
    "fanotify_mark": "file notification",
    # Whether a page of a shared file is in the page cache (a grading after this one
    # could read what this one touched), and the calls that put pages there on purpose.
    "mincore": "page-cache residency", "cachestat": "page-cache residency",
    "fadvise64": "page-cache residency", "readahead": "page-cache residency",
    "preadv2": ("page-cache residency (RWF_NOWAIT)", "nowait"),
    "pwritev2": ("page-cache residency (RWF_NOWAIT)", "nowait"),
    "io_uring_setup": "page-cache residency and a second way to every call",
    "io_uring_enter": "page-cache residency and a second way to every call",
    "io_uring_register": "page-cache residency and a second way to every call",
    # Kernel keyrings are kept per user id, across namespaces.
    "add_key": "keyrings", "request_key": "keyrings", "keyctl": "keyrings",
    # Other processes and the kernel's internals.
    "ptrace": "other processes", "process_vm_readv": "other processes",
    "process_vm_writev": "other processes", "kcmp": "other processes",
    "perf_event_open": "performance counters", "bpf": "kernel programs",
    "userfaultfd": "page faults", "name_to_handle_at": "file handles",
    "open_by_handle_at": "file handles",
    # New namespaces and mounts: the sandbox's are fixed.
    "unshare": "namespaces", "setns": "namespaces", "mount": "mounts", "umount2": "mounts",
    "pivot_root": "mounts", "fsopen": "mounts", "fsmount": "mounts", "open_tree": "mounts",
    "move_mount": "mounts",
}
_SECCOMP_WRITER = r"""
import errno, json, os, seccomp, sys
spec = json.loads(sys.argv[1])
f = seccomp.SyscallFilter(defaction=seccomp.ALLOW)
deny = seccomp.ERRNO(errno.EPERM)
for name, rule in spec.items():
    try:
        number = seccomp.resolve_syscall(seccomp.Arch(), name)
    except Exception:
        continue  # a call this kernel's headers do not know
    if number < 0:
        continue
    if isinstance(rule, list) and rule[1] == "nowait":
        f.add_rule(deny, number, seccomp.Arg(5, seccomp.MASKED_EQ, %d, %d))
    elif isinstance(rule, list):
        for cmd in rule[1]:
            f.add_rule(deny, number, seccomp.Arg(1, seccomp.EQ, cmd))
    else:
        f.add_rule(deny, number)
out = os.fdopen(1, "wb")
f.export_bpf(out)
out.flush()
""" % (RWF_NOWAIT, RWF_NOWAIT)
_BPF = []
# A machine without Debian's python3-seccomp (a GPU machine with no Debian packages)
# reads the filter that `tools/book carry` wrote on one that has it: BOOK_SECCOMP_FILTER
# names that file, {"filter": <sha256 of SECCOMP_FILTER>, "machine": ..., "bpf": <hex>}.
CARRIED_FILTER_ENV = "BOOK_SECCOMP_FILTER"
_CARRIED_MAX = 1 << 20


def _filter_id() -> str:
    return hashlib.sha256(json.dumps(SECCOMP_FILTER, sort_keys=True).encode()).hexdigest()


def _written_bpf() -> bytes:
    """SECCOMP_FILTER compiled to BPF by libseccomp (python3-seccomp), in a child."""
    try:
        p = subprocess.run([PYTHON, "-I", "-c", _SECCOMP_WRITER, json.dumps(SECCOMP_FILTER)],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        why = str(e)
    else:
        if p.returncode == 0 and p.stdout and len(p.stdout) % 8 == 0:
            return p.stdout
        err = p.stderr.decode("utf-8", "replace").strip().splitlines()
        why = err[-1] if err else "no output"
    raise SandboxError(f"cannot write the seccomp filter (Debian's python3-seccomp for {PYTHON} "
                       "is needed, or a filter carried by `tools/book carry` named by "
                       f"{CARRIED_FILTER_ENV}): {why}")


def carried_bpf(path: str) -> bytes:
    """The BPF of a filter file written by write_carried_filter(), refused unless it was
    made from this grader's SECCOMP_FILTER on this kind of processor."""
    try:
        with open(path, "rb") as f:
            raw = f.read(_CARRIED_MAX + 1)
    except OSError as e:
        raise SandboxError(f"{path}: cannot read the carried seccomp filter: {e}") from e
    if len(raw) > _CARRIED_MAX:
        raise SandboxError(f"{path}: the carried seccomp filter is over {_CARRIED_MAX} bytes")
    try:
        spec = json.loads(raw)
        bpf = bytes.fromhex(spec["bpf"])
        made_for, machine = spec["filter"], spec["machine"]
    except (ValueError, TypeError, KeyError) as e:
        raise SandboxError(f"{path}: not a carried seccomp filter ({e})") from e
    if made_for != _filter_id():
        raise SandboxError(f"{path}: the carried seccomp filter was made for another filter "
                           "than this grader's; run `tools/book carry` again")
    if machine != os.uname().machine:
        raise SandboxError(f"{path}: the carried seccomp filter is for {machine}, "
                           f"this machine is {os.uname().machine}")
    if not bpf or len(bpf) % 8:
        raise SandboxError(f"{path}: the carried seccomp filter's program is malformed")
    return bpf


def write_carried_filter(path: str) -> None:
    """Write the filter for a machine without python3-seccomp (`tools/book carry`)."""
    spec = {"filter": _filter_id(), "machine": os.uname().machine, "bpf": _written_bpf().hex()}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(spec, f)
        f.write("\n")


def seccomp_bpf() -> bytes:
    """SECCOMP_FILTER as the BPF program bwrap loads (made once per grader): written by
    libseccomp where python3-seccomp is, else the carried filter BOOK_SECCOMP_FILTER names."""
    if not _BPF:
        try:
            _BPF.append(_written_bpf())
        except SandboxError:
            carried = os.environ.get(CARRIED_FILTER_ENV)
            if not carried:
                raise
            _BPF.append(carried_bpf(carried))
    return _BPF[0]


def _bpf_fd() -> int:
    """A descriptor bwrap reads the filter from (a copy in memory)."""
    fd = os.memfd_create("book-grade-seccomp", os.MFD_CLOEXEC)
    data = seccomp_bpf()
    os.write(fd, data)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def _trusted_paths(binds, gpu, toolchain=()):
    """What a --trusted run may reach ([path, writable]): the system's programs and
    libraries, the kit's compilers (toolchain_roots), /proc, /dev and (for CUDA) /sys,
    read-only but /dev and (for CUDA) the run's own threads in /proc, and the run's binds."""
    paths = [[str(p), False] for p in _SYSTEM_ROOTS if p != Path("/sys") or gpu]
    paths += [[str(p), False] for p in toolchain]
    paths += [[f, False] for f in ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d",
                                   "/proc", "/sys/kernel/mm/transparent_hugepage")]
    if gpu:
        # The NVIDIA driver (570 and later) names its threads in cuInit, writing
        # /proc/<pid>/task/<tid>/comm, and fails with cudaErrorOperatingSystem when
        # it may not. The supervisor opens the path in the run's own process, before
        # exec, so the rule is that process's threads' folder and nothing else of /proc.
        paths.append(["/proc/self/task", True])
    paths.append(["/dev", True])
    paths += [[str(b.host), b.writable] for b in binds]
    return paths


# The grader's own children that are running now (a sandbox's bwrap, a judge): the
# steps of a grading may run side by side (tools/grade --jobs), so reap() ends only
# the children that are none of these, those that escaped a run that is over.
_LIVE = set()
_SPAWN = threading.Lock()


def spawn(cmd: Sequence[str], **kwargs: Any) -> subprocess.Popen:
    """subprocess.Popen, the child counted as running until finished(proc)."""
    with _SPAWN:
        proc = subprocess.Popen(cmd, **kwargs)
        _LIVE.add(proc.pid)
    return proc


def finished(proc: subprocess.Popen) -> None:
    """proc (from spawn) has ended and been waited for."""
    with _SPAWN:
        _LIVE.discard(proc.pid)


def become_subreaper() -> None:
    """PR_SET_CHILD_SUBREAPER for tools/grade: descendants whose parents end become
    its children (Sandbox.reap ends them), never init's."""
    import ctypes
    try:
        ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)
    except OSError:
        pass


class SandboxError(Exception):
    """The sandbox itself failed (not the program in it): a grader problem."""


@dataclass
class Limits:
    memory: int = 2 * GiB          # RLIMIT_AS (address space) per process
    data: int = 0                  # RLIMIT_DATA instead, for CUDA (which reserves huge address space)
    processes: int = 64            # RLIMIT_NPROC
    cpu: int = 60                  # RLIMIT_CPU, seconds
    file_size: int = 64 * MiB      # RLIMIT_FSIZE
    open_files: int = 256          # RLIMIT_NOFILE
    tmp_size: int = 256 * MiB      # the private /tmp
    shm_size: int = 64 * MiB       # the private /dev/shm
    wall: float = 60.0             # seconds before the whole sandbox is killed
    output: int = 16 * MiB         # stdout + stderr read before the sandbox is killed
    keep_output: int = 64 * 1024   # of each stream, kept for the report
    report: int = 32 * MiB         # the largest report file taken

    def prlimit_args(self) -> list[str]:
        args = [PRLIMIT, f"--nproc={self.processes}", f"--cpu={self.cpu}",
                f"--fsize={self.file_size}", f"--nofile={self.open_files}", "--core=0"]
        args.append(f"--data={self.data}" if self.data else f"--as={self.memory}")
        return args


@dataclass
class Result:
    exit: int = None               # exit status, when the program exited
    signal: int = None             # the signal that ended it
    timed_out: bool = False
    output_limit: bool = False
    supervisor_lost: bool = False  # no word from the supervisor: it was killed
    wall: float = 0.0
    stdout: str = ""
    stderr: str = ""
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    report: bytes = None           # the report file, when one was asked for and written
    report_too_large: bool = False
    cancelled: bool = False        # ended by the caller (cancel), not by itself

    @property
    def ok(self) -> bool:
        return self.exit == 0 and not (self.timed_out or self.output_limit or self.supervisor_lost)

    def how_it_ended(self, limits: Limits | None = None) -> str:
        """One line: how the program ended, for a person."""
        if self.timed_out:
            return f"timed out after {limits.wall:g} s" if limits else "timed out"
        if self.output_limit:
            return "stopped: wrote more output than the limit" + (
                f" ({limits.output // MiB} MiB)" if limits else "")
        if self.supervisor_lost:
            return "the sandbox's supervisor was killed (by the program?)"
        if self.signal is not None:
            try:
                name = signal.Signals(self.signal).name
            except ValueError:
                name = f"signal {self.signal}"
            why = {"SIGXCPU": " (CPU time limit)", "SIGXFSZ": " (file size limit)",
                   "SIGKILL": " (killed)", "SIGSEGV": " (invalid memory access)",
                   "SIGABRT": " (aborted)", "SIGFPE": " (arithmetic error)",
                   "SIGBUS": " (bus error)"}.get(name, "")
            return f"killed by {name}{why}"
        if self.exit is not None:
            return f"exit status {self.exit}"
        return "ended for no known reason"


@dataclass
class Bind:
    host: Path
    inside: str
    writable: bool = False


def _bwrap_path():
    return shutil.which(BWRAP) if os.sep not in BWRAP else (BWRAP if os.access(BWRAP, os.X_OK) else None)


_SYSTEM_ROOTS = [Path(p) for p in ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
                                   "/etc/alternatives", "/sys", "/run/nvidia-persistenced")]


def toolchain_roots(programs: Sequence[str]) -> list[Path]:
    """The folders, outside the system's, that hold the compilers a kit runs (a GCC
    installed in /opt/gcc, say): each program's install prefix (the folder above its
    bin/, else its own folder), for the path it is named by and for the file it
    resolves to. A sandboxed compile and link run sees them read-only at their own
    paths, as it sees /usr; a program found under the system's folders adds nothing."""
    roots: list[Path] = []
    for prog in programs:
        p = Path(prog)
        if not p.is_absolute():
            continue
        for f in (p, p.resolve()):
            d = f.parent
            root = d.parent if d.name == "bin" else d
            if root == Path("/") or any(root == s or s in root.parents for s in _SYSTEM_ROOTS):
                continue
            if root not in roots and root.is_dir():
                roots.append(root)
    return roots


def _system_binds():
    """The read-only view of the system: /usr, the usual links into it, and a few files of /etc."""
    args = ["--ro-bind", "/usr", "/usr"]
    for d in ("bin", "sbin", "lib", "lib32", "lib64", "libx32"):
        p = Path("/") / d
        if p.is_symlink():
            args += ["--symlink", os.readlink(p), str(p)]
        elif p.is_dir():
            args += ["--ro-bind", str(p), str(p)]
    for f in ("/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d", "/etc/alternatives"):
        args += ["--ro-bind-try", f, f]
    # Whether transparent huge pages may be asked for: glibc's malloc reads it before
    # it asks (grading.MALLOC_TUNING); the machine's setting, nothing else of /sys.
    thp = "/sys/kernel/mm/transparent_hugepage"
    args += ["--ro-bind-try", thp, thp]
    return args


def _gpu_binds():
    """What a CUDA program needs of the host: the NVIDIA devices, /sys (read-only)."""
    args = []
    for dev in sorted(Path("/dev").glob("nvidia*")):
        args += ["--dev-bind", str(dev), str(dev)]
    for extra in ("/sys", "/run/nvidia-persistenced"):
        if Path(extra).exists():
            args += ["--ro-bind", extra, extra]
    return args


def gpu_env() -> dict[str, str]:
    """The GPU the grader was given (CUDA_VISIBLE_DEVICES, CTest's resource group),
    which is all of the grader's environment that sandboxed GPU code is shown."""
    return {k: v for k, v in os.environ.items()
            if k == "CUDA_VISIBLE_DEVICES" or k.startswith("CTEST_RESOURCE_GROUP")}


class Sandbox:
    """Where a submission's commands run. mode: 'bwrap' (as its own user id when
    the grader is root), or 'trusted' (no isolation: only for trusted code)."""

    def __init__(self, mode: str, note: str = "") -> None:
        self.mode = mode
        self.note = note
        self.hide = []  # host paths never to show (the repository, the kit, the results)
        self.toolchain = []  # the kit's compilers' folders outside the system's (toolchain_roots)
        self.uid = None
        self.enforce_nproc = True
        self.timings = timing.NONE  # tools/grade --timings: each run's span

    # -- choosing how to sandbox ------------------------------------------------
    @staticmethod
    def probe(trusted: bool = False) -> tuple[Sandbox | None, str | None]:
        """A working sandbox, or (None, why not)."""
        if trusted:
            box = Sandbox("trusted", "--trusted: no namespaces; each run is confined by Landlock "
                          "to the system's files and its own folders, and by the seccomp filter")
            box.enforce_nproc = False  # without a user of its own, the limit would count the grader's
            try:
                r = box.run(["/usr/bin/true"], [], Limits(wall=30), cwd="/tmp")
            except SandboxError as e:
                return None, str(e)
            if r.exit != 0:
                return None, ("--trusted cannot confine a run here (Landlock and seccomp are "
                              f"needed): {(r.stdout + r.stderr).strip() or r.how_it_ended()}")
            return box, None
        bwrap = _bwrap_path()
        if not bwrap:
            return None, f"bubblewrap ({BWRAP}) is not installed (Debian package bubblewrap)"
        if not os.access(PYTHON, os.X_OK) or not os.access(PRLIMIT, os.X_OK):
            return None, f"{PYTHON} and {PRLIMIT} are needed inside the sandbox"
        try:
            seccomp_bpf()
        except SandboxError as e:
            return None, str(e)
        errors = []
        candidates = []
        if os.geteuid() == 0:
            candidates.append(("uid", True))
        candidates.append(("self", os.geteuid() != 0))
        for kind, nproc in candidates:
            box = Sandbox("bwrap")
            box.bwrap = bwrap
            box.as_uid = kind == "uid"
            box.enforce_nproc = nproc
            try:
                r = box.run(["/usr/bin/true"], [], Limits(wall=30), cwd="/tmp")
            except SandboxError as e:
                errors.append(str(e))
                continue
            if r.exit == 0:
                if not nproc:
                    box.note = ("bwrap runs as root here: the process limit is not enforced "
                                "(the kernel exempts root)")
                return box, None
            errors.append(f"a test run in it ended with {r.how_it_ended()}: {r.stderr.strip()}")
        return None, "bubblewrap cannot make a sandbox here: " + "; ".join(errors)

    def fresh_uid(self) -> int | None:
        """A user id no other grading step has (root only; None elsewhere): the
        grader gives each exercise of each submission its own, so that the process
        limit counts only its processes, and steps that run side by side (tools/grade
        --jobs) cannot touch each other's files or processes."""
        if self.mode == "bwrap" and getattr(self, "as_uid", False):
            return UID_BASE + random.SystemRandom().randrange(UID_SPAN)
        return None

    def new_identity(self) -> int | None:
        """A fresh user id (fresh_uid), the default of the runs that name none."""
        self.uid = self.fresh_uid()
        return self.uid

    def give(self, path: str | Path, uid: int | None = None) -> None:
        """Let the sandbox's user (uid, or the default) write to a folder (and read
        what is in it)."""
        uid = self.uid if uid is None else uid
        if self.mode == "bwrap" and uid is not None:
            for root, dirs, files in os.walk(path):
                os.chown(root, uid, uid)
                for f in files:
                    os.chown(os.path.join(root, f), uid, uid, follow_symlinks=False)

    # -- running -------------------------------------------------------------------
    def _check_toolchain(self) -> None:
        """Refuses a compiler's folder that would show what must stay hidden: one inside
        a hidden path (its tmpfs would hide the compiler too), or, under --trusted
        (Landlock cannot take a folder back out), one that holds a hidden path."""
        for t in self.toolchain:
            for h in self.hide:
                if h == t or h in t.parents:
                    raise SandboxError(f"the kit's compiler lies in {t}, inside {h}, which graded code "
                                       "must not see: install the compiler outside it")
                if t in h.parents and self.mode != "bwrap":
                    raise SandboxError(f"the kit's compiler lies in {t}, which holds {h}; --trusted "
                                       "cannot hide a folder inside one it shows: install the "
                                       "compiler elsewhere, or grade in the bubblewrap sandbox")

    def run(self, argv: Sequence[str], binds: Sequence[Bind], limits: Limits, cwd: str,
            env: dict[str, str] | None = None, report: str | None = None, gpu: bool = False,
            pass_fds: Sequence[int] = (), cancel: threading.Event | None = None,
            uid: int | None = None) -> Result:
        """Run argv (paths as seen inside) and return a Result. pass_fds: file
        descriptors the program inherits (the same numbers), closed here once it has
        started; cancel: a threading.Event that ends the whole sandbox when set; uid:
        the user id it runs as, where the grader is root (default: the sandbox's)."""
        self._check_toolchain()
        if self.mode == "bwrap":
            prefix, bpf = self._bwrap_prefix(binds, limits, cwd, env, gpu)
            pass_fds = tuple(pass_fds) + (bpf,)
            popen_env = {"PATH": "/usr/bin:/bin"}
        else:
            # --trusted: no namespaces, so the paths the caller gave as seen inside
            # are the binds' host paths, and /tmp is a private folder of this run.
            tmp = tempfile.mkdtemp(prefix="book-grade-tmp-")
            binds = list(binds) + [Bind(Path(tmp), "/tmp", writable=True)]
            argv = [self._host_path(binds, str(a)) for a in argv]
            cwd = self._host_path(binds, cwd)
            report = self._host_path(binds, report) if report else report
            prefix = []
            popen_env = self._env(env)
            popen_env.update(HOME=tmp, TMPDIR=tmp)
        r_fd, w_fd = os.pipe()
        code = SUPERVISOR.replace("REPORT_LIMIT", str(int(limits.report)))
        mode = "ns" if self.mode == "bwrap" else "group"
        python = PYTHON if self.mode == "bwrap" or os.access(PYTHON, os.X_OK) else sys.executable
        confined = "" if self.mode == "bwrap" else json.dumps(
            {"paths": _trusted_paths(binds, gpu, self.toolchain), "bpf": seccomp_bpf().hex()})
        cmd = prefix + [python, "-I", "-S", "-c", code, mode, str(w_fd), report or "", confined]
        cmd += limits.prlimit_args() if self.enforce_nproc else [
            a for a in limits.prlimit_args() if not a.startswith("--nproc")]
        cmd += ["--"] + [str(a) for a in argv]
        kwargs = {}
        if self.mode == "bwrap" and getattr(self, "as_uid", False):
            if uid is None:
                uid = self.uid if self.uid is not None else self.new_identity()
            kwargs = {"user": uid, "group": uid, "extra_groups": []}
        started = time.monotonic()
        try:
            proc = spawn(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, pass_fds=(w_fd,) + tuple(pass_fds),
                         env=popen_env, cwd=cwd if self.mode != "bwrap" else "/",
                         start_new_session=True, **kwargs)
        except OSError as e:
            os.close(r_fd)
            os.close(w_fd)
            raise SandboxError(f"cannot start {cmd[0]}: {e}") from e
        finally:
            for fd in pass_fds:
                os.close(fd)
        os.close(w_fd)
        res = None
        try:
            res = self._collect(proc, r_fd, limits, cancel)
            return res
        finally:
            finished(proc)
            if self.mode != "bwrap":
                shutil.rmtree(tmp, ignore_errors=True)
            self.timings.add("sandbox", Path(str(argv[0])).name, started, time.monotonic(),
                             program=res.wall if res is not None else None)

    def _bwrap_prefix(self, binds, limits: Limits, cwd: str, env, gpu: bool) -> tuple[list[str], int]:
        """(bubblewrap's command line before the supervisor, the file descriptor of
        its seccomp filter, which the sandbox must inherit)."""
        prefix = [self.bwrap, "--unshare-all", "--unshare-user",
                  "--uid", str(SANDBOX_UID), "--gid", str(SANDBOX_UID),
                  "--cap-drop", "ALL", "--die-with-parent", "--new-session",
                  "--hostname", "sandbox"] + _system_binds()
        prefix += ["--proc", "/proc", "--dev", "/dev",
                   "--size", str(limits.tmp_size), "--tmpfs", "/tmp",
                   "--size", str(limits.shm_size), "--tmpfs", "/dev/shm"]
        if gpu:
            prefix += _gpu_binds()
        # What must stay out of sight though it lies under a system folder shown
        # (a repository in /usr/local/src, say): covered by an empty folder.
        for t in self.toolchain:
            prefix += ["--ro-bind", str(t), str(t)]
        for h in self.hide:
            if any(h == s or s in h.parents for s in _SYSTEM_ROOTS + self.toolchain):
                prefix += ["--tmpfs", str(h)]
        for b in binds:
            prefix += ["--bind" if b.writable else "--ro-bind", str(b.host), b.inside]
        # Nothing else is writable: not the root, not /dev (both would be
        # memory without a limit).
        prefix += ["--remount-ro", "/dev", "--remount-ro", "/"]
        prefix += ["--chdir", cwd, "--clearenv"]
        for k, v in self._env(env).items():
            prefix += ["--setenv", k, v]
        bpf = _bpf_fd()
        prefix += ["--seccomp", str(bpf)]
        prefix.append("--")
        return prefix, bpf

    @staticmethod
    def _host_path(binds, arg):
        for b in sorted(binds, key=lambda b: len(b.inside), reverse=True):
            if arg == b.inside or arg.startswith(b.inside + "/"):
                return str(b.host) + arg[len(b.inside):]
        return arg

    def _env(self, extra):
        env = {"PATH": "/usr/bin:/bin", "HOME": "/tmp", "TMPDIR": "/tmp", "LANG": "C.UTF-8"}
        # Libraries the grader's own environment finds through LD_LIBRARY_PATH and
        # not through ld.so.cache: the CUDA driver's (/usr/local/nvidia/lib64 on the
        # GPU machines, without which a GPU program cannot start) or a compiler's
        # outside the system's folders (its libstdc++). Only the entries inside the
        # folders a run sees read-only: the system's and the toolchain's.
        shown = list(_SYSTEM_ROOTS) + list(self.toolchain)
        libs = [d for d in os.environ.get("LD_LIBRARY_PATH", "").split(":")
                if d and os.path.isabs(d) and any(Path(d) == t or t in Path(d).parents for t in shown)]
        if libs:
            env["LD_LIBRARY_PATH"] = ":".join(libs)
        env.update(extra or {})
        return env

    def _collect(self, proc, r_fd, limits, cancel=None):
        """The Result of a started sandbox: its output and the supervisor's word
        (read through r_fd, which is closed here), once it has ended or been killed."""
        res = Result()
        start = time.monotonic()
        streams, seen, killed = self._read(proc, r_fd, limits, cancel, res, start)
        os.close(r_fd)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self._kill(proc)
            proc.wait()
        self._kill(proc)  # whatever is left of its process group
        res.wall = time.monotonic() - start
        out, err = proc.stdout.fileno(), proc.stderr.fileno()
        res.stdout = streams[out].decode("utf-8", "replace")
        res.stderr = streams[err].decode("utf-8", "replace")
        res.stdout_truncated = seen[out] > len(streams[out])
        res.stderr_truncated = seen[err] > len(streams[err])
        proc.stdout.close()
        proc.stderr.close()
        word = bytes(streams[r_fd])
        if killed:
            return res
        line, _, data = word.partition(b"\n")
        try:
            info = json.loads(line)
        except ValueError:
            if self.mode == "bwrap" and res.stderr.startswith("bwrap:"):
                raise SandboxError(res.stderr.strip())
            res.supervisor_lost = True
            return res
        res.exit, res.signal = info.get("exit"), info.get("signal")
        res.wall = info.get("wall", res.wall)
        if info.get("report") is not None:
            res.report = data
            if len(data) > limits.report:
                res.report = None
                res.report_too_large = True
        return res

    def _read(self, proc, r_fd, limits, cancel, res, start):
        """(what was kept of each stream, how many bytes each wrote, whether the
        sandbox was killed): stdout, stderr and the supervisor's r_fd read until
        all three close, the sandbox killed on the wall limit (res.timed_out), past
        the grace after cancel is set (res.cancelled) or on too much output
        (res.output_limit), then drained briefly."""
        streams = {proc.stdout.fileno(): bytearray(), proc.stderr.fileno(): bytearray(), r_fd: bytearray()}
        seen = {fd: 0 for fd in streams}
        sel = selectors.DefaultSelector()
        for fd in streams:
            os.set_blocking(fd, False)
            sel.register(fd, selectors.EVENT_READ)
        deadline = start + limits.wall
        killed = False
        cancelled_at = None
        open_fds = set(streams)
        while open_fds:
            left = deadline - time.monotonic()
            if left <= 0 and not killed:
                res.timed_out = True
                self._kill(proc)
                killed = True
                deadline = time.monotonic() + 10  # drain what is left, briefly
                continue
            if left <= 0:
                break
            if cancel is not None and cancel.is_set() and not killed:
                # The caller is done with the program: CANCEL_GRACE_S to end by itself (the
                # worker ends when the judge closes its pipe, and its supervisor then
                # ends every descendant), then the whole sandbox is killed.
                if cancelled_at is None:
                    cancelled_at = time.monotonic()
                elif time.monotonic() - cancelled_at > CANCEL_GRACE_S:
                    res.cancelled = True
                    self._kill(proc)
                    killed = True
                    deadline = time.monotonic() + 10
                    continue
            for key, _ in sel.select(timeout=min(left, 0.05 if cancel is not None else 0.5)):
                fd = key.fd
                try:
                    chunk = os.read(fd, 65536)
                except BlockingIOError:
                    continue
                if not chunk:
                    sel.unregister(fd)
                    open_fds.discard(fd)
                    continue
                seen[fd] += len(chunk)
                cap = limits.report + 4096 if fd == r_fd else limits.keep_output
                room = cap - len(streams[fd])
                if room > 0:
                    streams[fd] += chunk[:room]
                if fd != r_fd and not killed and \
                        seen[proc.stdout.fileno()] + seen[proc.stderr.fileno()] > limits.output:
                    res.output_limit = True
                    self._kill(proc)
                    killed = True
                    deadline = time.monotonic() + 10
        sel.close()
        return streams, seen, killed

    @staticmethod
    def reap() -> None:
        """End every child of the grader left over from a run: tools/grade is a child
        subreaper (become_subreaper), so a descendant that escaped its run's
        supervisor (a double fork into a session of its own, under --trusted)
        becomes its child and ends here. Called after each step; the children of
        the steps still running (spawn, finished) are spared, every other one ends."""
        me = os.getpid()
        for _ in range(10000):
            with _SPAWN:
                kids = []
                for p in os.listdir("/proc"):
                    if not p.isdigit() or int(p) in _LIVE:
                        continue
                    try:
                        with open(f"/proc/{p}/stat") as f:
                            if int(f.read().rsplit(")", 1)[1].split()[1]) == me:
                                kids.append(int(p))
                    except (OSError, ValueError, IndexError):
                        continue
                if not kids:
                    return
                for k in kids:
                    try:
                        os.kill(k, signal.SIGKILL)
                    except ProcessLookupError:
                        pass
            for k in kids:
                try:
                    os.waitpid(k, 0)
                except ChildProcessError:
                    pass

    @staticmethod
    def _kill(proc):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
