# SPDX-License-Identifier: MIT
"""Check-yourself questions: every question has a test, every test a question.

    ```{check-yourself} <id>
    The question.
    +++
    The answer.
    ```

A question is a card; its answer folds until opened (HTML). In LaTeX the
question stays in place, numbered, and the answers are collected at the end of
its chapter, since a PDF cannot fold. The id is never shown to the reader.

The figures an answer states come from one place that both the page and the
test read: a run's record (``{value}``), or the question's entry in
``tests/<key>/answers.json`` (``{answer}`<name>```, the value ``<name>`` of
``{"<qid>": {"<name>": <number>}}``, optionally ``|format``), which its test
reads with ``book::test::answer(qid, name)`` and compares with the model or the
records. An answer that types a figure itself (a digit, or a number word such as
"three" or "twice", outside code) is an error at its line: changing the text
without the test, or the test without the text, fails the build. Code in an
answer (a code span, a fenced block) is no hiding place: a number in it (not
a digit inside a name, as in ``float4``) is a typed figure too, unless the code
is quoted as it stands in the chapter's own sources (``code/<key>/``), which the
build compiles: ``tid % (2 * stride)`` from the kernel. Edit the kernel and
the quote no longer matches: an error, at the answer's line.

The link to tests comes from ``${BUILD}/cy-tags.json`` (the invariant
questions-tested, docs/architecture.md: one Catch2 test per question), which the build
makes by asking every registered, built Catch2 program for its ``[cy:<id>]``
tags. The build fails for a question with no such test (at the question's
file:line), for a tagged test with no question (naming the test), and for two
questions with one id (at the second one's file:line). When the tests were not
built (the manifest's ``cy_tags`` is null) the build says so in one line and
marks no answer as tested.
"""
from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging

from .booknodes import check_answer, check_yourself
from .common import BookDirective, BookError, PerPageCollector, chapter_of, load_json
from .inline import role_line
from .manifest import manifest, read_manifest

if TYPE_CHECKING:
    from typing import Any

    from docutils.parsers.rst.states import Inliner
    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment

logger = logging.getLogger(__name__)
QID = re.compile(r"[a-z0-9][a-z0-9-]*")
#: A figure typed into an answer: a number (not a digit inside a name such as
#: H200 or float4), or a number word ("one" is left out: it is as often a
#: pronoun as a count).
TYPED_FIGURE = re.compile(
    r"(?<![\w.])\d|\b(zero|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
    r"fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|"
    r"eighty|ninety|hundred|thousand|million|billion|twice|thrice|half|halves|double[sd]?|"
    r"triple[sd]?|quadruple[sd]?|quarter|dozen)\b", re.I)
#: What an answer may hold besides prose: code, a role (its figure comes from elsewhere).
NOT_PROSE = re.compile(r"\{[a-z-]+\}`[^`]*`|``[^`]*``|`[^`]*`|\$[^$]*\$")
#: Code in an answer: a role (skipped: its figure comes from elsewhere) or a code span.
CODE_SPAN = re.compile(r"(\{[a-z-]+\})?(``|`)([^`]+?)\2")
#: A number in code: a literal, not a digit inside a name (float4, sm_90, H200).
CODE_FIGURE = re.compile(r"(?<![\w.])(0[xX][0-9a-fA-F]+|\d+(\.\d+)?)")
#: The chapter's own sources, which the build compiles: code quoted from them is code, not a figure.
SOURCE_SUFFIXES = (".cu", ".cuh", ".cpp", ".hpp", ".h", ".cc")


def answers_file(env: BuildEnvironment, docname: str) -> str | None:
    key = chapter_of(docname)
    if key is None:
        return None
    return os.path.join(env.config.book_source_root, "tests", key, "answers.json")


def typed_figure(lines: list[str]) -> tuple[int, str] | None:
    """(index, figure) of the first figure typed into answer lines, or None."""
    fence = False
    for i, line in enumerate(lines):
        if line.strip().startswith(("```", "~~~")):
            fence = not fence
            continue
        if fence:
            continue
        m = TYPED_FIGURE.search(NOT_PROSE.sub(" ", line))
        if m:
            return i, m.group(0)
    return None


def code_figures(lines: list[str]) -> list[tuple[int, str, str]]:
    """[(index, code, figure)]: each piece of code in answer lines (a code span,
    or a line of a fenced block) that holds a number, with its first number."""
    found, fence = [], False
    for i, line in enumerate(lines):
        if line.strip().startswith(("```", "~~~")):
            fence = not fence
            continue
        pieces = [line.strip()] if fence else [m.group(3).strip() for m in CODE_SPAN.finditer(line)
                                               if not m.group(1)]
        for code in pieces:
            m = CODE_FIGURE.search(code)
            if m:
                found.append((i, code, m.group(1)))
    return found


def chapter_sources(env: BuildEnvironment, docname: str) -> list:
    """The paths of the chapter's own sources (code/<key>/...)."""
    key = chapter_of(docname)
    if key is None:
        return []
    top = os.path.join(env.config.book_source_root, "code", key)
    paths = []
    for folder, dirs, files in os.walk(top):
        dirs.sort()
        paths += [os.path.join(folder, f) for f in sorted(files) if f.endswith(SOURCE_SUFFIXES)]
    return paths


def untied_code_figure(env: BuildEnvironment, docname: str, lines: list[str]) -> tuple[int, str, str] | None:
    """(index, code, figure) of the first code in an answer that holds a number
    and is not quoted from the chapter's sources, or None."""
    found = code_figures(lines)
    if not found:
        return None
    texts = []
    for path in chapter_sources(env, docname):
        env.note_dependency(path)
        with open(path, encoding="utf-8", errors="replace") as f:
            texts.append(" ".join(f.read().split()))
    for i, code, figure in found:
        if not any(" ".join(code.split()) in t for t in texts):
            return i, code, figure
    return None


def answer_role(name: str, rawtext: str, text: str, lineno: int, inliner: Inliner,
                options: dict[str, Any] | None = None,
                content: list[str] | None = None) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    """{answer}`<name>[|format]`: a figure of the enclosing question's answer,
    from tests/<key>/answers.json."""
    from .records import check_format, format_value
    env = inliner.document.settings.env
    qid = env.temp_data.get("book_cy_qid")
    key, _, spec = text.partition("|")
    try:
        if not qid:
            raise BookError(f"{{answer}}`{text}` is only for a check-yourself question's text")
        path = answers_file(env, env.docname)
        if path is None:
            raise BookError("{answer} is only for a chapter's questions (chapters/chNN-name.md)")
        env.note_dependency(path)
        data = load_json(path, "the answers' figures") if os.path.exists(path) else {}
        entry = data.get(qid, {}) if isinstance(data, dict) else {}
        if key not in entry:
            raise BookError(f"the answer to {qid} has no figure '{key}' in {path} (it has: "
                            f"{', '.join(entry) or 'none'}): give it there, and have the test "
                            f"read it with book::test::answer(\"{qid}\", \"{key}\")")
        value = entry[key]
        unit = value.get("unit") if isinstance(value, dict) else None
        value = value.get("value") if isinstance(value, dict) else value
        check_format(spec, unit)
        shown = format_value(value, spec)
    except BookError as e:
        line = role_line(inliner.document, lineno, "answer", text)
        msg = inliner.reporter.error(str(e), line=line)
        return [inliner.problematic(rawtext, rawtext, msg)], [msg]
    used = env.temp_data.setdefault("book_cy_used", set())
    used.add(key)
    return [nodes.inline(shown, shown, classes=["book-value", "book-answer-value"])], []


def load_tags(path: str) -> dict:
    """cy-tags.json's {"tags": {id: [{"test", "case"}]}}, checked."""
    data = load_json(path, "check-yourself tags")
    tags = data.get("tags") if isinstance(data, dict) else None
    if not isinstance(tags, dict) or not all(
            isinstance(v, list) and all(isinstance(t, dict) and "test" in t for t in v)
            for v in tags.values()):
        raise BookError(f"check-yourself tags {path}: should read "
                        '{"tags": {"<id>": [{"test": ..., "case": ...}]}}')
    return tags


class CheckYourself(BookDirective):
    required_arguments = 1
    has_content = True

    def run(self) -> list[nodes.Node]:
        qid = self.arguments[0]
        if not QID.fullmatch(qid):
            return self.fail(f"check-yourself id '{qid}' should be kebab-case (a-z, 0-9, '-')")
        lines = [line.strip() for line in self.content]
        if lines.count("+++") != 1:
            return self.fail(f"check-yourself '{qid}' needs one line '+++' between question and answer")
        cut = lines.index("+++")
        if not any(lines[:cut]) or not any(lines[cut + 1:]):
            return self.fail(f"check-yourself '{qid}' needs a question before '+++' and an answer after it")
        key = chapter_of(self.env.docname)
        answer_lines = list(self.content[cut + 1:])

        def answer_error(i: int, what: str) -> list:
            """An error at line i of the answer: check-yourself '<id>': <what>."""
            return [self.state.document.reporter.error(f"check-yourself '{qid}': {what}",
                                                       line=self.lineno + cut + 2 + i)]

        typed = typed_figure(answer_lines)
        if typed:
            i, figure = typed
            return answer_error(i, f"the answer types the figure '{figure}' itself: a figure an "
                                f"answer states comes from its test's answer values "
                                f"({{answer}}`name`, tests/{key}/answers.json, read by "
                                f"book::test::answer) or from a run ({{value}})")
        untied = untied_code_figure(self.env, self.env.docname, answer_lines)
        if untied:
            i, code, figure = untied
            return answer_error(i, f"the answer's code '{code}' holds the figure '{figure}', "
                                f"which no test checks: code in an answer is quoted as it stands "
                                f"in the chapter's sources (code/{key}/), or its figures are "
                                f"stated outside the code with {{answer}}`name` "
                                f"(tests/{key}/answers.json)")
        card = check_yourself(ids=[f"cy-{qid}"], qid=qid)
        card.source, card.line = self.env.doc2path(self.env.docname), self.lineno
        self.env.temp_data["book_cy_qid"] = qid
        self.env.temp_data["book_cy_used"] = set()
        try:
            self.state.nested_parse(self.content[:cut], self.content_offset, card)
            answer = check_answer()
            self.state.nested_parse(self.content[cut + 1:], self.content_offset + cut + 1, answer)
        finally:
            self.env.temp_data.pop("book_cy_qid", None)
            used = self.env.temp_data.pop("book_cy_used", set())
        unused = self._unused(qid, used)
        if unused:
            return [self.state.document.reporter.error(
                f"check-yourself '{qid}': tests/{chapter_of(self.env.docname)}/answers.json gives "
                f"its answer the figure(s) {', '.join(unused)}, which the answer never states "
                "({answer}`name`): state it, or remove it", line=self.lineno)]
        if self._tested(qid):
            answer += nodes.paragraph(text="A test in the book's suite checks this answer.",
                                      classes=["book-check-tested"])
        card += answer
        return [card]

    def _unused(self, qid: str, used: set) -> list:
        path = answers_file(self.env, self.env.docname)
        if not path or not os.path.exists(path):
            return []
        try:
            data = load_json(path, "the answers' figures")
        except BookError:
            return []
        return sorted(set(data.get(qid, {})) - used) if isinstance(data, dict) else []

    def _tested(self, qid: str) -> bool:
        try:
            m = manifest(self.env)
            if not m.cy_tags:
                return False
            self.env.note_dependency(m.cy_tags)
            return bool(load_tags(m.cy_tags).get(qid))
        except BookError:
            return False  # reported once, by check_tests


class QuestionCollector(PerPageCollector):
    """Per page: the questions it asks, [(id, line)], in env.book_questions."""
    attr = "book_questions"

    def found(self, doctree: nodes.document) -> list[tuple[str, int | None]]:
        return [(n["qid"], n.line) for n in doctree.findall(check_yourself)]


def check_tests(app: Sphinx, env: BuildEnvironment) -> None:
    questions = sorted((doc, line or 0, qid)
                       for doc, found in QuestionCollector.pages(env).items() for qid, line in found)
    first = {}
    for doc, line, qid in questions:
        if qid in first:
            fdoc, fline = first[qid]
            logger.warning(f"check-yourself id '{qid}' is used twice: first at "
                           f"{env.doc2path(fdoc)}:{fline}", location=(doc, line))
        else:
            first[qid] = (doc, line)
    try:
        m = read_manifest(app.config)
        if m.cy_tags is None:
            logger.info("check-yourself: the tests were not built (the manifest's cy_tags is null), "
                        "so no question is checked against a test and none is marked as tested")
            return
        tags, source = load_tags(m.cy_tags), f"among the registered, built tests ({m.cy_tags})"
    except BookError as e:
        logger.warning(str(e))
        return
    for qid, (doc, line) in sorted(first.items(), key=lambda kv: kv[1]):
        if not tags.get(qid):
            logger.warning(f"check-yourself '{qid}' has no Catch2 test tagged [cy:{qid}] {source}",
                           location=(doc, line))
    for qid in sorted(tags):
        if qid not in first:
            for t in tags[qid]:
                case = f" (TEST_CASE \"{t['case']}\")" if t.get("case") else ""
                logger.warning(f"test {t['test']}{case} is tagged [cy:{qid}], but no chapter asks "
                               f"the check-yourself question '{qid}'")


class NumberedQuestions(SphinxPostTransform):
    """HTML: each question of a page numbered, "Question N", as the PDF numbers
    it, its number a link to the question (so that a reader can point to it)."""
    default_priority = 60
    formats = ("html",)

    def run(self, **kwargs: Any) -> None:
        for n, card in enumerate(self.document.findall(check_yourself), 1):
            card["label"] = f"Question {n}"


class AnswersAtChapterEnd(SphinxPostTransform):
    """LaTeX: each question numbered in place, its answer moved to a section at
    the end of its chapter."""
    default_priority = 60  # after the {only} blocks are resolved (50)
    formats = ("latex",)

    def run(self, **kwargs: Any) -> None:
        cards = [c for c in self.document.findall(check_yourself)
                 if any(isinstance(a, check_answer) for a in c.children)]
        for k, (chapter, items) in enumerate(by_chapter(self.document, cards)):
            section = nodes.section(ids=[f"book-answers-{k}"], classes=["book-answers"])
            section += nodes.title(text="Answers to the check-yourself questions")
            for n, card in enumerate(items, 1):
                answer = next(c for c in card.children if isinstance(c, check_answer))
                # The question and its answer link to each other.
                q_id, a_id = f"book-question-{k}-{n}", f"book-answer-{k}-{n}"
                card["label"] = f"Question {n}"
                card.insert(0, nodes.target("", "", ids=[q_id]))
                answer.replace_self(pointer("The answer is at the end of the chapter.", a_id))
                section += nodes.target("", "", ids=[a_id])
                section += answer_head(f"Question {n}.", q_id)
                section.extend(answer.children)
            chapter += section


def by_chapter(document, found):
    """[(chapter, [node, ...])], the nodes (of document) grouped by the chapter
    they are in, in document order (for an answers section at each chapter's end)."""
    chapters = _chapters(document)
    groups: dict = {}
    for node in found:
        chapter = chapters.get(id(node), document)
        groups.setdefault(id(chapter), (chapter, []))[1].append(node)
    return list(groups.values())


def pointer(text, a_id, **attributes):
    """A paragraph whose text links to the answer at the chapter's end."""
    p = nodes.paragraph(**attributes)
    p += nodes.reference("", "", nodes.emphasis(text=text), refid=a_id, internal=True)
    return p


def answer_head(text, q_id, **attributes):
    """An answer's head at the chapter's end: its label and a link back to the question."""
    head = nodes.paragraph(classes=["book-answer-head"], **attributes)
    head += nodes.strong(text=text)
    head += nodes.Text(" ")
    head += nodes.reference("", "", nodes.emphasis(text="(back to the question)"), refid=q_id, internal=True)
    return head


def _chapters(document) -> dict:
    """id(node) -> the top section of the chapter the node is in. In LaTeX, pages
    are inlined into one tree, each inside a start_of_file node where its
    toctree was, and a chapter's section pages inside the chapter page's: a
    chapter is the top section of a page inlined by the root (its section pages'
    answers gather at its end, after its last page). Found from the top down:
    Sphinx inlines a page by its children alone, whose parent stays the page's
    own document."""
    from sphinx import addnodes
    owner: dict = {}

    def walk(node, chapter, inlined: int) -> None:
        if isinstance(node, addnodes.start_of_file):
            if inlined == 0:
                chapter = None  # a page the root inlines: a chapter of its own
            inlined += 1
        if isinstance(node, nodes.section) and chapter is None:
            chapter = node
        owner[id(node)] = chapter
        for child in node.children:
            walk(child, chapter, inlined)

    walk(document, None, 0)
    return owner
