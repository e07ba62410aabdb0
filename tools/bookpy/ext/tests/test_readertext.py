"""The rules on what the reader reads (readertext.py), sentence by sentence:
each sentence a hostile author published past the Markdown lints is stopped,
and what a role prints, a name or a checked comparison is not."""
from __future__ import annotations

import pytest

from bookpy.ext import readertext as rt


def problems(text: str, allowed: frozenset = frozenset()) -> list[str]:
    return [p for _, _, p in rt.findings(text, set(allowed))]


@pytest.mark.parametrize("text, word", [
    ("Step 8 outpaces CUB, and CUB trails it.", "outpaces"),
    ("CUB trails step 8 {value}.", "trails"),
    ("Step 8 is faster-than-CUB here.", "faster"),
    ("Step 8 beats CUB at every size.", "beats"),
    ("Against CUB, which step 8 beats at every size", "beats"),
    ("The copy runs well ahead of the kernel.", "ahead"),
    ("The kernel falls behind the copy.", "behind"),
    ("It takes as long as the copy does at {value}.", "as long as"),
    ("Step 8 is zippier than CUB.", "zippier"),
    ("The kernel is the slowest of the steps.", "slowest"),
    ("It reads up to the copy's rate.", "up to"),
    ("Step 8 is fa\u00adster than CUB.", "faster"),
])
def test_a_comparison_needs_a_check(text: str, word: str) -> None:
    found = problems(text)
    assert found and f"'{word}" in found[-1] and "compares" in found[-1], found


@pytest.mark.parametrize("text, figure", [
    ("CUB is three times as quick as step 8.", "three"),
    ("It reaches 99 percent of the copy.", "99"),
    ("The copy reads at 4.9 TB/s.", "4.9"),
    ("Why is step 8 twice as fast as CUB at {value}?", "twice"),
    ("The H200 has 144 such SMs.", "144"),
    ("Each SM holds 256 KB of shared memory.", "256"),
    ("Step 8 beats CUB by 2.3 times at every size.", "2.3"),
    ("The copy reads at \uff14.\uff19 TB/s.", "4.9"),      # full-width digits, NFKC
    ("The copy reads at 4\u200b.9 TB/s.", "4.9"),          # a zero-width space inside
    ("Step 8 is {value} ms, within 5.3 of it {check}.", "5.3"),  # a check gives no permission
])
def test_a_typed_figure_is_refused(text: str, figure: str) -> None:
    found = problems(text)
    assert any(f"'{figure}' is typed" in p for p in found), found


@pytest.mark.parametrize("text", [
    "Step 8 takes {value} and CUB {value}, faster {check}.",
    "Step 8 is faster than CUB. {check} It reads {value}.",
    "The H200 runs sm_90 code from C++17 sources.",
    "Step 8 launches one block per tile.",
    "Chapter 3 and exercise 2.3 return to it.",
    "A warp runs its lanes together.",
    "Write {code}: {code} rounded up to a multiple of {code}.",
])
def test_what_passes(text: str) -> None:
    assert problems(text) == []


def test_a_reviewed_sentence_passes_only_as_it_was_reviewed() -> None:
    s = "The H200 has 132 SMs, as its whitepaper says."
    assert problems(s, frozenset({rt.fingerprint(s)})) == []
    changed = s.replace("132", "144")
    assert problems(changed, frozenset({rt.fingerprint(s)}))


def test_every_format_character_is_refused() -> None:
    for ch in ("\u00ad", "\u061c", "\u180e", "\u200b", "\u202e", "\u2066", "\ufeff", "\U000e0001"):
        found = problems(f"A warp{ch} runs.")
        assert found and "a format character" in found[0], (hex(ord(ch)), found)


def test_a_drawing_s_words_are_read_but_not_its_ticks(tmp_path) -> None:
    svg = tmp_path / "d.svg"
    svg.write_text('<svg xmlns="http://www.w3.org/2000/svg"><style>.a{x:1}</style>'
                   '<g id="xtick_1"><text>28</text></g><text>256 KB per SM</text></svg>')
    assert rt.svg_text(str(svg)) == "256 KB per SM"


def test_a_check_stands_where_its_mark_stood_after_code_and_roles() -> None:
    from docutils import nodes
    from docutils.frontend import get_default_settings
    from docutils.parsers.rst import Parser
    from docutils.utils import new_document

    doc = new_document("<test>", get_default_settings(Parser))
    para = nodes.paragraph()
    para += nodes.Text("Step 8 reads ")
    para += nodes.literal("float4x", "float4x")
    para += nodes.Text(" at ")
    para += nodes.inline("4.9", "4.9", classes=["book-value"])
    para += nodes.Text(" TB/s, faster")
    mark = nodes.inline("", "", classes=["book-check-marker"])
    para += mark
    para += nodes.Text(", and the copy more.")
    doc += para
    rt.CheckPlaces(doc).apply()
    para.remove(mark)  # as CheckMarkers does
    text = rt.with_checks(rt._text(para), para["book_checks"])
    assert text == "Step 8 reads {code} at {value} TB/s, faster {check}, and the copy more."


def test_a_plots_numerals_are_read_as_drawn_from_its_records_and_a_diagrams_are_not():
    """A plot draws its figures from the records it names, and they change with the
    lead GPU; a diagram's figures are typed by its author."""
    from docutils import nodes
    import unicodedata
    from bookpy.ext import readertext
    plot = nodes.figure(classes=["book-plot"])
    in_plot = nodes.image()
    plot += in_plot
    diagram = nodes.figure()
    in_diagram = nodes.image()
    diagram += in_diagram
    assert readertext._in_plot(in_plot) and not readertext._in_plot(in_diagram)
    drawn = "TB/s at 2\u00b2\u2078 floats. read ceiling 3.18. step 8 beats CUB"
    masked = readertext.NUMERAL.sub("{value}", unicodedata.normalize("NFKC", drawn))
    assert "3.18" not in masked and "228" not in masked
    problems = [p for _, _, p in readertext.findings(masked, set())]
    assert not any("is typed" in p for p in problems)
    assert any("compares" in p for p in problems)  # its words still meet every rule
    assert any("is typed" in p for _, _, p in readertext.findings(drawn, set()))
