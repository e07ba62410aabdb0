# SPDX-License-Identifier: MIT
"""Every flag a book program is compiled with is one its runs hash.

A run's input hash holds the program's flags identity (`--flags`), the toolchain
entries (`--toolchain`) and the folders its header scan searches
(`--include-dir`), as CMake wrote them for the run (cmake/BookInputs.cmake) and
bookrun reads them (`bookrun inputs`, which this check asks). This
check reads what the compiler was really given, CMake's compile database, and
fails on any flag of a book program's compile, or of a book library's it links,
that the identity does not account for: a flag set by a path the configure step
does not see would otherwise be compiled in, and a stale recording shown as
fresh.

    python3 -m bookpy.inputs.compile_check --inputs build/compile-inputs.json \
                                        --commands build/compile_commands.json \
                                        --bookrun build/tools/runner/bookrun

compile-inputs.json (written by CMake) maps each built program to its target,
the book library targets it links, the runner arguments its runs hash, and the
compile flags of the system (imported) libraries it links, which come from the
machine, not from the book.

What a flag may be, and why it is accounted for:
  - the compiler, -o, -c, the source (one of the run's sources), -MD/-MT/-MF,
    -x cu, -ccbin=, -forward-unknown-to-host-compiler: how CMake drives it;
  - -I, -isystem: a folder outside the source and build trees (a system's), a
    system library's (a carried copy of one: .carry/), or one the header scan
    searches;
  - -std=c++NN (gnu++NN with CMAKE_CXX_EXTENSIONS on) for the identity's
    standard; the build type's default flags for the identity's build type;
    --generate-code for its CUDA architectures;
  - a flag CMake derives from a variable the identity holds (set:<name>=[ON]
    of CMAKE_POSITION_INDEPENDENT_CODE, CMAKE_INTERPROCEDURAL_OPTIMIZATION, ...);
  - a word of the identity or of a toolchain entry (-D<word> too: the
    identity's definitions=[...]), or a system library's flag.
Exit status 0 when every compile is accounted for, 1 (each flag named, with its
file) when one is not, 2 on unreadable input.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys

# CMake's default flags of each build type (GNU and nvcc alike).
CONFIG_FLAGS = {
    "Release": ["-O3", "-DNDEBUG"],
    "Debug": ["-g"],
    "RelWithDebInfo": ["-O2", "-g", "-DNDEBUG"],
    "MinSizeRel": ["-Os", "-DNDEBUG"],
}
# Flags CMake derives from a variable a folder set, which the identity holds as
# set:<name>=[<value>] (so they are hashed, by the variable).
# (Each where the variable is true.)
DERIVED_FLAGS = {
    "CMAKE_POSITION_INDEPENDENT_CODE": ["-fPIE", "-fPIC", "-Xcompiler=-fPIE", "-Xcompiler=-fPIC"],
    "CMAKE_INTERPROCEDURAL_OPTIMIZATION": ["-flto", "-flto=auto", "-fno-fat-lto-objects"],
    "CMAKE_VISIBILITY_INLINES_HIDDEN": ["-fvisibility-inlines-hidden"],
}
TAKES_VALUE = {"-o", "-c", "-MT", "-MF", "-MQ", "-x"}
DRIVER_FLAGS = {"-MD", "-MMD", "-forward-unknown-to-host-compiler"}
INCLUDE_FLAGS = ("-isystem", "-iquote", "-idirafter", "-I")


class CheckError(Exception):
    """Input this check cannot read."""


def read_json(path: str):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError) as e:
        raise CheckError(f"{path}: {e}") from e


def hashed(args: list[str], bookrun: str, program: str) -> dict:
    """The parts of a run's hash arguments that describe its compile, as bookrun
    itself reads them (`bookrun inputs --given-only`), not as a second reading here."""
    cmd = [bookrun, "inputs", "--given-only", "--name", program] + list(args)
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        raise CheckError(f"{program}: {bookrun} inputs: {e}") from e
    if r.returncode != 0:
        raise CheckError(f"{program}: {bookrun} inputs refused its hash arguments: "
                         f"{r.stderr.strip()}")
    try:
        given = json.loads(r.stdout)["given"]
    except (ValueError, KeyError) as e:
        raise CheckError(f"{program}: {bookrun} inputs printed no \"given\": {e}") from e
    return {"flags": given["flags"],
            "toolchain": [f"{k}={v}" for k, v in given["toolchain"].items()],
            "includes": [os.path.normpath(d) for d in given["include_dirs"]],
            "sources": [os.path.normpath(s) for s in given["sources"] + given["lib_sources"]]}


def cmake_true(value: str) -> bool:
    """What if() takes for true in a variable's value: 1, ON, YES, TRUE, Y, a non-zero number."""
    v = value.strip().upper()
    if v in ("ON", "YES", "TRUE", "Y"):
        return True
    try:
        return float(v) != 0
    except ValueError:
        return False


def allowed_flags(h: dict, system_flags: list[str]) -> set[str]:
    """Every compile flag the identity and the toolchain entries account for."""
    text = h["flags"]
    settings = dict(re.findall(r"set:([A-Za-z0-9_]+)=\[([^\]]*)\]", text))
    words = re.sub(r"[A-Za-z0-9_:.+-]*=\[", " ", text).replace("]", " ").split()
    allowed = set(system_flags)
    for w in words:
        allowed.update((w, "-D" + w))
    for entry in h["toolchain"]:
        allowed.update(entry.partition("=")[2].split())
    for name, flags in DERIVED_FLAGS.items():
        if cmake_true(settings.get(name, "")):
            allowed.update(flags)
    for lang in ("CXX", "CUDA"):
        preset = settings.get(f"CMAKE_{lang}_VISIBILITY_PRESET", "").strip()
        if preset:
            allowed.add(f"-fvisibility={preset}")
    for config, flags in CONFIG_FLAGS.items():
        if config in words or settings.get("CMAKE_BUILD_TYPE") == config:
            allowed.update(flags)
    standards = {w[3:] for w in words if re.fullmatch(r"c\+\+\d+", w)}
    for lang in ("CXX", "CUDA"):
        if settings.get(f"CMAKE_{lang}_STANDARD"):
            standards.add(settings[f"CMAKE_{lang}_STANDARD"].strip())
    gnu = any(cmake_true(settings.get(f"CMAKE_{lang}_EXTENSIONS", "")) for lang in ("CXX", "CUDA"))
    for n in standards:
        allowed.add(f"-std=c++{n}")
        if gnu:
            allowed.add(f"-std=gnu++{n}")
    archs = set()
    for w in words:
        if w.startswith("arch="):
            archs.update(w[5:].split(","))
    archs.update(re.sub(r"-(real|virtual)\b", "", settings.get("CMAKE_CUDA_ARCHITECTURES", "")).split())
    for a in archs:
        allowed.update((f"--generate-code=arch=compute_{a},code=[sm_{a}]",
                        f"--generate-code=arch=compute_{a},code=[compute_{a}]",
                        f"--generate-code=arch=compute_{a},code=[compute_{a},sm_{a}]"))
    return allowed


def inside(path: str, roots: list[str]) -> bool:
    return any(path == r or path.startswith(r + os.sep) for r in roots)


def unaccounted(entry: dict, h: dict, allowed: set[str], system_includes: set[str],
                roots: list[str]) -> list[str]:
    """What one compile command was given that the run's hash does not see (a folder
    of `system_includes`, a system library's, is none of the tree's)."""
    try:
        argv = shlex.split(entry["command"]) if "command" in entry else list(entry["arguments"])
    except (KeyError, ValueError) as e:
        raise CheckError(f"a compile command of {entry.get('file', '?')}: {e}") from e
    directory = entry.get("directory", ".")
    found = []
    i = 1
    while i < len(argv):
        a = argv[i]
        i += 1
        if a in TAKES_VALUE:
            if a == "-c":
                src = os.path.normpath(os.path.join(directory, argv[i] if i < len(argv) else ""))
                if inside(src, roots[:1]) and src not in h["sources"]:
                    found.append(f"the source {src}, which is not one of its runs' inputs")
            i += 1
            continue
        if a in DRIVER_FLAGS or a.startswith("-ccbin="):
            continue
        include = None
        if a in INCLUDE_FLAGS:  # -I <dir>
            include = argv[i] if i < len(argv) else ""
            i += 1
        else:  # -I<dir>, -isystem=<dir> (nvcc), -isystem<dir>
            for flag in ("-isystem=",) + INCLUDE_FLAGS:
                if a.startswith(flag):
                    include = a[len(flag):]
                    break
        if include is not None:
            d = os.path.normpath(os.path.join(directory, include))
            if inside(d, roots) and d not in h["includes"] and d not in system_includes:
                found.append(f"the include folder {d}, which its header scan does not search")
            continue
        if a not in allowed:
            found.append(f"'{a}'")
    return found


def check(inputs: dict, commands: list, source_root: str, build_root: str,
          bookrun: str) -> list[str]:
    by_target: dict[str, list] = {}
    for e in commands:
        cmd = e.get("command") or " ".join(e.get("arguments", []))
        m = re.search(r"CMakeFiles/([^/\s]+)\.dir/", cmd)
        if m:
            by_target.setdefault(m.group(1), []).append(e)
    roots = [os.path.normpath(source_root), os.path.normpath(build_root)]
    errors = []
    for program in sorted(inputs):
        p = inputs[program]
        h = hashed(p["hash_args"], bookrun, program)
        allowed = allowed_flags(h, p.get("system_flags", []))
        system_includes = {os.path.normpath(f[2:]) for f in p.get("system_flags", [])
                           if f.startswith("-I")}
        if p["target"] not in by_target:
            errors.append(f"{program}: the compile database has no compile of its target {p['target']}")
        for tgt in [p["target"]] + p.get("libraries", []):
            for e in by_target.get(tgt, []):
                for what in unaccounted(e, h, allowed, system_includes, roots):
                    errors.append(f"{e.get('file', '?')}: compiled (target {tgt}) with {what}; "
                                  f"the runs of {program} do not hash it (flags identity "
                                  f"'{h['flags']}')")
    return errors


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--inputs", required=True, help="compile-inputs.json, written by CMake")
    ap.add_argument("--commands", required=True, help="compile_commands.json")
    ap.add_argument("--bookrun", required=True,
                    help="the runner, which reads the runs' hash arguments (bookrun inputs)")
    args = ap.parse_args(argv)
    try:
        data = read_json(args.inputs)
        commands = read_json(args.commands)
        if not isinstance(data, dict) or not isinstance(data.get("programs"), dict) \
                or not isinstance(commands, list):
            raise CheckError(f"{args.inputs} or {args.commands}: not what CMake writes")
        errors = check(data["programs"], commands, data["source_root"], data["build_root"],
                       args.bookrun)
    except CheckError as e:
        print(f"compile_check: {e}", file=sys.stderr)
        return 2
    for e in errors:
        print(f"compile_check: {e}", file=sys.stderr)
    if errors:
        print(f"compile_check: {len(errors)} compile flag(s) the runs' input hash does not see; "
              "give them to book_program/book_library (OPTIONS, DEFINITIONS) instead",
              file=sys.stderr)
        return 1
    n = len(data["programs"])
    print(f"compile_check: the compiles of {n} program{'' if n == 1 else 's'} hold only flags "
          "their runs hash")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
