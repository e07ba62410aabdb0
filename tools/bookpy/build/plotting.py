# SPDX-License-Identifier: MIT
"""Plots drawn at build time from run records, with Debian's matplotlib.

A plot is a spec, ``diagrams/<key>/<name>.plot.py``, beside the chapter's
Mermaid diagrams::

    \"\"\"What the plot shows (one line).\"\"\"
    RUNS = ["div-sweep"]            # the runs it reads: <run> (this chapter's) or <key>/<run>
    ALT = "A description for readers who cannot see it."

    def draw(fig, runs, theme):
        run = runs["div-sweep"]                 # the same names as in RUNS
        x = run.result("ratio_w1")              # a result's value (an error names what is missing)
        ax = fig.add_subplot()
        for i, (gpu, r) in enumerate(run.gpus):  # one series per GPU: the build's own first
            ax.plot(..., color=theme.colors[i], label=gpu)

A GPU run's ``gpus`` lists it on every GPU whose fresh record the build hands
the plot (cmake/BookSite.cmake: the lead's and every other reference GPU's, a
run pending or stale there left out), so a plot that draws a series per entry
draws every reference GPU, a new one included, with no change to it.

A plot draws from its records: the spec imports nothing, opens nothing and
names no record file, and each call in draw() that draws data (``plot``,
``bar``, ``barh``, ``scatter``, ``errorbar``, ...) takes some of its data from
the runs draw() is given, through the names bound to them (a call whose data
are all literals is an error at its line); reference marks (``axhline``,
``axvline``, spans), ticks and limits may be constants. draw() must also read
every run it declares.

A plot's data must be its records' (the invariant plots-from-records): draw()
is run a second time on perturbed records (every result moved by a factor of
its own, a zero made non-zero: perturbed_runs), and each drawn element (a
line, a bar, a marker set, a filled area; matched in the order drawn) whose
data did not move is an error naming the spec and the element, so a series
that ignores its data (``0 * x + 1.3``), a constant area, or a constant mark
in the legend is refused. Every drawn element is either data that moves with
its records or a reference that says what it is: a constant mark
(``axhline``, ``axvline``, spans) or a model curve such as 1/K is labelled in
a legend, and that label is in the spec's ``REFERENCES = {"label": "why it is
no data"}``; a constant element in no legend, a declared reference in no
legend, and a REFERENCES label that no element drawn carries in a legend are
errors.

A legend label names the series whose data it draws: the spec's ``SERIES =
{label: results}`` gives each legend label of data (a regular expression,
matched after a leading "<GPU>: ") the results it is drawn from (a regular
expression of their names); a label that is a GPU's name alone stands for all
of that GPU's results. draw() is run once more per series on records where
only that series' results are perturbed (on the GPU its label names, or on
every GPU): the element labelled with it must move, and an element labelled
with a series of other results must not (mislabelled). So two series' labels
swapped, or a GPU's line labelled with another GPU's name, are errors naming
the spec and both labels.

RUNS and ALT are read without running the spec (the build needs RUNS to know
what the plot depends on, the book needs ALT). ``draw`` gets an empty figure
sized for the book's column (text at least 12 px on the page), the runs it
declared, and the theme it draws for; it is called once per theme, so a plot
reads well on a light and on a dark page. tools/bookpy/build/render_plot.py writes
<name>.svg (light), <name>-dark.svg and <name>.pdf (the PDF edition, light)
for cmake/BookSite.cmake, which re-renders a plot when its spec or one of its
records changes. It also draws the phone's drawings, <name>-phone.svg and
<name>-phone-dark.svg: as wide as a phone's column, the panels that
``fig.subplots(1, n)`` puts side by side stacked (NarrowFigure; ``fig.book_narrow``
tells draw() which drawing it makes). The {plot} directive (plots.py) shows
them, captioned with where each of its records ran.

Nothing here imports Sphinx.
"""
from __future__ import annotations

import ast
import json
import os
import re
from dataclasses import dataclass, field

NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")


class PlotError(Exception):
    """A problem with a plot spec or its data, naming the spec (and line)."""


# ---- the spec, read without running it ---------------------------------------------------

@dataclass(frozen=True)
class Spec:
    path: str
    key: str                 # <chapter>/<name>
    doc: str
    runs: tuple              # full run keys, <chapter>/<run>
    names: tuple             # as written in RUNS (what draw() gets as keys)
    alt: str
    references: tuple = ()   # legend labels of elements that are no data (REFERENCES)
    series: tuple = ()       # ((legend label regex, result name regex), ...) (SERIES)


def spec_key(diagrams_root: str, path: str) -> str:
    rel = os.path.relpath(path, diagrams_root).replace(os.sep, "/")
    if not rel.endswith(".plot.py") or rel.count("/") != 1:
        raise PlotError(f"{path}: a plot spec is diagrams/<chapter>/<name>.plot.py")
    return rel[:-len(".plot.py")]


#: What a spec may not do: reach for data other than the runs draw() is handed
#: (a file opened by path, another chapter's recording, a module that reads one).
_FORBIDDEN_CALLS = {"open", "exec", "eval", "compile", "__import__", "globals", "vars", "locals",
                    "getattr", "setattr", "input", "breakpoint"}
_FORBIDDEN_TEXT = re.compile(r"recordings/|records/|\.json\b|/work/|\.\./")


def _only_runs(tree, path: str) -> None:
    """A plot draws only the records the build hands it: the spec imports nothing,
    opens nothing and names no record file; each is an error at its line."""
    for node in ast.walk(tree):
        line = getattr(node, "lineno", 0)
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            raise PlotError(f"{path}:{line}: a plot spec imports nothing: it draws from the runs "
                            "draw() is given (RUNS), and from nothing else")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id in _FORBIDDEN_CALLS:
            raise PlotError(f"{path}:{line}: a plot spec may not call {node.func.id}(): it draws "
                            "from the runs draw() is given (RUNS), and from nothing else")
        if isinstance(node, ast.Attribute) and node.attr.startswith("__"):
            raise PlotError(f"{path}:{line}: a plot spec may not reach {node.attr}")
        if isinstance(node, ast.Constant) and isinstance(node.value, str) \
                and _FORBIDDEN_TEXT.search(node.value) and not (
                    isinstance(node, ast.Constant) and line == 1):
            raise PlotError(f"{path}:{line}: a plot spec names a record or a path "
                            f"('{node.value[:60]}'): it draws from the runs draw() is given "
                            "(RUNS), which the build hands it and redraws it for")


#: The calls that draw data; each must take some of it from the runs draw() is given.
#: (Reference marks, axhline/axvline/axhspan/axvspan, and ticks and limits may be constants.)
_DATA_CALLS = {"plot", "scatter", "bar", "barh", "step", "stem", "errorbar", "fill_between",
               "fill_betweenx", "hist", "hist2d", "stairs", "pie", "imshow", "matshow",
               "pcolormesh", "pcolor", "contour", "contourf", "semilogx", "semilogy", "loglog",
               "boxplot", "violinplot", "stackplot", "hlines", "vlines", "broken_barh", "quiver",
               "hexbin", "eventplot"}
#: The keywords that carry a data call's data (the others style it).
_DATA_KEYWORDS = {"x", "y", "x1", "x2", "y1", "y2", "xerr", "yerr", "data", "weights", "values",
                  "edges", "xmin", "xmax", "ymin", "ymax", "positions", "dataset", "s", "xy",
                  "xytext", "cellText", "sizes", "explode"}


def _names(node) -> set:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _assigned(target) -> set:
    return {n.id for n in ast.walk(target) if isinstance(n, ast.Name)}


def _literal_data(tree, path: str) -> None:
    """A plot draws from a record: in draw(), a call that draws data (ax.plot,
    ax.bar, ...) none of whose data comes from the runs draw() is given (a name
    bound, however indirectly, to its runs argument) draws literals: an error at
    its line."""
    draw = next((n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == "draw"), None)
    if draw is None or len(draw.args.args) < 2:
        return
    tainted = {draw.args.args[1].arg}
    # Names bound to what the runs give, to a fixed point: assignments, loops,
    # comprehensions, and lists filled by append/extend/insert.
    while True:
        before = len(tainted)
        for node in ast.walk(draw):
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.NamedExpr)):
                value = node.value
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if value is not None and _names(value) & tainted:
                    for t in targets:
                        tainted |= _assigned(t)
            elif isinstance(node, (ast.For, ast.comprehension)):
                if _names(node.iter) & tainted:
                    tainted |= _assigned(node.target)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and isinstance(node.func.value, ast.Name) \
                    and node.func.attr in ("append", "extend", "insert", "update", "add"):
                if any(_names(a) & tainted for a in node.args):
                    tainted.add(node.func.value.id)
        if len(tainted) == before:
            break
    for node in ast.walk(draw):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in _DATA_CALLS):
            continue
        method = node.func.attr
        data = list(node.args)
        for kw in node.keywords:
            if kw.arg in _DATA_KEYWORDS or kw.arg is None \
                    or (kw.arg == "height" and method == "bar") \
                    or (kw.arg == "width" and method == "barh") \
                    or (kw.arg == "left" and method == "barh") or (kw.arg == "bottom" and method == "bar"):
                data.append(kw.value)
        if not data or any(_names(d) & tainted for d in data):
            continue
        raise PlotError(f"{path}:{node.lineno}: {method}() draws data of the spec's own: none "
                        "of its data comes from the runs draw() is given (RUNS); a plot draws "
                        "the records the build hands it")


def read_spec(path: str, key: str) -> Spec:
    try:
        with open(path, encoding="utf-8") as f:
            source = f.read()
    except OSError as e:
        raise PlotError(f"{path}: cannot read the plot spec ({e.strerror})") from None
    try:
        tree = ast.parse(source, filename=path)
    except SyntaxError as e:
        raise PlotError(f"{path}:{e.lineno}: not Python: {e.msg}") from None
    found = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            name = node.targets[0].id
            if name in ("RUNS", "ALT", "REFERENCES", "SERIES"):
                try:
                    found[name] = (ast.literal_eval(node.value), node.lineno)
                except ValueError:
                    raise PlotError(f"{path}:{node.lineno}: {name} must be a literal") from None
    _only_runs(tree, path)
    _literal_data(tree, path)
    has_draw = any(isinstance(n, ast.FunctionDef) and n.name == "draw" for n in tree.body)
    if "RUNS" not in found:
        raise PlotError(f"{path}: no RUNS = [...] naming the runs the plot reads")
    runs, line = found["RUNS"]
    if not isinstance(runs, list) or not runs or not all(isinstance(r, str) for r in runs):
        raise PlotError(f"{path}:{line}: RUNS must be a non-empty list of run names")
    chapter = key.split("/")[0]
    full = []
    for r in runs:
        parts = r.split("/")
        if len(parts) == 1:
            parts = [chapter, r]
        if len(parts) != 2 or not all(NAME.fullmatch(p) and ".." not in p for p in parts):
            raise PlotError(f"{path}:{line}: run '{r}' should read <run> or <chapter>/<run>")
        full.append("/".join(parts))
    if len(set(full)) != len(full):
        raise PlotError(f"{path}:{line}: a run is named twice in RUNS")
    if "ALT" not in found or not isinstance(found["ALT"][0], str) or not found["ALT"][0].strip():
        raise PlotError(f"{path}: no ALT = \"...\" describing the plot for readers who cannot see it")
    if not has_draw:
        raise PlotError(f"{path}: no function draw(fig, runs, theme)")
    references, ref_line = found.get("REFERENCES", ({}, 0))
    if not (isinstance(references, dict) and all(
            isinstance(k, str) and isinstance(v, str) and v.strip() for k, v in references.items())):
        raise PlotError(f"{path}:{ref_line}: REFERENCES must map each legend label of an element "
                        "that is no data to why")
    series, series_line = found.get("SERIES", ({}, 0))
    if not (isinstance(series, dict) and all(
            isinstance(k, str) and isinstance(v, str) and k and v for k, v in series.items())):
        raise PlotError(f"{path}:{series_line}: SERIES must map each legend label of data (a "
                        "regular expression) to the results it draws (a regular expression of "
                        "their names)")
    for k, v in series.items():
        for what, rx in (("legend label", k), ("results", v)):
            try:
                re.compile(rx)
            except re.error as e:
                raise PlotError(f"{path}:{series_line}: SERIES: the {what} pattern '{rx}' is no "
                                f"regular expression: {e}") from None
    doc = ast.get_docstring(tree) or ""
    return Spec(path, key, doc.strip(), tuple(full), tuple(runs), " ".join(found["ALT"][0].split()),
                tuple(sorted(references)), tuple(series.items()))


# ---- what draw() gets -------------------------------------------------------------------

class Run:
    """One run's record, as draw() reads it. ``gpus``: [(GPU, Run)], the run on
    every GPU whose fresh record the build hands the plot, its own GPU first (this
    Run itself; a CPU run's only entry, with GPU None): a plot draws one series
    per GPU from it, so that every reference GPU the book shows is drawn, a new
    one with no change to the spec."""

    def __init__(self, name: str, record: dict, spec_path: str, gpu: str | None = None):
        self.name, self._record, self._spec = name, record, spec_path
        self.read = 0  # how many values draw() read (render checks it read some)
        self.gpu = gpu
        self.gpus = [(gpu, self)]

    @property
    def record(self) -> dict:
        self.read += 1
        return self._record

    @property
    def results(self) -> dict:
        """{result name: value}."""
        self.read += 1
        return {k: v["value"] for k, v in self.record.get("results", {}).items()
                if isinstance(v, dict) and "value" in v}

    def result(self, name: str) -> float:
        self.read += 1
        results = self._record.get("results", {})
        if name not in results:
            raise PlotError(f"{self._spec}: run '{self.name}' has no result '{name}'")
        value = results[name].get("value") if isinstance(results[name], dict) else None
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise PlotError(f"{self._spec}: result '{name}' of run '{self.name}' is not a number")
        return float(value)

    def series(self, pattern: str) -> list:
        """[(number, value)] for the results matching `pattern`, a regular
        expression with one group that captures a number, sorted by it."""
        rx = re.compile(pattern)
        out = []
        for name in self.record.get("results", {}):
            m = rx.fullmatch(name)
            if m:
                out.append((float(m.group(1)), self.result(name)))
        if not out:
            raise PlotError(f"{self._spec}: no result of run '{self.name}' matches /{pattern}/")
        return sorted(out)


@dataclass(frozen=True)
class Theme:
    """What a plot draws with on one page colour: text, axes and grid, and a
    palette (Okabe and Ito's colour-blind-safe colours, lightened for dark)."""
    name: str
    foreground: str
    muted: str
    grid: str
    colors: tuple = field(default_factory=tuple)


THEMES = {
    "light": Theme("light", "#1b1b1b", "#555555", "#d9d9d9",
                   ("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9")),
    "dark": Theme("dark", "#e8e8e8", "#a8a8a8", "#3c3f42",
                  ("#56b4e9", "#f0a050", "#3fd1a4", "#e59ccb", "#f0c040", "#9dd5f5")),
}
#: The figure: as wide as the book's column at 96 px per inch, so that 10.5 pt
#: text is 14 px on the page (the browser test wants 12 px at least).
WIDTH_IN, HEIGHT_IN, FONT_PT = 7.2, 3.6, 10.5
#: The phone's drawing: as wide as a phone's column (a 390 px screen's 358 px, less
#: a little), its panels one above the other, each this tall (the page swaps it in
#: below 46em: book.css; tests/site/page_checks.js fails a plot wider than a
#: phone's column, whose right-hand panel would be hidden).
PHONE_WIDTH_IN, PHONE_PANEL_IN = 3.6, 3.4


class NarrowFigure:
    """The figure draw() gets for the phone's drawing: a matplotlib Figure whose
    ``subplots(1, n)`` (panels side by side) gives the n panels stacked, top to
    bottom in the same order, the figure as tall as they need; everything else
    is the Figure's. ``fig.book_narrow`` is True here (False on the wide
    drawings' figure), for a spec that places something differently on a narrow
    drawing (a legend under its panel rather than beside it)."""
    book_narrow = True

    def __init__(self, fig):
        self._fig = fig

    def subplots(self, nrows=1, ncols=1, **kwargs):
        if nrows == 1 and ncols > 1:
            grid = dict(kwargs.pop("gridspec_kw", None) or {})
            ratios = grid.pop("width_ratios", None) or kwargs.pop("width_ratios", None)
            if ratios:
                grid["height_ratios"] = ratios
            if grid:
                kwargs["gridspec_kw"] = grid
            self._fig.set_size_inches(PHONE_WIDTH_IN, PHONE_PANEL_IN * ncols)
            return self._fig.subplots(ncols, 1, **kwargs)
        return self._fig.subplots(nrows, ncols, **kwargs)

    def __getattr__(self, name):
        return getattr(self._fig, name)


def _style(theme: Theme) -> dict:
    from cycler import cycler
    return {
        "font.family": "DejaVu Sans", "font.size": FONT_PT,
        "axes.titlesize": FONT_PT, "axes.labelsize": FONT_PT, "legend.fontsize": FONT_PT - 0.5,
        "xtick.labelsize": FONT_PT - 0.5, "ytick.labelsize": FONT_PT - 0.5,
        "text.color": theme.foreground, "axes.labelcolor": theme.foreground,
        "axes.edgecolor": theme.muted, "xtick.color": theme.foreground, "ytick.color": theme.foreground,
        "grid.color": theme.grid, "axes.grid": True, "grid.linewidth": 0.8,
        "axes.facecolor": "none", "figure.facecolor": "none", "savefig.facecolor": "none",
        "legend.frameon": False, "axes.spines.top": False, "axes.spines.right": False,
        "axes.prop_cycle": cycler(color=list(theme.colors)),
        "svg.fonttype": "none",   # text stays text: searchable, and measurable by the browser test
        "svg.hashsalt": "book",   # the same ids every time: the same input gives the same file
        "pdf.fonttype": 42,
        "lines.linewidth": 1.8, "lines.markersize": 6,
    }


def _read_record(spec: Spec, full: str, path: str) -> dict:
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except OSError as e:
        raise PlotError(f"{spec.path}: the record of run '{full}' ({path}) cannot be read: "
                        f"{e.strerror}") from None
    except json.JSONDecodeError as e:
        raise PlotError(f"{spec.path}: the record of run '{full}' ({path}:{e.lineno}) is not "
                        f"JSON: {e.msg}") from None


def load_runs(spec: Spec, record_paths: dict, gpu_records: dict | None = None) -> dict:
    """{name as in RUNS: Run} from {full run key: record path}; gpu_records
    {full run key: [(GPU, record path)]}, the build's own GPU first (its path is
    the run's record), gives each Run its ``gpus``: a record made for an older
    version of its program (stale) is left out, as a GPU that has not run it."""
    runs = {}
    for name, full in zip(spec.names, spec.runs):
        path = record_paths.get(full)
        if path is None:
            raise PlotError(f"{spec.path}: no record given for run '{full}'")
        per = (gpu_records or {}).get(full, [])
        own = next((gpu for gpu, p in per if os.path.abspath(p) == os.path.abspath(path)), None)
        run = Run(full, _read_record(spec, full, path), spec.path, own)
        for gpu, p in per:
            if gpu == own:
                continue
            record = _read_record(spec, full, p)
            if not record.get("stale"):
                run.gpus.append((gpu, Run(full, record, spec.path, gpu)))
        runs[name] = run
    return runs


def perturbed_runs(runs: dict, only=None) -> dict:
    """The runs with every result moved by a factor of its own (1 + 0.0137 k for
    the k-th result of all the records, so that no two move alike and no ratio
    of two stays), a zero made 0.0137 k: what a plot draws from them must move.
    only(gpu, result name) -> bool, where given, picks the results moved (the
    others stay as recorded): one series' (SERIES)."""
    import copy
    k = 0

    def moved(run: Run) -> Run:
        nonlocal k
        record = copy.deepcopy(run._record)
        for name in sorted(record.get("results", {})):
            r = record["results"][name]
            v = r.get("value") if isinstance(r, dict) else None
            if only is not None and not only(run.gpu, name):
                continue
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                k += 1
                r["value"] = v * (1 + 0.0137 * k) if v else 0.0137 * k
        return Run(run.name, record, run._spec, run.gpu)

    out = {}
    for name, run in runs.items():
        first = moved(run)
        first.gpus = [(run.gpu, first)] + [(gpu, moved(r)) for gpu, r in run.gpus[1:]]
        out[name] = first
    return out


def _legend_labels(fig, ax) -> set:
    """The labels a reader reads in the legends over `ax`: its own and the figure's."""
    legends = [ax.get_legend()] + list(getattr(fig, "legends", []))
    return {t.get_text() for lg in legends if lg is not None for t in lg.get_texts()}


def _drawn(fig) -> list:
    """[(axes index, what, label, data, reference mark?, in a legend?)] of every
    element drawn in the figure's axes, in the order drawn: its data in data
    coordinates; a bar's label is its bar set's (ax.bar(label=...))."""
    import numpy as np
    out = []
    for a, ax in enumerate(fig.axes):
        shown = _legend_labels(fig, ax)
        owner = {id(p): c.get_label() for c in ax.containers for p in c}
        for kind, artists in (("line", ax.lines), ("marker set or area", ax.collections),
                              ("bar or area", ax.patches)):
            for artist in artists:
                reference = not artist.get_transform().contains_branch(ax.transData)
                if kind == "line":
                    data = np.asarray(artist.get_xydata(), dtype=float)
                elif kind == "bar or area":
                    data = np.asarray(artist.get_patch_transform().transform(
                        artist.get_path().vertices), dtype=float)
                else:
                    parts = [np.asarray(artist.get_offsets(), dtype=float).ravel()]
                    parts += [np.asarray(p.vertices, dtype=float).ravel() for p in artist.get_paths()]
                    data = np.concatenate(parts) if parts else np.zeros(0)
                label = str(owner.get(id(artist)) or artist.get_label() or "")
                out.append((a, kind, label, data, reference,
                            bool(label) and not label.startswith("_") and label in shown))
    return out


def _what(kind: str, label: str, in_legend: bool) -> str:
    if in_legend:
        return f"the {kind} labelled '{label}'"
    if label and not label.startswith("_"):
        return f"the {kind} labelled '{label}' (in no legend)"
    return f"a {kind} (no label)"


def _same(data, data2) -> bool:
    import numpy as np
    return data.shape == data2.shape and np.allclose(data, data2, rtol=1e-9, atol=0, equal_nan=True)


def unmoved(spec: Spec, drawn: list, again: list) -> list[str]:
    """What draw() drew the same from perturbed records, as errors: every drawn
    element is data that moves with its records, or a reference (a mark, a model)
    that a legend names by a label REFERENCES gives with why it is no data; and
    each label REFERENCES gives names an element in a legend."""
    found = []
    for (a, kind, label, data, reference, in_legend), (_, _, _, data2, _, _) in zip(drawn, again):
        if not _same(data, data2):
            continue
        if in_legend and label in spec.references:
            continue
        if label in spec.references:
            found.append(f"{spec.path}: {_what(kind, label, in_legend)} in axes {a + 1} is a reference "
                         "REFERENCES declares, but no legend names it: a reference mark says in "
                         "the legend what it is (call legend() on its axes)")
            continue
        found.append(f"{spec.path}: {_what(kind, label, in_legend)} in axes {a + 1} is drawn the same "
                     "from perturbed records: its data are not the records' (a plot draws its "
                     "records; an element that is no data, a reference mark such as axhline() "
                     "included, is labelled in the legend and named in REFERENCES with why)")
    labelled = {label for _, _, label, _, _, in_legend in drawn if in_legend}
    for label in spec.references:
        if label not in labelled:
            found.append(f"{spec.path}: REFERENCES declares '{label}', but no element drawn is "
                         "labelled so in a legend: declare only the references the plot draws, "
                         "each labelled in the legend")
    return found


def _series_of(spec: Spec, label: str, gpus: list) -> tuple:
    """(SERIES' label pattern, its results pattern, the GPU the label names or None)
    of a legend label: "<GPU>: <label>" names a GPU's series, and a label that is a
    GPU's name alone all of that GPU's results."""
    for gpu in gpus:
        if gpu and label == gpu:
            return ("", ".*", gpu)
        if gpu and label.startswith(gpu + ": "):
            rest = label[len(gpu) + 2:]
            key = next(((k, v) for k, v in spec.series if re.fullmatch(k, rest)), None)
            return (key[0], key[1], gpu) if key else None
    key = next(((k, v) for k, v in spec.series if re.fullmatch(k, label)), None)
    return (key[0], key[1], None) if key else None


def mislabelled(spec: Spec, draw, runs: dict, drawn: list, redraw) -> list[str]:
    """Each legend label names the series whose data it draws (SERIES): the records
    of one series alone are perturbed (its results, on the GPU its label names or on
    every GPU), and the element labelled with it must move, and every element
    labelled with a series of other results must not: swapped labels, or a label on
    another GPU's line, are errors naming the spec and both labels."""
    gpus = sorted({g for run in runs.values() for g, _ in run.gpus if g}, key=len, reverse=True)
    named, found = {}, []
    for i, (a, kind, label, data, reference, in_legend) in enumerate(drawn):
        if not in_legend or label in spec.references:
            continue
        series = _series_of(spec, label, gpus)
        if series is None:
            found.append(f"{spec.path}: {_what(kind, label, True)} in axes {a + 1} names no series: "
                         "SERIES gives each legend label of data (a regular expression, after "
                         "'<GPU>: ') the results it draws (a regular expression of their names)")
            continue
        named[i] = series
    if found:
        return found
    runs_of = {name: {k for k in run._record.get("results", {})} for name, run in runs.items()}

    def results(series) -> set:
        _, rx, gpu = series
        return {(run, g, r) for run, names in runs_of.items() for r in names
                for g in ([gpu] if gpu else [None] + gpus) if re.fullmatch(rx, r)}

    for series in dict.fromkeys(named.values()):
        pattern, rx, gpu = series
        mine = results(series)

        def only(g, name, rx=rx, gpu=gpu):
            return re.fullmatch(rx, name) is not None and (gpu is None or g == gpu)
        again = redraw(perturbed_runs(runs, only))
        what = f"/{rx}/" + (f" on the {gpu}" if gpu else "")
        for i, other in named.items():
            a, kind, label, data = drawn[i][:4]
            moved = i < len(again) and not _same(data, again[i][3])
            if other == series and not moved:
                found.append(f"{spec.path}: {_what(kind, label, True)} in axes {a + 1} does not move when "
                             f"only the results its label names move (SERIES: {what}): its label "
                             "names a series it does not draw")
            elif other != series and moved and not (results(other) & mine):
                found.append(f"{spec.path}: {_what(kind, label, True)} in axes {a + 1} moves when only "
                             f"the results of another series move (SERIES: {what}, which its label "
                             "does not name): its label names another series than the one it draws")
    return found


def _check_moves(spec: Spec, draw, fig, runs: dict, theme_name: str) -> None:
    """draw() again on perturbed records; PlotError for what did not move, and for
    a legend label that names another series than the one it draws."""
    from matplotlib.figure import Figure

    def redraw(perturbed: dict) -> list:
        again = Figure(figsize=(WIDTH_IN, HEIGHT_IN), layout="constrained")
        again.book_narrow = False
        try:
            draw(again, perturbed, THEMES[theme_name])
        except PlotError:
            raise
        except Exception as e:
            raise PlotError(f"{spec.path}: draw() failed on perturbed records: "
                            f"{type(e).__name__}: {e}") from None
        return _drawn(again)

    drawn = _drawn(fig)
    errors = unmoved(spec, drawn, redraw(perturbed_runs(runs)))
    if not errors:
        errors = mislabelled(spec, draw, runs, drawn, redraw)
    if errors:
        raise PlotError("\n".join(errors))


def render(spec: Spec, runs: dict, outputs: dict) -> None:
    """Draw the spec once per theme and write {'light.svg'|'dark.svg'|'pdf'|
    'phone.svg'|'phone-dark.svg': path} (the phone's: NarrowFigure); each file
    appears only complete."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.figure import Figure

    namespace = {"__file__": spec.path, "__name__": "book_plot"}
    with open(spec.path, encoding="utf-8") as f:
        code = compile(f.read(), spec.path, "exec")
    exec(code, namespace)  # the spec is the book's own source, like a chapter's programs
    draw = namespace["draw"]
    checked = False
    for theme_name, fmt, out, narrow in (("light", "svg", outputs.get("light.svg"), False),
                                         ("dark", "svg", outputs.get("dark.svg"), False),
                                         ("light", "pdf", outputs.get("pdf"), False),
                                         ("light", "svg", outputs.get("phone.svg"), True),
                                         ("dark", "svg", outputs.get("phone-dark.svg"), True)):
        if not out:
            continue
        with plt.rc_context(_style(THEMES[theme_name])):
            if narrow:
                fig = Figure(figsize=(PHONE_WIDTH_IN, PHONE_PANEL_IN), layout="constrained")
            else:
                fig = Figure(figsize=(WIDTH_IN, HEIGHT_IN), layout="constrained")
                fig.book_narrow = False
            try:
                draw(NarrowFigure(fig) if narrow else fig, runs, THEMES[theme_name])
            except PlotError:
                raise
            except Exception as e:  # the spec's own mistake: say which spec
                import traceback
                frames = [f for f in traceback.extract_tb(e.__traceback__) if f.filename == spec.path]
                where = f"{spec.path}:{frames[-1].lineno}" if frames else spec.path
                raise PlotError(f"{where}: draw() failed: {type(e).__name__}: {e}") from None
            if not fig.axes:
                raise PlotError(f"{spec.path}: draw() drew nothing")
            if not checked:  # once: the themes draw the same data
                _check_moves(spec, draw, fig, runs, theme_name)
                checked = True
            unread = [name for name, run in runs.items()
                      if not any(r.read for _, r in run.gpus)]
            if unread:
                raise PlotError(f"{spec.path}: draw() read nothing of the run(s) "
                                f"{', '.join(unread)} it declares in RUNS: a plot draws the "
                                "records the build hands it, not data of its own")
            tmp = out + ".tmp"
            metadata = {"Date": None} if fmt == "svg" else {"CreationDate": None}
            fig.savefig(tmp, format=fmt, metadata=metadata, transparent=(fmt == "svg"))
            os.replace(tmp, out)
