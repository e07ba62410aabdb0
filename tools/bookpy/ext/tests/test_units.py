# SPDX-License-Identifier: MIT
"""The extension's parsing and formatting, one function at a time."""
from __future__ import annotations

import os

import unicodedata

import pytest

from .conftest import BOOK, FIXTURE
from bookpy.ext.common import BookError, cap_text, load_json, resolve_key, source_path, visible_text
from bookpy.ext.exercises import split_markdown
from bookpy.ext.listings import describe_lines, extract, marker_list, parse_markers
from bookpy.ext.records import clocks_text, format_value, lookup_value, provenance_text, validate
from bookpy.records import schema as record_schema


# ---- listing markers -------------------------------------------------------------

def lines(text: str) -> list:
    return text.split("\n")


def test_markers_nested_regions_are_fine():
    src = lines("// [listing:outer]\na\n  // [listing:inner]\n  b\n  // [/listing:inner]\n"
                "// [/listing:outer]")
    assert parse_markers(src, "f.cpp") == {"inner": (3, 4), "outer": (1, 5)}


@pytest.mark.parametrize("text, message", [
    ("// [listing:a]\nx\n// [/listing:a]\n// [listing:a]\ny\n// [/listing:a]",
     "f.cpp:4: listing 'a' appears twice (first at lines 1-3)"),
    ("// [listing:a]\nx\n// [listing:a]\n// [/listing:a]",
     "f.cpp:3: listing 'a' is opened again before its close (opened at line 1)"),
    ("// [listing:a]\n// [listing:b]\n// [/listing:a]\n// [/listing:b]",
     "f.cpp:3: listing 'a' is closed while 'b', opened inside it at line 2, is still open"),
    ("x\n// [/listing:a]", "f.cpp:2: '[/listing:a]' closes no open listing"),
    ("// [listing:a]\nx", "f.cpp: listing 'a' opened at line 1 is never closed"),
    ("// [listing: a]\nx\n// [/listing:a]", "f.cpp:1: not a well-formed listing marker"),
    ("# [listing:a] trailing\nx", "f.cpp:1: not a well-formed listing marker"),
])
def test_markers_out_of_order_name_file_and_line(text, message):
    with pytest.raises(BookError) as e:
        parse_markers(lines(text), "f.cpp")
    assert message in str(e.value)


def test_a_comment_that_mentions_markers_is_no_marker():
    assert parse_markers(["// the [listing:...] markers appear in the book."], "f.cpp") == {}


def test_regions_are_joined_with_an_elision_and_dedented_together():
    src = lines("int f() {\n    // [listing:a]\n    int x = 1;\n    // [/listing:a]\n    g();\n"
                "    // [listing:b]\n    if (x) {\n        return x;\n    }\n    // [/listing:b]\n}")
    text, ranges = extract(src, ["a", "b"], "f.cpp", "cpp")
    assert text == "int x = 1;\n// ...\nif (x) {\n    return x;\n}"
    assert ranges == [(3, 3), (7, 9)]
    assert describe_lines(ranges) == "lines 3, 7\u20139"
    text, _ = extract(src, ["b"], "f.cpp", "cmake")
    assert text.startswith("if (x) {")


def test_an_unknown_or_empty_region_is_an_error():
    with pytest.raises(BookError, match="has no listing marker '\\[listing:zz\\]'"):
        extract(["// [listing:a]", "x", "// [/listing:a]"], ["zz"], "f.cpp", "cpp")
    with pytest.raises(BookError, match="listing 'a' \\(line 1\\) is empty"):
        extract(["// [listing:a]", "", "// [/listing:a]"], ["a"], "f.cpp", "cpp")


def test_marker_option_lists_names():
    assert marker_list("a, b") == ["a", "b"]
    for bad in ("a,,b", "a, a", ""):
        with pytest.raises(ValueError):
            marker_list(bad)


# ---- keys and paths ----------------------------------------------------------------

def test_chapter_relative_keys():
    assert resolve_key("ch01-execution-model", "div-sweep") == "ch01-execution-model/div-sweep"
    assert resolve_key("ch01-execution-model", "ch02-shared/x") == "ch02-shared/x"
    assert resolve_key("appendix-api", "ch01-execution-model/x") == "ch01-execution-model/x"
    # a section's page (chapters/<key>/NN-<name>.md) is its chapter's; another page of the folder is not
    assert resolve_key("ch01-execution-model/05-measuring", "div-sweep") == "ch01-execution-model/div-sweep"
    with pytest.raises(BookError, match="this page is not a chapter"):
        resolve_key("ch01-execution-model/notes", "div-sweep")
    with pytest.raises(BookError, match="this page is not a chapter"):
        resolve_key("appendix-api", "div-sweep")
    for bad in ("../x", "a/b/c", "ch01/..", "a b", "/x"):
        with pytest.raises(BookError):
            resolve_key("ch01-execution-model", bad)


def test_paths_stay_inside_the_source_tree(tmp_path):
    root = tmp_path / "repo"
    (root / "code").mkdir(parents=True)
    (root / "code" / "a.cpp").write_text("x")
    (root / "build").mkdir()
    (root / "code" / "out.txt").symlink_to("/etc/hostname")
    assert source_path(str(root), "code/a.cpp") == str(root / "code" / "a.cpp")
    assert source_path(str(root), str(root / "code" / "a.cpp")) == str(root / "code" / "a.cpp")
    for rel in ("/etc/hostname", "../../../etc/os-release", "code/out.txt", "code/../../x"):
        with pytest.raises(BookError, match="outside the repository's source tree"):
            source_path(str(root), rel)
    with pytest.raises(BookError, match="in the build folder"):
        source_path(str(root), "build/x.json", str(root / "build"))


# ---- text shown to the reader ----------------------------------------------------------

def test_control_characters_are_shown_visibly():
    shown = visible_text("a\x00b\x1b[31mc\x07d\te\r\nf\rg\x7f\x85")
    assert shown == "a\u2400b\u241b[31mc\u2407d\te\nf\u240dg\u2421\\x85"
    assert not any(ord(c) < 32 and c not in "\t\n" for c in shown)


def test_output_is_cut_at_the_stated_lines_and_bytes_with_a_note():
    text = "\n".join(f"line {i}" for i in range(1000))
    cut, note = cap_text(text, 10, 10_000)
    assert cut.split("\n") == [f"line {i}" for i in range(10)]
    assert "990 more lines" in note and "at most 10 lines" in note
    cut, note = cap_text(text, 10_000, 100)
    assert len(cut.encode()) <= 100 and cut.endswith("line 12") and "more lines" in note
    assert cap_text("short", 10, 100) == ("short", None)
    cut, note = cap_text("é" * 1000, 10, 101)  # one long line: cut inside it, at a character
    assert cut == "é" * 50 and note


# ---- records -------------------------------------------------------------------------

SCHEMA = record_schema.load_schema(os.path.join(BOOK, "record-schema.json"))


def record(**changes):
    r = {"schema": SCHEMA["version"], "name": "c/r", "command": ["r"], "exit_status": 0,
         "stdout": "", "stderr": "", "digest": "sha256:0",
         "results": {"x": {"value": 1.5, "unit": "ms"}},
         "inputs": {"hash": "h", "files": {}, "flags": "", "args": []},
         "provenance": {"cxx": "GNU 12.2.0", "date": "2026-11-30T15:00:00Z", "commit": "abc",
                        "host": "SECRET-HOST"}}
    r.update(changes)
    return r


def test_the_record_shape_comes_from_the_schema_file():
    validate(record(), "r.json", SCHEMA, gpu=False)
    for field in (f for f in SCHEMA["record"] if not f.endswith("?")):
        r = record()
        del r[field]
        with pytest.raises(BookError, match=f"r.json: field '{field}' is missing"):
            validate(r, "r.json", SCHEMA, gpu=False)
    with pytest.raises(BookError, match="field 'exit_status' should be integer"):
        validate(record(exit_status=True), "r.json", SCHEMA, gpu=False)
    with pytest.raises(BookError, match=r"field 'results\.x\.value' should be number, not string"):
        validate(record(results={"x": {"value": "1", "unit": "ms"}}), "r.json", SCHEMA, gpu=False)
    with pytest.raises(BookError, match=r"field 'provenance\.gpu_name' is missing"):
        validate(record(), "r.json", SCHEMA, gpu=True)
    with pytest.raises(BookError, match=f"the record has schema 9, .* describes schema {SCHEMA['version']} only"):
        validate(record(schema=9), "r.json", SCHEMA, gpu=False)
    # No schema of the past is read: a record made to look older than digests fails.
    old = record(schema=1)
    del old["digest"]
    with pytest.raises(BookError, match="the record has schema 1, "):
        validate(old, "r.json", SCHEMA, gpu=False)
    # A field the schema does not name is an error, at any depth, as bookrun says.
    with pytest.raises(BookError, match="r.json: field 'extra' is not in the record schema"):
        validate(record(extra=1), "r.json", SCHEMA, gpu=False)
    with pytest.raises(BookError, match=r"field 'results\.x\.extra' is not in the record schema"):
        validate(record(results={"x": {"value": 1.5, "unit": "ms", "extra": 1}}), "r.json", SCHEMA, gpu=False)


def test_a_type_with_nested_brackets_splits_only_at_its_top_level():
    """'object<A|B>|null' is two alternatives, not three: a '|' inside brackets
    belongs to the inner type."""
    schema = dict(SCHEMA, record={"schema": "integer", "m": "object<string|integer>|null"},
                  provenance_required={"always": [], "gpu": []})
    validate({"schema": SCHEMA["version"], "m": {"a": "x", "b": 1}}, "r.json", schema, gpu=False)
    validate({"schema": SCHEMA["version"], "m": None}, "r.json", schema, gpu=False)
    with pytest.raises(BookError, match=r"field 'm' should be object<string\|integer>\|null, not boolean"):
        validate({"schema": SCHEMA["version"], "m": True}, "r.json", schema, gpu=False)


def test_provenance_names_no_host():
    text = provenance_text(dict(record(), source="live"))
    assert "SECRET-HOST" not in text
    assert text == ("Ran live during this build on the build machine's CPU; built with g++ 12.2.0; "
                    "at commit abc on 2026-11-30 15:00 UTC.")


def test_provenance_of_a_gpu_recording():
    prov = dict(record()["provenance"], gpu_name="NVIDIA H200", compute_capability="9.0",
                sm_count="132", driver_version="580.82.07", driver_cuda_version="13.0",
                runtime_version="13.0", nvcc="13.0.88")
    text = provenance_text(dict(record(provenance=prov), source="recording", stale=False))
    assert text == ("Recorded on NVIDIA H200 (compute capability 9.0, 132 SMs), driver 580.82.07 "
                    "(CUDA 13.0), CUDA runtime 13.0; built with nvcc 13.0.88, g++ 12.2.0; at commit "
                    "abc on 2026-11-30 15:00 UTC; its inputs are unchanged since.")
    stale = provenance_text(dict(record(provenance=prov), source="recording", stale=True))
    assert stale.endswith("its inputs have changed since (see the note above).")


def test_provenance_shows_the_clocks_and_the_repeats_that_throttled():
    prov = dict(record()["provenance"], gpu_name="NVIDIA H200", compute_capability="9.0",
                sm_count="132", driver_version="580.82.07", driver_cuda_version="13.0",
                runtime_version="13.0", nvcc="13.0.88")

    def reading(sm, mask="0x0000000000000000"):
        return {"sm_mhz": sm, "mem_mhz": 2619, "throttle_reasons": mask}
    clocks = [{"start": reading(1980), "end": reading(1965)},
              {"start": reading(1410, "0x0000000000000004"), "end": reading(1755),
               "throttled": ["SW power cap"]},
              {"start": reading(1980), "end": reading(1980)}]
    r = dict(record(provenance=prov), source="recording", stale=False, clocks=clocks)
    validate(r, "r.json", SCHEMA, gpu=True)
    assert provenance_text(r) == (
        "Recorded on NVIDIA H200 (compute capability 9.0, 132 SMs), driver 580.82.07 (CUDA 13.0), "
        "CUDA runtime 13.0; built with nvcc 13.0.88, g++ 12.2.0; at commit abc on 2026-11-30 15:00 "
        "UTC; SM clock 1410\u20131980 MHz, memory clock 2619 MHz over its 3 repeats; repeat 2 of 3 "
        "ran while the GPU throttled: SW power cap; its inputs are unchanged since.")
    # Not read, in some repeats or all; not recorded at all (a record made before).
    some = [clocks[0], {"not_read": "nvidia-smi timed out after 10 s and was killed"}]
    assert clocks_text({"clocks": some}) == ("SM clock 1965\u20131980 MHz, memory clock 2619 MHz "
                                             "over its 2 repeats; clocks not read in repeat 2 of 2")
    assert clocks_text({"clocks": [some[1]]}) == \
        "clocks not read (nvidia-smi timed out after 10 s and was killed)"
    assert clocks_text(record()) == ""
    assert "clock" not in provenance_text(dict(record(provenance=prov), source="recording"))


def test_values_format():
    assert format_value(132.0, "") == "132"
    assert format_value(65536.0, "") == "65,536"  # one rule: a comma from four digits on
    assert format_value(2048, "") == "2,048"
    assert format_value(0.5, ".0%") == "50%"
    assert format_value(1234567.0, ",.0f") == "1,234,567"
    assert format_value(0.123456, "") == "0.123456"
    with pytest.raises(BookError, match="bad format"):
        format_value(1.0, "q")
    with pytest.raises(BookError, match="not a number"):
        format_value(True, "")


def test_json_files_name_file_and_line(tmp_path):
    p = tmp_path / "r.json"
    p.write_text('{\n  "a": 1,\n  oops\n}')
    with pytest.raises(BookError, match=r"r\.json:3: malformed JSON"):
        load_json(str(p), "run record")
    p.write_bytes(b'{"stdout": "\xff"}')
    with pytest.raises(BookError, match=r"r\.json: not UTF-8"):
        load_json(str(p), "run record")
    with pytest.raises(BookError, match="does not exist"):
        load_json(str(tmp_path / "none.json"), "run record")


# ---- exercise READMEs ---------------------------------------------------------------

def test_exercise_readme_is_split_at_its_second_level_headings():
    title, parts = split_markdown(lines("# Exercise 1: x\n\nDo it.\n\n## Hints\n\n- h\n"
                                        "```sh\n## not a heading\n```\n"
                                        "## Check yourself\nrun"), "R.md")
    assert title == "Exercise 1: x"
    assert parts[""] == (1, ["", "Do it.", ""])
    assert parts["Hints"] == (5, ["", "- h", "```sh", "## not a heading", "```"])
    assert parts["Check yourself"] == (11, ["run"])
    with pytest.raises(BookError, match="R.md:1: the first line should be the title"):
        split_markdown(["Exercise", "## Hints"], "R.md")


def test_value_of_a_check():
    record = {"results": {"a": {"value": 3.0, "unit": "ms"}},
              "checks": [{"id": "ratio", "value": 1.995, "ok": True}, {"id": "gone", "ok": False}]}
    assert lookup_value(record, "ch/x", "a") == 3.0
    assert lookup_value(record, "ch/x", "check:ratio") == 1.995
    with pytest.raises(BookError, match="no check 'nope' .*it has: ratio, gone"):
        lookup_value(record, "ch/x", "check:nope")
    with pytest.raises(BookError, match="check 'gone' of 'ch/x' computed no value"):
        lookup_value(record, "ch/x", "check:gone")
    with pytest.raises(BookError, match="has no result 'b'"):
        lookup_value(record, "ch/x", "b")


# ---- the glossary ----------------------------------------------------------------

def test_glossary_keeps_one_entry_per_term_and_plural_the_first_chapters():
    from types import SimpleNamespace
    from bookpy.ext.terms import GlossaryCollector, glossary_entries
    pages = {
        "chapters/ch03-reductions": [("bank conflicts", "term-bank-conflicts", "Step 2 pays."),
                                     ("Warp shuffle", "term-warp-shuffle", "A shuffle.")],
        "chapters/ch02-shared-memory": [("bank conflict", "term-bank-conflict", "Two lanes."),
                                        ("tile", "term-tile", "A tile.")],
        "chapters/appendix-api": [("tiles", "term-tiles", "The API's tiles.")],
        "chapters/ch01-execution-model": [("warp shuffles", "term-ws", "Shuffles."),
                                          ("lanes", "term-lanes", "Lanes.")],
        "chapters/ch09-removed": [("lane", "term-lane", "Not built.")],
    }
    env = SimpleNamespace(all_docs={d: 0 for d in pages if "removed" not in d})
    setattr(env, GlossaryCollector.attr, pages)
    got = [(t, d.split("/")[-1]) for t, d, _a, _s in glossary_entries(SimpleNamespace(env=env))]
    # a chapter before the appendix; the first chapter whichever form it uses; a page
    # not built counts for nothing
    assert got == [("bank conflict", "ch02-shared-memory"), ("lanes", "ch01-execution-model"),
                   ("tile", "ch02-shared-memory"), ("warp shuffles", "ch01-execution-model")]


# ---- hidden characters (bookpy.ext.hidden: Trojan Source, zero-width) -----------------

# Every code point the book refuses: the bidirectional embeddings, overrides and
# isolates, the Arabic letter mark and the directional marks, and the zero-width
# and invisible characters (each range as hidden.py documents it).
HIDDEN_POINTS = ([0x061C] + list(range(0x200B, 0x2010)) + list(range(0x202A, 0x202F))
                 + list(range(0x2060, 0x2065)) + list(range(0x2066, 0x206A)) + [0xFEFF])
# ... and every other format character (category Cf): the soft hyphen, U+180E,
# U+206A-206F, the interlinear annotations, the tags.
HIDDEN_POINTS += [c for c in range(0x110000) if unicodedata.category(chr(c)) == "Cf"
                  and c not in HIDDEN_POINTS]


@pytest.mark.parametrize("point", HIDDEN_POINTS, ids=lambda p: f"U+{p:04X}")
def test_every_hidden_character_is_found_where_it_is(point):
    from bookpy.ext.hidden import find
    line, col, name = find(f"ok\nif (a{chr(point)}) {{ paths = 2; }}")
    assert (line, col) == (2, 6)
    assert name.startswith(f"U+{point:04X} ")


@pytest.mark.parametrize("point", [0x200A, 0x2010, 0x2029, 0x202F, 0x2065, 0x2070, 0x00A0, 0x00B5],
                         ids=lambda p: f"U+{p:04X}")
def test_visible_neighbours_are_not_hidden(point):
    from bookpy.ext.hidden import find
    assert find(f"a{chr(point)}b") is None


# ---- settings ------------------------------------------------------------------------------------

def test_the_settings_are_one_typed_dataclass_and_each_is_read():
    """ext/config.py declares every Sphinx value book_<field>, typed by its default;
    book/conf.py sets only declared ones; and each is read by some module."""
    import dataclasses
    import glob
    from types import SimpleNamespace

    from bookpy.ext import config
    declared = []
    config.declare(SimpleNamespace(add_config_value=lambda *a, **k: declared.append((a, k))))
    names = [f"book_{f.name}" for f in dataclasses.fields(config.BookConfig)]
    assert [a[0] for a, _ in declared] == names
    assert all(k["types"] == (type(a[1]),) for a, k in declared)
    assert {a[0]: a[2] for a, _ in declared}["book_pdf"] == "html"
    conf = {"__file__": os.path.join(BOOK, "conf.py")}
    with open(conf["__file__"], encoding="utf-8") as f:
        exec(compile(f.read(), conf["__file__"], "exec"), conf)
    assert {k for k in conf if k.startswith("book_")} <= set(names)
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    sources = ""
    for path in glob.glob(os.path.join(here, "*.py")):
        if not path.endswith("config.py"):
            with open(path, encoding="utf-8") as f:
                sources += f.read()
    fns = {"book_plots_dir": "plots_dir(", "book_downloads_file": "downloads_file(",
           "book_site_file": "site_file("}
    unread = [n for n in names if n not in sources and fns.get(n, n) not in sources]
    assert not unread, f"declared but read by no module: {unread}"


# ---- the unit typed after a {value} (records.UnitsFromRecord) -----------------------

@pytest.mark.parametrize("typed, unit, spec, ok", [
    ("µs", "us", "", True), ("us", "us", "", True), ("ms", "ms", ".1f", True),
    ("TB/s", "TB/s", ".2f", True), ("bytes", "byte", ",.0f", True), ("%", "%", "", True),
    ("KiB", "KiB", "", True),
    ("ms", "us", "", False), ("µs", "ms", "", False), ("TB/s", "GB/s", "", False),
    ("GiB", "MiB", "", False), ("%", "ratio", "", False), ("µs", "ratio", "", False),
    ("ms", "", "", False), ("%", "fraction", ".0%", False),
])
def test_a_unit_typed_after_a_value_must_be_the_records(typed, unit, spec, ok):
    from bookpy.ext.records import unit_mismatch
    assert (unit_mismatch(typed, unit, spec) is None) == ok


def test_a_unit_the_record_does_not_give_is_an_error_at_its_line(tree):
    tree.write("repo/chapters/ch90-fixture.md",
               open(os.path.join(FIXTURE, "cases", "unit-mismatch.md"), encoding="utf-8").read())
    tree.edit_json("build/cy-tags.json", lambda d: d["tags"].pop("ch90-q1", None))
    _, warnings, _ = tree.sphinx()
    assert "ch90-fixture.md:4: ERROR: {value}`hello:ratio`: the text after it types 'µs', but the " \
           "record gives the figure in 'x' (no unit of time, rate, size or share)" in warnings
    # recorded in µs, the same sentence builds clean
    tree.edit_json("build/records/ch90-fixture/hello.json",
                   lambda d: d["results"]["ratio"].update(unit="us"))
    tree.touch_later("build/records/ch90-fixture/hello.json")
    _, warnings, _ = tree.sphinx()
    assert "ERROR" not in warnings, warnings


def _units_case(tree, body: str, unit: str = "us") -> str:
    """The fixture chapter as `body`, its run's ratio recorded in `unit`: the warnings."""
    tree.write("repo/chapters/ch90-fixture.md", "# 90. Fixture: units beside figures\n\n" + body)
    tree.edit_json("build/cy-tags.json", lambda d: d["tags"].pop("ch90-q1", None))
    tree.edit_json("build/records/ch90-fixture/hello.json",
                   lambda d: d["results"]["ratio"].update(unit=unit))
    tree.touch_later("build/records/ch90-fixture/hello.json")
    _, warnings, _ = tree.sphinx()
    return warnings


@pytest.mark.parametrize("body, message", [
    # a table's column header types the unit of the figures under it
    ("| step | time (ms) |\n|---|---|\n| 1 | {value}`hello:ratio` |\n",
     "ch90-fixture.md:5: ERROR: {value}`hello:ratio`: its column's header types 'ms', but the "
     "record gives the figure in 'us'"),
    ("| step | rate, TB/s |\n|---|---|\n| 1 | {value}`hello:ratio\\|.2f` |\n",
     "its column's header types 'TB/s', but the record gives the figure in 'us'"),
    # ... or its row's label does
    ("| | this GPU |\n|---|---|\n| kernel time (ms) | {value}`hello:ratio` |\n",
     "its row's label types 'ms', but the record gives the figure in 'us'"),
    # read as the reader reads it: across markup, NFKC-folded, without format characters
    ("It took {value}`hello:ratio` **ms**.\n", "the text after it types 'ms'"),
    ("It took *{value}`hello:ratio`* ms.\n", "the text after it types 'ms'"),
    ("It took {value}`hello:ratio`\u200b ms.\n", "the text after it types 'ms'"),
    ("It took {value}`hello:ratio` \uff4d\uff53.\n", "the text after it types 'ms'"),
    ("It took {value}`hello:ratio` milliseconds.\n", "the text after it types 'milliseconds'"),
    ("It took {value}`hello:ratio` msec.\n", "the text after it types 'msec'"),
    ("It took {value}`hello:ratio` times as long.\n", "the text after it types 'times'"),
    ("It spent {value}`hello:ratio` cycles.\n", "the text after it types 'cycles'"),
    # a unit typed before the figure (units-from-record, before it)
    ("Its time in ms: {value}`hello:ratio`.\n", "the text before it types 'ms'"),
    ("It took, in ms, {value}`hello:ratio`.\n", "the text before it types 'ms'"),
    ("Its time in ms came to {value}`hello:ratio`.\n", "the text before it types 'ms'"),
    ("In TB/s, it reached {value}`hello:ratio`.\n", "the text before it types 'TB/s'"),
    ("TB/s: {value}`hello:ratio`.\n", "the text before it types 'TB/s'"),
    ("The rate (TB/s) {value}`hello:ratio`.\n", "the text before it types 'TB/s'"),
    ("It read **GB/s** {value}`hello:ratio`.\n", "the text before it types 'GB/s'"),
    ("It took, in \uff4d\uff53, {value}`hello:ratio`.\n", "the text before it types 'ms'"),
    # one unit typed for several figures listed together is read as each one's
    ("They took {value}`hello:count` and {value}`hello:ratio` µs.\n",
     "ch90-fixture.md:3: ERROR: {value}`hello:count`: the text after {value}`hello:ratio`, which it is "
     "listed with, types 'µs', but the record gives the figure in 'x'"),
    ("They took {value}`hello:count`, {value}`hello:ratio` or {value}`hello:ratio` µs.\n",
     "ERROR: {value}`hello:count`: the text after {value}`hello:ratio`, which it is listed with, types 'µs'"),
    ("In µs, {value}`hello:ratio` and {value}`hello:count`.\n",
     "ERROR: {value}`hello:count`: the text before {value}`hello:ratio`, which it is listed with, "
     "types 'µs', but the record gives the figure in 'x'"),
])
def test_a_unit_the_reader_reads_beside_a_figure_is_the_records(tree, body, message):
    warnings = _units_case(tree, body)
    assert message in warnings, warnings


@pytest.mark.parametrize("body, unit", [
    ("| step | time (µs) |\n|---|---|\n| 1 | {value}`hello:ratio` |\n", "us"),
    ("| step | time (\u03bcs) |\n|---|---|\n| 1 | {value}`hello:ratio` |\n", "us"),
    ("| step | CUB's time / step 8's |\n|---|---|\n| 1 | {value}`hello:ratio` |\n", "ratio"),
    ("| step | µs per replay |\n|---|---|\n| 1 | {value}`hello:ratio` |\n", "us"),
    ("| step | share |\n|---|---|\n| 1 | {value}`hello:ratio\\|.0%` |\n", "fraction"),
    ("| | this GPU |\n|---|---|\n| shared memory per SM | {value}`hello:ratio` KiB |\n", "KiB"),
    ("It is {value}`hello:ratio` times its bound.\n", "ratio"),
    ("It ran {value}`hello:ratio` times.\n", "count"),  # a count of times: no unit
    ("It waits {value}`hello:ratio` cycles.\n", "cycles"),
    # a unit before a figure that is the record's, or that is no unit of this figure
    ("In µs, {value}`hello:ratio`.\n", "us"),
    ("At 16 bytes, {value}`hello:ratio` µs.\n", "us"),
    ("It took {value}`hello:ratio` µs, {value}`hello:ratio` µs again.\n", "us"),
    ("Kernel B: {value}`hello:ratio`.\n", "ratio"),
    ("It returns in seconds. Its ratio is {value}`hello:ratio`.\n", "ratio"),
    ("It is 2 × {value}`hello:ratio`, 3 times {value}`hello:ratio`.\n", "ratio"),
    ("The second {value}`hello:ratio` is a ratio.\n", "ratio"),
    ("It ran {value}`hello:count` repeats and took {value}`hello:ratio` µs.\n", "us"),
    ("From {value}`hello:ratio` to {value}`hello:ratio` µs.\n", "us"),
    # commas alone set a figure beside another (an apposition), not in a list with it
    ("It issued {value}`hello:count`, {value}`hello:ratio` times as many.\n", "ratio"),
])
def test_a_unit_beside_a_figure_that_is_the_records_builds_clean(tree, body, unit):
    warnings = _units_case(tree, body, unit)
    assert "ERROR" not in warnings, warnings


def test_a_label_unit_is_a_word_of_its_own_and_no_denominator():
    from bookpy.ext.readertext import normalise
    from bookpy.ext.records import LABEL_UNIT

    def units(label):
        return [m.group(1) or m.group(2) for m in LABEL_UNIT.finditer(normalise(label)[0])]
    assert units("CUB's time / step 8's") == []
    assert units("step 8 (µs per replay)") == [normalise("µs")[0]]  # the micro sign reads as μ
    assert units("reads per byte") == []
    assert units("time (ms), rate (TB/s)") == ["ms", "TB/s"]
    assert units("step(s) of kernel B") == [] and units("time (s)") == ["s"]
