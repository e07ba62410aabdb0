# SPDX-License-Identifier: MIT
"""The page "How this book was built": ```{build-info}``` lists, from what the
build itself recorded,

- every run the book shows: its program, where it ran (GPU or CPU), the
  versions it ran with, its date and commit, whether it ran live in this build
  or comes from a recording (and whether that recording is still fresh), and
  the pages that show it;
- every figure: the Mermaid diagrams and the plots, their sources, the runs a
  plot reads, and the pages that show them;
- the exercises' downloads;
- the toolchain: the compilers and tools cmake/BookSite.cmake found at
  configure time (BUILD/site/site.json) and the Python packages this Sphinx
  build ran with.

The page is filled in after every page has been read (so "shown in" is
complete) and is read again on every build, so it never describes an older
build than the one it is part of.
"""
from __future__ import annotations

import glob
import os
import re
import subprocess
import sys
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.util import logging

from .common import BookDirective, BookError, PerPageCollector, load_json
from .manifest import read_manifest
from ..build.plotting import PlotError, read_spec, spec_key
from ..records.manifest import reader_key
from .records import _date, format_value, lookup_values
from .site import site_settings

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment
    from sphinx.util.docutils import SphinxTranslator

logger = logging.getLogger(__name__)


class build_info(nodes.General, nodes.Element):
    """Where the tables go; filled at doctree-resolved."""


class BuildInfo(BookDirective):
    def run(self) -> list[nodes.Node]:
        if not hasattr(self.env, "book_buildinfo_docs"):
            self.env.book_buildinfo_docs = set()
        self.env.book_buildinfo_docs.add(self.env.docname)
        return [build_info()]


# ---- what the tables say -------------------------------------------------------------------

def _runs(config) -> list:
    """[(run key, record path, manifest entry)] of every run the build declared."""
    return sorted((k, v["record"], v) for k, v in read_manifest(config).runs.items())


class ShownCollector(PerPageCollector):
    """Per page, the runs it shows (an output, a text, a figure quoted, a plot:
    the nodes records.shows marked): {docname: [run key, ...]}."""
    attr = "book_shown_runs"

    def found(self, doctree: nodes.document) -> list:
        return sorted({run for node in doctree.findall(nodes.Element) for run in node.get("book_shows", ())})


def _showing(env, run: str) -> list:
    """The pages that show run `run`."""
    return sorted(doc for doc, runs in ShownCollector.pages(env).items()
                  if run in runs and doc in env.all_docs)


def _runs_on_each_gpu(config) -> list:
    """[(run key, record path or None, manifest entry, why it waits or None)]: every
    run, and a GPU run once on each GPU the build shows it on (the build's own first;
    its entry then the GPU's name where it has no record)."""
    out = []
    for key, path, entry in _runs(config):
        per = entry.get("gpus") if entry.get("gpu") else None
        if not isinstance(per, dict):
            out.append((key, path, entry, None))
            continue
        for gpu, e in per.items():
            out.append((key, e.get("record"), entry if e.get("record") else gpu, e.get("pending")))
    return out


def _shown_in(env, path: str) -> list:
    """The pages that read `path` (their dependencies name it)."""
    target = os.path.normpath(os.path.abspath(path))
    pages = []
    for doc, deps in env.dependencies.items():
        if any(os.path.normpath(os.path.join(env.srcdir, d)) == target for d in deps):
            pages.append(doc)
    return sorted(pages)


def _page_links(env, builder, fromdoc: str, docs: list) -> list:
    out = []
    for k, doc in enumerate(docs):
        if k:
            out.append(nodes.Text(", "))
        title = env.titles[doc].astext() if doc in env.titles else doc
        ref = nodes.reference("", title, internal=True,
                              refuri=builder.get_relative_uri(fromdoc, doc))
        out.append(ref)
    return out or [nodes.Text("no page")]


def _table(header: list, rows: list, widths=None, labels: bool = False) -> nodes.table:
    """A table; with `labels`, each cell starts with its column's name, which
    book.css shows only where the table stacks (a narrow screen)."""
    # longtable: it may span pages in the PDF; colwidths-given: the widths below.
    table = nodes.table(classes=["book-buildinfo-table", "longtable", "colwidths-given"])
    group = nodes.tgroup(cols=len(header))
    table += group
    for w in widths or [1] * len(header):
        group += nodes.colspec(colwidth=w)
    head = nodes.thead()
    row = nodes.row()
    for h in header:
        row += nodes.entry("", nodes.paragraph(text=h))
    head += row
    group += head
    body = nodes.tbody()
    for cells in rows:
        row = nodes.row()
        for name, cell in zip(header, cells):
            entry = nodes.entry()
            para = nodes.paragraph()
            if labels:
                para += nodes.inline(text=f"{name}: ", classes=["book-cell-label"])
            if isinstance(cell, str):
                para += nodes.Text(cell)
            else:
                para.extend(cell)
            entry += para
            row += entry
        body += row
    group += body
    return table


_LABELS = False  # cell labels for narrow screens: HTML only (set by fill)


def _section(title: str, ident: str, *content) -> nodes.section:
    section = nodes.section(ids=[ident])
    section += nodes.title(text=title)
    section.extend(content)
    return section


def _freshness(record: dict) -> list:
    if record.get("source") == "recording":
        if record.get("stale"):
            reasons = "; ".join(map(str, record.get("stale_reasons") or ["its inputs changed"]))
            return [nodes.inline(text="stale recording: ", classes=["book-fresh-stale"]),
                    nodes.Text(reasons)]
        return [nodes.Text("recording, fresh: its inputs are unchanged")]
    if record.get("source") == "live":
        return [nodes.Text("ran live in this build")]
    return [nodes.Text(str(record.get("source", "unknown")))]


def runs_section(app: Sphinx, fromdoc: str) -> nodes.section:
    env, builder = app.env, app.builder
    rows = []
    for key, path, entry, pending in _runs_on_each_gpu(app.config):
        if path is None:
            state = "not yet run" + (f" in this version: {pending}" if pending else "")
            rows.append([[nodes.literal(key, key)], f"{entry}: not yet run", "",
                         [nodes.inline(text=state, classes=["book-fresh-stale"])], ""])
            continue
        try:
            record = load_json(path, "run record")
        except BookError as e:
            rows.append([[nodes.literal(key, key)], str(e), "", "", ""])
            continue
        p = record.get("provenance", {}) if isinstance(record, dict) else {}
        program = str(entry.get("program") or (record.get("command") or ["?"])[0])
        if "gpu_name" in p:
            where = (f"{p['gpu_name']} (compute capability {p.get('compute_capability', '?')}, "
                     f"{p.get('sm_count', '?')} SMs); driver {p.get('driver_version', '?')}, "
                     f"runtime {p.get('runtime_version', '?')}, nvcc {p.get('nvcc', '?')}, "
                     f"{p.get('cxx', '?')}")
        else:
            where = f"the build machine's CPU; {p.get('cxx', '?')}"
        when = f"{_date(p)}, commit {p.get('commit', '?')}"
        run_cell = [nodes.literal(key, key), nodes.Text(" (program "), nodes.literal(program, program),
                    nodes.Text(")")]
        fresh = _freshness(record)
        if pending:
            fresh = [nodes.inline(text=f"pending: {pending}; ", classes=["book-fresh-stale"]),
                     *fresh]
        rows.append([run_cell, where, when, fresh,
                     _page_links(env, builder, fromdoc, _showing(env, key))])
    intro = nodes.paragraph(text=(
        "Every run whose output or numbers this book shows. A CPU run ran during this build; a GPU "
        "run ran live where the build machine has a GPU and otherwise comes from a recording made "
        "on the GPU named, which is fresh while the program's inputs (sources, flags, arguments) "
        "are those it was recorded with."))
    return _section("Runs", "book-buildinfo-runs", intro,
                    _table(["Run", "Ran on, built with", "Date, commit", "Freshness", "Shown in"], rows,
                           [24, 30, 16, 16, 14], labels=_LABELS))


def figures_section(app: Sphinx, fromdoc: str) -> nodes.section:
    env, builder = app.env, app.builder
    root = os.path.abspath(app.config.book_source_root)
    diagrams = os.path.join(root, "diagrams")
    rows = []
    for path in sorted(glob.glob(os.path.join(diagrams, "*", "*.mmd"))):
        rel = os.path.relpath(path, root)
        rows.append([[nodes.literal(rel, rel)], "Mermaid diagram, drawn by Mermaid CLI",
                     _page_links(env, builder, fromdoc, _shown_in(env, path))])
    for path in sorted(glob.glob(os.path.join(diagrams, "*", "*.plot.py"))):
        rel = os.path.relpath(path, root)
        try:
            spec = read_spec(path, spec_key(diagrams, path))
            what = [nodes.Text("plot, drawn by matplotlib from run"
                               + ("s " if len(spec.runs) > 1 else " "))]
            for k, run in enumerate(spec.runs):
                if k:
                    what.append(nodes.Text(", "))
                what.append(nodes.literal(run, run))
        except PlotError as e:
            what = [nodes.Text(str(e))]
        rows.append([[nodes.literal(rel, rel)], what,
                     _page_links(env, builder, fromdoc, _shown_in(env, path))])
    intro = nodes.paragraph(text=(
        "Every figure is drawn by the build from a source in diagrams/: a Mermaid diagram, or a plot "
        "drawn from run records, redrawn whenever one of its records changes."))
    return _section("Figures", "book-buildinfo-figures", intro,
                    _table(["Source", "What", "Shown in"], rows, [30, 40, 20], labels=_LABELS))


#: How a result's name reads: its words, a size 2eNN as 2^NN, a unit spelled out.
_WORDS = {"us": "µs", "ms": "ms", "gbs": "GB/s", "pct": "%", "rel": "relative", "err": "error",
          "acc": "accuracy", "cub": "CUB", "pdl": "PDL", "pdlpf": "PDL and prefetch", "smem": "shared memory",
          "sm": "SM", "sms": "SMs", "l2": "L2", "bw": "bandwidth", "x4": "×4"}


def readable(record: dict, key: str) -> str:
    """A figure's name for a reader: a check's own sentence (check:<id>), else the
    result's name in words ("best_over_cub_2e16": "best over CUB, 2^16")."""
    if key.startswith("check:"):
        ident = key[len("check:"):]
        for check in record.get("checks", []):
            if check.get("id") == ident and check.get("what"):
                return str(check["what"])
        return ident.replace("-", " ")
    words, sizes = [], []
    for part in re.split(r"[_:]+", key):
        m = re.fullmatch(r"2e(\d+)", part)
        if m:
            sizes.append(f"2^{m.group(1)}")
        elif part:
            words.append(_WORDS.get(part.lower(), part))
    return " ".join(words) + (", " + ", ".join(sizes) if sizes else "")


def _figure_cell(record: dict, run: str, key: str, spec: str) -> str:
    """'2.2 (2.0 to 2.4 over 5)': a figure's median, and its repeats' range where
    they differ at the printed precision."""
    value, values = lookup_values(record, run, key)
    median = format_value(value, spec)
    lo, hi = format_value(min(values), spec), format_value(max(values), spec)
    return median if lo == hi else f"{median} ({lo} to {hi} over {len(values)})"


def _gpu_columns(m) -> list:
    """[(GPU name, column title)]: the build's own GPU first, then every other
    reference GPU (book/gpus.json); [] for a manifest that names no GPU."""
    if not m.gpus:
        return []
    ref = {g.get("name"): g.get("short") or g.get("name") for g in m.gpus.get("reference", [])}
    order = [m.gpus["model"]] + [g for g in ref if g != m.gpus["model"]]
    out = [(g, ref.get(g, g) + (" (lead)" if g == m.gpus.get("lead") else "")) for g in order]
    if m.reader:
        out.append((reader_key(m.reader["name"]), f"{m.reader['short']} ({m.reader['name']})"))
    return out


def _verdict_cell(per: dict, m, run: str, key: str) -> str:
    """The verdict on a figure of the reader's GPU against the lead GPU (or the
    first reference GPU with a record), from both sets of repeats."""
    from ..records.mine import figure_verdicts
    from ..records.verdict import ceiling_word
    mine = per.get(reader_key(m.reader["name"])) or {}
    if not mine.get("record"):
        return mine.get("skipped") or mine.get("missing") or "not run"
    names = [m.gpus.get("lead")] + [g.get("name") for g in m.gpus.get("reference", [])]
    for gpu in names:
        e = per.get(gpu) or {}
        if e.get("record") and not e.get("pending"):
            rec = load_json(e["record"], "run record")
            if rec.get("stale"):
                continue
            short = next((g.get("short") for g in m.gpus["reference"] if g.get("name") == gpu), gpu)
            try:
                v, c, ceiling = figure_verdicts(load_json(mine["record"], "run record"), rec, run, key)
            except (BookError, KeyError, ValueError) as err:
                return f"no verdict: {err}"
            text = f"{v.word} (against the {short}: {v.why})"
            if c is not None:
                text += f"; as a multiple of its own {ceiling_word(ceiling)}: {c.word}"
            return text
    return "no reference GPU has a fresh record of it"


def _quoted_where(env) -> dict:
    """{(run, key): (the pages that quote the figure, the formats they quote it
    in)}, of the pages the build holds."""
    quoted = getattr(env, "book_quoted_figures", {})
    where: dict = {}
    for doc, figures in quoted.items():
        if doc not in env.all_docs:
            continue
        for run, key, spec in figures:
            docs, specs = where.setdefault((run, key), (set(), set()))
            docs.add(doc)
            specs.add(spec)
    return where


def measured_section(app: Sphinx, fromdoc: str) -> nodes.section | None:
    """Every figure of a GPU run or a measuring run (book_run REPEATS) that a page
    quotes, chapter by chapter: its name, on each GPU the build shows its median
    and the range of its repeats (marked where that GPU's record is stale or the
    run waits for it), and where it is quoted. A figure quoted at two precisions
    is one row, at the finer."""
    env, builder = app.env, app.builder
    where = _quoted_where(env)
    if not where:
        return None
    m = read_manifest(app.config)
    columns = _gpu_columns(m) or [(None, "Median (range of the repeats)")]
    by_chapter: dict = {}
    for (run, key), (docs, specs) in sorted(where.items()):
        ref = f"{run}:{key}"
        entry = m.runs.get(run, {})
        per = entry.get("gpus") if entry.get("gpu") else None
        # The finest precision a page quotes it at: the longest figure of the build's record.
        record = None
        spec = sorted(specs)[-1]
        try:
            if os.path.exists(entry.get("record") or ""):
                record = load_json(entry["record"], "run record")
                spec = max(specs, key=lambda sp: len(format_value(
                    lookup_values(record, run, key)[0], sp)))
        except (BookError, KeyError):
            pass
        cells = []
        for gpu, _title in columns:
            try:
                if gpu is None or not isinstance(per, dict):
                    # a CPU run, or a manifest that names no GPU: its one record
                    record = load_json(entry["record"], "run record")
                    cells.append(_figure_cell(record, run, key, spec)
                                 if gpu is None or gpu == columns[0][0] else "(a CPU run)")
                    continue
                e = per.get(gpu) or {}
                if not e.get("record"):
                    why = e.get("pending") or e.get("skipped") or e.get("missing")
                    cells.append("not yet run" + (f": {why}" if why else ""))
                    continue
                rec = load_json(e["record"], "run record")
                record = record or rec
                cell = _figure_cell(rec, run, key, spec)
                if e.get("pending") or rec.get("stale"):
                    cell += (f"; not yet run in this version (recorded at commit "
                             f"{rec.get('provenance', {}).get('commit', '?')})")
                cells.append(cell)
            except (BookError, KeyError) as err:
                cells.append(str(err))
        if m.reader:
            cells.append(_verdict_cell(per, m, run, key) if isinstance(per, dict) else "(a CPU run)")
        name = [nodes.Text((readable(record, key) if record else key) + " "),
                nodes.literal(ref, ref, classes=["book-figure-id"])]
        by_chapter.setdefault(run.split("/")[0], []).append(
            [name, *cells, _page_links(env, builder, fromdoc, sorted(docs))])
    intro = nodes.paragraph(text=(
        "Every figure the book quotes of a GPU run or of a measuring run, chapter by chapter, on "
        "every GPU the book shows. A measuring run is repeated, each repeat a fresh process on a "
        "host doing nothing else; each cell gives the median, followed by the range of the "
        "repeats where they differ at the precision the page prints, and every check of the run "
        "and every comparison of the text holds in every repeat. The prose quotes the first GPU's "
        "figure, the lead's. A figure marked 'not yet run in this version' comes from a recording "
        "made for an older version of its program, and is not counted as checked."))
    section = _section("Quoted figures on each GPU", "book-buildinfo-measured", intro)
    heads = [t for _, t in columns] + (["Verdict on your GPU"] if m.reader else [])
    width = max(12, 60 // len(heads))
    for chapter, rows in sorted(by_chapter.items()):
        title = env.titles[chapter].astext() if chapter in env.titles else chapter
        section += _section(title, f"book-buildinfo-measured-{chapter}",
                            _table(["Figure", *heads, "Quoted in"], rows,
                                   [30, *([width] * len(heads)), 14], labels=_LABELS))
    return section


def reader_section(app: Sphinx, fromdoc: str) -> nodes.section | None:
    """The reader's GPU (tools/book mine), where the build shows one: the rule of
    the verdicts, its properties beside the reference GPUs' (each GPU's records'
    provenance, and its device query where it ran one), the runs it skipped and
    why, the runs whose own checks did not hold on it, and the chapters' claims
    that do not."""
    from ..records.verdict import RULE
    m = read_manifest(app.config)
    if not m.reader:
        return None
    env, builder = app.env, app.builder
    r = m.reader
    key = reader_key(r["name"])
    intro = nodes.paragraph(text=(
        f"This book was built by tools/book mine with the records of your GPU, the {r['name']} "
        f"(compute capability {r['compute_capability']}), beside the reference GPUs. Its records "
        "are kept out of recordings/ and count for none of the book's claims: where a claim or a "
        "program's own check does not hold on your GPU, the page says so beside it, as a finding "
        "about your GPU. The table of quoted figures above gives each one's verdict."))
    rule = nodes.paragraph(text=RULE)
    # Properties: each GPU's provenance, from the first GPU run with a record there.
    columns = _gpu_columns(m)
    props = [("GPU", "gpu_name"), ("Compute capability", "compute_capability"),
             ("SMs", "sm_count"), ("Driver", "driver_version"), ("CUDA runtime", "runtime_version")]
    provenance = {}
    dq = {}
    for run, entry in sorted(m.runs.items()):
        for gpu, e in (entry.get("gpus") or {}).items():
            if e.get("record") and os.path.exists(e["record"]):
                rec = load_json(e["record"], "run record")
                provenance.setdefault(gpu, rec.get("provenance", {}))
                if run.endswith("/device-query"):
                    dq[gpu] = rec
    rows = [[label, *(str(provenance.get(g, {}).get(k, "?")) for g, _ in columns)] for label, k in props]
    names = sorted({k for rec in dq.values() for k in rec.get("results", {})})
    for k in names:
        row = [f"device query: {readable(next(iter(dq.values())), k)}"]
        for g, _ in columns:
            res = (dq.get(g) or {}).get("results", {}).get(k)
            if res is not None:
                row.append(format_value(res["value"], "") + (f" {res.get('unit')}" if res.get("unit") else ""))
            else:
                e = (m.runs.get(next(n for n in m.runs if n.endswith("/device-query")), {})
                     .get("gpus") or {}).get(g) or {}
                row.append("skipped" if e.get("skipped") else "not run")
        rows.append(row)
    table = _table(["Property", *(t for _, t in columns)], rows,
                   [24, *([max(12, 60 // len(columns))] * len(columns))], labels=_LABELS)
    parts = [intro, rule, table]
    skipped = [[name, e.get("skipped") or e.get("missing")] for name, run in sorted(m.runs.items())
               for e in [(run.get("gpus") or {}).get(key) or {}]
               if run.get("gpu") and (e.get("skipped") or e.get("missing"))]
    if skipped:
        parts.append(nodes.paragraph(text="The runs your GPU did not make, and why:"))
        parts.append(_table(["Run", "Why"], skipped, [30, 70], labels=_LABELS))
    failed = [[name, ", ".join(e["failed_checks"])] for name, run in sorted(m.runs.items())
              for e in [(run.get("gpus") or {}).get(key) or {}] if e.get("failed_checks")]
    if failed:
        parts.append(nodes.paragraph(text="The runs whose own checks do not all hold on your GPU:"))
        parts.append(_table(["Run", "Checks that do not hold"], failed, [30, 70], labels=_LABELS))
    findings = getattr(env, "book_reader_findings", {})
    rows = [[_page_links(env, builder, fromdoc, [doc]), f"line {line}: {claim}", why]
            for doc, items in sorted(findings.items()) if doc in env.all_docs
            for line, claim, why in items]
    if rows:
        parts.append(nodes.paragraph(text="The chapters' claims that do not hold on your GPU:"))
        parts.append(_table(["Page", "Claim", "Why"], rows, [14, 40, 46], labels=_LABELS))
    section = _section("Your GPU", "book-buildinfo-reader", *parts)
    section["classes"].append("book-buildinfo-reader")
    return section


def _git(root: str, *args) -> str:
    try:
        out = subprocess.run(["git", "-C", root, *args], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return out.stdout.strip() if out.returncode == 0 else ""


def toolchain_section(app: Sphinx) -> nodes.section:
    try:
        settings = site_settings(app.config)
    except BookError as e:
        logger.warning(str(e))
        settings = {}
    tools = dict(settings.get("toolchain", {}))
    import docutils
    import pygments
    import sphinx
    for label, module in (("Sphinx", sphinx), ("Docutils", docutils), ("Pygments", pygments)):
        tools[label] = getattr(module, "__version__", "?")
    for label, name in (("MyST-Parser", "myst_parser"), ("Breathe", "breathe"), ("Furo", "furo"),
                        ("sphinx-copybutton", "sphinx_copybutton"), ("Matplotlib", "matplotlib")):
        mod = sys.modules.get(name)
        if mod is None:
            try:
                mod = __import__(name)
            except ImportError:
                continue
        tools[label] = getattr(mod, "__version__", "?")
    tools["Python"] = sys.version.split()[0]
    rows = [[name, str(version)] for name, version in sorted(tools.items(), key=lambda kv: kv[0].lower())]
    root = os.path.abspath(app.config.book_source_root)
    commit = _git(root, "rev-parse", "--short=12", "HEAD")
    # A file git does not track (a new chapter) is built as much as a changed one.
    status = [line for line in _git(root, "status", "--porcelain", "--untracked-files=all")
              .splitlines() if line.strip()]
    changed = [line[3:] for line in status if not line.startswith("??")]
    untracked = [line[3:] for line in status if line.startswith("??")]
    bits = []
    if changed:
        bits.append(f"{len(changed)} file{'s' if len(changed) != 1 else ''} changed since")
    if untracked:
        shown = ", ".join(untracked[:3]) + (", ..." if len(untracked) > 3 else "")
        bits.append(f"{len(untracked)} file{'s' if len(untracked) != 1 else ''} that git does not "
                    f"track ({shown})")
    source = (f"The sources at commit {commit}" + (f", with {' and '.join(bits)}" if bits else "")
              + "." if commit else "The sources are not in a git checkout here.")
    intro = nodes.paragraph(text=(
        f"{source} The tools the build found when it was configured, and the Python packages "
        f"this Sphinx build ran with. This is the "
        f"{'instructor' if app.tags.has('instructor') else 'reader'} edition."))
    return _section("Toolchain", "book-buildinfo-toolchain", intro,
                    _table(["Tool", "Version"], rows, [30, 70], labels=_LABELS))


def downloads_section(app: Sphinx, fromdoc: str) -> nodes.section | None:
    from .downloads import downloads
    try:
        listed = downloads(app.config)
    except BookError:
        return None
    if not listed:
        return None
    rows = []
    for chapter, entry in sorted(listed.items()):
        name = os.path.basename(entry["archive"])
        size = os.path.getsize(entry["archive"]) if os.path.exists(entry["archive"]) else 0
        rows.append([chapter, [nodes.literal(name, name)], f"{size:,} bytes",
                     ", ".join(entry.get("exercises", []))])
    intro = nodes.paragraph(text=(
        "Each chapter's exercises as one archive, the grader's student bundle of that chapter "
        "(tools/grade --bundle --chapter): the starters, the visible tests and the files to build "
        "them, no solutions and no hidden tests. Each chapter's page links its own."))
    return _section("Exercise downloads", "book-buildinfo-downloads", intro,
                    _table(["Chapter", "Archive", "Size", "Exercises"], rows, [20, 30, 12, 38], labels=_LABELS))


def fill(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    # In LaTeX every page is inlined into the root document's tree first.
    global _LABELS
    _LABELS = app.builder.format == "html"
    for node in list(doctree.findall(build_info)):
        parts = [runs_section(app, docname), figures_section(app, docname)]
        m = measured_section(app, docname)
        if m is not None:
            parts.append(m)
        r = reader_section(app, docname)
        if r is not None:
            parts.append(r)
        d = downloads_section(app, docname)
        if d is not None:
            parts.append(d)
        parts.append(toolchain_section(app))
        container = nodes.container(classes=["book-buildinfo"])
        container.extend(parts)
        if app.builder.format == "latex":
            _fit_latex_tables(container)
        node.replace_self(container)


def _fit_latex_tables(container: nodes.Element) -> None:
    """The PDF: each table set small, and a long name (a run's key, a path, a
    commit) allowed to break after '/', '-', '_' or ':' (and a commit anywhere),
    so that no cell runs into the next."""
    for table in list(container.findall(nodes.table)):
        parent = table.parent
        at = parent.index(table)
        parent.insert(at + 1, nodes.raw("", "\\endgroup\n", format="latex"))
        parent.insert(at, nodes.raw("", "\\begingroup\\footnotesize\n", format="latex"))
    for text in list(container.findall(nodes.Text)):
        if not isinstance(text.parent, (nodes.literal, nodes.paragraph)):
            continue
        pieces = re.split(r"(?<=[/_:-])|(?<=\b[0-9a-f]{6})(?=[0-9a-f]{6}\b)", str(text))
        pieces = [p for p in pieces if p]
        if len(pieces) < 2:
            continue
        parent = text.parent
        at = parent.index(text)
        new = []
        for k, piece in enumerate(pieces):
            if k:
                new.append(nodes.raw("", "\\allowbreak{}", format="latex"))
            new.append(nodes.Text(piece))
        parent.remove(text)
        for k, n in enumerate(new):
            parent.insert(at + k, n)


def always_outdated(app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str],
                    removed: set[str]) -> list[str]:
    """The page is read again on every build: what it lists may change
    without any file it reads changing."""
    docs = getattr(env, "book_buildinfo_docs", set())
    return [d for d in docs if d in env.found_docs and d not in added | changed | removed]


def purge(app: Sphinx, env: BuildEnvironment, docname: str) -> None:
    getattr(env, "book_buildinfo_docs", set()).discard(docname)
    getattr(env, "book_quoted_figures", {}).pop(docname, None)
    getattr(env, "book_reader_findings", {}).pop(docname, None)


def merge(app: Sphinx, env: BuildEnvironment, docnames: set[str], other: BuildEnvironment) -> None:
    mine = getattr(env, "book_buildinfo_docs", set())
    mine |= {d for d in getattr(other, "book_buildinfo_docs", set()) if d in docnames}
    env.book_buildinfo_docs = mine
    quoted = env.__dict__.setdefault("book_quoted_figures", {})
    for doc, figures in getattr(other, "book_quoted_figures", {}).items():
        if doc in docnames:
            quoted[doc] = figures
    findings = env.__dict__.setdefault("book_reader_findings", {})
    for doc, items in getattr(other, "book_reader_findings", {}).items():
        if doc in docnames:
            findings[doc] = items


def visit_plain(self: SphinxTranslator, node: nodes.Node) -> None:
    raise nodes.SkipNode


def setup(app: Sphinx) -> None:
    app.add_node(build_info, html=(visit_plain, None), latex=(visit_plain, None),
                 text=(visit_plain, None), man=(visit_plain, None), texinfo=(visit_plain, None))
    app.add_directive("build-info", BuildInfo)
    app.add_env_collector(ShownCollector)
    app.connect("doctree-resolved", fill)
    app.connect("env-get-outdated", always_outdated)
    app.connect("env-purge-doc", purge)
    app.connect("env-merge-info", merge)
