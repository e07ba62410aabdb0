"""Prediction made real: the answer to a "Try it" question, behind a reveal.

    :::{answer}
    It showed on {value}`stencil-barrier:nosync_delay1000_bad_launches` ...
    :::

HTML: a <details> the reader opens ("Show the answer") once they have made
their prediction; the PDF (which cannot fold) sets it in place after the
question, headed "Answer". A directive with no content is an error naming
the file and line.
"""
from __future__ import annotations

from docutils import nodes
from docutils.parsers.rst import Directive


class answer(nodes.General, nodes.Element):
    pass


class Answer(Directive):
    has_content = True
    optional_arguments = 0

    def run(self):
        if not "\n".join(self.content).strip():
            source, line = self.state_machine.get_source_and_line(self.lineno)
            raise self.error(f"{source}:{line}: an answer with nothing in it")
        node = answer(classes=["book-reveal"])
        self.state.nested_parse(self.content, self.content_offset, node)
        return [node]


def visit_answer_html(self, node):
    self.body.append(self.starttag(node, "details", CLASS="book-reveal"))
    self.body.append("<summary>Show the answer</summary>\n")


def depart_answer_html(self, node):
    self.body.append("</details>\n")


def visit_answer_latex(self, node):
    self.body.append("\n\n\\noindent\\textbf{Answer.}\\enskip ")


def depart_answer_latex(self, node):
    self.body.append("\n")


def visit_plain(self, node):
    pass


def setup(app) -> None:
    plain = (visit_plain, visit_plain)
    app.add_node(answer, html=(visit_answer_html, depart_answer_html),
                 latex=(visit_answer_latex, depart_answer_latex), text=plain, man=plain, texinfo=plain)
    app.add_directive("answer", Answer)
