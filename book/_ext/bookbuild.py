"""Sphinx extension for the executable book.

Chapters reach code, runs and diagrams only through these, so what the reader
sees is what was compiled and run:

``listing``         a listing included from a compiled file by named markers
                    (``// [listing:NAME]`` ... ``// [/listing:NAME]``)
``program-output``  a program's output from its run record, with provenance
``record-text``     a text a run recorded (for example a kernel's SASS)
``value`` (role)    one number from a run record's structured results
``diagram``         a Mermaid diagram rendered to SVG by the build
``check-yourself``  a question with a stable id; every id needs a Catch2 test
                    tagged ``[cy:ID]`` and every such test a question

Every problem is reported at the chapter's file and line; the build runs with
warnings as errors, so each one fails it.
"""
from __future__ import annotations

import json
import os
import re
from datetime import datetime

from docutils import nodes
from docutils.parsers.rst import directives
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

logger = logging.getLogger(__name__)

LANGUAGES = {".cpp": "cpp", ".hpp": "cpp", ".cu": "cuda", ".cuh": "cuda", ".h": "cpp",
             ".py": "python", ".cmake": "cmake", ".txt": "text", ".json": "json", ".sh": "bash"}
MARKER = re.compile(r"^\s*(?://|#)\s*\[(/?)listing:([A-Za-z0-9_.-]+)\]\s*$")


class BookError(Exception):
    """A problem in a chapter's reference: reported at the directive's line."""


# ---- run records -------------------------------------------------------------

REQUIRED = {"name": str, "command": list, "exit_status": int, "stdout": str,
            "results": dict, "provenance": dict, "inputs": dict}


def load_record(env, name: str) -> dict:
    """The run record of `<chapter>/<run>`, validated, cached per build."""
    cache = env.app.__dict__.setdefault("_book_records", {})
    if name in cache:
        return cache[name]
    path = os.path.join(env.config.book_records_dir, name + ".json")
    if not os.path.exists(path):
        raise BookError(f"no run record for program run '{name}' (expected {path}); "
                        f"declare it with book_run() in code/{name.split('/')[0]}/CMakeLists.txt")
    env.note_dependency(path)
    try:
        with open(path, encoding="utf-8") as f:
            record = json.load(f)
    except json.JSONDecodeError as e:
        raise BookError(f"run record {path}:{e.lineno}: malformed JSON: {e.msg}") from None
    if not isinstance(record, dict):
        raise BookError(f"run record {path}: not a JSON object")
    for key, kind in REQUIRED.items():
        if key not in record:
            raise BookError(f"run record {path}: field '{key}' is missing")
        if not isinstance(record[key], kind):
            raise BookError(f"run record {path}: field '{key}' should be {kind.__name__}")
    cache[name] = record
    return record


def provenance_text(record: dict) -> str:
    p = record["provenance"]
    date = p.get("date", "")
    try:
        date = datetime.strptime(date, "%Y-%m-%dT%H:%M:%SZ").strftime("%Y-%m-%d %H:%M UTC")
    except ValueError:
        pass
    tools = []
    if "nvcc" in p:
        tools.append(f"nvcc {p['nvcc']}")
    if "cxx" in p:
        tools.append(p["cxx"].replace("GNU ", "g++ "))
    tools = ", ".join(tools)
    commit = p.get("commit", "unknown")
    if "gpu_name" in p:
        where = (f"{p['gpu_name']} (compute capability {p.get('compute_capability', '?')}, "
                 f"{p.get('sm_count', '?')} SMs), driver {p.get('driver_version', '?')}, "
                 f"CUDA runtime {p.get('runtime_version', '?')}")
    else:
        where = f"the CPU of {p.get('host', 'the build machine')}"
    how = ("Recorded" if record.get("source") == "recording" else "Ran live during this build")
    return f"{how} on {where}; built with {tools}; commit {commit}; {date}."


def stale_banner(record: dict) -> list:
    if not record.get("stale"):
        return []
    reasons = record.get("stale_reasons") or ["its inputs changed"]
    warn = nodes.warning()
    warn["classes"].append("book-stale")
    para = nodes.paragraph()
    para += nodes.strong(text="Stale recording. ")
    para += nodes.Text(
        f"This output was recorded at commit {record['provenance'].get('commit', '?')}, and since "
        f"then {'; '.join(reasons)}. It no longer shows what the current code does: "
        "re-record it on a GPU machine with `tools/book record`.")
    warn += para
    return [warn]


def run_block(record: dict, body: list) -> nodes.container:
    """What a run shows: a stale banner if due, the body, and where it ran."""
    container = nodes.container(classes=["book-run"])
    container += stale_banner(record)
    container += body
    container += nodes.paragraph(text=provenance_text(record), classes=["book-provenance"])
    return container


class BookDirective(SphinxDirective):
    def fail(self, message: str):
        return [self.state.document.reporter.error(message, line=self.lineno)]


class ProgramOutput(BookDirective):
    """```{program-output} <chapter>/<run>```: the command, its stdout, and where it ran."""
    required_arguments = 1
    option_spec = {"stderr": directives.flag, "caption": directives.unchanged}

    def run(self):
        try:
            record = load_record(self.env, self.arguments[0])
        except BookError as e:
            return self.fail(str(e))
        command = " ".join(record["command"])
        text = f"$ {command}\n{record['stdout']}"
        if "stderr" in self.options and record.get("stderr"):
            text += record["stderr"]
        block = nodes.literal_block(text.rstrip("\n"), text.rstrip("\n"))
        block["language"] = "text"
        block["classes"].append("book-output")
        caption = []
        if "caption" in self.options:
            caption = [nodes.paragraph(text=self.options["caption"], classes=["book-caption"])]
        return [run_block(record, caption + [block])]


class RecordText(BookDirective):
    """```{record-text} <chapter>/<run>:<text name>```, optionally only lines matching a regex."""
    required_arguments = 1
    option_spec = {"match": directives.unchanged, "context": directives.nonnegative_int,
                   "language": directives.unchanged}

    def run(self):
        name, _, key = self.arguments[0].partition(":")
        try:
            record = load_record(self.env, name)
        except BookError as e:
            return self.fail(str(e))
        texts = record.get("texts", {})
        if key not in texts:
            return self.fail(f"run record '{name}' has no text '{key}' (it has: "
                             f"{', '.join(sorted(texts)) or 'none'})")
        lines = texts[key].splitlines()
        if "match" in self.options:
            pattern = re.compile(self.options["match"])
            ctx = self.options.get("context", 0)
            keep = set()
            for i, line in enumerate(lines):
                if pattern.search(line):
                    keep.update(range(max(0, i - ctx), min(len(lines), i + ctx + 1)))
            if not keep:
                return self.fail(f"no line of '{key}' in '{name}' matches /{self.options['match']}/")
            picked, last = [], None
            for i in sorted(keep):
                if last is not None and i != last + 1:
                    picked.append("        ...")
                picked.append(lines[i])
                last = i
            lines = picked
        text = "\n".join(lines)
        block = nodes.literal_block(text, text)
        block["language"] = self.options.get("language", "text")
        return [run_block(record, [block])]


def role_line(inliner, lineno: int, text: str) -> int:
    """The line of an inline role's text. MyST reports an inline role at the line
    its paragraph starts on; look for the role's own text from there on, within
    the paragraph."""
    source = inliner.document.get("source") or ""
    try:
        with open(source, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError:
        return lineno
    needle = f"`{text}`"
    for n in range(max(lineno, 1), len(lines) + 1):
        if needle in lines[n - 1]:
            return n
        if not lines[n - 1].strip():
            break
    return lineno


def value_role(name, rawtext, text, lineno, inliner, options=None, content=None):
    """{value}`<chapter>/<run>:<result>` or {value}`<chapter>/<run>:<result>|<format>`."""
    env = inliner.document.settings.env
    ref, _, spec = text.partition("|")
    run, _, key = ref.partition(":")
    try:
        if not key:
            raise BookError(f"value '{text}' should read <chapter>/<run>:<result>[|format]")
        record = load_record(env, run)
        results = record["results"]
        if key not in results:
            raise BookError(f"run record '{run}' has no result '{key}'")
        value = results[key]["value"]
        if not isinstance(value, (int, float)):
            raise BookError(f"result '{key}' of '{run}' is not a number")
        try:
            if spec:
                shown = format(value, spec)
            elif float(value).is_integer() and abs(value) < 1e15:
                shown = str(int(value))  # counts and limits read as integers
            else:
                shown = f"{value:g}"
        except ValueError as e:
            raise BookError(f"bad format '{spec}' for result '{key}': {e}") from None
    except BookError as e:
        msg = inliner.reporter.error(str(e), line=role_line(inliner, lineno, text))
        return [inliner.problematic(rawtext, rawtext, msg)], [msg]
    node = nodes.inline(shown, shown, classes=["book-value"])
    if record.get("stale"):
        node["classes"].append("book-stale-value")
    return [node], []


# ---- listings ------------------------------------------------------------------

def extract_listing(path: str, marker: str) -> tuple[str, int]:
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    start = end = None
    for i, line in enumerate(lines):
        m = MARKER.match(line)
        if m and m.group(2) == marker:
            if m.group(1) == "" and start is None:
                start = i
            elif m.group(1) == "/" and start is not None:
                end = i
                break
    if start is None:
        raise BookError(f"{path} has no listing marker '[listing:{marker}]'")
    if end is None:
        raise BookError(f"{path}: listing '{marker}' opened at line {start + 1} is never closed "
                        f"('[/listing:{marker}]')")
    body = [l for l in lines[start + 1:end] if not MARKER.match(l)]
    indent = min((len(l) - len(l.lstrip()) for l in body if l.strip()), default=0)
    return "\n".join(l[indent:] for l in body), start + 2


class Listing(BookDirective):
    """```{listing} code/<chapter>/<file>``` with ``:marker: NAME`` (or the whole file)."""
    required_arguments = 1
    option_spec = {"marker": directives.unchanged, "caption": directives.unchanged,
                   "linenos": directives.flag, "language": directives.unchanged}

    def run(self):
        rel = self.arguments[0]
        path = os.path.join(self.config.book_source_root, rel)
        if not os.path.exists(path):
            return self.fail(f"listing file {rel} does not exist")
        self.env.note_dependency(path)
        try:
            if "marker" in self.options:
                text, first = extract_listing(path, self.options["marker"])
            else:
                with open(path, encoding="utf-8") as f:
                    text, first = f.read().rstrip("\n"), 1
        except BookError as e:
            return self.fail(str(e))
        block = nodes.literal_block(text, text)
        block["language"] = self.options.get("language", LANGUAGES.get(os.path.splitext(rel)[1], "text"))
        if "linenos" in self.options:
            block["linenos"] = True
            block["highlight_args"] = {"linenostart": first}
        caption = self.options.get("caption", "")
        title = f"{rel}" + (f" — {caption}" if caption else "")
        container = nodes.container(classes=["literal-block-wrapper", "book-listing"], literal_block=True)
        cap = nodes.caption(title, "")
        cap += nodes.literal(rel, rel)
        if caption:
            cap += nodes.Text(f" — {caption}")
        container += cap
        container += block
        return [container]


# ---- diagrams ------------------------------------------------------------------

class Diagram(BookDirective):
    """```{diagram} <chapter>/<name>``` with a caption as content: diagrams/<chapter>/<name>.mmd."""
    required_arguments = 1
    has_content = True
    option_spec = {"name": directives.unchanged, "width": directives.unchanged}

    def run(self):
        key = self.arguments[0]
        mmd = os.path.join(self.config.book_source_root, "diagrams", key + ".mmd")
        svg = os.path.join(self.config.book_diagrams_dir, key + ".svg")
        if not os.path.exists(mmd):
            return self.fail(f"no diagram '{key}': diagrams/{key}.mmd does not exist")
        if not os.path.exists(svg):
            return self.fail(f"diagram '{key}' was not rendered ({svg} is missing); "
                             "build through CMake, which renders diagrams/**.mmd")
        self.env.note_dependency(svg)
        docdir = os.path.dirname(self.env.doc2path(self.env.docname))
        figure = nodes.figure(classes=["book-diagram"])
        image = nodes.image(uri=os.path.relpath(svg, docdir), alt=key)
        if "width" in self.options:
            image["width"] = self.options["width"]
        figure += image
        if self.content:
            caption_nodes, _ = self.state.inline_text(" ".join(self.content), self.lineno)
            figure += nodes.caption("", "", *caption_nodes)
        if "name" in self.options:
            self.add_name(figure)
        return [figure]


# ---- check yourself --------------------------------------------------------------

class CheckYourself(BookDirective):
    """```{check-yourself} <id>```: the question, a line ``+++``, then the answer."""
    required_arguments = 1
    has_content = True

    def run(self):
        qid = self.arguments[0]
        if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", qid):
            return self.fail(f"check-yourself id '{qid}' should be kebab-case")
        lines = list(self.content)
        if "+++" not in [l.strip() for l in lines]:
            return self.fail(f"check-yourself '{qid}' needs a line '+++' between question and answer")
        cut = [l.strip() for l in lines].index("+++")
        questions = self.env.__dict__.setdefault("book_questions", {})
        if qid in questions and questions[qid][0] != self.env.docname:
            return self.fail(f"check-yourself id '{qid}' is used twice")
        questions[qid] = (self.env.docname, self.lineno)
        box = nodes.container(classes=["book-check"], ids=[f"cy-{qid}"])
        title = nodes.paragraph(classes=["book-check-title"])
        title += nodes.strong(text="Check yourself")
        title += nodes.literal(text=f" {qid}", classes=["book-check-id"])
        box += title
        self.state.nested_parse(self.content[:cut], self.content_offset, box)
        box += nodes.raw("", "<details><summary>Show answer</summary>", format="html")
        answer = nodes.container(classes=["book-answer"])
        self.state.nested_parse(self.content[cut + 1:], self.content_offset + cut + 1, answer)
        box += answer
        box += nodes.raw("", "</details>", format="html")
        return [box]


def purge_questions(app, env, docname):
    questions = env.__dict__.setdefault("book_questions", {})
    for qid in [q for q, (doc, _) in questions.items() if doc == docname]:
        del questions[qid]


def merge_questions(app, env, docnames, other):
    env.__dict__.setdefault("book_questions", {}).update(getattr(other, "book_questions", {}))


TEST_TAG = re.compile(r"\[cy:([a-z0-9][a-z0-9-]*)\]")


def check_question_tests(app, env):
    """Every question has a Catch2 test tagged [cy:ID], and every such test a question."""
    tests = {}
    root = app.config.book_tests_dir
    for dirpath, _, files in os.walk(root):
        for fname in sorted(files):
            if not fname.endswith((".cpp", ".cu")):
                continue
            path = os.path.join(dirpath, fname)
            with open(path, encoding="utf-8") as f:
                for n, line in enumerate(f, 1):
                    for qid in TEST_TAG.findall(line):
                        tests.setdefault(qid, (os.path.relpath(path, app.config.book_source_root), n))
    questions = env.__dict__.get("book_questions", {})
    for qid, (doc, line) in sorted(questions.items()):
        if qid not in tests:
            logger.warning(f"check-yourself '{qid}' has no Catch2 test tagged [cy:{qid}] under tests/",
                           location=(doc, line))
    for qid, (path, line) in sorted(tests.items()):
        if qid not in questions:
            logger.warning(f"{path}:{line}: test tagged [cy:{qid}] answers no check-yourself question "
                           "in any chapter")


def setup(app):
    app.add_config_value("book_source_root", "", "env")
    app.add_config_value("book_records_dir", "", "env")
    app.add_config_value("book_diagrams_dir", "", "env")
    app.add_config_value("book_tests_dir", "", "env")
    app.add_directive("program-output", ProgramOutput)
    app.add_directive("record-text", RecordText)
    app.add_directive("listing", Listing)
    app.add_directive("diagram", Diagram)
    app.add_directive("check-yourself", CheckYourself)
    app.add_role("value", value_role)
    app.connect("env-purge-doc", purge_questions)
    app.connect("env-merge-info", merge_questions)
    app.connect("env-check-consistency", check_question_tests)
    app.add_css_file("book.css")
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True,
            "env_version": 1}
