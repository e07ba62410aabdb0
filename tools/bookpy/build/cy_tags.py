# SPDX-License-Identifier: MIT
"""List the check-yourself tags of the book's Catch2 tests: cy-tags.json.

    python3 -m bookpy.build.cy_tags --out <build>/cy-tags.json --stamp <file> -- <ctest name>=<program>...
    python3 -m bookpy.build.cy_tags --none -- <ctest name>=<program>...

With --none (the book's other Catch2 programs, at test time: book.catch-tags),
any [cy:...] tag is an error, as are [!shouldfail] and [!mayfail]; nothing is written.

Asks each Catch2 (v2) program, registered as the CTest test <ctest name>, for
its tags (--list-tags) and, for each tag [cy:<id>], for the test cases that
carry it (--list-test-names-only); hidden test cases ([.]) do not count. A
program that cannot list its tests is an error naming the test and the program,
and so is a test case tagged [!shouldfail] or [!mayfail] (a failure that would
pass), named by its file and line.

The one reader of a Catch2 program's listings (--list-tags, its [cy:<id>] tags:
cy_ids), which catch_run also uses.

Writes {"tags": {"<id>": [{"test": "<ctest name>", "case": "<TEST_CASE name>"}]}},
sorted, and only when it changes (so that the HTML step, which depends on it,
re-runs only when a tag moved); the stamp is touched every time.
"""
import argparse
import json
import re
import subprocess
import sys

from bookpy.records.jsonfile import write_json

TAG = re.compile(r"\[cy:([^\]]*)\]")
# Catch2 tags that let a failing test case pass: refused on every book test.
PASSING_FAILURE = ("!shouldfail", "!mayfail")


def cy_ids(listing):
    """The ids of the [cy:<id>] tags in a program's --list-tags lines."""
    return {qid for line in listing for qid in TAG.findall(line)}


def split_at_dashes(prog, what, required=False):
    """(the options before `--`, the words after it) of the command line; exits
    saying `what` goes after `--` where there is none (or, with required, where
    nothing follows it)."""
    argv = sys.argv[1:]
    if "--" not in argv or (required and argv.index("--") == len(argv) - 1):
        sys.exit(f"{prog}: give {what} after `--`")
    cut = argv.index("--")
    return argv[:cut], argv[cut + 1:]


def ask(test, program, args):
    """The lines a program prints for args; exits with a clear error if it fails."""
    cmd = [program, *args]
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=60)
    except OSError as e:
        sys.exit(f"cy-tags: error: test {test}: cannot run {program}: {e.strerror}")
    except subprocess.TimeoutExpired:
        sys.exit(f"cy-tags: error: test {test}: {' '.join(cmd)} did not finish within 60 s")
    text = proc.stdout.decode("utf-8", "replace")
    # Catch2 v2 exits with the number of items it listed; 77 with "skipped" is a
    # GPU test's main that would not list without a GPU.
    if proc.returncode == 77 and text.lstrip().startswith("skipped"):
        sys.exit(f"cy-tags: error: test {test}: {program} lists no tests where there is no GPU "
                 f"({text.strip()}): its main must let --list-tags and --list-test-names-only "
                 "through (tests/support/catch_gpu_main.cpp does)")
    if proc.returncode < 0 or (proc.returncode != 0 and not text.strip()):
        sys.exit(f"cy-tags: error: test {test}: {' '.join(cmd)} failed (status "
                 f"{proc.returncode}):\n{text}")
    return text.splitlines()


def refuse(test, program, tag):
    """Stops the build at each test case tagged [tag], with its file and line."""
    lines = ask(test, program, [f"[{tag}]", "--list-tests", "--verbosity", "high"])
    found, name = [], None
    for line in lines:
        if line.startswith("    ") and re.search(r":\d+$", line.strip()) and name:
            found.append(f"{line.strip()}: error: test case \"{name}\" of test {test} is tagged "
                         f"[{tag}], which lets it pass when it fails: the book's tests must be "
                         "able to fail")
            name = None
        elif line.startswith("  ") and not line.startswith("    "):
            name = line.strip()
    if not found:
        found.append(f"cy-tags: error: test {test} ({program}) has a test case tagged [{tag}], "
                     "which lets it pass when it fails: the book's tests must be able to fail")
    sys.exit("\n".join(found))


def tags_of(test, program):
    """{id: [TEST_CASE names]} for one program."""
    listed = ask(test, program, ["--list-tags"])
    ids = cy_ids(listed)
    for bad in PASSING_FAILURE:
        if any(f"[{bad}]" in line for line in listed):
            refuse(test, program, bad)
    if not ids:
        return {}
    visible = set(ask(test, program, ["--list-test-names-only"]))
    out = {}
    for qid in sorted(ids):
        names = [n for n in ask(test, program, [f"[cy:{qid}]", "--list-test-names-only"])
                 if n in visible]
        if names:
            out[qid] = names
    return out


def main() -> int:
    options, items = split_at_dashes("cy-tags", "the tests as <ctest name>=<program>")
    p = argparse.ArgumentParser(prog="cy-tags")
    p.add_argument("--out")
    p.add_argument("--stamp")
    p.add_argument("--none", action="store_true",
                   help="the programs are not check-yourself programs: a [cy:...] tag in one is "
                        "an error (so is [!shouldfail] or [!mayfail]); nothing is written")
    args = p.parse_args(options)
    if not args.none and not (args.out and args.stamp):
        p.error("--out and --stamp are needed (or --none)")
    tags = {}
    for item in items:
        test, sep, program = item.partition("=")
        if not sep or not test or not program:
            sys.exit(f"cy-tags: error: '{item}' is not <ctest name>=<program>")
        for qid, names in tags_of(test, program).items():
            for name in names:
                tags.setdefault(qid, []).append({"test": test, "case": name})
    if args.none:
        if tags:
            sys.exit("\n".join(
                f"cy-tags: error: test {e['test']}, test case \"{e['case']}\", is tagged "
                f"[cy:{qid}]: a check-yourself answer is tested in its chapter's check-yourself "
                "program (tests/<key>/test_check_yourself.cpp), the one the book lists"
                for qid, entries in sorted(tags.items()) for e in entries))
        print(f"cy-tags: {len(items)} programs, no check-yourself tag, no test case "
              "that passes when it fails")
        return 0
    for qid in tags:
        tags[qid].sort(key=lambda e: (e["test"], e["case"]))
    doc = {"tags": dict(sorted(tags.items()))}
    try:
        with open(args.out, encoding="utf-8") as f:
            same = json.load(f) == doc
    except (OSError, ValueError):
        same = False
    if not same:
        write_json(args.out, doc)
    with open(args.stamp, "w", encoding="utf-8") as f:
        f.write(f"{len(tags)} check-yourself tags\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
