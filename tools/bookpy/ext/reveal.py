# SPDX-License-Identifier: MIT
"""Prediction made real: the answer to a "Try it" question, behind a reveal.

    :::{answer}
    It showed on {value}`stencil-barrier:nosync_delay1000_bad_launches` ...
    :::

HTML: a <details> the reader opens ("Show the answer") once they have made
their prediction; the PDF (which cannot fold) moves it to a section at the end
of its chapter, "Answers to Try it", as it does the check-yourself answers,
the question pointing there and the answer back (AnswersAtChapterEnd). A
directive with no content is an error naming the file and line.

In a "Try it" section (try_it_answers_hidden), each item of its lists is a
variation the reader predicts: an item that asks a question ('?') has its
answer behind a reveal, and no item shows a recorded figure or a run's output
outside its reveal, where the reader would read the answer before predicting.
Each is a warning (an error: Sphinx runs with -W) at the item's line.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes
from docutils.parsers.rst import Directive
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging

from .checkyourself import answer_head, by_chapter, pointer

if TYPE_CHECKING:
    from typing import Any

    from sphinx.application import Sphinx
    from sphinx.util.docutils import SphinxTranslator
    from sphinx.writers.html5 import HTML5Translator
    from sphinx.writers.latex import LaTeXTranslator

logger = logging.getLogger(__name__)
TRY_IT = "Try it"


class answer(nodes.General, nodes.Element):
    pass


class Answer(Directive):
    has_content = True
    optional_arguments = 0

    def run(self) -> list[nodes.Node]:
        if not "\n".join(self.content).strip():
            source, line = self.state_machine.get_source_and_line(self.lineno)
            raise self.error(f"{source}:{line}: an answer with nothing in it")
        node = answer(classes=["book-reveal"])
        self.state.nested_parse(self.content, self.content_offset, node)
        return [node]


def visit_answer_html(self: HTML5Translator, node: nodes.Element) -> None:
    self.body.append(self.starttag(node, "details", CLASS="book-reveal"))
    self.body.append("<summary>Show the answer</summary>\n")


def depart_answer_html(self: HTML5Translator, node: nodes.Element) -> None:
    self.body.append("</details>\n")


def visit_answer_latex(self: LaTeXTranslator, node: nodes.Element) -> None:
    self.body.append("\n\n\\noindent\\textbf{Answer.}\\enskip ")


def depart_answer_latex(self: LaTeXTranslator, node: nodes.Element) -> None:
    self.body.append("\n")


def visit_plain(self: SphinxTranslator, node: nodes.Node) -> None:
    pass


def _outside_answers(node):
    """The nodes of ``node`` that are not inside an answer."""
    if isinstance(node, answer):
        return
    yield node
    for child in node.children:
        if isinstance(child, nodes.Node):
            yield from _outside_answers(child)


def _item_line(item) -> int | None:
    for n in item.findall():
        if getattr(n, "line", None):
            return n.line
    return None


def try_it_answers_hidden(app: Sphinx, doctree: nodes.document) -> None:
    """doctree-read: in every "Try it" section, a question's answer is behind a
    reveal, and no figure or output of a run is shown before it."""
    docname = app.env.docname
    for section in doctree.findall(nodes.section):
        if not section.children or not isinstance(section[0], nodes.title) \
                or section[0].astext().strip().lower() != TRY_IT.lower():
            continue
        for items in section.children:
            if not isinstance(items, (nodes.enumerated_list, nodes.bullet_list)):
                continue
            for n, item in enumerate(items.children, 1):
                line = _item_line(item)
                outside = list(_outside_answers(item))
                shown = [x for x in outside if isinstance(x, nodes.Element) and (
                    "book-value" in x.get("classes", []) or "book-run" in x.get("classes", []))]
                if shown:
                    what = "a run's output" if "book-run" in shown[0]["classes"] else \
                        f"the recorded figure {shown[0].astext()}"
                    logger.warning(f"'Try it' item {n} shows {what} outside its answer: the reader "
                                   "reads it before predicting; move it into the item's :::{answer}",
                                   location=(docname, line))
                text = "".join(x.astext() for x in outside if isinstance(x, nodes.Text))
                if "?" in text and not any(True for _ in item.findall(answer)):
                    logger.warning(f"'Try it' item {n} asks a question but has no answer behind a "
                                   "reveal: add one with :::{answer}", location=(docname, line))


class AnswersAtChapterEnd(SphinxPostTransform):
    """LaTeX: each Try-it answer moved to a section at the end of its chapter,
    before the check-yourself answers (checkyourself.AnswersAtChapterEnd, 60)."""
    default_priority = 59
    formats = ("latex",)

    def run(self, **kwargs: Any) -> None:
        for k, (chapter, found) in enumerate(by_chapter(self.document, self.document.findall(answer))):
            section = nodes.section(ids=[f"book-try-it-answers-{k}"], classes=["book-try-it-answers"])
            section += nodes.title(text="Answers to Try it")
            for n, node in enumerate(found, 1):
                q_id, a_id = f"book-try-it-{k}-{n}", f"book-try-it-answer-{k}-{n}"
                # The build's own numbering (book-answer-head: not a figure of the prose).
                node.replace_self(pointer(f"Answer {n} is at the end of the chapter.", a_id, ids=[q_id],
                                          classes=["book-answer-head"]))
                section += answer_head(f"Answer {n}.", q_id, ids=[a_id])
                section.extend(node.children)
            chapter += section


def setup(app: Sphinx) -> None:
    app.add_post_transform(AnswersAtChapterEnd)
    app.connect("doctree-read", try_it_answers_hidden)
    plain = (visit_plain, visit_plain)
    app.add_node(answer, html=(visit_answer_html, depart_answer_html),
                 latex=(visit_answer_latex, depart_answer_latex), text=plain, man=plain, texinfo=plain)
    app.add_directive("answer", Answer)
