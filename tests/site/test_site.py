# SPDX-License-Identifier: MIT
"""The site's Python parts, piece by piece (pytest). The whole
site is checked in a browser by check_site.py (test site.browser)."""
from __future__ import annotations

import glob
import json
import os
import re
import subprocess
import sys

import pytest

from bookpy import ROOT
from bookpy.build import html as build_html
from bookpy.build import plotting, render_diagram
from bookpy.ext import figures, navigation, outtables, runyourself, sourcelinks, theme


FURO = "/usr/lib/python3/dist-packages/furo/theme/furo"


# ---- the theme's assets ------------------------------------------------------------------------

def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return str(path)


def test_an_es_import_is_replaced_by_the_module_run_as_commonjs(tmp_path):
    write(tmp_path / "static/scripts/lib.js",
          "(function (root, f) { if (typeof exports === 'object') module.exports = f(); "
          "else root.Lib = f(); })(this, function () { return 42; });\n")
    main = write(tmp_path / "static/scripts/main.js", 'import Lib from "./lib.js";\nconsole.log(Lib);\n')
    out = theme.bundle_script(main)
    assert "import " not in out
    assert "var Lib = (function () {" in out and "return module.exports;" in out
    assert out.rstrip().endswith("console.log(Lib);")


def test_an_import_of_a_missing_file_or_of_a_module_is_an_error(tmp_path):
    main = write(tmp_path / "a.js", 'import X from "./gone.js";\n')
    with pytest.raises(theme.ThemeAssetError, match="gone.js, which does not exist"):
        theme.bundle_script(main)
    write(tmp_path / "m.js", "export default 1;\n")
    main = write(tmp_path / "b.js", 'import X from "./m.js";\n')
    with pytest.raises(theme.ThemeAssetError, match="itself an ES module"):
        theme.bundle_script(main)


def test_an_absolute_css_import_is_inlined_from_usr_share_or_named(tmp_path):
    write(tmp_path / "share/javascript/n/n.css", "html { line-height: 1.15; }\n")
    css = write(tmp_path / "t.css", "@import url(/javascript/n/n.css);\nbody { color: red; }\n")
    out = theme.inline_css_imports(css, roots=(str(tmp_path / "share"),))
    assert "@import" not in out and "line-height: 1.15" in out and "color: red" in out
    css = write(tmp_path / "u.css", "@import url(/javascript/none.css);\n")
    with pytest.raises(theme.ThemeAssetError, match="/javascript/none.css"):
        theme.inline_css_imports(css, roots=(str(tmp_path / "share"),))


def test_dark_rules_also_apply_for_a_dark_system_preference():
    css = ('.x { a: b; }\n@media not print {\n  body[data-theme="dark"] {\n    --c: #000; }\n'
           '  body[data-theme="dark"] .only-dark {\n    display: block; } }\n')
    out = theme.restore_auto_dark(css)
    added = out[len(css):]
    # A screen only: "not print and (...)" negates the whole query (every light
    # screen and every print would match).
    assert "@media screen and (prefers-color-scheme: dark)" in added
    assert "not print and" not in added
    assert 'body:not([data-theme="light"]) {\n    --c: #000; }' in added
    assert 'body:not([data-theme="light"]) .only-dark' in added
    assert theme.restore_auto_dark(out) == out  # a stylesheet that has them is unchanged


@pytest.mark.skipif(not os.path.isdir(FURO), reason="Debian's furo is not installed")
def test_debians_furo_is_fixed_whole():
    fixed = theme.fixed_assets([FURO])
    js, css = fixed["scripts/furo.js"], fixed["styles/furo.css"]
    assert not re.search(r"^\s*(import|export)\b", js, re.M)
    assert "var Gumshoe = (function () {" in js
    assert "if (item && isAtBottom()" in js
    assert "@import" not in css and "normalize.css" in css
    assert "prefers-color-scheme: dark" in css
    # a plain script: node parses it (where node is installed)
    node = subprocess.run(["node", "--check", "-"], input=js, text=True, capture_output=True) \
        if os.path.exists("/usr/bin/node") else None
    if node is not None:
        assert node.returncode == 0, node.stderr


# ---- figures ------------------------------------------------------------------------------------

def test_a_mermaid_source_describes_itself():
    src = "flowchart TB\n  accTitle: The title\n  accDescr: What it shows,\n  a --> b\n"
    assert figures.mermaid_description(src) == "The title. What it shows,"
    block = "sequenceDiagram\n  accDescr {\n    Two lines\n    of text\n  }\n"
    assert figures.mermaid_description(block) == "Two lines of text"
    assert figures.mermaid_description("flowchart TB\n a --> b\n") == ""
    assert figures.describe(" given  alt ", "own", []) == "given alt"
    assert figures.describe(None, "own", []) == "own"


def test_every_diagram_of_the_book_describes_itself():
    base = os.path.join(ROOT, "diagrams")
    for dirpath, _dirs, files in os.walk(base):
        for f in files:
            if f.endswith(".mmd"):
                with open(os.path.join(dirpath, f), encoding="utf-8") as fh:
                    text = fh.read()
                descr = figures.mermaid_description(text)
                assert len(descr.split()) >= 12, f"{f}: accTitle/accDescr too short for an alt text"


def test_the_divergence_figure_sends_odd_lanes_down_path_a():
    """diagrams/ch01-execution-model/divergence.mmd against div.cu: chooser & 1
    (odd lanes) takes path A, whose mask is 0xaaaaaaaa."""
    with open(os.path.join(ROOT, "code/ch01-execution-model/div.cu"), encoding="utf-8") as f:
        code = f.read()
    assert re.search(r"if \(chooser & 1u\) \{\s*for \(.*\) x = x \* 3u \+ 1u;", code)
    assert "Path A: x = 3x + 1" in code
    with open(os.path.join(ROOT, "diagrams/ch01-execution-model/divergence.mmd"), encoding="utf-8") as f:
        mmd = f.read()
    odd_mask = sum(1 << lane for lane in range(32) if lane % 2 == 1)
    even_mask = sum(1 << lane for lane in range(32) if lane % 2 == 0)
    assert re.search(rf"Path A, odd lanes, mask {odd_mask:#010x}", mmd)
    assert re.search(rf"Path B, even lanes, mask {even_mask:#010x}", mmd)


def test_an_svg_gets_its_drawing_size():
    render = render_diagram
    svg = ('<svg id="m" width="100%" xmlns="http://www.w3.org/2000/svg" style="max-width: 730px; '
           'background-color: transparent;" viewBox="-50 -10 730 550"><g/></svg>')
    out = render.sized_svg(svg)
    assert 'width="730" height="550"' in out and "max-width" not in out
    fixed = '<svg width="498" viewBox="0 0 498 622"><g/></svg>'
    assert render.sized_svg(fixed) == fixed


# ---- listings' links ---------------------------------------------------------------------------

class Config:
    book_repository_url = ""
    book_repository_ref = ""
    book_repository_line_url = ""


def test_a_listing_links_to_the_repository_or_to_the_local_page():
    c = Config()
    assert sourcelinks.repository_link(c, "code/a.cu", [(3, 9)]) is None
    c.book_repository_url = "https://github.com/o/r/"
    assert (sourcelinks.repository_link(c, "code/a.cu", [(3, 9)])
            == "https://github.com/o/r/blob/main/code/a.cu#L3-L9")
    c.book_repository_ref = "v1"
    assert sourcelinks.repository_link(c, "code/a.cu", [(3, 3)]) == "https://github.com/o/r/blob/v1/code/a.cu#L3"
    assert sourcelinks.repository_link(c, "code/a.cu", []) == "https://github.com/o/r/blob/v1/code/a.cu"
    c.book_repository_line_url = "{url}/-/blob/{ref}/{path}{lines}"
    assert sourcelinks.repository_link(c, "x", []) == "https://github.com/o/r/-/blob/v1/x"
    assert sourcelinks.local_link([(3, 9), (20, 22)]) == "?lines=3-9,20-22#L-3"
    assert sourcelinks.local_link([]) == ""


# ---- "Run it yourself" ----------------------------------------------------------------------------

def run_record(name, command, args, env=None, gpu="NVIDIA H200"):
    return {"name": name, "command": command, "inputs": {"args": args, "env": env or {}},
            "provenance": {"gpu_name": gpu, "compute_capability": "9.0" if gpu else "",
                           "commit": "0123456789ab"}}


def run_parts(record, text="", picked=False):
    return runyourself.run_yourself_parts(Config(), runyourself.run_yourself_node(record, text, picked))


def test_run_it_yourself_runs_the_program_where_tools_book_builds_it():
    p = run_parts(run_record("ch01-execution-model/div-first-launch-eager", ["div", "--first-launch"],
                             ["--first-launch"], {"CUDA_MODULE_LOADING": "EAGER"}))
    assert p["target"] == "ch01-execution-model.div"
    assert p["binary"] == "build/book/bin/ch01-execution-model/div"
    assert p["command"] == "CUDA_MODULE_LOADING=EAGER build/book/bin/ch01-execution-model/div --first-launch"
    assert p["shows"] == "" and p["gpu"] == "NVIDIA H200" and not p["sass"]


def test_run_it_yourself_under_a_sanitizer_names_the_program_not_the_tool():
    # The runner's command is the tool's; the program is the word before its own arguments.
    p = run_parts(run_record("ch02-shared-memory/stencil-branch-synccheck",
                             ["compute-sanitizer", "--tool", "synccheck", "stencil_barrier", "--branch", "--small"],
                             ["--branch", "--small"]), "sanitizer:synccheck", picked=True)
    assert p["target"] == "ch02-shared-memory.stencil_barrier"
    assert p["binary"] == "build/book/bin/ch02-shared-memory/stencil_barrier"
    assert p["command"] == ("compute-sanitizer --tool synccheck build/book/bin/ch02-shared-memory/stencil_barrier "
                            "--branch --small")
    assert "synccheck" in p["shows"] and "the lines the chapter picks" in p["shows"]


def test_run_it_yourself_of_a_kernels_sass_is_cuobjdump_on_the_binary():
    p = run_parts(run_record("ch03-reductions/reduce-sass", ["reduce_profile", "--profile-log2", "16"],
                             ["--profile-log2", "16"]), "sass:reduce_warp_block")
    assert p["command"] == "cuobjdump -sass build/book/bin/ch03-reductions/reduce_profile"
    assert p["sass"] and "reduce_warp_block" in p["shows"]


def test_run_it_yourself_refuses_a_command_that_does_not_end_with_the_programs_arguments():
    with pytest.raises(runyourself.BookError, match="does not end with the program's arguments"):
        run_parts(run_record("ch02-x/r", ["compute-sanitizer", "prog", "--a"], ["--b"]))


def test_run_it_yourself_of_every_recording_names_a_program_of_its_chapter():
    """Over every committed recording: the program named is one its chapter's
    CMakeLists.txt declares (book_program), built where the `book` preset
    builds (CMakePresets.json: the folder `tools/book build` fills)."""
    with open(os.path.join(ROOT, "CMakePresets.json"), encoding="utf-8") as f:
        presets = json.load(f)["configurePresets"]
    by_name = {p["name"]: p for p in presets}
    book = by_name["book"]
    binary_dir = book.get("binaryDir") or by_name[book["inherits"] if isinstance(book.get("inherits"), str)
                                                  else book["inherits"][0]]["binaryDir"]
    assert binary_dir.replace("${sourceDir}/", "").replace("${presetName}", "book") == runyourself.TOOLS_BOOK_BUILD
    import glob
    recordings = [f for f in glob.glob(os.path.join(ROOT, "recordings", "*", "*", "*.json"))
                  if not f.endswith(".volatile.json")]
    assert recordings
    programs = {}
    for path in recordings:
        key = os.path.basename(os.path.dirname(path))
        if key not in programs:
            with open(os.path.join(ROOT, "code", key, "CMakeLists.txt"), encoding="utf-8") as f:
                programs[key] = set(re.findall(r"^\s*book_program\(\s*([A-Za-z0-9_]+)", f.read(), re.M))
        with open(path, encoding="utf-8") as f:
            record = json.load(f)
        for text in [""] + sorted(record.get("texts", {})):
            p = run_parts(record, text)
            program = p["binary"].rsplit("/", 1)[1]
            assert p["target"] == f"{key}.{program}", path
            assert program in programs[key], f"{path}: {program} is no book_program of {key}"
            assert p["binary"] in p["command"].split(), path


def test_pages_are_read_again_when_the_extension_changes(tmp_path):
    """bookpy.build.html drops Sphinx's environment when the extension's code is not
    the code it was built with: pages read by the old extension (a "Run it
    yourself" the old code made) are never published as new."""
    repo, doctrees = tmp_path / "repo", tmp_path / "doctrees"
    write(repo / "tools/bookpy/ext/site.py", "A = 1\n")
    write(repo / "tools/bookpy/ext/tests/test_x.py", "B = 1\n")
    pickle = write(doctrees / "environment.pickle", "env")
    assert build_html.extension_changed(str(repo), str(doctrees))  # never recorded: read all
    assert not os.path.exists(pickle)
    build_html.record_extension(str(repo), str(doctrees))
    write(doctrees / "environment.pickle", "env")
    assert not build_html.extension_changed(str(repo), str(doctrees))
    write(repo / "tools/bookpy/ext/tests/test_x.py", "B = 2\n")  # the extension's tests do not count
    assert not build_html.extension_changed(str(repo), str(doctrees))
    assert os.path.exists(pickle)
    write(repo / "tools/bookpy/ext/site.py", "A = 2\n")
    assert build_html.extension_changed(str(repo), str(doctrees))
    assert not os.path.exists(pickle)


def test_the_index_lists_a_term_once_in_any_case_or_number():
    items = [("bank conflict", ([(0, "a.html#1")], [], None)), ("bank conflicts", ([(0, "b.html#2")], [], None)),
             ("banks", ([(0, "c.html#3")], [], None)), ("Shared memory", ([(0, "d.html#4")], [], None)),
             ("shared memory", ([(0, "e.html#5")], [], None)), ("SIMT", ([(0, "f.html#6")], [], None))]
    assert navigation.one_entry_per_term(items) == [
        ("bank conflict", ([(0, "a.html#1"), (0, "b.html#2")], [], None)), ("banks", ([(0, "c.html#3")], [], None)),
        ("shared memory", ([(0, "d.html#4"), (0, "e.html#5")], [], None)), ("SIMT", ([(0, "f.html#6")], [], None))]


# ---- plots ---------------------------------------------------------------------------------------

SPEC = '''"""A test plot."""
RUNS = ["sweep", "ch99-other/base"]
ALT = "A line through three points."


def draw(fig, runs, theme):
    ax = fig.add_subplot()
    xs, ys = zip(*runs["sweep"].series(r"t_w(\\d+)"))
    ax.plot(xs, ys, color=theme.colors[0])
    ax.axhline(runs["ch99-other/base"].result("ceiling"), color=theme.muted)
    ax.set_xlabel("waves")
'''


def spec_tree(tmp_path, text=SPEC):
    path = write(tmp_path / "diagrams/ch98-test/p.plot.py", text)
    rec = {"results": {"t_w1": {"value": 1.0, "unit": "ms"}, "t_w4": {"value": 3.0, "unit": "ms"},
                       "t_w2": {"value": 2.0, "unit": "ms"}}}
    base = {"results": {"ceiling": {"value": 2.5, "unit": "ms"}}}
    records = {"ch98-test/sweep": write(tmp_path / "r/sweep.json", json.dumps(rec)),
               "ch99-other/base": write(tmp_path / "r/base.json", json.dumps(base))}
    return path, records


def test_a_spec_is_read_without_running_it(tmp_path):
    path, _ = spec_tree(tmp_path)
    key = plotting.spec_key(str(tmp_path / "diagrams"), path)
    spec = plotting.read_spec(path, key)
    assert key == "ch98-test/p"
    assert spec.runs == ("ch98-test/sweep", "ch99-other/base")
    assert spec.names == ("sweep", "ch99-other/base")
    assert spec.alt == "A line through three points."


@pytest.mark.parametrize("text, message", [
    ("ALT = 'x'\ndef draw(f, r, t): pass\n", "no RUNS"),
    ("RUNS = []\nALT = 'x'\ndef draw(f, r, t): pass\n", ":1: RUNS must be a non-empty list"),
    ("RUNS = ['a/b/c']\nALT = 'x'\ndef draw(f, r, t): pass\n", ":1: run 'a/b/c' should read"),
    ("RUNS = ['a', 'a']\nALT = 'x'\ndef draw(f, r, t): pass\n", "named twice"),
    ("RUNS = ['a']\ndef draw(f, r, t): pass\n", "no ALT"),
    ("RUNS = ['a']\nALT = 'x'\n", "no function draw"),
    ("RUNS = ['a']\nALT = 'x'\ndef draw(f, r, t)\n  pass\n", ":3: not Python"),
    ("RUNS = [name]\nALT = 'x'\ndef draw(f, r, t): pass\n", ":1: RUNS must be a literal"),
])
def test_a_bad_spec_is_named_with_its_line(tmp_path, text, message):
    path = write(tmp_path / "diagrams/ch98-test/p.plot.py", text)
    with pytest.raises(plotting.PlotError, match=re.escape(message)):
        plotting.read_spec(path, "ch98-test/p")


def test_a_plot_is_drawn_for_both_themes_and_the_pdf_the_same_every_time(tmp_path):
    path, records = spec_tree(tmp_path)
    spec = plotting.read_spec(path, "ch98-test/p")
    outs = {"light.svg": str(tmp_path / "o/p.svg"), "dark.svg": str(tmp_path / "o/p-dark.svg"),
            "pdf": str(tmp_path / "o/p.pdf")}
    os.makedirs(tmp_path / "o")
    plotting.render(spec, plotting.load_runs(spec, records), outs)
    with open(outs["light.svg"], encoding="utf-8") as f:
        light = f.read()
    with open(outs["dark.svg"], encoding="utf-8") as f:
        dark = f.read()
    assert "<text" in light and "waves" in light
    assert plotting.THEMES["light"].colors[0] in light and plotting.THEMES["dark"].colors[0] in dark
    assert plotting.THEMES["dark"].colors[0] not in light
    with open(outs["pdf"], "rb") as f:
        assert f.read(5) == b"%PDF-"
    plotting.render(spec, plotting.load_runs(spec, records), {"light.svg": str(tmp_path / "o/again.svg")})
    with open(tmp_path / "o/again.svg", encoding="utf-8") as f:
        assert f.read() == light


TWO_PANELS = '''"""Two panels side by side."""
RUNS = ["sweep", "ch99-other/base"]
ALT = "Two panels."


def draw(fig, runs, theme):
    left, right = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1, 1.2]})
    left.plot(*zip(*runs["sweep"].series(r"t_w(\\d+)")))
    right.plot([1, 2], [2, runs["ch99-other/base"].result("ceiling")])
    left.set_title("narrow" if fig.book_narrow else "wide")
'''


def test_a_plots_phone_drawing_stacks_the_panels_drawn_side_by_side(tmp_path):
    path, records = spec_tree(tmp_path, TWO_PANELS)
    spec = plotting.read_spec(path, "ch98-test/p")
    outs = {"light.svg": str(tmp_path / "o/p.svg"), "phone.svg": str(tmp_path / "o/p-phone.svg"),
            "phone-dark.svg": str(tmp_path / "o/p-phone-dark.svg")}
    os.makedirs(tmp_path / "o")
    plotting.render(spec, plotting.load_runs(spec, records), outs)
    size = {}
    for name in outs:
        with open(outs[name], encoding="utf-8") as f:
            text = f.read()
        m = re.search(r'<svg[^>]* width="([0-9.]+)pt" height="([0-9.]+)pt"', text)
        size[name] = (float(m.group(1)) / 72, float(m.group(2)) / 72)
        assert ("narrow" in text, "wide" in text) == ((False, True) if name == "light.svg" else (True, False))
    assert size["light.svg"] == pytest.approx((plotting.WIDTH_IN, plotting.HEIGHT_IN))
    # as wide as a phone's column, as tall as two panels one above the other
    assert size["phone.svg"] == pytest.approx((plotting.PHONE_WIDTH_IN, 2 * plotting.PHONE_PANEL_IN))
    assert size["phone-dark.svg"] == size["phone.svg"]

    from matplotlib.figure import Figure
    fig = Figure(figsize=(plotting.PHONE_WIDTH_IN, plotting.PHONE_PANEL_IN))
    top, bottom = plotting.NarrowFigure(fig).subplots(1, 2, gridspec_kw={"width_ratios": [1, 1.2]})
    a, b = top.get_position(), bottom.get_position()
    assert a.y0 > b.y1 and a.x0 == pytest.approx(b.x0) and a.x1 == pytest.approx(b.x1)
    assert b.height > a.height  # the widths' ratios become the heights'


def test_a_plot_names_what_it_lacks(tmp_path):
    path, records = spec_tree(tmp_path, SPEC.replace('result("ceiling")', 'result("floor")'))
    spec = plotting.read_spec(path, "ch98-test/p")
    with pytest.raises(plotting.PlotError, match="run 'ch99-other/base' has no result 'floor'"):
        plotting.render(spec, plotting.load_runs(spec, records), {"light.svg": str(tmp_path / "x.svg")})
    assert not os.path.exists(tmp_path / "x.svg")
    path, records = spec_tree(tmp_path, SPEC.replace("ax.set_xlabel", "1 / 0\n    ax.set_xlabel"))
    spec = plotting.read_spec(path, "ch98-test/p")
    with pytest.raises(plotting.PlotError, match=r"p\.plot\.py:11: draw\(\) failed: ZeroDivisionError"):
        plotting.render(spec, plotting.load_runs(spec, records), {"light.svg": str(tmp_path / "x.svg")})


def test_render_plot_reports_at_the_spec(tmp_path):
    path, records = spec_tree(tmp_path, SPEC.replace('"sweep", ', '"sweep", "sweep", '))
    out = subprocess.run([sys.executable, "-m", "bookpy.build.render_plot", "runs", str(tmp_path), path],
                         capture_output=True, text=True)
    assert out.returncode == 1
    assert out.stderr.strip() == "diagrams/ch98-test/p.plot.py:2: error: a run is named twice in RUNS"


def student_markdown():
    from grader import student_markdown as sm
    return sm


def test_the_students_markdown_has_no_myst_roles():
    sm = student_markdown()
    out = sm.plain_markdown("over 2{sup}`28` values; γ{sub}`h` Σ|*x*{sub}`i`|; 2{sup}`k+1`, e{sup}`iπ`", "R.md")
    assert out in ("over 2²⁸ values; γₕ Σ|*x*ᵢ|; 2ᵏ⁺¹, e<sup>iπ</sup>",
                   "over 2²⁸ values; γₕ Σ|*x*ᵢ|; 2<sup>k+1</sup>, e<sup>iπ</sup>")
    assert "{" not in out
    with pytest.raises(sm.StudentMarkdownError, match=r"R\.md:2: the MyST role \{value\}"):
        sm.plain_markdown("fine\nsee {value}`run:x`", "R.md")
    with pytest.raises(sm.StudentMarkdownError, match=r"R\.md:1: a MyST directive \(\{note\}\)"):
        sm.plain_markdown("```{note}\nx\n```", "R.md")
    assert sm.student_bytes("a.cpp", b"2{sup}`28`", "a.cpp") == b"2{sup}`28`"  # only Markdown


def test_every_exercise_statement_reads_as_plain_markdown():
    sm = student_markdown()
    import glob
    readmes = glob.glob(os.path.join(ROOT, "exercises", "*", "*", "README.md"))
    assert readmes
    for path in readmes:
        with open(path, encoding="utf-8") as f:
            out = sm.plain_markdown(f.read(), path)
        assert not re.search(r"\{[a-z]+\}`", out), path


# ---- an output that is a table (outtables.py) ------------------------------------------------

def recorded_stdout(key_run: str) -> str:
    with open(os.path.join(ROOT, "recordings", "nvidia-h200", f"{key_run}.json"), encoding="utf-8") as f:
        return "\n".join(json.load(f)["stdout"])


def test_the_device_query_is_one_table_under_its_first_line():
    segments = [(kind, part) for kind, part in
                outtables.find_tables(recorded_stdout("ch01-execution-model/device-query"))
                if kind == "table" or any(line.strip() for line in part)]
    assert [kind for kind, _ in segments] == ["text", "table"]
    assert segments[0][1][0].startswith("GPU 0: NVIDIA H200")
    rows = segments[1][1]
    assert rows[0] == ["name", "value", "unit"]
    assert ["l2_mb", "60", "MiB"] in rows and len(rows) == 26


def test_prose_and_columns_run_together_stay_text():
    prose = ("uniform launch, one wave: 132 SMs used, at most 8 blocks each;\n"
             "  66 hold even blocks only, 66 odd blocks only\n"
             "divergent launch, one wave: 132 SMs used, at most 8 blocks each;\n"
             "  66 hold even blocks only, 66 odd blocks only")
    assert [kind for kind, _ in outtables.find_tables(prose)] == ["text"]
    # A header whose columns are one space apart ("ways cycles/load"): no column
    # can be told from the next, so the block stays as the program printed it.
    text = recorded_stdout("ch02-shared-memory/bank-conflicts")
    assert [kind for kind, _ in outtables.find_tables(text)] == ["text"]


def test_a_table_keeps_every_line_and_right_aligns_its_numbers():
    text = "title\n\nkernel  ms      note\nplain   0.50    a <b>\ntiled   10.25   -\n\nend"
    segments = outtables.find_tables(text)
    assert [kind for kind, _ in segments] == ["text", "table", "text"]
    assert segments[1][1] == [["kernel", "ms", "note"], ["plain", "0.50", "a <b>"], ["tiled", "10.25", "-"]]
    html_text = outtables.table_html(segments[1][1])
    assert '<th class="book-num">ms</th>' in html_text and '<td class="book-num">10.25</td>' in html_text
    assert "<td>a &lt;b&gt;</td>" in html_text and '<th>note</th>' in html_text


def test_a_sentence_above_a_table_is_not_its_header():
    tables = [part for kind, part in
              outtables.find_tables(recorded_stdout("ch03-reductions/warp-tail")) if kind == "table"]
    assert len(tables) == 1
    assert tables[0][0] == ["tail", "how the last warp adds", "blocks checked", "wrong sums"]
    # A header read word by word over the columns below it ("spread divergent ms").
    sweep = [part for kind, part in
             outtables.find_tables(recorded_stdout("ch01-execution-model/div-sweep")) if kind == "table"]
    assert sweep[0][0] == ["waves", "blocks", "uniform ms", "spread", "divergent ms", "spread", "ratio"]


def test_a_plot_gets_each_gpus_fresh_record_and_the_real_specs_draw_a_series_each(tmp_path):
    """plotting.load_runs hands a run's record on every GPU (Run.gpus: the build's own
    first; a stale one left out), and the book's plot specs draw one series per entry:
    a third GPU, given only as a record, is drawn with no change to them."""
    path, records = spec_tree(tmp_path)
    spec = plotting.read_spec(path, "ch98-test/p")
    other = {"results": {"t_w1": {"value": 2.0, "unit": "ms"}, "t_w4": {"value": 6.0, "unit": "ms"},
                         "t_w2": {"value": 4.0, "unit": "ms"}}}
    h100 = write(tmp_path / "r/h100.json", json.dumps(other))
    stale = write(tmp_path / "r/a100.json", json.dumps(dict(other, stale=True)))
    runs = plotting.load_runs(spec, records, {"ch98-test/sweep": [
        ("H200", records["ch98-test/sweep"]), ("H100", h100), ("A100", stale)]})
    sweep = runs["sweep"]
    assert [gpu for gpu, _ in sweep.gpus] == ["H200", "H100"]
    assert sweep.gpus[0][1] is sweep and sweep.gpus[1][1].result("t_w4") == 6.0
    assert [gpu for gpu, _ in runs["ch99-other/base"].gpus] == [None]
    # Every plot of the book, on its run's record and that record again as a third
    # GPU's: each draws the third GPU's series, named in the drawing. The record is the
    # first reference GPU's that has one; a run no reference GPU has recorded must be
    # declared pending on every one of them (its page shows that it awaits a run), and
    # its plot is drawn on its program's results by a test of its own below.
    drawn, waiting = 0, []
    for spec_path in sorted(glob.glob(os.path.join(ROOT, "diagrams", "*", "*.plot.py"))):
        spec = plotting.read_spec(spec_path, plotting.spec_key(os.path.join(ROOT, "diagrams"), spec_path))
        recs, per = {}, {}
        found = {name: _reference_recording(name) for name in spec.runs}
        if not all(found.values()):
            for name in (n for n, path in found.items() if not path):
                assert _pending_everywhere(name), \
                    f"{spec_path}: run {name} has no recording on any reference GPU and is not " \
                    "declared pending on each (recordings/pending.json)"
            waiting.append(spec_path)
            continue
        drawn += 1
        for name in spec.runs:
            rec = json.loads(open(found[name], encoding="utf-8").read())
            rec = {"results": rec["results"]}
            recs[name] = write(tmp_path / "book" / (name + ".json"), json.dumps(rec))
            third = write(tmp_path / "third" / (name + ".json"), json.dumps(rec))
            per[name] = [("H200", recs[name]), ("THIRD-GPU", third)]
        os.makedirs(tmp_path / "o", exist_ok=True)
        out = str(tmp_path / "o" / (os.path.basename(spec_path) + ".svg"))
        plotting.render(spec, plotting.load_runs(spec, recs, per), {"light.svg": out})
        with open(out, encoding="utf-8") as f:
            assert "THIRD-GPU" in f.read(), spec_path
    assert drawn >= 1, f"no plot of the book was drawn on a recording (waiting: {waiting})"


def _reference_gpus():
    with open(os.path.join(ROOT, "book", "gpus.json"), encoding="utf-8") as f:
        return [g["name"] for g in json.load(f)["gpus"]]


def _slug(gpu):
    return re.sub(r"[^a-z0-9]+", "-", gpu.lower()).strip("-")


def _reference_recording(name):
    """The recording of run <key>/<run> of the first reference GPU that has one, or None."""
    for gpu in _reference_gpus():
        path = os.path.join(ROOT, "recordings", _slug(gpu), name + ".json")
        if os.path.isfile(path):
            return path
    return None


def _pending_everywhere(name):
    with open(os.path.join(ROOT, "recordings", "pending.json"), encoding="utf-8") as f:
        run = json.load(f)["runs"].get(name)
    return bool(run and run.get("reason") and set(_reference_gpus()) <= set(run.get("gpus", [])))


def test_the_littles_law_plot_draws_each_gpus_points_line_and_knee_from_its_programs_results(tmp_path):
    """diagrams/ch04-latency/bandwidth-in-flight.plot.py on two records with the results
    littles_law.cu reports (their names and units; the values a fixture's, no GPU's): one
    series per GPU, each with its points by load width, its model line and its knee."""
    spec_path = os.path.join(ROOT, "diagrams", "ch04-latency", "bandwidth-in-flight.plot.py")
    spec = plotting.read_spec(spec_path, plotting.spec_key(os.path.join(ROOT, "diagrams"), spec_path))
    assert spec.runs == ("ch04-latency/littles-law",)
    with open(os.path.join(ROOT, "code", "ch04-latency", "littles_law.cu"), encoding="utf-8") as f:
        source = f.read()
    for name in ("ceiling_tbs", "lat_hbm_ns", "knee_bytes_per_sm", "sms"):
        assert f'book::report("{name}"' in source, name  # the names the spec reads are reported
    assert '"w" + std::to_string(p.warps) + "_k" + std::to_string(p.loads)' in source

    def record(scale):
        res = {"ceiling_tbs": (1.0 * scale, "TB/s"), "lat_hbm_ns": (400.0, "ns"),
               "knee_bytes_per_sm": (3000.0 * scale, "bytes"), "sms": (100.0, "SMs")}
        for warps in (4, 16):
            for loads in (1, 4):
                for width in (4, 16):
                    key = f"w{warps}_k{loads}_b{width}"
                    b = warps * 32 * loads * width
                    res[key + "_bytes_per_sm"] = (float(b), "bytes")
                    res[key + "_model_tbs"] = (min(scale, b * 100 / 400 / 1e3), "TB/s")
                    res[key + "_tbs"] = (0.8 * min(scale, b * 100 / 400 / 1e3), "TB/s")
        return {"results": {k: {"value": v, "unit": u} for k, (v, u) in res.items()}}

    name = "ch04-latency/littles-law"
    first = write(tmp_path / "a" / (name + ".json"), json.dumps(record(1.0)))
    second = write(tmp_path / "b" / (name + ".json"), json.dumps(record(1.4)))
    out = str(tmp_path / "plot.svg")
    plotting.render(spec, plotting.load_runs(spec, {name: first},
                                             {name: [("FIRST-GPU", first), ("SECOND-GPU", second)]}),
                    {"light.svg": out})
    with open(out, encoding="utf-8") as f:
        svg = f.read()
    assert "FIRST-GPU: 4-byte loads" in svg and "SECOND-GPU: 16-byte loads" in svg
    assert "Little&#39;s law" in svg or "Little's law" in svg


# ---- the source archive (check_source.py) -------------------------------------------------------

def _source_archive(tmp_path, names):
    import io
    import tarfile
    path = tmp_path / "how-gpus-run-code-0123456789ab.tar.gz"
    with tarfile.open(path, "w:gz") as t:
        for name in names:
            data = b"x\n"
            info = tarfile.TarInfo(f"how-gpus-run-code-0123456789ab/{name}")
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
    return path


BOOK_PARTS = ["CMakeLists.txt", "chapters/index.md", "code/common/x.cpp", "exercises/ch01-a/ex01-b/README.md",
              "tests/ch01-a/exercises/ex01-b/visible.test.cpp", "tools/book"]


@pytest.mark.parametrize("secret", ["solutions/ch01-a/ex01-b/SOLUTION.md",
                                    "tests/ch01-a/exercises/ex01-b/hidden.test.cpp",
                                    "tools/grader/tests/cases/x/case.json"])
def test_the_source_archive_holding_what_only_an_instructor_reads_fails(tmp_path, secret):
    import check_source
    archive = _source_archive(tmp_path, BOOK_PARTS + [secret])
    problems, _ = check_source.problems_of(archive, tmp_path / "work")
    assert problems == [f"how-gpus-run-code-0123456789ab/{secret}: only an instructor may read it"]


def test_the_reader_source_archive_passes_and_a_fixture_hidden_test_is_no_secret(tmp_path):
    import check_source
    fixture = "tests/book/fixtures/new-chapter/tests/ch99-fixture/exercises/ex01-round-up/hidden.test.cpp"
    archive = _source_archive(tmp_path, BOOK_PARTS + [fixture])
    problems, folder = check_source.problems_of(archive, tmp_path / "work")
    assert problems == [] and (folder / "tools/book").is_file()
    problems, _ = check_source.problems_of(_source_archive(tmp_path, BOOK_PARTS[1:]), tmp_path / "work2")
    assert problems == ["how-gpus-run-code-0123456789ab.tar.gz: holds no CMakeLists.txt"]
