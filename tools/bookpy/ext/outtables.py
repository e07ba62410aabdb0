# SPDX-License-Identifier: MIT
"""A program's output that is a table is shown as a table on the site.

Programs print tables as aligned columns of text. In the HTML book such a run
of lines becomes an HTML table (its cells never break, its wrapper scrolls
sideways where the page is narrower, as an output block does), the lines around
it stay text, and the output exactly as the program printed it is one click
away (a ``<details>`` after the table). The PDF keeps the text block.

A run of lines is a table when, over at least three consecutive lines:
- below the first line (the header), gaps of two or more character columns
  blank in every line split each line into the same three or more non-empty
  cells, and at least one column holds numbers;
- every word of the header lies over exactly one column (a word in a gap, or
  across two columns, would leave unclear which column it names), every column
  gets a word, and none is a number.

Tests: tests/site/test_site.py (``find_tables`` on the book's recorded outputs,
prose left alone) and tests/site/check_site.py (in the browser, at 1280 and
390 px: every row of an output table is one line, its raw text is there).
"""
from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform

from .common import literal

if TYPE_CHECKING:
    from typing import Any

#: A cell that is a number, as programs print them: 132, -0.5, 1.07, 4.9%,
#: 1.2e+03, 0x1f, 2^28, 3.2x.
NUMBER = re.compile(r"[-+]?(\d[\d,]*(\.\d+)?([eE][-+]?\d+)?|\.\d+|0x[0-9a-fA-F]+|\d+\^\d+)[%x]?")
#: Fewest lines, columns and share of numeric cells in a numeric column.
MIN_ROWS, MIN_COLUMNS, NUMERIC_SHARE = 3, 3, 0.8
#: Lines examined for one table at most (longer runs of lines are left as text).
MAX_ROWS = 400
#: What a numeric column may hold where it has no number.
PLACEHOLDERS = ("-", "n/a", "nan", "inf")


def _is_number(cell: str) -> bool:
    return bool(NUMBER.fullmatch(cell)) or cell in PLACEHOLDERS


def _numeric_columns(body: list[list[str]]) -> list[bool]:
    """For each column of the rows below a header: whether it holds numbers."""
    return [sum(_is_number(row[c]) for row in body) >= NUMERIC_SHARE * len(body)
            for c in range(len(body[0]))]


def _spans(lines: list[str]) -> list[tuple[int, int]]:
    """The character columns [a, b) of the table's columns: runs of text between
    gaps of at least two columns that are blank in every line."""
    width = max(len(line) for line in lines)
    padded = [line.ljust(width) for line in lines]
    blank = [all(p[i] == " " for p in padded) for i in range(width)] + [True, True]
    spans, start, gap = [], None, 0
    for i, b in enumerate(blank):
        if b:
            gap += 1
            if start is not None and gap >= 2:
                spans.append((start, i - 1))
                start = None
        else:
            if start is None:
                start = i
            gap = 0
    return spans


def _header(line: str, spans: list[tuple[int, int]]) -> list[str] | None:
    """The header's cells: each word under the column it overlaps. None where a
    word lies in a gap between columns or across two (which column it names is
    not clear), or a column gets no word."""
    cells: list[list[str]] = [[] for _ in spans]
    for m in re.finditer(r"\S+", line):
        over = [c for c, (a, b) in enumerate(spans) if m.start() < b and m.end() > a]
        if len(over) != 1:
            return None
        cells[over[0]].append(m.group())
    if any(not words for words in cells):
        return None
    return [" ".join(words) for words in cells]


def _cells(lines: list[str]) -> list[list[str]] | None:
    """The cells of lines that are aligned columns under a header (the first
    line), or None. The columns' gaps are blank in every line, or, where a
    header's words stand closer than the columns below them, in every line
    below the header (and each header word then lies over one column)."""
    for spans, header_from_words in ((_spans(lines), False), (_spans(lines[1:]), True)):
        if len(spans) < MIN_COLUMNS:
            continue
        width = max(len(line) for line in lines)
        rows = [[line.ljust(width)[a:b].strip() for a, b in spans] for line in lines]
        header = _header(lines[0], spans) if header_from_words else rows[0]
        body = rows[1:]
        # Every cell filled; none holding two columns run together; a header that
        # names its columns (no number in it); a column of numbers below it.
        if header is None or any(not cell or "  " in cell for row in body for cell in row):
            continue
        # (A header read word by word has no number among its words: such a
        # line is more likely a sentence about the table than its header.)
        if any(not cell or NUMBER.fullmatch(cell) for cell in header) or (
                header_from_words and any(NUMBER.fullmatch(w.strip(",;:()")) for c in header
                                          for w in c.split())):
            continue
        if any(_numeric_columns(body)):
            return [header] + body
    return None


def find_tables(text: str) -> list[tuple[str, object]]:
    """The output as segments in order: ("text", lines) and ("table", rows of
    cells, the first row the header). Where no table is found, one text segment."""
    lines = text.split("\n")
    segments: list[tuple[str, object]] = []
    plain: list[str] = []
    i = 0
    while i < len(lines):
        found = None
        if lines[i].strip():
            # The longest aligned run of non-blank lines starting here.
            end = i
            while end < len(lines) and lines[end].strip() and end - i < MAX_ROWS:
                end += 1
            for j in range(end, i + MIN_ROWS - 1, -1):
                rows = _cells(lines[i:j])
                if rows is not None:
                    found = (j, rows)
                    break
        if found is None:
            plain.append(lines[i])
            i += 1
            continue
        if plain:
            segments.append(("text", plain))
            plain = []
        segments.append(("table", found[1]))
        i = found[0]
    if plain:
        segments.append(("text", plain))
    return segments


def table_html(rows: list[list[str]]) -> str:
    """An output table: the header row, then the rows; a column of numbers
    (header included) right-aligned."""
    body = rows[1:]
    numeric = _numeric_columns(body)

    def row(cells: list[str], tag: str) -> str:
        num = ' class="book-num"'
        return "<tr>" + "".join(
            f"<{tag}{num if numeric[c] else ''}>{html.escape(cell)}</{tag}>"
            for c, cell in enumerate(cells)) + "</tr>"

    return (f'<div class="book-table-scroll"><table class="book-output-table">'
            f"<thead>{row(rows[0], 'th')}</thead><tbody>{''.join(row(r, 'td') for r in body)}"
            f"</tbody></table></div>\n")


class OutputTables(SphinxPostTransform):
    """On the HTML builders, an output block that holds a table (find_tables)
    becomes its text and tables in order, with the block as printed behind a
    reveal."""
    default_priority = 100
    formats = ("html",)

    def run(self, **kwargs: Any) -> None:
        for block in list(self.document.findall(nodes.literal_block)):
            classes = block.get("classes", [])
            if "book-output" not in classes or "book-output-cut" in classes:
                continue
            segments = find_tables(block.astext())
            if not any(kind == "table" for kind, _ in segments):
                continue
            box = nodes.container(classes=["book-output-tabled"])
            for kind, part in segments:
                if kind == "table":
                    box += nodes.raw("", table_html(part), format="html")
                    continue
                text = "\n".join(part).strip("\n")
                if text:
                    box += literal(text, "text", ["book-output"])
            box += nodes.raw("", '<details class="book-raw"><summary>The output as the program '
                                 "printed it</summary>\n", format="html")
            raw = block.deepcopy()
            raw["classes"].append("book-output-raw")
            box += raw
            box += nodes.raw("", "</details>\n", format="html")
            block.parent.replace(block, box)  # (replace_self would copy the block's classes)
