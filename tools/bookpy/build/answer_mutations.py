#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Each figure a check-yourself answer states is one its test would catch if it were wrong.

    python -m bookpy.build.answer_mutations --build DIR [--chapters DIR] [--only KEY]... [--list]

For every check-yourself question of every chapter, each figure its answer
states is changed, one at a time, and the chapter's check-yourself program is
run on the question's tag ([cy:<qid>]) with the change in place; the program
must fail. A figure is

- a value of tests/<key>/answers.json that the answer cites ({answer}`name`):
  a whole number is raised by one, any other number by a tenth, a boolean
  flipped; the program reads the changed copy (BOOK_TEST_ANSWERS_FILE);
- a recorded figure the answer cites ({value}`<run>:<result>`, in the medians and
  every repeat; or {value}`<run>:check:<id>`: the check's value, and, apart, the
  result it is the value of): raised by a tenth in a copy of the run's record,
  which the program reads through a copy of the build manifest
  (BOOK_TEST_MANIFEST).

A change the program still passes is a survivor: the test cannot tell that
figure wrong from right. A survivor of answers.json is an error unless SURVIVORS
lists it with the reason it cannot be tightened, and so is an entry of answers.json
in SURVIVORS that no longer survives. A recorded figure's survival depends on how
much slack its claims have in the GPU's records, so for those the same two are
notes, printed, not errors: the test passes on every GPU's records. The
build DIR holds book-manifest.json and the check-yourself programs (CTest
names <key>.check-yourself; `ctest -N -V` gives their commands).
Exit status 1 on an error; --list prints every mutation and its outcome.
"""
from __future__ import annotations

import argparse
import copy
import json
import os
import re
import subprocess
import sys
import tempfile

from bookpy import ROOT
from bookpy.chapters import chapter_files, chapter_keys
from bookpy.records.jsonfile import load_json
from bookpy.records.manifest import MANIFEST, read as read_manifest

QUESTION = re.compile(r"^```\{check-yourself\} (\S+)\n(.*?)\n```$", re.S | re.M)
ANSWER = re.compile(r"\{answer\}`([^`|]+)(?:\|[^`]*)?`")
VALUE = re.compile(r"\{value\}`([^`|]+)(?:\|[^`]*)?`")

#: Why a figure may survive: the answer states a bound, which a raised bound the
#: record meets leaves true; or it quotes a measurement, and every claim it makes
#: about it holds with more than a tenth to spare, so a tenth more is no wrong answer.
BOUND = "a bound the answer states: raised, the record still meets it"
QUOTED = "quoted as measured: the answer's claims about it hold with more than a tenth to spare"
#: Figures whose change no test can catch, with the reason: (question, figure).
SURVIVORS: dict[tuple[str, str], str] = {
    ("ch01-its-not-cheap", "ch01-execution-model/div-sweep:ncu:divergent_w1:smsp__inst_executed.sum"):
        "the test reads the ratio from its check (killed), not the count",
    ("ch01-first-launch-timing", "ch01-execution-model/div-first-launch:first_launch_ms_uniform_again"): QUOTED,
    ("ch01-first-launch-timing", "ch01-execution-model/div-first-launch:first_launch_ms_divergent"): QUOTED,
    ("ch01-first-launch-timing", "ch01-execution-model/div-first-launch-eager:first_launch_ms_divergent"): QUOTED,
    ("ch01-first-launch-timing", "ch01-execution-model/div-first-launch-eager:first_launch_ms_uniform"): QUOTED,
    ("ch01-first-launch-timing", "ch01-execution-model/div-first-launch-eager:right_ratio"): QUOTED,
    ("ch01-one-wave-ratio", "ch01-execution-model/div-sweep:ncu:divergent_w1:smsp__inst_executed.sum"):
        "the test reads the ratio from its check, not the count",
    ("ch01-one-wave-ratio", "ch01-execution-model/div-sweep:check:instructions-double-w1"): QUOTED,
    ("ch01-one-wave-ratio", "ch01-execution-model/div-sweep:placement_pure_even_sms"): QUOTED,
    ("ch01-one-wave-ratio", "ch01-execution-model/div-sweep:placement_sms_used"): QUOTED,
    ("ch02-bytes-per-output", "ch02-shared-memory/stencil-steps:ncu:plain:dram__bytes_read.sum"):
        "the answer quotes the ratio to the copy kernel's bytes, checked within 3% (killed)",
    ("ch02-tiling-pays", "ch02-shared-memory/stencil-steps:ncu:plain:l1tex__t_sector_hit_rate.pct"): QUOTED,
    ("ch02-tiling-pays", "ch02-shared-memory/stencil-steps:ncu:tiled:dram__bytes_read.sum"):
        "the answer quotes the ratio of the two kernels' bytes, checked within 3% (killed)",
    ("ch02-smem-occupancy", "ch02-shared-memory/smem-info:smem_reserved_per_block_kb"):
        "a whole number, raised by one: 228 KiB over 32 + 2 still makes the 6 blocks the answer quotes",
    ("ch02-smem-occupancy", "ch02-shared-memory/smem-info:smem_per_sm_kb"):
        "a whole number, raised by one: 229 KiB over 32 + 1 still makes the 6 blocks the answer quotes",
    ("ch02-temporal-limit", "ch02-shared-memory/temporal-steps:ncu:k8:"
     "l1tex__data_pipe_lsu_wavefronts_mem_shared.avg.pct_of_peak_sustained_elapsed"): QUOTED,
    ("ch02-temporal-limit",
     "ch02-shared-memory/temporal-steps:ncu:k8:dram__throughput.avg.pct_of_peak_sustained_elapsed"): QUOTED,
    ("ch02-temporal-limit", "ch02-shared-memory/temporal-steps:temporal_k8_step_over_one_step"): QUOTED,
    ("ch02-temporal-limit", "ch02-shared-memory/temporal-steps:temporal_k4_step_over_one_step"): QUOTED,
    ("ch03-divergent-slow", "remainder_over"): BOUND,
    ("ch03-divergent-slow", "ch03-reductions/reduce-profile:ncu:s1_p1:smsp__inst_executed.sum"): QUOTED,
    ("ch03-divergent-slow", "ch03-reductions/reduce-profile:ncu:s2_p1:smsp__inst_executed.sum"): QUOTED,
    ("ch03-bank-conflicts", "remainder_share"): BOUND,
    ("ch03-one-launch-small", "ch03-reductions/reduce-bench:one_pass_us_2e16"): QUOTED,
    ("ch03-one-launch-small", "ch03-reductions/reduce-bench:check:one-launch-wins-small"): QUOTED,
    ("ch03-float-associativity", "ch03-reductions/reduce-accuracy:acc_loop_rel_err_2e20"): QUOTED,
    ("ch03-float-associativity", "ch03-reductions/reduce-accuracy:acc_one_pass_rel_err_2e20"): QUOTED,
    ("ch03-memory-ceiling", "tolerance"): BOUND,
    ("ch03-pdl-neighbours", "ch03-reductions/cluster-bench:alternating_graph_us_2e16"): QUOTED,
    ("ch03-pdl-neighbours", "ch03-reductions/cluster-bench:cub_graph_us_2e16"): QUOTED,
    ("ch03-pdl-neighbours", "ch03-reductions/cluster-bench:graph_us_2e16_plain"): QUOTED,
    ("ch03-pdl-neighbours", "ch03-reductions/cluster-bench:graph_us_2e16_pdlpf"): QUOTED,
}


def questions(path: str):
    """[(qid, answer text)] of one chapter."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    out = []
    for m in QUESTION.finditer(text):
        body = m.group(2)
        out.append((m.group(1), body.split("\n+++\n", 1)[1] if "\n+++\n" in body else ""))
    return out


def raised(v):
    if isinstance(v, bool):
        return not v
    if isinstance(v, (int, float)) and float(v).is_integer():
        return v + 1
    return v * 1.1


def program_of(build: str, key: str) -> list[str]:
    """The command of test <key>.check-yourself, as CTest runs it, after catch-run's `--`."""
    out = subprocess.run(["ctest", "--test-dir", build, "-N", "-V", "-R",
                          rf"^{re.escape(key)}\.check-yourself$"],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True).stdout
    m = re.search(r"Test command: (.*)", out)
    if not m:
        raise SystemExit(f"answer_mutations: no test {key}.check-yourself in {build}")
    words = re.findall(r'"([^"]*)"|(\S+)', m.group(1))
    words = [a or b for a, b in words]
    return words[words.index("--") + 1:] if "--" in words else words


def results_of_check(key: str, run: str, cid: str) -> list[str]:
    path = os.path.join(ROOT, "code", key, run + ".checks.json")
    with open(path, encoding="utf-8") as f:
        for c in json.load(f)["checks"]:
            if c["id"] == cid:
                return [c["value"]]  # raising the value raises the check's figure
    raise SystemExit(f"answer_mutations: no check {cid} in {path}")


def run_tag(program: list[str], qid: str, env: dict) -> bool:
    """Whether the program passes the tests tagged [cy:<qid>]."""
    proc = subprocess.run(program + [f"[cy:{qid}]"], stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, env=dict(os.environ, **env))
    return proc.returncode == 0


def mutations_of(key: str, text: str) -> list:
    """[(kind, figure)] that a question's answer text states: each figure of
    answers.json ("answer") and each recorded value it cites ("value"; for a
    check's value, the results the check reads too), each once."""
    mutations = []
    for fig in dict.fromkeys(ANSWER.findall(text)):
        mutations.append(("answer", fig))
    for ref in dict.fromkeys(VALUE.findall(text)):
        run, res = ref.split(":", 1)
        full = run if "/" in run else f"{key}/{run}"
        if res.startswith("check:"):
            r_key, r_run = full.split("/")
            for r in results_of_check(r_key, r_run, res[len("check:"):]):
                mutations.append(("value", f"{full}:{r}"))
            mutations.append(("value", f"{full}:{res}"))  # the check's own value
        else:
            mutations.append(("value", f"{full}:{res}"))
    return list(dict.fromkeys(mutations))


def with_answer_raised(answers: dict, qid: str, fig: str, tmp: str) -> dict:
    """The environment of a test run whose answers.json has the figure fig of
    question qid raised (a copy written in tmp)."""
    changed = copy.deepcopy(answers)
    entry = changed[qid][fig]
    if isinstance(entry, dict):
        entry["value"] = raised(entry["value"])
    else:
        changed[qid][fig] = raised(entry)
    path = os.path.join(tmp, "answers.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(changed, f)
    return {"BOOK_TEST_ANSWERS_FILE": path}


def with_value_raised(declared, manifest: dict, fig: str, tmp: str) -> dict:
    """The environment of a test run whose manifest points the run of fig
    (<key>/<run>:<result> or :check:<id>) at a copy of its record with that
    figure raised, in every repeat too (both written in tmp)."""
    full, res = fig.split(":", 1)
    rec_path = declared.runs[full]["record"]
    with open(rec_path, encoding="utf-8") as f:
        rec = json.load(f)
    if res.startswith("check:"):
        for c in rec.get("checks", []):
            if c.get("id") == res[len("check:"):]:
                c["value"] = raised(float(c["value"]))
                c["values"] = [raised(float(v)) for v in c.get("values", [])]
    else:
        entry = rec["results"][res]
        entry["value"] = raised(float(entry["value"]))
        for rep in rec.get("repeats", []):
            if res in rep.get("results", {}):
                r = rep["results"][res]
                r["value"] = raised(float(r["value"]))
    path = os.path.join(tmp, full.replace("/", "+") + ".json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(rec, f)
    man = copy.deepcopy(manifest)
    man["runs"][full]["record"] = path
    mpath = os.path.join(tmp, "book-manifest.json")
    with open(mpath, "w", encoding="utf-8") as f:
        json.dump(man, f)
    return {"BOOK_TEST_MANIFEST": mpath}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--build", required=True)
    p.add_argument("--chapters", default=os.path.join(ROOT, "chapters"))
    p.add_argument("--only", action="append", default=[])
    p.add_argument("--list", action="store_true")
    a = p.parse_args()
    # The manifest as the book reads it (its runs' record paths resolved), and
    # its raw JSON, which each mutation copies with one record path changed.
    mpath_build = os.path.join(a.build, MANIFEST)
    declared = read_manifest(mpath_build)
    manifest = load_json(mpath_build, "build manifest")
    errors, notes, survivors, killed = [], [], set(), 0
    with tempfile.TemporaryDirectory(prefix="answer-mutations.") as tmp:
        for key in chapter_keys(a.chapters):
            if a.only and key not in a.only:
                continue
            qs = [q for path in chapter_files(a.chapters, key) for q in questions(path)]
            if not qs:
                continue
            program = program_of(a.build, key)
            answers_path = os.path.join(ROOT, "tests", key, "answers.json")
            answers = {}
            if os.path.exists(answers_path):
                with open(answers_path, encoding="utf-8") as f:
                    answers = json.load(f)
            for qid, text in qs:
                if not run_tag(program, qid, {}):
                    errors.append(f"{key}: the test of {qid} fails unchanged")
                    continue
                for kind, fig in mutations_of(key, text):
                    if kind == "answer":
                        env = with_answer_raised(answers, qid, fig, tmp)
                        label = f"{qid}: answers.json {fig}"
                    else:
                        env = with_value_raised(declared, manifest, fig, tmp)
                        label = f"{qid}: {fig}"
                    passed = run_tag(program, qid, env)
                    if a.list:
                        print(f"{'SURVIVES' if passed else 'killed  '} {label}")
                    if passed:
                        survivors.add((qid, fig))
                        if (qid, fig) not in SURVIVORS and kind == "value":
                            notes.append(f"{key}: {label} raised, and the test of {qid} still "
                                         "passes (a recorded figure: how much slack its claims "
                                         "have depends on the GPU's records)")
                        elif (qid, fig) not in SURVIVORS:
                            errors.append(f"{key}: {label} raised, and the test of {qid} still "
                                          "passes: it cannot tell this figure wrong from right")
                    else:
                        killed += 1
    for (qid, fig), why in SURVIVORS.items():
        mine = not a.only or any(qid.startswith(k[:4]) for k in a.only)
        if (qid, fig) not in survivors and mine:
            (notes if "/" in fig else errors).append(
                f"SURVIVORS lists {qid}: {fig} ({why}), which no longer survives")
    for n in notes:
        print(f"note: {n}")
    for e in errors:
        print(e)
    print(f"answer_mutations: {killed} mutation(s) caught, {len(survivors)} survived "
          f"({len(SURVIVORS)} listed)")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
