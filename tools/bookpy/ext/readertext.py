"""The prose rules, checked on what the reader reads: every page's resolved
document, in every builder (HTML and LaTeX), after ``only`` blocks are decided.

Each block of published text is read: headings, paragraphs, list items, table
cells, admonitions, captions, glossary terms and definitions, an exercise's
README and hints, an image's alt text, and the words a diagram or plot draws
(the text of the SVG the build rendered: Mermaid labels, accTitle and
accDescr, a plot's titles, labels and legend). What the build writes itself
(a run's output, provenance, the build-info tables, listings) is not prose
and is left out (GENERATED). A figure a role prints is read as its role
("{value}"), so no recorded figure is ever mistaken for a typed one.

Before any rule the text is normalised: every Unicode format character
(category Cf) is an error where it stands and is dropped, then NFKC folds
look-alikes (a superscript two, a full-width digit, a ligature) into what
they read as. The book is English prose and C++: no language it publishes
needs a format character, so none is exempt.

The default is turned around:

- a numeral or a number word ("three", "twice", "half") in published text
  comes from a role, or its sentence is in the one reviewed file
  (book/reviewed-sentences.json), matched by the fingerprint of the whole
  normalised sentence: a changed sentence needs a new review;
- a sentence that compares (a broad lexicon and the grammar of comparison:
  "-er than", "as ... as", "times", "ahead", "behind", "trails", "beats",
  "outpaces", "percent", superlatives, ...) carries a {check}, in it or in
  the sentence right after, or is in the reviewed file.

A reviewed entry of a page this build wrote that matched no sentence is an
error too, so the file holds only sentences the book still prints.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import unicodedata
import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

from docutils import nodes
from docutils.transforms import Transform
from sphinx import addnodes
from sphinx.util import logging

if TYPE_CHECKING:
    from typing import Any

    from sphinx.application import Sphinx

logger = logging.getLogger(__name__)

#: Classes of the nodes the extension writes itself (outputs, provenance, tables
#: of the build): their figures come from records and files, not from an author.
GENERATED = {
    "book-value", "book-answer-value", "book-value-spread", "book-check-marker",
    "book-plot-provenance", "book-provenance", "book-run", "book-stale", "book-stale-value",
    "book-output", "book-output-tabled", "book-output-table", "book-output-cut", "book-output-raw",
    "book-raw", "book-run-command", "book-run-yourself", "book-listing", "book-source-link",
    "book-source-about", "book-download", "book-check-tested", "book-hidden-tests",
    "book-check-label", "book-num", "book-buildinfo", "book-buildinfo-table",
    "book-buildinfo-runs", "book-buildinfo-figures", "book-buildinfo-measured",
    "book-buildinfo-toolchain", "book-buildinfo-downloads", "book-exercise-about",
    "book-exercise-points",  # each test set's points and credit, from exercises.json
    "book-answer-head",
    # A run's state on a GPU (records.py): its commit and why it waits come from the
    # records and recordings/pending.json.
    "book-gpu-state",
    # The reader's GPU (tools/book mine): its figures, verdicts and findings come from
    # its records and the rule of bookpy.records.verdict, not from an author.
    "book-reader-verdict", "book-reader-finding", "book-buildinfo-reader",
    # A solution's notes (SOLUTION.md) show only in the instructor edition, which is
    # no reader's book; and the reviewed file, which the source archive ships to
    # readers, must hold none of their sentences.
    "book-solution",
    # The glossary's definitions are the chapters' defining sentences, copied by
    # terms.py: each is checked where it stands in its chapter.
    "book-glossary",
    "toctree-wrapper",
}
#: What a role prints stands in the sentence as the role's name; a check's mark, which
#: CheckMarkers takes out, as nothing (CheckPlaces notes where it stood).
ROLE_CLASSES = {"book-value": "{value}", "book-answer-value": "{answer}",
                "book-gpu-values": "{value}", "book-check-marker": "",
                # the reader's GPU's verdicts and findings (tools/book mine): the build's words
                "book-reader-verdict": "", "book-reader-finding": ""}

_NUMBER_WORDS = (
    "zero two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty "
    "ninety hundreds? thousands? millions? billions? trillions? dozens? twice thrice half halves "
    "halved halving double[sd]? doubling triple[sd]? tripling quadruple[sd]? quarters? "
    "thirds?").split()
#: Names that hold digits and state no figure: an identifier or a model with a digit
#: after a letter (H200, sm_90, float4, C++17), and a step, chapter, exercise,
#: question, figure or section by its number. "one" is English's determiner
#: ("one thread", "one of them") far more often than a figure, and is not read as one.
NAMES = re.compile(r"(?<![\w.])[A-Za-z_][\w+]*\d[\w.]*|(?<![\w])(?:steps?|chapters?|exercises?|"
                   r"questions?|figures?|sections?|listings?|appendix)\s+\d+(?:\.\d+)*"
                   r"(?:\s*(?:,|and|or|to|-|–)\s*\d+(?:\.\d+)*)*(?![\w.])", re.I)
#: Names that hold digits and state no figure: an identifier or a model with a digit
#: after a letter (H200, sm_90, float4, C++17), and a step, chapter, exercise,
#: question, figure or section by its number. "one" is English's determiner
#: ("one thread", "one of them") far more often than a figure, and is not read as one.
NAMES = re.compile(r"(?<![\w.])[A-Za-z_][\w+]*\d[\w.]*|(?<![\w])(?:steps?|chapters?|exercises?|"
                   r"questions?|figures?|sections?|listings?|appendix)\s+\d+(?:\.\d+)*"
                   r"(?:\s*(?:,|and|or|to|-|–)\s*\d+(?:\.\d+)*)*(?![\w.])", re.I)
NUMBER = re.compile(r"\d(?:[\d,.]*\d)?|(?<![\w])(?:" + "|".join(_NUMBER_WORDS) + r"|\w+fold)(?![\w])", re.I)

#: Adjectives and adverbs whose comparative or superlative compares figures; their
#: -er/-est forms (and the irregular ones below) are comparisons.
_BASES = ("fast slow quick high low big large small long short wide narrow cheap heavy light "
          "near close few great tight loose early late hard easy busy full dense lean slim "
          "strong weak steep flat deep tall brief swift rapid sharp poor rich").split()
_IRREGULAR = ("more most less least fewer fewest better best worse worst further furthest "
              "farther farthest greater greatest lesser").split()
_VERBS = (r"outpac\w*|outperform\w*|outrun\w*|outdo\w*|outstrip\w*|outscor\w*|overtak\w*|"
          r"beat(?:s|en|ing)?|trail(?:s|ed|ing)?|lag(?:s|ged|ging)?|"
          r"exceed\w*|surpass\w*|win(?:s|ning)?|won|dominat\w*|rival\w*|"
          r"double[sd]?|doubling|halve[sd]?|halving|triple[sd]?|speeds? up|slows? down")
_PHRASES = (r"than|times|ahead|behind|percent(?:age)?|per ?cent|%|×|fold|versus|vs|"
            r"compared|speed-?ups?|slow-?downs?|margin|"
            r"within|at least|at most|up to|no more|as much|as many|same as|"
            r"close to|near(?:ly)?|almost|roughly|approximately|"
            r"every size|all sizes|at every|twice|half|only because|far from")
_FORMS = sorted({b + ("r" if b.endswith("e") else "er") for b in _BASES}
                | {b + ("st" if b.endswith("e") else "est") for b in _BASES}
                | {b[:-1] + "ier" for b in _BASES if b.endswith("y")}
                | {b[:-1] + "iest" for b in _BASES if b.endswith("y")}
                | {b + b[-1] + "er" for b in ("big", "slim", "flat", "fat")}
                | {b + b[-1] + "est" for b in ("big", "slim", "flat", "fat")}
                | set(_IRREGULAR))
COMPARISON = re.compile(r"(?<![\w])(?:" + "|".join(_FORMS) + "|" + _VERBS + "|" + _PHRASES
                        + r"|as \w+(?:ly)? as|\w+er than)(?![\w])", re.I)
#: "rounded up to a multiple" is arithmetic, not "up to" a bound.
ROUNDED_UP = re.compile(r"(?i)\bround(?:s|ed|ing)?\s+up\s+to\b")
#: A word of the grammar of comparison the lexicon does not know ("zippier than"):
#: classified as a comparison, and named as unknown so the lexicon grows.
UNKNOWN_COMPARATIVE = re.compile(r"(?<![\w])(\w+(?:er|est))\s+(?:than|of all)(?![\w])", re.I)

#: A heading's own number (a chapter's "1. ", an exercise's "Exercise 3.2: "), which
#: the build's structure checks (structure.py, exercises.json), not a figure.
HEADING_NUMBER = re.compile(r"^(?:Exercise\s+)?\d+(?:\.\d+)*[.:]\s+")
SENTENCE_END = re.compile(r"(?<=[.!?])[\"'”’)\]]*\s+(?=[\"'“‘(\[]*[A-Z0-9{])")


def fingerprint(sentence: str) -> str:
    """The reviewed file's key of a sentence: its normalised text's SHA-256, 16 hex digits."""
    return hashlib.sha256(sentence.encode("utf-8")).hexdigest()[:16]


def normalise(text: str) -> tuple[str, list[str]]:
    """(text without format characters, NFKC-folded, spaces collapsed; the format
    characters found, each named)."""
    hidden = [f"U+{ord(c):04X} {unicodedata.name(c, 'format character')}"
              for c in text if unicodedata.category(c) == "Cf"]
    kept = "".join(c for c in text if unicodedata.category(c) != "Cf")
    return " ".join(unicodedata.normalize("NFKC", kept).split()), hidden


def sentences(text: str) -> list[str]:
    return [s for s in SENTENCE_END.split(text) if s.strip()]


def findings(text: str, allowed: set[str]) -> list[tuple[str, str, str]]:
    """(fingerprint, sentence, problem) for each sentence of a block of published
    text that breaks a rule; the problems of the format characters first."""
    out = []
    clean, hidden = normalise(text)
    for name in hidden:
        out.append(("", clean[:120], f"{name}: a format character makes the text read otherwise "
                    "than it is (Trojan Source, a hidden break in a figure); remove it"))
    parts = sentences(clean)
    for i, s in enumerate(parts):
        fp = fingerprint(s)
        if fp in allowed:
            continue
        plain = re.sub(r"\{(?:value|answer|check|code)\}", " ", s)
        plain = re.sub(r"(?<=\w)-(?=\w)", " ", plain)
        num = NUMBER.search(NAMES.sub(" ", plain))
        if num:
            out.append((fp, s, f"'{num.group()}' is typed, not printed by a role: read the figure "
                        "from its record ({value}) or its answer ({answer}), or review the sentence "
                        "into book/reviewed-sentences.json"))
            continue
        comp = COMPARISON.search(ROUNDED_UP.sub("rounded", plain))
        following = parts[i + 1] if i + 1 < len(parts) else ""
        if comp and "{check}" not in s and not following.startswith("{check}"):
            unknown = UNKNOWN_COMPARATIVE.search(plain)
            what = (f"'{unknown.group(1)}' (a comparative the lexicon does not know)"
                    if unknown and not COMPARISON.fullmatch(unknown.group(1)) else f"'{comp.group()}'")
            out.append((fp, s, f"{what} compares, and no {{check}} holds the sentence: add the "
                        "check, or review the sentence into book/reviewed-sentences.json"))
    return out


def _within(node: nodes.Node, classes: set[str]) -> bool:
    """Whether the node or one of its parents has one of the classes."""
    while node is not None:
        if isinstance(node, nodes.Element) and classes & set(node.get("classes", [])):
            return True
        node = node.parent
    return False


def _generated(node: nodes.Node) -> bool:
    return _within(node, GENERATED)


def _text(node: nodes.Node) -> str:
    """A block's text as the reader reads it, a role's output as the role's name."""
    if isinstance(node, nodes.Text):
        return str(node)
    if isinstance(node, nodes.Element):
        for cls in node.get("classes", []):
            if cls in ROLE_CLASSES:
                return ROLE_CLASSES[cls]
        if isinstance(node, nodes.literal):
            # Code quoted in prose: the listings' and answers' rules read code.
            return "{code}"
        if isinstance(node, (nodes.footnote_reference, nodes.citation_reference, nodes.label,
                             nodes.system_message, nodes.raw)):
            return ""
        return "".join(_text(c) for c in node.children)
    return ""


def _alnum(text: str) -> int:
    return sum(c.isalnum() for c in text)


def _top_block(node: nodes.Node) -> nodes.Element | None:
    """The outermost text block holding node."""
    top = None
    p = node.parent
    while p is not None:
        if isinstance(p, nodes.TextElement):
            top = p
        p = p.parent
    return top


SENTINEL = "\x00"


class CheckPlaces(Transform):
    """Before CheckMarkers takes each check's empty mark out, note where it stood
    in its block: as the count of letters and digits before it, which the later
    transforms (smart quotes, the line breaks taken out) leave unchanged."""
    default_priority = 209

    def apply(self) -> None:
        for mark in list(self.document.findall(nodes.inline)):
            if "book-check-marker" not in mark["classes"]:
                continue
            block = _top_block(mark)
            if block is None:
                continue
            # The block's text as the lint reads it (_text), the mark standing as a
            # sentinel, so that literals and roles count alike on both sides.
            sentinel, parent = nodes.Text(SENTINEL), mark.parent
            parent.replace(mark, sentinel)
            text = _text(block)
            parent.replace(sentinel, mark)
            block.setdefault("book_checks", []).append(_alnum(text[:text.index(SENTINEL)]))


def with_checks(text: str, places: list[int]) -> str:
    """text with "{check}" put back after the n-th letter or digit for each n."""
    for n in sorted(places, reverse=True):
        count, cut = 0, 0
        if n > 0:
            for i, c in enumerate(text):
                if c.isalnum():
                    count += 1
                    if count == n:
                        cut = i + 1
                        break
            else:
                cut = len(text)
        text = text[:cut] + " {check}" + text[cut:]
    return text


#: A plot's tick labels, which matplotlib writes from the data's range (groups
#: xtick_N, ytick_N): drawn from records, not typed.
TICKS = re.compile(r"^[xy]tick_\d+$")


#: The one format character a published input needs: Mermaid writes U+200B as the
#: whole text of a sequence message that has no label (an empty label, not a
#: hidden one). Anywhere else, and beside other text, it is refused.
MERMAID_EMPTY = "\u200b"


def svg_text(path: str) -> str:
    """The words an SVG draws (its text, title and description, a Mermaid label's
    HTML), not its styles."""
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError):
        return ""
    words = []

    def walk(el: ET.Element) -> None:
        tag = el.tag.rsplit("}", 1)[-1]
        if tag in ("style", "script") or TICKS.match(el.get("id", "")):
            return
        if el.text and el.text.strip() and el.text != MERMAID_EMPTY:
            words.append(el.text.strip())
        for child in el:
            walk(child)
            if child.tail and child.tail.strip():
                words.append(child.tail.strip())
    walk(root)
    return ". ".join(words)


def blocks(app: Sphinx, doctree: nodes.document) -> list[tuple[nodes.Node, str, str]]:
    """(node, what, text) for each block of published text of a resolved document."""
    out = []
    for node in doctree.findall(nodes.TextElement):
        if isinstance(node, (nodes.FixedTextElement, nodes.raw, nodes.system_message,
                             addnodes.desc_signature)):
            continue
        if isinstance(node.parent, nodes.TextElement) or _inside_block(node):
            continue
        if _generated(node):
            continue
        text = with_checks(_text(node), node.get("book_checks", []))
        if isinstance(node, nodes.title):
            text = HEADING_NUMBER.sub("", text)
        out.append((node, node.tagname, text))
    for image in doctree.findall(nodes.image):
        if _generated(image):
            continue
        if image.get("alt"):
            out.append((image, "alt text", image["alt"]))
        svg = image.get("candidates", {}).get("image/svg+xml")
        if svg:
            path = os.path.join(app.srcdir, svg)
            if os.path.exists(path):
                drawn = svg_text(path)
                if drawn and _in_plot(image):
                    # A plot draws its figures from the records it names (render_plot),
                    # and they change with the GPU it leads with: its numerals are read
                    # as printed by a role; its words still meet every rule.
                    drawn = NUMERAL.sub("{value}", unicodedata.normalize("NFKC", drawn))
                if drawn:
                    out.append((image, f"the drawing {os.path.basename(svg)}", drawn))
    return out


#: A numeral as a plot's text writes it (0.71, 3.18, 2^28 as 228, 1e-05).
NUMERAL = re.compile(r"(?<![\w.])[-+\u2212]?\d+(?:[.,]\d+)*(?:[eE][-+\u2212]?\d+)?(?!\w|\.\d)")


def _in_plot(node: nodes.Node) -> bool:
    return _within(node, {"book-plot"})


def _inside_block(node: nodes.Node) -> bool:
    p = node.parent
    while p is not None:
        if isinstance(p, nodes.TextElement):
            return True
        p = p.parent
    return False


def reviewed_path(app: Sphinx) -> str:
    """The reviewed file: book/reviewed-sentences.json of the source tree."""
    return os.path.abspath(app.config.book_reviewed_sentences or os.path.join(
        app.config.book_source_root, "book", "reviewed-sentences.json"))


def depend(app: Sphinx, docname: str, source: list[str]) -> None:
    """source-read: every page depends on the reviewed file (a review changes
    which of its sentences pass)."""
    if os.path.exists(reviewed_path(app)):
        app.env.note_dependency(reviewed_path(app))


def load_reviewed(app: Sphinx) -> dict[str, dict[str, Any]]:
    """fingerprint -> entry of the reviewed file; an entry whose sentence does
    not give its fingerprint is an error."""
    path = reviewed_path(app)
    if not os.path.exists(path):
        return {}
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    out = {}
    for page, entries in data.get("pages", {}).items():
        for n, e in enumerate(entries):
            fp, sentence, why = e.get("fingerprint", ""), e.get("sentence", ""), e.get("why", "")
            if fingerprint(sentence) != fp:
                logger.warning(f"{path}: {page}, entry {n + 1}: fingerprint {fp} is not its "
                               f"sentence's ({fingerprint(sentence)}): review the sentence again")
            if not why.strip():
                logger.warning(f"{path}: {page}, entry {n + 1}: no reason ('why') given")
            out[fp] = {**e, "page": page}
    return out


def lint(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """doctree-resolved: every rule on every block of the page this builder writes."""
    if "book_reviewed" not in app.__dict__:
        app.book_reviewed = load_reviewed(app)
    reviewed = app.book_reviewed
    used = app.__dict__.setdefault("book_reviewed_used", set())
    printed_on = app.__dict__.setdefault("book_reviewed_printed_on", {})
    written = app.__dict__.setdefault("book_reviewed_pages", set())
    written.add(docname)
    allowed = set(reviewed)
    said = set()
    for node, what, text in blocks(app, doctree):
        clean, _ = normalise(text)
        for s in sentences(clean):
            if fingerprint(s) in reviewed:
                used.add(fingerprint(s))
                printed_on.setdefault(fingerprint(s), set()).add(docname)
        for fp, sentence, problem in findings(text, allowed):
            if (fp, sentence, problem) in said:
                continue  # the same text twice (a figure's light and dark drawing)
            said.add((fp, sentence, problem))
            if fp:
                app.__dict__.setdefault("book_unreviewed", {})[fp] = {
                    "page": docname, "fingerprint": fp, "sentence": sentence, "problem": problem}
            fpnote = f" (fingerprint {fp})" if fp else ""
            where = node
            while where is not None and not where.line:
                where = where.parent
            logger.warning(f"{what}: {problem}{fpnote}: {sentence[:200]}",
                           location=where if where is not None else docname,
                           type="book", subtype="reader-text")


def stale(app: Sphinx, exception: Exception | None) -> None:
    """build-finished: a reviewed entry of a page written now that matched nothing."""
    if exception is not None or "book_reviewed" not in app.__dict__:
        return
    os.makedirs(app.doctreedir, exist_ok=True)
    unreviewed = app.__dict__.get("book_unreviewed", {})
    # For the reviewer: each sentence the rules stopped, whole, as an entry of the
    # reviewed file would hold it (the reason is the reviewer's to write).
    with open(os.path.join(app.doctreedir, "unreviewed-sentences.json"), "w", encoding="utf-8") as f:
        json.dump(sorted(unreviewed.values(), key=lambda e: (e["page"], e["fingerprint"])), f,
                  indent=1, ensure_ascii=False)
    if not app.config.book_reviewed_stale:
        return
    used = app.__dict__.get("book_reviewed_used", set())
    written = app.__dict__.get("book_reviewed_pages", set())
    for fp, e in sorted(app.book_reviewed.items()):
        if e.get("only") and not app.tags.has(e["only"]):
            continue  # printed only in another edition
        if e["page"] in written and fp not in used:
            logger.warning(f"book/reviewed-sentences.json: {e['page']}: the reviewed sentence "
                           f"{fp} is no longer printed; remove it: {e['sentence'][:160]}")
        on = app.__dict__.get("book_reviewed_printed_on", {}).get(fp, set())
        if on and e["page"] not in on:
            # An entry follows its sentence: filed under a page that does not print
            # it (a section moved to a page of its own), it would outlive the sentence.
            logger.warning(f"book/reviewed-sentences.json: {e['page']}: the reviewed sentence "
                           f"{fp} is printed on {', '.join(sorted(on))}, not on {e['page']}: "
                           f"file it under that page: {e['sentence'][:160]}")


def setup(app: Sphinx) -> None:
    # Its settings (config.py): book_reviewed_sentences, the file; book_reviewed_stale,
    # 1 where a reviewed sentence a written page no longer prints is an error (the
    # book's own build, build/html.py; not the extension's tests, which change a
    # fixture page at a time).
    app.add_transform(CheckPlaces)
    app.connect("source-read", depend)
    app.connect("doctree-resolved", lint)
    app.connect("build-finished", stale)
