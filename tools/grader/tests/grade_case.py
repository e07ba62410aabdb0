#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""One grading case: build a submission, grade it with tools/grade, check the grade,
and check that the grading left no trace.

    grade_case.py --grade tools/grade --kit BUILD --work DIR CASE_DIR

CASE_DIR/case.json describes the case:
    "base":      "solution" | "starter" | "empty": the submission starts as a copy of
                 solutions/, of exercises/, or as an empty folder
    "files":     [{"to": "<key>/<ex>/<name>", "base": "solution"|"starter" (optional),
                   "prepend"|"append"|"content": "<file of CASE_DIR>" or text,
                   "replace": [[old, new], ...]}]: files written into the submission
                 (text from CASE_DIR files is templated: @REPO@ the repository, @OUT@
                 the results folder, @KIT@ the kit's build folder, @MARK@ a name for
                 processes this case starts)
    "remove":    paths of the submission to delete; "mkdir": folders to make;
    "symlink":   {"<path>": "<target>"} (templated)
    "archive":   "zip" | "tar.gz": grade an archive of the submission instead
    "args":      more tools/grade arguments (e.g. ["--exercise", "<id>", "--timeout", "5"])
    "expect":    {"<id> <set>": "passed" | "failed" | "partial" | "error" | "left out" |
                  "gpu:<status>" | "cuda:<status>"} (gpu:...: that where the kit's
                 GPU probe finds a GPU, "left out" elsewhere; cuda:...: that where
                 the kit has nvcc, "left out" elsewhere; partial: failed, with some
                 of its points and not all, as a speed line earns them)
    "expect_speed": {"<id>": {"ratio": [lo, hi]}}: where a GPU is, the exercise's speed
                 line reports a ratio from lo to hi, and its points are the ones that
                 ratio earns on the exercise's scale (EXERCISE_SPEED, speed.points_for)
    "expect_note": {"<id> <set>": "<regex the set's note or output must match>"}
    "expect_notes": ["<regex some note of the results must match>"]
    "expect_absent": {"<id> <set>": "<regex nothing of the set's output may match>"}
    "expect_score": the total score results.json must give (an attack's honest grade)
    "forbid_output": ["<regex no results file may match>"]
    "max_results_bytes": the most bytes any results file may hold (an attack that floods)
    "expect_phases": true: every "@SPAN <start> <end>" line a worker wrote (nanoseconds,
                 CLOCK_MONOTONIC) in a hidden set's output starts after every one in a
                 visible set's output ended, and both kinds are there
    "wait":      seconds to wait after grading, then check results.json again and
                 that no process named @MARK@ is alive
    "regrade":   {"base": ..., "files": ..., "touch": "2000-01-01", "expect": ...}:
                 replace the submission in place (same path, old file dates) and grade
                 again: nothing of the first grading may be reused
    "trusted_ok": true: where bubblewrap cannot run (a GPU machine without it), grade
                 with --trusted rather than skip; only for cases that attack nothing
                 the sandbox defends (the speed-* cases attack the timing, which the
                 judge's clock, fresh workers and checked outputs defend).
                 Every other case reports skipped (77) there, never passed.

Always checked: tools/grade exits 0 and writes results.json (Gradescope's fields),
junit.xml and table.txt; the scores add up; the repository (every tracked file and
every untracked one git does not ignore, and `git status --porcelain`) and the
kit's files are byte for byte as before.
"""
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
import xml.etree.ElementTree as ET
import zipfile
from pathlib import Path

from scaffold import arguments, report, sandbox_missing, tree_hashes

GRADESCOPE_TOP = {"score", "execution_time", "output", "output_format", "stdout_visibility", "tests"}
GRADESCOPE_TEST = {"name", "score", "max_score", "status", "output", "output_format", "visibility"}


def shown_output(text, head=600, tail=2400):
    """A test set's output as a failure shows it: its start (the verdict) and its end,
    where the worker's own output is (a worker that died says why there: a CUDA error,
    an uncaught exception), with what lies between left out and counted."""
    if len(text) <= head + tail:
        return text
    return f"{text[:head]}\n[... {len(text) - head - tail} characters left out ...]\n{text[-tail:]}"


def kit_hashes(kit_dir):
    kit = json.loads((Path(kit_dir) / "exercises" / "kit.json").read_text())
    files = [kit["catch_main"], kit.get("gpu_main"), kit.get("gpu_probe")]
    for e in kit["exercises"]:
        files += e["link"] + [o for s in e["sets"] for o in s["objects"]]
    out = {}
    for f in files:
        if f and Path(f).is_file():
            out[f] = hashlib.sha256(Path(f).read_bytes()).hexdigest()
    return out


def gpu_here(kit_dir):
    kit = json.loads((Path(kit_dir) / "exercises" / "kit.json").read_text())
    probe = kit.get("gpu_probe")
    if not kit.get("cuda") or not probe or not Path(probe).is_file():
        return False
    return subprocess.run([probe], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode == 0


class Case:
    def __init__(self, a):
        self.a = a
        self.dir = Path(a.case).resolve()
        self.spec = json.loads((self.dir / "case.json").read_text())
        self.repo = Path(a.grade).resolve().parent.parent
        self.work = Path(a.work).resolve()
        self.out = self.work / "out"
        self.mark = ("bk" + hashlib.sha1(str(self.dir).encode()).hexdigest())[:14]
        self.problems = []

    def template(self, text):
        for k, v in (("@REPO@", str(self.repo)), ("@OUT@", str(self.out)),
                     ("@KIT@", str(Path(self.a.kit).resolve())), ("@MARK@", self.mark)):
            text = text.replace(k, v)
        return text

    def text(self, ref):
        p = self.dir / ref
        return self.template(p.read_text()) if p.is_file() else self.template(ref)

    def build(self, spec, dest):
        if dest.exists():
            shutil.rmtree(dest)
        base = spec.get("base", "empty")
        if base == "empty":
            dest.mkdir(parents=True)
        else:
            shutil.copytree(self.repo / {"solution": "solutions", "starter": "exercises"}[base], dest)
        for f in spec.get("files", []):
            to = dest / f["to"]
            to.parent.mkdir(parents=True, exist_ok=True)
            body = ""
            if "base" in f:
                side = {"solution": "solutions", "starter": "exercises"}[f["base"]]
                body = (self.repo / side / f["to"]).read_text()
            if "content" in f:
                body = self.text(f["content"])
            for old, new in f.get("replace", []):
                if old not in body:
                    sys.exit(f"grade_case: {f['to']}: no {old!r} to replace")
                body = body.replace(old, self.template(new))
            if "prepend" in f:
                body = self.text(f["prepend"]) + body
            if "append" in f:
                body = body + self.text(f["append"])
            if to.is_dir():
                shutil.rmtree(to)
            to.write_text(body)
        for r in spec.get("remove", []):
            p = dest / r
            shutil.rmtree(p) if p.is_dir() else p.unlink()
        for d in spec.get("mkdir", []):
            p = dest / d
            if p.is_file():
                p.unlink()
            p.mkdir(parents=True, exist_ok=True)
        for link, target in spec.get("symlink", {}).items():
            p = dest / link
            if p.exists() or p.is_symlink():
                p.unlink()
            p.symlink_to(self.template(target))
        if spec.get("touch"):
            stamp = time.mktime(time.strptime(spec["touch"], "%Y-%m-%d"))
            for p in [dest, *dest.rglob("*")]:
                os.utime(p, (stamp, stamp), follow_symlinks=False)
        kind = spec.get("archive")
        if not kind:
            return dest
        arc = dest.parent / f"{dest.name}.{kind}"
        if kind == "zip":
            with zipfile.ZipFile(arc, "w") as z:
                for p in sorted(dest.rglob("*")):
                    z.write(p, f"{dest.name}/{p.relative_to(dest)}")
                for name, data in spec.get("archive_extra", {}).items():
                    z.writestr(name, data)
        else:
            with tarfile.open(arc, "w:gz") as t:
                t.add(dest, arcname=dest.name)
                for name, target in spec.get("archive_links", {}).items():
                    info = tarfile.TarInfo(name)
                    info.type = tarfile.SYMTYPE
                    info.linkname = self.template(target)
                    t.addfile(info)
        return arc

    def grade(self, sub):
        args = self.spec.get("args", [])
        if "--without-gpu" not in args:
            args = args + ["--without-gpu", "leave-out"]  # where no GPU is: out of the maximum
        cmd = [sys.executable, str(self.a.grade), str(sub), "--kit", self.a.kit, "--no-kit-build",
               "--out", str(self.out)] + args
        print("$ " + " ".join(cmd), flush=True)
        t0 = time.monotonic()
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                           errors="replace", timeout=900)
        print(p.stdout)
        print(f"(graded in {time.monotonic() - t0:.1f} s)")
        if p.returncode != 0:
            self.problems.append(f"tools/grade exited {p.returncode}")
            return None
        return self.check_results()

    def check_results(self):
        res_file = self.out / "results.json"
        for f in ("results.json", "junit.xml", "table.txt"):
            if not (self.out / f).is_file():
                self.problems.append(f"no {f}")
        if not res_file.is_file():
            return None
        results = json.loads(res_file.read_text())
        missing = GRADESCOPE_TOP - set(results)
        if missing:
            self.problems.append(f"results.json lacks {sorted(missing)}")
        for t in results.get("tests", []):
            if GRADESCOPE_TEST - set(t):
                self.problems.append(f"results.json test {t.get('name')} "
                                     f"lacks {sorted(GRADESCOPE_TEST - set(t))}")
            if t.get("status") not in ("passed", "failed"):
                self.problems.append(f"status {t.get('status')!r} is not Gradescope's")
        if sum(t["score"] for t in results.get("tests", [])) != results.get("score"):
            self.problems.append("the tests' scores do not add up to the score")
        # While a hidden set is hidden, nothing at the top level tells its outcome.
        if any(t.get("visibility") != "visible" for t in results.get("tests", [])) and \
                re.search(r"\b\d+ (of|/) \d+ points", results.get("output", "")):
            self.problems.append("results.json's top-level output tells a total while hidden tests "
                                 "are hidden: " + results.get("output", "")[:200])
        return results

    def check_expect(self, results, expect, expect_note, expect_absent=None):
        gpu = gpu_here(self.a.kit)
        cuda = bool(json.loads((Path(self.a.kit) / "exercises" / "kit.json").read_text()).get("cuda"))
        tests = {}
        for t in results.get("tests", []):
            m = re.match(r"^(\S+) \[(\w+) tests\]", t["name"])
            tests[f"{m.group(1)} {m.group(2)}"] = t
        left = results.get("extra_data", {}).get("left_out", [])
        for key, want in expect.items():
            if want.startswith("gpu:"):
                want = want[4:] if gpu else "left out"
            elif want.startswith("cuda:"):
                want = want[5:] if cuda else "left out"
            t = tests.get(key)
            ex, s = key.split(" ")
            if want == "left out":
                if t is None or t["max_score"] != 0 or t["score"] != 0 or \
                        "(not run here)" not in t["name"] or \
                        not any(x.startswith(f"{ex} [{s} tests]") for x in left):
                    self.problems.append(f"{key}: want left out of the maximum (max_score 0, "
                                         f"'not run here'), got {t['status'] if t else 'absent'}")
                continue
            if t is None:
                self.problems.append(f"{key}: not in results.json's tests")
                continue
            got = t["status"]
            if want == "error":
                label = "(missing)" if t["output"].startswith("missing") else "(did not build)"
                ok = got == "failed" and t["score"] == 0 and label in t["name"] and \
                    re.search(r"did not (compile|link)|missing|not a regular file|not graded",
                              t["output"])
            elif want == "passed":
                ok = got == "passed" and t["score"] == t["max_score"]
            elif want == "partial":
                ok = got == "failed" and 0 < t["score"] < t["max_score"]
            else:
                ok = got == "failed" and t["score"] == 0
            if not ok:
                self.problems.append(f"{key}: want {want}, got {got} ({t['score']} of "
                                     f"{t['max_score']}): {shown_output(t['output'])}")
        # The JUnit file says the same, one test case per test set.
        try:
            suites = ET.parse(self.out / "junit.xml").getroot()
            suite = suites.find("testsuite")
            if suite is None or not suite.get("name", "").startswith("tools/grade: "):
                self.problems.append("junit.xml: no test suite named tools/grade: <submission>")
            cases = {f"{tc.get('classname')} {tc.get('name').split(' ')[0]}": tc
                     for tc in suites.iter("testcase")}
        except (OSError, ET.ParseError) as e:
            self.problems.append(f"junit.xml: {e}")
            cases = {}
        for key, want in expect.items():
            if want.startswith(("gpu:", "cuda:")):
                want = want.split(":", 1)[1] if (gpu if want.startswith("gpu:") else cuda) else "left out"
            tc = cases.get(key)
            if tc is None:
                self.problems.append(f"junit.xml: no test case for {key}")
                continue
            child = {"passed": None, "failed": "failure", "partial": "failure", "error": "error",
                     "left out": "skipped"}[want]
            got = [c.tag for c in tc if c.tag in ("failure", "error", "skipped")]
            if got != ([child] if child else []):
                self.problems.append(f"junit.xml: {key}: {got or 'passed'}, want {child or 'passed'}")
        if gpu:
            self.check_speed(tests, self.spec.get("expect_speed", {}))
        if "expect_score" in self.spec and results.get("score") != self.spec["expect_score"]:
            self.problems.append(f"score {results.get('score')}, want {self.spec['expect_score']}")
        for key, rx in expect_note.items():
            t = tests.get(key)
            text = (t or {}).get("output", "") + "\n" + results.get("output", "")
            if not re.search(rx, text):
                self.problems.append(f"{key}: nothing matches /{rx}/ in its output")
        for key, rx in (expect_absent or {}).items():
            t = tests.get(key)
            if t is None:
                self.problems.append(f"{key}: no such test set in the results")
            elif m := re.search(rx, t.get("output", "")):
                self.problems.append(f"{key}: its output shows {m.group(0)!r} (/{rx}/)")

    def check_speed(self, tests, expect_speed):
        """Each exercise's speed line: its ratio in the window, its points the ones
        that ratio earns on the exercise's scale (the report prints the ratio to 3
        decimals: the points of either end of its rounding will do)."""
        from grader import speed
        import speed_table  # the one reader of a speed report (this script's sibling)
        kit = json.loads((Path(self.a.kit) / "exercises" / "kit.json").read_text())
        specs = {e["id"]: e.get("speed") for e in kit["exercises"]}
        for ex, want in expect_speed.items():
            t = tests.get(f"{ex} speed")
            report = speed_table.read_report((t or {}).get("output", ""))
            if not specs.get(ex) or "ratio" not in report:
                self.problems.append(f"{ex}: no speed line with a ratio in the results")
                continue
            ratio, (lo, hi) = report["ratio"][0], want["ratio"]
            spec = speed.spec_from(specs[ex])
            earned = {speed.points_for(ratio + d, spec) for d in (-0.0005, 0.0, 0.0005)}
            if not lo <= ratio <= hi:
                self.problems.append(f"{ex}: speed ratio {ratio}, want {lo} to {hi}")
            if t["score"] not in earned:
                self.problems.append(f"{ex}: {t['score']} speed points for a ratio of {ratio}, "
                                     f"whose points on the scale are {sorted(earned)}")
            else:
                print(f"speed: {ex}: ratio {ratio} (want {lo} to {hi}), {t['score']} of "
                      f"{t['max_score']} points, as the scale gives")

    def check_phases(self, results):
        spans = {"visible": [], "hidden": []}
        for t in results.get("tests", []):
            kind = "hidden" if "[hidden tests]" in t.get("name", "") else "visible"
            for start, end in re.findall(r"^@SPAN (\d+) (\d+)$", t.get("output", ""), re.M):
                spans[kind].append((int(start), int(end), t["name"]))
        if not spans["visible"] or not spans["hidden"]:
            self.problems.append(f"expect_phases: workers' spans missing ({len(spans['visible'])} "
                                 f"visible, {len(spans['hidden'])} hidden)")
            return
        last = max(spans["visible"], key=lambda x: x[1])
        first = min(spans["hidden"], key=lambda x: x[0])
        if first[0] <= last[1]:
            self.problems.append(f"a hidden set's worker ({first[2]}) started "
                                 f"{(last[1] - first[0]) / 1e9:.2f} s before a visible set's "
                                 f"worker ({last[2]}) ended")
        else:
            print(f"phases: every hidden worker started after every visible one ended "
                  f"({len(spans['visible'])} visible, {len(spans['hidden'])} hidden, "
                  f"{(first[0] - last[1]) / 1e9:.2f} s apart)")

    def run(self):
        why = sandbox_missing()
        if why:
            if not self.spec.get("trusted_ok"):
                print(f"skipped: the sandbox cannot run here ({why}); a hostile case is never "
                      "graded without it")
                return 77
            print(f"note: the sandbox cannot run here ({why}): graded with --trusted")
            self.spec.setdefault("args", []).append("--trusted")
        repo_before = tree_hashes(self.repo)
        kit_before = kit_hashes(self.a.kit)
        if self.work.exists():
            shutil.rmtree(self.work)
        self.work.mkdir(parents=True)
        sub = self.build(self.spec, self.work / "submission")
        results = self.grade(sub)
        if results is not None:
            self.check_expect(results, self.spec.get("expect", {}), self.spec.get("expect_note", {}),
                              self.spec.get("expect_absent", {}))
            notes = results.get("output", "")
            for rx in self.spec.get("expect_notes", []):
                if not re.search(rx, notes):
                    self.problems.append(f"no note matches /{rx}/")
        if results is not None and self.spec.get("expect_phases"):
            self.check_phases(results)
        if "max_results_bytes" in self.spec:
            for f in self.out.glob("*"):
                if f.is_file() and f.stat().st_size > self.spec["max_results_bytes"]:
                    self.problems.append(f"{f.name}: {f.stat().st_size} bytes, more than "
                                         f"{self.spec['max_results_bytes']}")
        for rx in self.spec.get("forbid_output", []):
            for f in self.out.glob("*"):
                if f.is_file() and re.search(rx, f.read_text(errors="replace")):
                    self.problems.append(f"{f.name} matches /{rx}/, which it must not")
        if self.spec.get("wait"):
            res_path = self.out / "results.json"
            before = res_path.read_bytes() if res_path.is_file() else b""
            time.sleep(self.spec["wait"])
            after = res_path.read_bytes() if res_path.is_file() else b""
            if before != after:
                self.problems.append("results.json changed after tools/grade ended")
        survivors = self.survivors()
        if survivors:
            self.problems.append(f"processes of the submission survived: {survivors}")
            for pid in survivors:
                try:
                    os.kill(pid, 9)
                except OSError:
                    pass
        if "regrade" in self.spec:
            r = self.spec["regrade"]
            print("--- the same path again, with other files (and old dates):", flush=True)
            shutil.rmtree(self.work / "submission")
            sub = self.build(r, self.work / "submission")
            results = self.grade(sub)
            if results is not None:
                self.check_expect(results, r.get("expect", {}), r.get("expect_note", {}))
        if tree_hashes(self.repo) != repo_before:
            after, status = tree_hashes(self.repo)
            changed = sorted(k for k in set(after) | set(repo_before[0])
                             if after.get(k) != repo_before[0].get(k))
            self.problems.append(f"the repository changed: {changed[:10]} "
                                 f"(git status before: {repo_before[1]!r}, after: {status!r})")
        if kit_hashes(self.a.kit) != kit_before:
            self.problems.append("the kit's files changed")
        return report(f"grade_case {self.dir.name}", self.problems, self.spec.get("description", ""))

    def survivors(self):
        out = []
        for p in Path("/proc").iterdir():
            if not p.name.isdigit():
                continue
            try:
                comm = (p / "comm").read_text().strip()
                cmdline = (p / "cmdline").read_bytes()
            except OSError:
                continue
            if comm == self.mark or self.mark.encode() in cmdline:
                out.append(int(p.name))
        return out


def main():
    return Case(arguments("case", empty_work=False)[0]).run()


if __name__ == "__main__":
    sys.exit(main())
