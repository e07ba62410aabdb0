# SPDX-License-Identifier: MIT
"""Run records: what a program printed and measured, shown with where it ran.

``program-output``  a run's command and stdout (``:stderr:`` adds stderr)
``record-text``     a text a run recorded (a kernel's SASS), optionally only the
                    lines matching ``:match:`` with ``:context:`` lines around
``value`` (role)    one number of a run's results: ``run:result`` or
                    ``run:result|format`` (in a Markdown table cell write ``\\|``);
                    for a measuring run the median of its repeats, followed by
                    their range where they differ at the printed precision

A page shows a record only when its run is declared (the build manifest: the
invariant records-declared, docs/architecture.md), checks it against the record
schema (book/record-schema.json: the invariant record-schema), and depends
on every record it reads. Output is shown with its control characters made
visible and cut at a stated size, with a note where it was cut.
"""
from __future__ import annotations

import os
import re
from datetime import datetime
from typing import TYPE_CHECKING

from docutils import nodes
from docutils.parsers.rst import directives

from . import hidden
from ..records import schema as record_schema
from ..records.checkeval import lookup_value, lookup_values  # noqa: F401
from .common import (BookDirective, BookError, cap_text, literal, load_json, resolve_key,
                     visible_text)
from .inline import role_line
from .manifest import manifest
from .runyourself import run_yourself_node

if TYPE_CHECKING:
    from typing import Any

    from docutils.parsers.rst.states import Inliner
    from sphinx.config import Config
    from sphinx.environment import BuildEnvironment


def validate(record: object, path: str, schema: dict, gpu: bool) -> None:
    """The record has the shape book/record-schema.json gives it, under the
    schema version it was made with (bookpy.records.schema, the one Python
    reader of a record: unknown fields refused, as bookrun refuses them)."""
    try:
        record_schema.validate(record, schema, needs_gpu=gpu, where=f"run record {path}")
    except record_schema.RecordError as e:
        raise BookError(str(e)) from None


def load_record(env: BuildEnvironment, name: str) -> tuple[dict, dict]:
    """The record of run `<key>/<run>` and its entry in the manifest, validated.
    The record is a dependency of the page that asks, every time one asks."""
    m = manifest(env)
    leftover = os.path.join(m.records_dir, name + ".json")
    run = m.runs.get(name)
    if run is None:
        extra = (f"; the record {leftover} is left over from an earlier build"
                 if os.path.exists(leftover) else "")
        raise BookError(f"no run record for program run '{name}': no book_run() declares it "
                        f"(code/{name.split('/')[0]}/CMakeLists.txt){extra}")
    path = run["record"]
    env.note_dependency(path)
    if not os.path.exists(path):
        raise BookError(f"no run record for program run '{name}' (expected {path}); declare it with "
                        f"book_run() in code/{name.split('/')[0]}/CMakeLists.txt and build through CMake")
    record = load_json(path, "run record")
    schema_path = env.config.book_schema
    env.note_dependency(schema_path)
    try:
        schema = record_schema.load_schema(schema_path)
    except (OSError, ValueError) as e:
        raise BookError(f"record schema {schema_path}: {e}") from None
    gpu = bool(run.get("gpu"))
    validate(record, path, schema, gpu)
    return record, run


# ---- provenance ----------------------------------------------------------------------

def _date(p: dict) -> str:
    date = str(p.get("date", ""))
    try:
        return datetime.strptime(date, "%Y-%m-%dT%H:%M:%SZ").strftime("%Y-%m-%d %H:%M UTC")
    except ValueError:
        return date


def provenance_text(record: dict) -> str:
    """Where and how a run ran: the GPU, driver, runtime and toolchain, the
    commit and date, and for a recording whether its inputs are unchanged since.
    No host name: it says nothing to a reader."""
    p = record["provenance"]
    tools = []
    if "nvcc" in p:
        tools.append(f"nvcc {p['nvcc']}")
    if "cxx" in p:
        tools.append(str(p["cxx"]).replace("GNU ", "g++ "))
    built = f"built with {', '.join(tools)}" if tools else "toolchain not recorded"
    when = f"at commit {p.get('commit', 'unknown')} on {_date(p)}"
    if "gpu_name" in p:
        driver = f"driver {p.get('driver_version', '?')}"
        if "driver_cuda_version" in p:
            driver += f" (CUDA {p['driver_cuda_version']})"
        where = (f"{p['gpu_name']} (compute capability {p.get('compute_capability', '?')}, "
                 f"{p.get('sm_count', '?')} SMs), {driver}, CUDA runtime {p.get('runtime_version', '?')}")
    else:
        where = "the build machine's CPU"
    if record.get("source") == "recording":
        since = ("its inputs have changed since (see the note above)" if record.get("stale")
                 else "its inputs are unchanged since")
        return f"Recorded on {where}; {built}; {when}; {since}."
    return f"Ran live during this build on {where}; {built}; {when}."


def stale_banner(record: dict) -> list:
    if not record.get("stale"):
        return []
    reasons = record.get("stale_reasons") or ["its inputs changed"]
    warn = nodes.warning(classes=["book-stale"])
    para = nodes.paragraph()
    para += nodes.strong(text="Stale recording. ")
    para += nodes.Text(
        f"This output was recorded at commit {record['provenance'].get('commit', '?')}, and since "
        f"then {visible_text('; '.join(map(str, reasons)))}. It no longer shows what the current code does: "
        "re-record it on a GPU machine with `tools/book record`.")
    warn += para
    return [warn]


def shows(node: nodes.Element, *runs: str) -> nodes.Element:
    """Mark `node` as showing the runs (their keys): "How this book was built"
    lists, for each run, the pages that show it (buildinfo.ShownCollector)."""
    node["book_shows"] = sorted(set(node.get("book_shows", [])) | set(runs))
    return node


def run_block(record: dict, body: list, text: str = "", picked: bool = False) -> nodes.container:
    """What a run shows: a stale banner if due, the body, and where it ran;
    ``text``: the record's text the body shows ('' for the program's output),
    ``picked``: only some of its lines (record-text's :match:)."""
    container = shows(nodes.container(classes=["book-run"]), str(record.get("name", "")))
    container += stale_banner(record)
    container += body
    container += nodes.paragraph(text=provenance_text(record), classes=["book-provenance"])
    container += run_yourself_node(record, text, picked)  # runyourself.py: "Run it yourself"
    return container


def shown_output(config: Config, text: str) -> list:
    """Output as a block: visible control characters, cut at the stated cap with
    a note in the block where it was cut."""
    text, note = cap_text(visible_text(text), config.book_output_max_lines,
                          config.book_output_max_bytes)
    if note:
        text += "\n" + note
    block = literal(text, "text", ["book-output"])
    if note:
        block["classes"].append("book-output-cut")
    return [block]


# ---- directives and the role ----------------------------------------------------------

class ProgramOutput(BookDirective):
    """```{program-output} <run>```: the command, its stdout, and where it ran."""
    required_arguments = 1
    option_spec = {"stderr": directives.flag, "caption": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        try:
            name = resolve_key(self.env.docname, self.arguments[0])
            record, _ = load_record(self.env, name)
        except BookError as e:
            return self.fail(str(e))
        text = f"$ {' '.join(map(str, record['command']))}\n{record['stdout']}"
        if "stderr" in self.options and record.get("stderr"):
            text += record["stderr"]
        trojan = hidden.problem(
            lambda line: f"run record '{name}': line {line} of its output shown (line 1 is the "
                         "command)", text)
        if trojan:
            return self.fail(trojan)
        caption = []
        if "caption" in self.options:
            caption = [nodes.paragraph(text=self.options["caption"], classes=["book-caption"])]
        try:
            return [run_block(record, caption + shown_output(self.config, text.rstrip("\n")))]
        except BookError as e:
            return self.fail(str(e))


class RecordText(BookDirective):
    """```{record-text} <run>:<text name>```, optionally only lines matching a regex
    (``:first: N``: only the first N of them)."""
    required_arguments = 1
    option_spec = {"match": directives.unchanged, "context": directives.nonnegative_int,
                   "first": directives.positive_int, "language": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        ref, _, key = self.arguments[0].partition(":")
        try:
            if not key:
                raise BookError(f"record-text '{self.arguments[0]}' should read <run>:<text name>")
            name = resolve_key(self.env.docname, ref)
            record, _ = load_record(self.env, name)
            pattern = None
            if "match" in self.options:
                try:
                    pattern = re.compile(self.options["match"])
                except re.error as e:
                    raise BookError(f":match: /{self.options['match']}/ is not a regular "
                                    f"expression: {e}") from None
        except BookError as e:
            return self.fail(str(e))
        texts = record.get("texts", {})
        if not isinstance(texts, dict) or key not in texts or not isinstance(texts[key], str):
            return self.fail(f"run record '{name}' has no text '{key}' (it has: "
                             f"{', '.join(sorted(texts)) if isinstance(texts, dict) and texts else 'none'})")
        trojan = hidden.problem(lambda line: f"run record '{name}': text '{key}' line {line}",
                                texts[key])
        if trojan:
            return self.fail(trojan)
        lines = texts[key].splitlines()
        if pattern is not None:
            ctx = self.options.get("context", 0)
            keep = set()
            found = 0
            for i, line in enumerate(lines):
                if pattern.search(line) and found < self.options.get("first", len(lines)):
                    found += 1
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
        block = shown_output(self.config, "\n".join(lines))
        block[0]["language"] = self.options.get("language", "text")
        block[0]["classes"].remove("book-output")
        try:
            return [run_block(record, block, key, picked=pattern is not None)]
        except BookError as e:
            return self.fail(str(e))


#: What a value's format may do: round (a precision, a type of f, g, e or d) and
#: group (',' or '_'), with a sign; never pad, align, fill or change the base,
#: which would print another number.
SAFE_FORMAT = re.compile(r"(?P<sign>[+ -])?(?P<group>[,_])?(?:\.(?P<precision>[0-9]+))?"
                         r"(?P<type>[eEfFgGd%])?")
#: The units a percentage may be made of: a value that is a share of something.
PERCENT_UNITS = ("fraction", "ratio")


def check_format(spec: str, unit: str | None) -> None:
    """A format that rounds and groups, and '%' (x 100) only for a fraction or
    a ratio: `|.0%` on a count would print 32 warps as '3200%'."""
    if not spec:
        return
    m = SAFE_FORMAT.fullmatch(spec)
    if not m:
        raise BookError(f"format '{spec}' pads, aligns or changes the base of the number: a "
                        "value's format may only round (.2f, .3g, .0f) and group (,)")
    if m.group("type") == "%" and unit not in PERCENT_UNITS:
        what = f"unit '{unit}'" if unit else "no unit"
        raise BookError(f"format '{spec}' multiplies the value by 100, but it has {what}: a "
                        f"percentage is only for a result whose unit is "
                        f"{' or '.join(repr(u) for u in PERCENT_UNITS)}")


def unit_of(record: dict, key: str) -> str | None:
    """A result's unit (None for a check's computed value, which has none)."""
    if key.startswith("check:"):
        return None
    result = record.get("results", {}).get(key)
    return result.get("unit") if isinstance(result, dict) else None


def format_value(value: object, spec: str) -> str:
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise BookError("is not a number")
    try:
        if spec:
            return format(value, spec)
        if float(value).is_integer() and abs(value) < 1e15:
            # Counts and limits read as integers, with a comma from four digits on
            # (the book's one rule for numbers, prose and tables alike).
            return f"{int(value):,}"
        return f"{value:g}"
    except ValueError as e:
        raise BookError(f"bad format '{spec}': {e}") from None


def format_figure(value: object, values: list, spec: str) -> tuple:
    """The figure as the page prints it, and the range note when its repeats
    differ at that precision: ("2.2", "2.0 to 2.4 over 5 runs"), else (text, "")."""
    shown = format_value(value, spec)
    if len(values) < 2:
        return shown, ""
    lo, hi = format_value(min(values), spec), format_value(max(values), spec)
    if lo == hi:
        return shown, ""
    return shown, f"{lo} to {hi} over {len(values)} runs"


def value_role(name: str, rawtext: str, text: str, lineno: int, inliner: Inliner,
               options: dict[str, Any] | None = None,
               content: list[str] | None = None) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    """{value}`<run>:<result>`, {value}`<run>:check:<id>`, each optionally
    followed by `|<format>`."""
    env = inliner.document.settings.env
    ref, _, spec = text.partition("|")
    run, _, key = ref.partition(":")
    try:
        if not key:
            raise BookError(f"value '{text}' should read <run>:<result>[|format] "
                            "(in a Markdown table cell, write the '|' as '\\|')")
        run = resolve_key(env.docname, run)
        record, _ = load_record(env, run)
        value, values = lookup_values(record, run, key)
        try:
            check_format(spec, unit_of(record, key))
            shown, spread = format_figure(value, values, spec)
        except BookError as e:
            raise BookError(f"result '{key}' of '{run}': {e}") from None
    except BookError as e:
        msg = inliner.reporter.error(str(e), line=role_line(inliner.document, lineno, "value", text))
        return [inliner.problematic(rawtext, rawtext, msg)], [msg]
    if len(values) > 1:
        # For "How this book was built": every measured figure a page quotes.
        quoted = env.__dict__.setdefault("book_quoted_figures", {})
        quoted.setdefault(env.docname, set()).add((run, key, spec))
    if spread:
        # The median, and the range of the repeats where they differ at the
        # printed precision: the page claims no more digits than reproduce.
        node = nodes.inline("", "", classes=["book-value", "book-value-range"])
        node += nodes.Text(shown)
        node += nodes.inline("", f" ({spread})", classes=["book-value-spread"])
    else:
        node = nodes.inline(shown, shown, classes=["book-value"])
    shows(node, run)
    if record.get("stale"):
        node["classes"].append("book-stale-value")
    return [node], []
