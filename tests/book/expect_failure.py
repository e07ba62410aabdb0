#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Run a command that must fail, and check that it fails well (or, with --code 0,
that it succeeds and writes what it should).

    expect_failure.py --scratch DIR [steps and checks...] -- COMMAND [ARGS...]

The scratch folder is emptied and made the working folder, so relative paths in
the steps, the checks and the command all lie in it. Then, in the order given:

  --copy SRC DST           copy a file or a folder (modes kept, times new)
  --json-set FILE KEYS V   set a value in a JSON file; KEYS like a>b>0>c (">" between
                           keys, a number indexes a list), V is JSON text
  --json-del FILE KEYS     delete a key from a JSON file
  --replace FILE OLD NEW   replace text in a file (OLD must occur)
  --before ARG... --before-end
                           run a command that must succeed

Then the checks made before the command: --exists PATH (it must exist), and
--unchanged PATH (hashed now, a file or a whole folder, and again afterwards).
Then COMMAND runs (with --env K=V added to its environment) and must:

  exit with status --code N, or else with any non-zero status (not a signal);
  print output (stdout and stderr together) that matches every --expect REGEX,
  and no --reject REGEX (a Node stack trace where one line was promised);
  leave every --unchanged path byte for byte as it was, and nothing matching
  any --absent GLOB behind; and, in the JSON files it wrote (a run record):
      --has FILE KEYS REGEX    the value at KEYS matches REGEX (strings as they
                               are, anything else as JSON text)
      --lacks FILE KEYS        there is nothing at KEYS
      --max-size FILE KEYS N   the string at KEYS is at most N bytes (UTF-8)

With --skip-code N, a command that exits N is reported as skipped: this script
exits N too (CTest's SKIP_RETURN_CODE), for example a GPU test without a GPU;
with --skip-expect REGEX as well, only when its output matches REGEX (a skip
for any other reason is a failure).
Exit status: 0 when every check holds, 1 when one does not (each one named).
"""
import argparse
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys


class Steps(argparse.Action):
    """Keeps the preparation steps in the order they were given."""

    def __call__(self, parser, ns, values, option_string=None):
        ns.steps.append((option_string, values))


def parse(argv):
    # --before ... --before-end may hold a "--" of its own: cut those out first.
    befores, own, command, i = [], [], None, 0
    while i < len(argv):
        if argv[i] == "--before":
            if "--before-end" not in argv[i + 1:]:
                sys.exit("expect_failure: --before needs a closing --before-end")
            j = argv.index("--before-end", i + 1)
            befores.append(argv[i + 1:j])
            own += ["--before", str(len(befores) - 1)]
            i = j + 1
        elif argv[i] == "--":
            command = argv[i + 1:]
            break
        else:
            own.append(argv[i])
            i += 1
    if not command:
        sys.exit("expect_failure: give the command after `--`")
    p = argparse.ArgumentParser(prog="expect_failure")
    p.set_defaults(steps=[])
    p.add_argument("--scratch", required=True)
    p.add_argument("--copy", nargs=2, action=Steps)
    p.add_argument("--json-set", nargs=3, action=Steps)
    p.add_argument("--json-del", nargs=2, action=Steps)
    p.add_argument("--replace", nargs=3, action=Steps)
    p.add_argument("--before", nargs=1, action=Steps)
    p.add_argument("--exists", action="append", default=[])
    p.add_argument("--unchanged", action="append", default=[])
    p.add_argument("--absent", action="append", default=[])
    p.add_argument("--expect", action="append", default=[])
    p.add_argument("--reject", action="append", default=[])
    p.add_argument("--code", type=int)
    p.add_argument("--skip-code", type=int)
    p.add_argument("--skip-expect")
    p.add_argument("--env", action="append", default=[])
    p.add_argument("--timeout", type=float, default=300)
    p.add_argument("--has", nargs=3, action="append", default=[])
    p.add_argument("--lacks", nargs=2, action="append", default=[])
    p.add_argument("--max-size", nargs=3, action="append", default=[])
    args = p.parse_args(own)
    return args, befores, command


def walk_keys(data, keys):
    """The container that holds the last key, and that key (an int for a list)."""
    parts = [int(k) if k.isdigit() else k for k in keys.split(">")]
    for k in parts[:-1]:
        data = data[k]
    return data, parts[-1]


def json_checks(args):
    """The problems the --has, --lacks and --max-size checks find."""
    problems, docs = [], {}

    def at(path, keys):
        if path not in docs:
            with open(path, encoding="utf-8") as f:
                docs[path] = json.load(f)
        holder, last = walk_keys(docs[path], keys)
        return holder[last]

    for path, keys, pattern in args.has:
        try:
            v = at(path, keys)
        except (OSError, KeyError, IndexError, ValueError, TypeError) as e:
            problems.append(f"{path}: nothing at {keys} ({type(e).__name__}: {e})")
            continue
        text = v if isinstance(v, str) else json.dumps(v)
        if not re.search(pattern, text, re.M):
            problems.append(f"{path}: {keys} = {text[:200]!r} does not match /{pattern}/")
    for path, keys in args.lacks:
        try:
            at(path, keys)
            problems.append(f"{path}: {keys} is there; it should not be")
        except (KeyError, IndexError):
            pass
        except (OSError, ValueError, TypeError) as e:
            problems.append(f"{path}: {e}")
    for path, keys, limit in args.max_size:
        try:
            size = len(at(path, keys).encode("utf-8"))
            if size > int(limit):
                problems.append(f"{path}: {keys} is {size} bytes, over {limit}")
        except (OSError, KeyError, IndexError, ValueError, TypeError, AttributeError) as e:
            problems.append(f"{path}: nothing at {keys} ({type(e).__name__}: {e})")
    return problems


def edit_json(path, keys, value=None, delete=False):
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    holder, last = walk_keys(data, keys)
    if delete:
        del holder[last]
    else:
        holder[last] = json.loads(value)
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=2)
        f.write("\n")


def digest(path):
    """A file's SHA-256, or a folder's {relative path: SHA-256} for every file in it."""
    def one(p):
        with open(p, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    if os.path.isdir(path):
        out = {}
        for root, dirs, files in os.walk(path):
            dirs.sort()
            for name in sorted(files):
                p = os.path.join(root, name)
                out[os.path.relpath(p, path)] = one(p)
        return out
    return one(path) if os.path.exists(path) else None


def describe_change(path, before, after):
    if not isinstance(before, dict) or not isinstance(after, dict):
        return f"{path} changed (it was {'absent' if before is None else 'there'}, "\
               f"now {'absent' if after is None else 'different'})"
    gone = sorted(set(before) - set(after))
    new = sorted(set(after) - set(before))
    diff = sorted(k for k in set(before) & set(after) if before[k] != after[k])
    bits = [f"{len(x)} {what} (first: {x[0]})" for x, what in
            ((gone, "files gone"), (new, "files added"), (diff, "files changed")) if x]
    return f"{path} changed: " + "; ".join(bits)


def set_up(args, befores) -> bool:
    """Take the steps (--copy, --json-set, --json-del, --replace, --before) in
    order; False, with what failed printed, where one fails."""
    for option, values in args.steps:
        if option == "--copy":
            src, dst = values
            if os.path.dirname(dst):
                os.makedirs(os.path.dirname(dst), exist_ok=True)
            if os.path.isdir(src):
                shutil.copytree(src, dst, dirs_exist_ok=True, copy_function=shutil.copy)
            else:
                shutil.copy(src, dst)
        elif option == "--json-set":
            edit_json(values[0], values[1], values[2])
        elif option == "--json-del":
            edit_json(values[0], values[1], delete=True)
        elif option == "--replace":
            path, old, new = values
            with open(path, encoding="utf-8") as f:
                text = f.read()
            if old not in text:
                print(f"expect_failure: setup: {path} does not contain {old!r}")
                return False
            with open(path, "w", encoding="utf-8") as f:
                f.write(text.replace(old, new))
        elif option == "--before":
            cmd = befores[int(values[0])]
            print(f"--- setup: {' '.join(cmd)}")
            proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                  timeout=args.timeout)
            if proc.returncode != 0:
                print(proc.stdout)
                print(f"expect_failure: setup command failed (status {proc.returncode}): {' '.join(cmd)}")
                return False
    return True


def result_problems(args, code: int, output: str, before: dict) -> list:
    """What the command did that it should not have: its exit status, its output
    against --expect and --reject, an --unchanged path changed, an --absent one
    left behind."""
    problems = []
    if args.code is not None:
        if code != args.code:
            problems.append(f"exit status {code}, expected {args.code}")
    elif code == 0:
        problems.append("the command succeeded; it should have failed")
    elif code < 0:
        problems.append(f"the command was killed by signal {-code} instead of failing cleanly")
    for pattern in args.expect:
        if not re.search(pattern, output, re.M):
            problems.append(f"the output does not match /{pattern}/")
    for pattern in args.reject:
        m = re.search(pattern, output, re.M)
        if m:
            problems.append(f"the output matches /{pattern}/: {m.group(0)!r}")
    for path, d in before.items():
        after = digest(path)
        if after != d:
            problems.append(describe_change(path, d, after))
    for pattern in args.absent:
        left = sorted(glob.glob(pattern))
        if left:
            problems.append(f"left behind: {', '.join(left)} (matches {pattern})")
    return problems


def main(argv) -> int:
    args, befores, command = parse(argv)
    shutil.rmtree(args.scratch, ignore_errors=True)
    os.makedirs(args.scratch)
    os.chdir(args.scratch)

    if not set_up(args, befores):
        return 1

    for path in args.exists:
        if not os.path.exists(path):
            print(f"expect_failure: setup did not make {path}")
            return 1
    before = {path: digest(path) for path in args.unchanged}
    for path, d in before.items():
        if d is None or d == {}:
            print(f"expect_failure: {path} should be there before the command (to check it is kept)")
            return 1

    env = dict(os.environ)
    for kv in args.env:
        key, _, value = kv.partition("=")
        env[key] = value
    print(f"--- command: {' '.join(command)}")
    try:
        proc = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env,
                              timeout=args.timeout)
    except subprocess.TimeoutExpired:
        print(f"expect_failure: FAIL: the command did not finish within {args.timeout:g} s")
        return 1
    output = proc.stdout.decode("utf-8", "replace")
    print(output, end="" if output.endswith("\n") else "\n")
    print(f"--- exit status: {proc.returncode}")

    if args.skip_code is not None and proc.returncode == args.skip_code:
        if args.skip_expect is None or re.search(args.skip_expect, output, re.M):
            print(f"expect_failure: skipped (the command exited {args.skip_code})")
            return args.skip_code
        print(f"expect_failure: FAIL: exit {args.skip_code} without /{args.skip_expect}/: not a skip")
        return 1
    problems = result_problems(args, proc.returncode, output, before)
    problems += json_checks(args)
    for p in problems:
        print(f"expect_failure: FAIL: {p}")
    if not problems:
        print("expect_failure: ok: " + ("succeeded as expected" if args.code == 0 else "failed as expected"))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
