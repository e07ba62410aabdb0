# SPDX-License-Identifier: MIT
"""Every comparative sentence of the chapters carries a check.

    python3 -m bookpy.lint.claims_checked [--counts] CHAPTER.md|FOLDER...

A folder stands for every chapter in it (chNN-*.md), so a new chapter is
read without a change here.

A sentence that orders or bounds figures ("faster", "within a few percent",
"at most", "no conflicts", "every size") is a claim; the check role of the
book's extension ({check}`...`, tools/bookpy/ext/claims.py) makes the build
fail when the records make it false. This test reads each chapter's prose
(paragraphs, list items, captions, check-yourself questions and answers; not
code, outputs or directive options), cuts it into sentences, and lists each
sentence that holds a comparative word (COMPARATIVES) and no {check}, neither
in it nor right after its full stop. A sentence that compares no recorded
figure (a definition, advice, a fact about the hardware with its source) is
in ALLOWED with the reason; an entry that matches no sentence any more is an
error too, so the list stays small and true.

It also checks the chapters' own words to the reader: a sentence that asks
the reader to predict ("predict", "before you look") gives no answer in it
(no {value}).

Exit status 1 when a sentence is unchecked or an entry is stale; with
--counts, the counts per chapter are printed either way.
"""
from __future__ import annotations

import argparse
import os
import re
import sys

from ..chapters import all_chapter_files, key_of

#: Words and phrases that order or bound figures (case-insensitive, whole words).
COMPARATIVES = [
    r"faster", r"slower", r"quicker", r"as fast as", r"as slow as", r"as long as",
    r"times as (?:fast|slow|long|much|many)", r"longer than", r"shorter than", r"more than",
    r"less than", r"fewer", r"greater than", r"larger than", r"smaller than", r"higher",
    r"lower", r"better", r"worse", r"within (?:a few|a quarter|a factor|[0-9]|its bound|the bound)",
    r"at least", r"at most", r"no more than", r"no longer than", r"no faster", r"beats?", r"wins?",
    r"exceeds?", r"close to", r"closer", r"near the (?:copy|ceiling)", r"nearly", r"almost",
    r"about the same",
    r"the same (?:speed|pace|time:)", r"no (?:bank )?conflicts?", r"every size", r"all sizes",
    r"at every (?:size|radius)", r"every time", r"fastest", r"furthest", r"best", r"worst",
    r"twice as", r"doubles", r"in proportion", r"hold(?:s)? the copy's pace", r"dominates?",
    r"far from", r"reach(?:es)? (?:the copy|the ceiling|it)", r"gains little", r"hardly matters",
    r"little above", r"only because",
]
COMPARATIVE = re.compile(r"(?<![\w-])(?:" + "|".join(COMPARATIVES) + r")(?![\w-])", re.I)
CHECK = re.compile(r"\{check\}`")
VALUE = re.compile(r"\{(?:value|gpu-values)\}`")
PREDICT = re.compile(r"(?<![\w-])(?:predict|before you look)(?![\w-])", re.I)

#: Sentences that hold a comparative word but compare no recorded figure:
#: (chapter key, a piece of the sentence, why it needs no check).
ALLOWED = [
    ("ch03-reductions", "chosen from many noisy ratios is biased upward",
     "how the sweep measures (a maximum of noisy ratios is biased), no recorded figure"),
    ("ch01-execution-model", "in which `x` varies fastest",
     "the order of the linear thread id, no figure"),
    ("ch01-execution-model", "A block may be at most",
     "the device's limits as the record states them, compared with nothing"),
    ("ch01-execution-model", "for as long as it lives",
     "'as long as' of time, not a comparison"),
    ("ch01-execution-model", "costs a warp almost as much as all 32",
     "states the model's claim, which the next sentences test with checks"),
    ("ch01-execution-model", "as long as its slowest lane",
     "the arithmetic of a question, checked by its check-yourself test"),
    ("ch01-execution-model", "suffers less than the warp's efficiency suggests",
     "reports a source text's claim, which the next sentences refute with a check"),
    ("ch02-shared-memory", "as long as",
     "'as long as' of a condition (the reuse served on chip)"),
    ("ch02-shared-memory", "also exceeds a warp",
     "the radii the check runs against the warp and block sizes, set by its arguments"),
    ("ch02-shared-memory", "at least one of them writing",
     "the definition of a hazard (Compute Sanitizer documentation)"),
    ("ch02-shared-memory", "each far larger than the L2 cache",
     "the arrays' size (2^28 floats) set by the program, against chapter 1's L2 size"),
    ("ch03-reductions", "and keeps each variant's best at each size",
     "how the sweep picks a variant's row, no recorded figure"),
    ("ch03-reductions", "its SMs can add far faster than memory",
     "the arithmetic argument of the paragraph, no recorded figure"),
    ("ch03-reductions", "whichever is slower sets the pace",
     "how a batch's time is made up, no figure"),
    ("ch03-reductions", "has at least one working lane",
     "lanes counted from the code's condition, no recorded figure"),
    ("ch03-reductions", "computes an unsigned remainder in more than a dozen",
     "counted in the SASS the section shows (a recorded text, not a figure)"),
    ("ch03-reductions", "as an unsigned remainder of more than {answer}`remainder_over`",
     "the same count, in the answer to a question, which its test counts in the SASS"),
    ("ch03-reductions", "Above it floats are {answer}`spacing` apart",
     "IEEE 754 arithmetic, in the answer to a question, which its test checks (std::nextafter)"),
    ("ch03-reductions", "fewer lanes work, but all of them",
     "lanes counted from the code's indexing, no recorded figure"),
    ("ch03-reductions", "By the same rule step 1 has no conflicts",
     "the bank rule's prediction; the measured counts follow, each with its check"),
    ("ch03-reductions", "By the rule there are no conflicts left",
     "the bank rule's prediction; the measured count follows with its check"),
    ("ch03-reductions", "by the rule, no conflict",
     "the bank rule's prediction; the measured count follows with its check"),
    ("ch03-reductions", "at most *u* = 2",
     "the definition of unit roundoff (Higham)"),
    ("ch03-reductions", "floats are 2 apart",
     "IEEE 754 arithmetic, no recorded figure"),
    ("ch03-reductions", "the **depth** of the tree",
     "the depth is a longest chain by definition, and the figure is the record's"),
    ("ch03-reductions", "within the bound, and on whole numbers",
     "describes the correctness check's two kinds of input"),
    ("ch03-reductions", "The shape of the tree matters less than",
     "the chapter's lesson, drawn from the checked comparisons of section 3.2"),
    ("ch03-reductions", "the additions cost far less than the reading",
     "the arithmetic argument of section 3.1, no recorded figure"),
    ("ch03-reductions", "at least twice the L2 cache",
     "the benchmark's rotation of buffers, set by its code"),
    ("ch04-latency", "(at most half the free memory)",
     "how the program sizes its largest footprint (halved until it fits half the free memory)"),
    ("ch04-latency", "Fewer, wider loads also issue fewer instructions",
     "instructions counted from the code: one 16-byte load where four 4-byte ones were"),
    ("ch04-latency", "by NVIDIA's datasheet against 3.35 TB/s",
     "NVIDIA's datasheet figures, cited in Sources, no recorded figure"),
    ("ch04-latency", "If the two memories' latencies are about the same",
     "the model's prediction from the datasheets, under a stated condition; the records follow"),
    ("ch04-latency", "and the model's worst error over the sweep was",
     "names the record's figure model_worst_error, compares nothing"),
    ("ch04-latency", "With one chain per warp the best rate over every *w* was",
     "names the record's figures best_k1_of_peak and best_k2_of_peak, and says what a shortfall "
     "would mean, comparing nothing itself"),
    ("ch04-latency", "the best fraction of the read ceiling",
     "the closing note's list of the records' figures by name (worst error, best fraction)"),
    ("ch04-latency", "The issue that asked for the chapter set targets for those records",
     "the issue's targets as it set them, not a claim about the records (the next sentences say "
     "which of them the runs check)"),
    ("ch04-latency", "**The same bytes, fewer warps.**",
     "the title of a Try-it question: 16 warps against 64, by its own words"),
    ("ch04-latency", "times as many with the same warps",
     "the arithmetic of a question's answer, which its check-yourself test checks"),
]


def prose(path: str):
    """(line, text) of each prose line: paragraphs, list items, headings,
    captions and the bodies of check-yourself, diagram and plot directives;
    a blank (line, "") between blocks."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().splitlines()
    fence = None  # (marker, directive) while inside a fenced block
    for n, raw in enumerate(lines, 1):
        line = raw.strip()
        m = re.match(r"(`{3,}|~{3,})\s*(\{([\w-]+)\})?", line)
        if fence is None and m:
            fence = (m.group(1), m.group(3) or "code")
            yield n, ""
            continue
        if fence is not None:
            if line.startswith(fence[0]) and line.strip("`~") == "":
                fence = None
                yield n, ""
                continue
            if line.startswith(":caption:"):
                yield n, line[len(":caption:"):].strip().strip('"')
                yield n, ""
            elif line.startswith(":"):
                continue
            elif fence[1] in ("check-yourself", "diagram", "plot"):
                yield n, "" if line == "+++" else line
            continue
        if raw.startswith("    ") and not re.match(r"\s*([-*]|\d+\.)\s", raw) and not line:
            continue
        yield n, line


def sentences(path: str):
    """(line, sentence) of every sentence; a {check} right after a sentence's
    full stop belongs to that sentence."""
    blocks, current = [], []
    for n, text in prose(path):
        if not text or text.startswith("#") or text.startswith("|---"):
            if current:
                blocks.append(current)
            current = []
            if text.startswith("#"):
                blocks.append([(n, text)])
            continue
        current.append((n, text))
    if current:
        blocks.append(current)
    for block in blocks:
        joined, starts = "", []
        for n, text in block:
            starts.append((len(joined), n))
            joined += text + " "
        boundary = r"(?<=[.!?:])\s+(?=[A-Z*(\"“`])|(?<=[.!?])\s+(?=\{value\})"
        cuts = [0] + [m.end() for m in re.finditer(boundary, joined)]
        cuts.append(len(joined))
        pieces = []
        for a, b in zip(cuts, cuts[1:]):
            piece = joined[a:b].strip()
            if not piece:
                continue
            if pieces and piece.startswith("{check}`"):
                pieces[-1] = (pieces[-1][0], pieces[-1][1] + " " + piece)
                continue
            line = max(n for off, n in starts if off <= a)
            pieces.append((line, piece))
        yield from pieces


def arguments(doc: str, argv=None) -> tuple:
    """The command line of a prose lint (this one, typed_figures.py and
    recording_state.py): --counts and the chapters, each a file or a folder of
    chapters (every chapter's page and section pages, bookpy.chapters). Returns
    (args, the files); exits with status 1, saying so, where they hold no chapter."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0])
    ap.add_argument("--counts", action="store_true", help="print the counts per chapter")
    ap.add_argument("chapters", nargs="+")
    args = ap.parse_args(argv)
    paths = []
    for p in args.chapters:
        if os.path.isdir(p):
            paths += all_chapter_files(p)
        elif os.path.isfile(p):
            paths.append(p)
        else:
            ap.error(f"{p}: no such file or folder")
    if not paths:
        print(f"no chapter in {' '.join(args.chapters)}")
        raise SystemExit(1)
    return args, paths


def main(argv=None) -> int:
    args, paths = arguments(__doc__, argv)
    args.chapters = paths
    used = set()
    problems, rows = [], []
    for path in args.chapters:
        key = key_of(path) or os.path.splitext(os.path.basename(path))[0]
        comparative = checked = allowed = 0
        for line, s in sentences(path):
            if PREDICT.search(s) and VALUE.search(s):
                problems.append(f"{path}:{line}: a sentence that asks the reader to predict "
                                f"gives the answer in it: {s[:120]}")
            if s.rstrip().endswith("?") or s.startswith("#"):
                continue  # a question asserts nothing; a heading's claim is its section's
            words = COMPARATIVE.findall(re.sub(r"\{[\w-]+\}`[^`]*`", "", s))
            if not words:
                continue
            comparative += 1
            if CHECK.search(s):
                checked += 1
                continue
            if allowed_entry(ALLOWED, key, s, used):
                allowed += 1
                continue
            said = ", ".join(sorted(set(w.lower() for w in words)))
            problems.append(f"{path}:{line}: a comparative sentence ({said}) "
                            f"carries no {{check}}: {s[:160]}")
        rows.append((key, comparative, checked, allowed, comparative - checked - allowed))
    return finish(problems, rows, ("comparative", "checked", "allowed", "unchecked"), ALLOWED, used,
                  args.chapters, __file__, args.counts)


def allowed_entry(allowed: list, key: str, sentence: str, used: set) -> bool:
    """Whether an ALLOWED entry of chapter <key> (a piece of the sentence, and
    why it may stand) matches the sentence; the first that does is added to used
    (finish reports the entries no sentence used)."""
    hit = next((i for i, (k, piece, _) in enumerate(allowed) if k == key and piece in sentence), None)
    if hit is None:
        return False
    used.add(hit)
    return True


def finish(problems: list, rows: list, columns: tuple, allowed: list, used: set, paths: list,
           lint: str, counts: bool) -> int:
    """The end of a prose lint (this one and typed_figures.py): an ALLOWED entry of a
    chapter that was read and that matched no sentence is a problem; the table of
    counts per chapter (rows: the key, then one count per column) when asked or when
    something is wrong; the problems; the exit status."""
    seen = {key_of(p) or os.path.splitext(os.path.basename(p))[0] for p in paths}
    for i, (k, piece, _reason) in enumerate(allowed):
        if i not in used and k in seen:
            problems.append(f"{lint}: ALLOWED entry ({k}, '{piece}') matches no sentence any more")
    merged: dict = {}  # a chapter's pages counted as one chapter
    for key, *values in rows:
        merged[key] = [a + b for a, b in zip(merged.get(key, [0] * len(values)), values)]
    if counts or problems:
        print(f"{'chapter':28} " + "  ".join(columns))
        for key, values in merged.items():
            print(f"{key:28} " + "  ".join(f"{v:{len(c)}}" for v, c in zip(values, columns)))
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
