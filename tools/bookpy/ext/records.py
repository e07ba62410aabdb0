# SPDX-License-Identifier: MIT
"""Run records: what a program printed and measured, shown with where it ran.

``program-output``  a run's command and stdout (``:stderr:`` adds stderr)
``record-text``     a text a run recorded (a kernel's SASS), optionally only the
                    lines matching ``:match:`` with ``:context:`` lines around
``value`` (role)    one number of a run's results: ``run:result`` or
                    ``run:result|format`` (in a Markdown table cell write ``\\|``);
                    for a measuring run the median of its repeats, followed by
                    their range where they differ at the printed precision;
                    the number only: the sentence types the unit right after
                    it, and that unit must be the record's (UnitsFromRecord)

A GPU run is shown on every GPU the build has its record of (the build manifest's
``runs[...]["gpus"]``: the build's own GPU, the lead where no GPU ran it, and every
other reference GPU of book/gpus.json), one tab each with where it ran; a GPU
whose recording was made for an older version of the program, or where the run
waits for a GPU (recordings/pending.json), or that never ran it, says so in its
tab, and its recording is shown only under that note. The PDF shows the first
tab, the lead GPU's (LeadTabOnly). ``value`` prints the build's own GPU's figure
(the lead's); ``gpu-values`` (role) prints it on every GPU with a fresh record.

A page shows a record only when its run is declared (the build manifest: the
invariant records-declared, docs/architecture.md), checks it against the record
schema (book/record-schema.json: the invariant record-schema), and depends
on every record it reads. Output is shown with its control characters made
visible and cut at a stated size, with a note where it was cut.
"""
from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.transforms import Transform

from sphinx.transforms.post_transforms import SphinxPostTransform

from . import hidden
from .booknodes import gpu_tab, gpu_tabs
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
    record = _read_record(env, path, bool(run.get("gpu")),
                          f"no run record for program run '{name}' (expected {path}); declare it with "
                          f"book_run() in code/{name.split('/')[0]}/CMakeLists.txt and build through CMake")
    return record, run


def _read_record(env: BuildEnvironment, path: str, gpu: bool, missing: str = "") -> dict:
    """The record at `path`, validated (`gpu`: a GPU run's), and a dependency of
    the page that asks; where there is none, a BookError saying `missing` (or,
    without it, load_json's)."""
    env.note_dependency(path)
    if missing and not os.path.exists(path):
        raise BookError(missing)
    record = load_json(path, "run record")
    validate(record, path, _schema(env), gpu)
    return record


def _schema(env: BuildEnvironment) -> dict:
    schema_path = env.config.book_schema
    env.note_dependency(schema_path)
    try:
        return record_schema.load_schema(schema_path)
    except (OSError, ValueError) as e:
        raise BookError(f"record schema {schema_path}: {e}") from None


# ---- a run on every GPU ----------------------------------------------------------------

@dataclass
class GpuRecord:
    """A GPU run's record on one GPU the build shows it on."""
    name: str                 # the GPU as the device names it
    label: str                # as a sentence and a tab name it ("H100"), its name otherwise
    lead: bool                # the lead GPU (book/gpus.json)
    record: dict | None       # None where the GPU never ran this run
    pending: str | None       # why the run waits for this GPU (recordings/pending.json)
    skipped: str | None = None  # why this GPU, below the program's need, skipped it
    reader: bool = False      # the reader's own GPU (tools/book mine), beside the references
    missing: str | None = None  # why the reader's GPU has no record of it
    failed_checks: tuple = ()  # the run's own checks that did not hold on the reader's GPU

    @property
    def the(self) -> str:
        """How a sentence names it: "the H100", "your GPU"."""
        return self.label if self.reader else f"the {self.label}"

    @property
    def fresh(self) -> bool:
        """Its record is of the program as it is now, and nothing waits: its claims count."""
        return self.record is not None and not self.record.get("stale") and not self.pending

    def note(self) -> str:
        """What a tab says of a record that is not fresh ('' for a fresh one)."""
        if self.fresh:
            return ""
        if self.skipped:
            return "skipped: " + self.skipped
        if self.missing:
            return "no record: " + self.missing
        if self.record is None:
            return "not yet run in this version" if self.pending else "not yet run"
        return f"not yet run in this version; last recorded at commit " \
               f"{self.record['provenance'].get('commit', '?')}"


def gpu_records(env: BuildEnvironment, name: str) -> list[GpuRecord]:
    """Run `name` on each GPU the build shows it on, the build's own GPU first
    (the lead, where no GPU ran it), then the other reference GPUs in
    book/gpus.json's order. [] for a CPU run, or a manifest that names no GPU."""
    m = manifest(env)
    run = m.runs.get(name) or {}
    per = run.get("gpus")
    if not run.get("gpu") or not isinstance(per, dict) or not m.gpus:
        return []
    reference = {g.get("name"): g for g in m.gpus.get("reference", []) if isinstance(g, dict)}
    order = [m.gpus["model"]] + [g for g in reference if g != m.gpus["model"]]
    order += [g for g in per if g not in order]
    out = []
    for gpu in order:
        if gpu not in per:
            continue
        entry = per[gpu]
        if entry.get("reader"):
            out.append(_reader_record(env, name, entry))
            continue
        record = None
        if entry.get("record"):
            path = entry["record"]
            record = _read_record(env, path, True, f"no run record for program run '{name}' on the {gpu} "
                                                   f"(expected {path}); build through CMake")
            if record["provenance"].get("gpu_name") != gpu:
                raise BookError(f"run record {path} is of the "
                                f"{record['provenance'].get('gpu_name')}, not the {gpu}")
        ref = reference.get(gpu, {})
        # A run below its program's need (book_program's NEEDS_CC) on the build's GPU.
        skipped = run.get("skipped") if gpu == m.gpus["model"] else None
        out.append(GpuRecord(gpu, ref.get("short") or gpu, gpu == m.gpus.get("lead"), record,
                             entry.get("pending"), skipped))
    return out


def _reader_record(env: BuildEnvironment, name: str, entry: dict) -> GpuRecord:
    """The reader's GPU's record of run `name` (bookpy.records.mine, through the
    manifest): checked as every record is, its digest too, and of that GPU."""
    gpu, record = entry["gpu_name"], None
    if entry.get("record"):
        path = entry["record"]
        record = _read_record(env, path, True)
        try:
            record_schema.check_digest(record, _schema(env), where=f"run record {path}")
        except record_schema.RecordError as e:
            raise BookError(str(e)) from None
        if record["provenance"].get("gpu_name") != gpu or record.get("name") != name:
            raise BookError(f"run record {path} is of run '{record.get('name')}' on the "
                            f"{record['provenance'].get('gpu_name')}, not of '{name}' on the {gpu} "
                            "(tools/book mine's index, mine.json)")
        record = dict(record, book_reader=True)  # provenance_parts: made by tools/book mine
    m = manifest(env)
    return GpuRecord(gpu, (m.reader or {}).get("short") or "your GPU", False, record, None,
                     entry.get("skipped"), True, entry.get("missing"),
                     tuple(entry.get("failed_checks") or ()))


def reader_label(g: GpuRecord) -> str:
    """A tab's name for the reader's GPU: "your GPU (Tesla T4)"."""
    return f"{g.label} ({g.name})"


def lead_of(gpus: list) -> GpuRecord | None:
    """The reference GPU a reader's figure is compared with: the first with a fresh record."""
    return next((g for g in gpus if not g.reader and g.fresh), None)


def verdict_phrase(v, ref: GpuRecord) -> str:
    """"slower than the H100", "the same as on the H100", "can't tell against the H100"."""
    if v.word == "same":
        return f"the same as on {ref.the}"
    if v.word == "can't tell":
        return f"can't tell against {ref.the}"
    return f"{v.word} than {'on ' if v.word in ('higher', 'lower') else ''}{ref.the}"


def reader_verdict(run: str, key: str, g: GpuRecord, ref: GpuRecord) -> str:
    """The verdict on a figure of the reader's GPU against `ref`, as a phrase, with
    the verdict as a multiple of the run's own ceiling where it has one."""
    from ..records.mine import figure_verdicts
    from ..records.verdict import ceiling_word
    v, c, ceiling = figure_verdicts(g.record, ref.record, run, key)
    text = verdict_phrase(v, ref)
    if c is not None:
        text += f"; as a multiple of its own {ceiling_word(ceiling)}, {verdict_phrase(c, ref)}"
    return text


def state_note(g: GpuRecord) -> list:
    """The visible note over a GPU's tab whose record is not fresh: the run has
    not been run in this version there (with why it waits, where it does), and the
    commit of the last recording, shown below it, if there is one."""
    if g.fresh and not g.failed_checks:
        return []
    box = nodes.warning(classes=["book-gpu-state"])
    para = nodes.paragraph()
    waits = f"This run waits for the {g.label}: {g.pending}. " if g.pending else ""
    if g.skipped:
        para += nodes.strong(text=f"Skipped on {g.the}. ")
        para += nodes.Text(f"{g.skipped}: the run is not made there, and nothing of it is "
                           "counted as checked.")
    elif g.reader and g.record is None:
        para += nodes.strong(text=f"Not run on {g.the}. ")
        para += nodes.Text(f"{g.missing or 'tools/book mine made no record of it'}.")
    elif g.reader:
        para["classes"].append("book-reader-finding")
        para += nodes.strong(text=f"On {g.the}, the {g.name}, this run's own checks do not all hold: ")
        para += nodes.Text(", ".join(g.failed_checks) + ". That is a finding about your GPU, not "
                           "an error of the book: the checks state what the reference GPUs do.")
    elif g.record is None:
        para += nodes.strong(text=f"Not yet run on the {g.label}. ")
        para += nodes.Text(waits + "Its output will be shown here once it has been recorded there.")
    else:
        commit = g.record["provenance"].get("commit", "?")
        para += nodes.strong(text=f"Not yet run in this version on the {g.label}. ")
        para += nodes.Text(waits + f"Below is its last recording there, made at commit {commit} "
                           "for an older version of the program; it is not counted as checked.")
    box += para
    return [box]


def gpu_tabs_node(env: BuildEnvironment, gpus: list[GpuRecord], body) -> nodes.Node:
    """One tab per GPU: its state note, and (where it has a record) body(record),
    a run block with where it ran."""
    tabs = gpu_tabs(group=f"book-gpus-{env.new_serialno('book-gpus')}")
    for g in gpus:
        tab = gpu_tab(label=reader_label(g) if g.reader else g.label + (" (lead)" if g.lead else ""),
                      note=g.note())
        tab += state_note(g)
        if g.record is not None:
            tab += body(g.record)
        tabs += tab
    return tabs


class LeadTabOnly(SphinxPostTransform):
    """Outside HTML (the PDF), a run's tabs give way to the first one's content:
    the lead GPU's outputs."""
    default_priority = 90

    def run(self, **kwargs: Any) -> None:
        if self.app.builder.format == "html":
            return
        for tabs in list(self.document.findall(gpu_tabs)):
            first = tabs.children[0].children if tabs.children else []
            tabs.replace_self(list(first) or [nodes.paragraph()])


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
    return provenance_parts(record)[0]


def _span(values: list) -> str:
    low, high = min(values), max(values)
    return f"{low}" if low == high else f"{low}\u2013{high}"


def clocks_text(record: dict) -> str:
    """What a measuring run's clocks say (its volatile ``clocks``, one entry a
    repeat, as bookrun reads them and names the reasons a repeat throttled:
    book/record-schema.json, tools/runner/README.md): the range of its SM and
    memory clocks over the readings before and after each repeat, each repeat
    that ran while the GPU throttled, and the repeats whose clocks were not read.
    '' for a record without them (not recorded: a CPU run, a run that does not
    measure, a recording made before clocks were read)."""
    clocks = record.get("clocks")
    if not clocks:
        return ""
    n = len(clocks)
    of = f"{n} repeat{'' if n == 1 else 's'}"
    readings = [r for c in clocks for r in (c.get("start"), c.get("end")) if r]
    parts = []
    if readings:
        parts.append(f"SM clock {_span([r['sm_mhz'] for r in readings])} MHz, memory clock "
                     f"{_span([r['mem_mhz'] for r in readings])} MHz over its {of}")
    unread = [i + 1 for i, c in enumerate(clocks) if "not_read" in c]
    if len(unread) == n:
        parts.append(f"clocks not read ({clocks[0]['not_read']})")
    elif unread:
        parts.append(f"clocks not read in repeat{'' if len(unread) == 1 else 's'} "
                     f"{', '.join(map(str, unread))} of {n}")
    for i, c in enumerate(clocks):
        if c.get("throttled"):
            parts.append(f"repeat {i + 1} of {n} ran while the GPU throttled: {', '.join(c['throttled'])}")
    return "; ".join(parts)


def provenance_parts(record: dict) -> tuple:
    """(the whole provenance_text, the machine it names: GPU or CPU, driver,
    runtime and toolchain, the text that says the same of a run on a machine an
    earlier output of the page named: its GPU, commit, date and freshness)."""
    p = record["provenance"]
    tools = []
    if "nvcc" in p:
        tools.append(f"nvcc {p['nvcc']}")
    if "cxx" in p:
        tools.append(str(p["cxx"]).replace("GNU ", "g++ "))
    built = f"built with {', '.join(tools)}" if tools else "toolchain not recorded"
    when = f"at commit {p.get('commit', 'unknown')} on {_date(p)}"
    clocks = clocks_text(record)
    if clocks:
        when += f"; {clocks}"
    if "gpu_name" in p:
        driver = f"driver {p.get('driver_version', '?')}"
        if "driver_cuda_version" in p:
            driver += f" (CUDA {p['driver_cuda_version']})"
        where = (f"{p['gpu_name']} (compute capability {p.get('compute_capability', '?')}, "
                 f"{p.get('sm_count', '?')} SMs), {driver}, CUDA runtime {p.get('runtime_version', '?')}")
    else:
        where = "the build machine's CPU"
    machine = f"{where}; {built}"
    again = f"the {p['gpu_name']} set up as above" if "gpu_name" in p else "the build machine\u2019s CPU, as above"
    if record.get("book_reader"):
        return (f"Ran on your GPU by tools/book mine: {where}; {built}; {when}.", machine,
                f"Ran on your GPU by tools/book mine: {again}; {when}.")
    if record.get("source") == "recording":
        since = ("its inputs have changed since (see the note above)" if record.get("stale")
                 else "its inputs are unchanged since")
        return (f"Recorded on {where}; {built}; {when}; {since}.", machine,
                f"Recorded on {again}; {when}; {since}.")
    return (f"Ran live during this build on {where}; {built}; {when}.", machine,
            f"Ran live during this build on {again}; {when}.")


class ProvenanceOncePerPage(SphinxPostTransform):
    """A page names each machine its outputs ran on once, in full (GPU, driver,
    runtime, toolchain), under the first output from it; each later output from
    the same machine says so in a line ("the H100 set up as above") with its own
    commit, date and freshness (issue 47: the same three lines stood under every
    output, 46 times in the book). tests/site/check_site.py fails a page that
    states one machine twice."""
    default_priority = 91  # after LeadTabOnly: the PDF keeps the lead's tab only

    def run(self, **kwargs: Any) -> None:
        seen = set()
        for para in list(self.document.findall(nodes.paragraph)):
            if "book-provenance" not in para["classes"] or not para.get("book_machine"):
                continue
            if para["book_machine"] in seen:
                para.replace_self(nodes.paragraph(text=para["book_short"], classes=list(para["classes"])))
            seen.add(para["book_machine"])


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
    text, machine, short = provenance_parts(record)
    container += nodes.paragraph(text=text, classes=["book-provenance"], book_machine=machine,
                                 book_short=short)  # ProvenanceOncePerPage
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
        caption = []
        if "caption" in self.options:
            caption = [nodes.paragraph(text=self.options["caption"], classes=["book-caption"])]

        def body(rec: dict) -> nodes.Node:
            text = f"$ {' '.join(map(str, rec['command']))}\n{rec['stdout']}"
            if "stderr" in self.options and rec.get("stderr"):
                text += rec["stderr"]
            trojan = hidden.problem(
                lambda line: f"run record '{name}'{on(rec)}: line {line} of its output shown "
                             "(line 1 is the command)", text)
            if trojan:
                raise BookError(trojan)
            return run_block(rec, [c.deepcopy() for c in caption]
                             + shown_output(self.config, text.rstrip("\n")))

        try:
            name = resolve_key(self.env.docname, self.arguments[0])
            gpus = gpu_records(self.env, name)
            if gpus:
                return [gpu_tabs_node(self.env, gpus, body)]
            return [body(load_record(self.env, name)[0])]
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
            pattern = None
            if "match" in self.options:
                try:
                    pattern = re.compile(self.options["match"])
                except re.error as e:
                    raise BookError(f":match: /{self.options['match']}/ is not a regular "
                                    f"expression: {e}") from None
            gpus = gpu_records(self.env, name)
            if gpus:
                return [gpu_tabs_node(self.env, gpus,
                                      lambda rec: self.text_block(name, rec, key, pattern))]
            return [self.text_block(name, load_record(self.env, name)[0], key, pattern)]
        except BookError as e:
            return self.fail(str(e))

    def text_block(self, name: str, record: dict, key: str, pattern) -> nodes.Node:
        texts = record.get("texts", {})
        if not isinstance(texts, dict) or key not in texts or not isinstance(texts[key], str):
            raise BookError(f"run record '{name}'{on(record)} has no text '{key}' (it has: "
                            f"{', '.join(sorted(texts)) if isinstance(texts, dict) and texts else 'none'})")
        trojan = hidden.problem(lambda line: f"run record '{name}'{on(record)}: text '{key}' line {line}",
                                texts[key])
        if trojan:
            raise BookError(trojan)
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
                raise BookError(f"no line of '{key}' in '{name}'{on(record)} matches "
                                f"/{self.options['match']}/")
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
        return run_block(record, block, key, picked=pattern is not None)


def on(record: dict) -> str:
    """" on the <GPU>" for a GPU run's record (what an error about it says)."""
    gpu = record.get("provenance", {}).get("gpu_name")
    return f" on the {gpu}" if gpu else ""


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


def _figure_node(record: dict, run: str, key: str, spec: str) -> tuple:
    """(the node a page shows for a figure of a record, its repeats' values)."""
    value, values = lookup_values(record, run, key)
    try:
        check_format(spec, unit_of(record, key))
        shown, spread = format_figure(value, values, spec)
    except BookError as e:
        raise BookError(f"result '{key}' of '{run}'{on(record)}: {e}") from None
    if spread:
        # The median, and the range of the repeats where they differ at the
        # printed precision: the page claims no more digits than reproduce.
        node = nodes.inline("", "", classes=["book-value", "book-value-range"])
        node += nodes.Text(shown)
        node += nodes.inline("", f" ({spread})", classes=["book-value-spread"])
    else:
        node = nodes.inline(shown, shown, classes=["book-value"])
    return node, values


def _parse_value(env: BuildEnvironment, text: str, role: str) -> tuple:
    ref, _, spec = text.partition("|")
    run, _, key = ref.partition(":")
    if not key:
        raise BookError(f"{role} '{text}' should read <run>:<result>[|format] "
                        "(in a Markdown table cell, write the '|' as '\\|')")
    return resolve_key(env.docname, run), key, spec


def _quoted(env: BuildEnvironment, run: str, key: str, spec: str) -> None:
    """For "How this book was built": every figure of a GPU run or a measuring
    run that a page quotes."""
    quoted = env.__dict__.setdefault("book_quoted_figures", {})
    quoted.setdefault(env.docname, set()).add((run, key, spec))


def value_role(name: str, rawtext: str, text: str, lineno: int, inliner: Inliner,
               options: dict[str, Any] | None = None,
               content: list[str] | None = None) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    """{value}`<run>:<result>`, {value}`<run>:check:<id>`, each optionally
    followed by `|<format>`: the figure of the build's own GPU (the lead's where
    no GPU ran it). A record that is not fresh (stale, or the run pending) marks
    the figure; a run pending there and never recorded shows that instead."""
    env = inliner.document.settings.env
    try:
        run, key, spec = _parse_value(env, text, "value")
        gpus = gpu_records(env, run)
        if gpus and gpus[0].record is None:
            node = nodes.inline("", f"(not yet run in this version on the {gpus[0].label})",
                                classes=["book-value", "book-stale-value"])
            return [shows(node, run)], []
        record = gpus[0].record if gpus else load_record(env, run)[0]
        node, values = _figure_node(record, run, key, spec)
    except BookError as e:
        msg = inliner.reporter.error(str(e), line=role_line(inliner.document, lineno, "value", text))
        return [inliner.problematic(rawtext, rawtext, msg)], [msg]
    # For UnitsFromRecord: the unit the record gives the figure, and where the role stands.
    node["book_units"] = [unit_of(record, key) or ""]
    node["book_value_ref"] = text
    node["book_line"] = role_line(inliner.document, lineno, "value", text)
    if len(values) > 1 or gpus:
        _quoted(env, run, key, spec)
    mine = next((g for g in gpus if g.reader), None)
    if mine is not None:
        # The reader's GPU (tools/book mine): its figure and verdict beside the lead's.
        node += _reader_aside(run, key, spec, mine, gpus)
    shows(node, run)
    if record.get("stale") or (gpus and gpus[0].pending):
        node["classes"].append("book-stale-value")
    return [node], []


def _reader_aside(run: str, key: str, spec: str, mine: GpuRecord, gpus: list) -> nodes.inline:
    """" (your GPU: 3.4, slower than the H100)" after a figure: the reader's GPU's
    figure of the same result and its verdict, or why it has none."""
    aside = nodes.inline("", "", classes=["book-reader-verdict"])
    if mine.record is None or not mine.fresh:
        # Short in prose (the run's tab and "How this book was built" say why in full).
        need = re.search(r"needs compute capability [0-9.]+", mine.skipped or "")
        aside += nodes.Text(f" ({mine.label}: " + (f"skipped, {need.group()}" if need else "not run") + ")")
        return aside
    try:
        figure, _ = _figure_node(mine.record, run, key, spec)
    except BookError as e:  # a finding about the reader's record, not an error of the page
        aside += nodes.Text(f" ({mine.label}: {e})")
        return aside
    ref = lead_of(gpus)
    aside += nodes.Text(f" ({mine.label}: ")
    aside += figure
    aside += nodes.Text((f", {_safe_verdict(run, key, mine, ref)}" if ref is not None else "") + ")")
    return aside


def _safe_verdict(run: str, key: str, mine: GpuRecord, ref: GpuRecord) -> str:
    """reader_verdict, or why there is none (a figure one of the two records lacks)."""
    try:
        return reader_verdict(run, key, mine, ref)
    except (BookError, ValueError) as e:
        return f"no verdict against {ref.the}: {e}"


def _reader_part(run: str, key: str, spec: str, g: GpuRecord, gpus: list) -> list:
    """{gpu-values}' part of the reader's GPU: "3.4 on your GPU (slower than the H100)"."""
    if not g.fresh:
        return [nodes.Text(f"not run on {g.the} ({g.note()})")]
    try:
        figure, _ = _figure_node(g.record, run, key, spec)
    except BookError as e:
        return [nodes.Text(f"on {g.the}: {e}")]
    out = [figure, nodes.Text(f" on {g.the}")]
    ref = lead_of(gpus)
    if ref is not None:
        out.append(nodes.inline("", f" ({_safe_verdict(run, key, g, ref)})", classes=["book-reader-verdict"]))
    return out


#: The units a reader may read typed beside a figure (right after it, or in its
#: table column's header or its row's label), each as the record would write it:
#: a time, a rate, a size, a share, a count of cycles or instructions, a
#: multiple. A count's noun ("blocks", "threads") is no unit here. Keys are
#: written as NFKC folds them ("µs", the micro sign, reads as Greek "μs"), and
#: matched on NFKC-folded text without format characters (readertext.normalise).
_TYPED = {"µs": "us", "us": "us", "µsec": "us", "usec": "us", "microsecond": "us",
          "microseconds": "us", "ms": "ms", "msec": "ms", "millisecond": "ms", "milliseconds": "ms",
          "ns": "ns", "nsec": "ns", "nanosecond": "ns", "nanoseconds": "ns",
          "s": "s", "sec": "s", "second": "s", "seconds": "s",
          "TB/s": "TB/s", "TB/sec": "TB/s", "terabytes per second": "TB/s",
          "GB/s": "GB/s", "GB/sec": "GB/s", "gigabytes per second": "GB/s",
          "Gadd/s": "Gadd/s",
          "GiB": "GiB", "gibibytes": "GiB", "MiB": "MiB", "mebibytes": "MiB",
          "KiB": "KiB", "kibibytes": "KiB", "KB": "KB", "kB": "KB", "kilobytes": "KB",
          "MB": "MB", "megabytes": "MB", "GB": "GB", "gigabytes": "GB",
          "bytes": "byte", "byte": "byte", "B": "byte",
          "%": "%", "percent": "%", "per cent": "%",
          "cycles": "cycles", "cycle": "cycles", "clock cycles": "cycles",
          "inst": "inst", "instructions": "inst", "instruction": "inst",
          "×": "×", "times": "×"}
TYPED_UNITS = {unicodedata.normalize("NFKC", k): v for k, v in _TYPED.items()}
#: A unit in an error as the author wrote it ("µs", not the "μs" NFKC reads).
_SHOWN = {unicodedata.normalize("NFKC", k): k for k in _TYPED}
#: A record's unit as TYPED_UNITS writes it.
RECORD_UNITS = {"bytes": "byte", "µs": "us", "cycle": "cycles"}
#: The record units a multiple ("2.1×", "2.1 times") may be: none, or a ratio's ("ran
#: 3 times" may follow a count too, unit_mismatch).
DIMENSIONLESS = {"", "ratio", "fraction", "x"}
_UNIT_ALTERNATIVES = "|".join(sorted(map(re.escape, TYPED_UNITS), key=len, reverse=True))
#: A unit right at the start of the text that follows a figure.
TYPED_UNIT = re.compile(r"\s*(" + _UNIT_ALTERNATIVES + r")(?![\w/])")
#: A unit anywhere in a header or a row's label: a word of its own (not the "s" of
#: "CUB's"), and not a denominator ("µs per byte" names µs; "per byte" names nothing).
#: A one-letter unit ("s", "B") counts only alone in brackets after a space, "time (s)",
#: not in "step(s)" or "kernel B".
LABEL_UNIT = re.compile(r"(?<![\w/'’])(?<!per )("
                        + "|".join(sorted((re.escape(u) for u in TYPED_UNITS if len(u) > 1),
                                          key=len, reverse=True))
                        + r")(?![\w/])|(?<= \()([sB])(?=\))")


#: The units a unit typed before a figure may be: a symbol or a word of a unit, not a
#: multiple ("2 × {value}", "3 times {value}" multiply) and not one letter ("kernel
#: B: {value}"), a share ("%") or a bare ordinal ("the second {value}").
_BEFORE_WORDS = sorted((re.escape(u) for u, v in TYPED_UNITS.items()
                        if len(u) > 1 and v != "×"), key=len, reverse=True)
#: ... of which those that read as a unit right before a figure with nothing between
#: ("TB/s {value}"): symbols, not words ("cycles {value}" may be a noun).
_BEFORE_SYMBOLS = sorted((re.escape(u) for u in TYPED_UNITS
                          if "/" in u or u in ("ms", "us", "ns", "µs", "μs", "KB", "MB", "GB",
                                               "KiB", "MiB", "GiB", "kB")),
                         key=len, reverse=True)
#: A unit typed right before a figure, the text before it ending with it: "TB/s:
#: {value}", "in ms, {value}", "(µs) {value}", "ms = {value}", "TB/s {value}".
BEFORE_UNIT = re.compile(
    r"(?<![\w/'’])(?<!per )(?:(?P<in>in\s+)?(?P<u1>" + "|".join(_BEFORE_WORDS) + r")\s*[:=,]"
    r"|[Ii]n\s+(?P<u2>" + "|".join(_BEFORE_WORDS) + r")"
    r"|\((?P<u3>" + "|".join(_BEFORE_WORDS) + r")\)"
    r"|(?P<u4>" + "|".join(_BEFORE_SYMBOLS) + r"))\s*$")
#: "in <unit>" anywhere in the clause before a figure ("Its time in ms came to
#: {value}`...`"): the unit the reader reads the figure in.
IN_UNIT = re.compile(r"(?<![\w/'’])[Ii]n\s+(" + "|".join(_BEFORE_WORDS) + r")(?![\w/])")
#: What may stand between figures listed together, so that one unit typed after the
#: last (or before the first) is read as every one's: "{value}`a` and {value}`b` ms",
#: "{value}`a`, {value}`b` or {value}`c` ms", "{value}`a` to {value}`b` ms".
LISTED = re.compile(r"\s*(?:,|,?\s*(?:and|or|to|through|and then)|[–—-])\s*")


def typed_before(text: str, prev: nodes.Element | None) -> str | None:
    """The unit typed right before a figure (BEFORE_UNIT), or "in <unit>" in the
    clause before it (IN_UNIT), from the text between it and the previous figure
    (or its paragraph's start); None where the unit is a figure's own, typed after
    a figure or a number ("{value}`a` ms, {value}`b`", "16 bytes, {value}`t`"),
    which the rule after a figure reads."""
    m = BEFORE_UNIT.search(text)
    if m:
        lead = text[:m.start()]
        if re.search(r"[\d.]\s*$", lead) or (prev is not None and not lead.strip()):
            return None
        return next(u for u in m.group("u1", "u2", "u3", "u4") if u)
    # "in <unit>" in its clause: after the last stop, colon or semicolon, and after
    # the previous figure (whose own unit the rule after a figure reads).
    clause = re.split(r"[.;:!?]\s", text)[-1]
    found = IN_UNIT.findall(clause)
    return found[-1] if found else None


def unit_mismatch(typed: str, record_unit: str, spec: str, where: str = "the text after it") -> str | None:
    """Why the unit a reader reads beside a {value} (`where`: the text after it,
    its column's header, its row's label) is not the record's, or None where it
    is. `typed` is any key of TYPED_UNITS, before or after NFKC."""
    said = TYPED_UNITS[unicodedata.normalize("NFKC", typed)]
    typed = _SHOWN.get(typed, typed)
    if spec.endswith("%"):
        if said == "%":
            return (f"the format '{spec}' prints the figure as a percentage, '%' and all, and "
                    f"{where} types '{typed}' too")
        return f"the format '{spec}' prints the figure as a percentage, but {where} types '{typed}'"
    unit = RECORD_UNITS.get(record_unit, record_unit)
    known = unit in set(TYPED_UNITS.values())
    if said == unit or (said == "×" and (unit in DIMENSIONLESS or (typed == "times" and not known))):
        # "× 2.1" is a multiple; "ran 3 times" may count too: "times" after a count is
        # no unit, after a time, a rate, a size or a share it is the wrong one.
        return None
    given = (f"in '{record_unit}'" + ("" if known else " (no unit of time, rate, size or share)")
             if record_unit else "no unit")
    return (f"{where} types '{typed}', but the record gives the figure {given}: "
            "type the record's unit, or quote the result that is in this one")


def _block_of(node: nodes.Element) -> nodes.Element | None:
    """The paragraph (or table cell, or heading) a figure is read in."""
    block = node.parent
    while block is not None and (isinstance(block, nodes.Inline)
                                 or not isinstance(block, (nodes.TextElement, nodes.entry))):
        block = block.parent
    return block


def _is_figure(n: nodes.Node) -> bool:
    return isinstance(n, nodes.Element) and "book_value_ref" in n.attributes


def _beside(node: nodes.Element, limit: int = 60) -> tuple:
    """(text before, previous figure, text after, next figure): what a reader reads
    right before and right after `node` within its paragraph (or table cell, or
    heading), across inline markup ("{value}`x` **ms**", "*{value}`x`* ms"), each
    up to the figure a role prints on that side (None where there is none)."""
    block = _block_of(node)
    if block is None:
        return "", None, "", None
    before, after, prev, following = [], [], None, None
    seen, inside, skip = False, set(id(n) for n in node.findall()), set()
    for n in block.findall():
        if n is node:
            seen = True
            continue
        if id(n) in inside or id(n) in skip:
            continue
        if _is_figure(n):
            skip |= {id(m) for m in n.findall()}
            if seen:
                following = n
                break
            prev, before = n, []
            continue
        if isinstance(n, nodes.Text):
            (after if seen else before).append(str(n))
            if seen and sum(map(len, after)) >= limit:
                break
    return "".join(before)[-limit:], prev, "".join(after), following


def _table_labels(node: nodes.Element) -> list[tuple[str, str]]:
    """(what, text) of the labels a reader reads a table cell's figure by: its
    column's header, and its row's label (the row's first cell, where the figure
    is not in it and it holds no figure)."""
    entry = node.parent
    while entry is not None and not isinstance(entry, nodes.entry):
        entry = entry.parent
    if entry is None or not isinstance(entry.parent, nodes.row):
        return []
    row = entry.parent
    column, col = 0, None
    for e in row.children:
        if e is entry:
            col = column
            break
        column += 1 + int(e.get("morecols", 0))
    tgroup = row.parent.parent if row.parent is not None else None
    labels = []
    if isinstance(tgroup, nodes.tgroup) and not isinstance(row.parent, nodes.thead):
        for thead in (c for c in tgroup.children if isinstance(c, nodes.thead)):
            for hrow in thead.children:
                column = 0
                for h in hrow.children:
                    if column <= col <= column + int(h.get("morecols", 0)):
                        labels.append(("its column's header", h.astext()))
                    column += 1 + int(h.get("morecols", 0))
    first = row.children[0] if row.children else None
    if (first is not None and first is not entry and not any(
            "book_value_ref" in n.attributes for n in first.findall(nodes.Element))):
        labels.append(("its row's label", first.astext()))
    return labels


def _where(side: str, node: nodes.Element, other: nodes.Element) -> str:
    """Where a unit typed on `side` ("after", "before") of `other`, a figure listed
    with `node` (or `node` itself), is read, as an error names it."""
    if other is node:
        return f"the text {side} it"
    return (f"the text {side} {{{other.get('book_role', 'value')}}}`{other['book_value_ref']}`, "
            "which it is listed with,")


class UnitsFromRecord(Transform):
    """{value} and {gpu-values} print the number; the reader reads its unit beside
    it: typed right after it ("{value}`bench:kernel_us` µs"), right before it
    ("TB/s: {value}`...`", "in ms, {value}`...`", or "in ms" in the clause before
    it), after the last or before the first of the figures it is listed with
    ("{value}`a` and {value}`b` ms": each one's), in the header of its table column
    ("| time (µs) |"), or in its row's label. That unit must be the
    one the record gives the figure (results[key]["unit"]), on every GPU
    {gpu-values} shows: "µs" after a result recorded in ms, "%" after a ratio,
    "cycles" after an instruction ratio, "times" after a time, or "TB/s" in the
    header over a time, is an error at the role's line. The text is read as the
    reader reads it: across inline markup, without format characters, NFKC-folded
    (readertext.normalise). A count's noun is no unit here ("blocks", "threads"),
    and a figure of a check's computed value (no unit in the record) is not
    compared."""
    default_priority = 208

    def apply(self) -> None:
        from .readertext import normalise
        figures = [n for n in self.document.findall(nodes.Element)
                   if "book_value_ref" in n.attributes and n.parent is not None]
        around = {id(n): _beside(n) for n in figures}

        def listed(node) -> list:
            """The figures listed together with `node`, in order, itself among them:
            those one unit typed after the last (or before the first) is read as
            each one's. A list has an "and", "or", "to" or a dash between two of its
            figures: commas alone ("{value}`a`, {value}`b` times as many") set a
            figure beside another, as an apposition, not in a list with it."""
            items, joins = [node], []
            for side, step in ((0, -1), (2, 1)):
                n = node
                while True:
                    text, other = around[id(n)][side], around[id(n)][side + 1]
                    if other is None or id(other) not in around:
                        break
                    join = normalise(text)[0]
                    if not LISTED.fullmatch(join):
                        break
                    joins.append(join.strip())
                    items.insert(0 if step < 0 else len(items), other)
                    n = other
            return items if any(j != "," for j in joins) else [node]

        for node in figures:
            ref, role = node["book_value_ref"], node.get("book_role", "value")
            if ref.partition("|")[0].split(":", 1)[-1].startswith("check:"):
                continue
            spec = ref.partition("|")[2]
            beside = []
            # A unit typed after it, or after the last of the figures listed with it.
            together = listed(node)
            last = together[-1]
            after, _ = normalise(around[id(last)][2])
            m = TYPED_UNIT.match(after if after[:1].isspace() else " " + after)
            if m:
                beside.append((_where("after", node, last), m.group(1)))
            # A unit typed before it, or before the first of the figures listed with it.
            first = together[0]
            before, _ = normalise(around[id(first)][0])
            typed = typed_before(before, around[id(first)][1])
            if typed:
                beside.append((_where("before", node, first), typed))
            for what, text in _table_labels(node):
                found = (m.group(1) or m.group(2) for m in LABEL_UNIT.finditer(normalise(text)[0]))
                for u in dict.fromkeys(found):
                    beside.append((what, u))
            for what, typed in beside:
                for unit in dict.fromkeys(node["book_units"]):
                    why = unit_mismatch(typed, unit, spec, what)
                    if why:
                        self.document.reporter.error(f"{{{role}}}`{ref}`: {why}",
                                                     line=node["book_line"])


def gpu_values_role(name: str, rawtext: str, text: str, lineno: int, inliner: Inliner,
                    options: dict[str, Any] | None = None,
                    content: list[str] | None = None) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    """{gpu-values}`<run>:<result>[|format]`: a GPU run's figure on every GPU the
    build shows, "0.56 on the H200 and 0.71 on the H100", the build's own GPU
    first; a GPU whose record is not fresh says so beside its figure, or says it
    has not run it."""
    env = inliner.document.settings.env
    try:
        run, key, spec = _parse_value(env, text, "gpu-values")
        gpus = gpu_records(env, run)
        if not gpus:
            raise BookError(f"gpu-values '{text}': run '{run}' is no GPU run with records on "
                            "several GPUs: quote it with {value}")
        parts = []
        for g in gpus:
            part = nodes.inline("", "", classes=["book-gpu-value"])
            if g.record is None:
                part += nodes.Text(f"not yet run on {g.the}" + (f" ({g.note()})" if g.reader else ""))
            elif g.reader:
                part += _reader_part(run, key, spec, g, gpus)
            else:
                figure, _ = _figure_node(g.record, run, key, spec)
                if not g.fresh:
                    figure["classes"].append("book-stale-value")
                part += figure
                part += nodes.Text(f" on {g.the}")
                if not g.fresh:
                    part += nodes.Text(f" ({g.note()})")

            parts.append(part)
    except BookError as e:
        msg = inliner.reporter.error(str(e), line=role_line(inliner.document, lineno, "gpu-values", text))
        return [inliner.problematic(rawtext, rawtext, msg)], [msg]
    _quoted(env, run, key, spec)
    out = shows(nodes.inline("", "", classes=["book-gpu-values"]), run)
    # For UnitsFromRecord: the unit each GPU's record gives the figure.
    out["book_units"] = [unit_of(g.record, key) or "" for g in gpus if g.record is not None]
    out["book_value_ref"] = text
    out["book_role"] = "gpu-values"
    out["book_line"] = role_line(inliner.document, lineno, "gpu-values", text)
    for i, part in enumerate(parts):
        if i:
            out += nodes.Text(" and " if i == len(parts) - 1 else ", ")
        out += part
    return [out], []
