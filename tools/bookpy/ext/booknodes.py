# SPDX-License-Identifier: MIT
"""The extension's own nodes and how each builder writes them.

``fold``            content folded until the reader opens it: HTML <details>
                    with a summary; LaTeX (a PDF cannot fold) a titled box
``check_yourself``  a question card; its ``check_answer`` child folds in HTML,
                    and moves to the end of the chapter in LaTeX (checkyourself.py)
``gpu_tabs``        what a run showed on each GPU, one ``gpu_tab`` each: HTML tabs
                    (radio buttons and CSS, no script), the first open; LaTeX (the
                    PDF shows the lead GPU's outputs) only the first tab's content
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes

if TYPE_CHECKING:
    from sphinx.application import Sphinx
    from sphinx.util.docutils import SphinxTranslator
    from sphinx.writers.html5 import HTML5Translator
    from sphinx.writers.latex import LaTeXTranslator


class fold(nodes.General, nodes.Element):
    """Attributes: summary (the text shown closed), box ('hint', 'note', ...: the
    LaTeX box kind)."""


class check_yourself(nodes.General, nodes.Element):
    """Attributes: qid (the question's id, never shown), label (LaTeX: 'Question N')."""


class check_answer(nodes.General, nodes.Element):
    pass


class gpu_tabs(nodes.General, nodes.Element):
    """Attributes: group (a name unique in the page, for the radio buttons)."""


class gpu_tab(nodes.General, nodes.Element):
    """Attributes: label (the GPU as the tab names it), note (its state, or '')."""


# ---- HTML ----------------------------------------------------------------------

def visit_fold_html(self: HTML5Translator, node: nodes.Element) -> None:
    self.body.append(self.starttag(node, "details", CLASS="book-fold"))
    self.body.append(f"<summary>{self.encode(node.get('summary', 'More'))}</summary>\n")


def depart_fold_html(self: HTML5Translator, node: nodes.Element) -> None:
    self.body.append("</details>\n")


def visit_check_html(self: HTML5Translator, node: nodes.Element) -> None:
    self.body.append(self.starttag(node, "div", CLASS="book-check"))
    if node.get("label") and node.get("ids"):
        self.body.append(f'<p class="book-check-label"><a class="reference internal" href="#{node["ids"][0]}">'
                         f'{self.encode(node["label"])}</a></p>\n')


def depart_check_html(self: HTML5Translator, node: nodes.Element) -> None:
    self.body.append("</div>\n")


def visit_answer_html(self: HTML5Translator, node: nodes.Element) -> None:
    self.body.append(self.starttag(node, "details", CLASS="book-answer"))
    self.body.append("<summary>Show answer</summary>\n")


def depart_answer_html(self: HTML5Translator, node: nodes.Element) -> None:
    self.body.append("</details>\n")


def visit_gpu_tabs_html(self: HTML5Translator, node: nodes.Element) -> None:
    self.body.append(self.starttag(node, "div", CLASS="book-gpu-tabs"))
    group = node["group"]
    for i, tab in enumerate(node.children):
        tid = f"{group}-{i}"
        checked = " checked" if i == 0 else ""
        self.body.append(f'<input type="radio" class="book-gpu-tab-input" name="{group}" '
                         f'id="{tid}"{checked}>')
        label = self.encode(tab["label"])
        if tab.get("note"):
            label += f' <span class="book-gpu-tab-note">({self.encode(tab["note"])})</span>'
        self.body.append(f'<label class="book-gpu-tab-label" for="{tid}">{label}</label>\n')


def depart_gpu_tabs_html(self: HTML5Translator, node: nodes.Element) -> None:
    self.body.append("</div>\n")


def visit_gpu_tab_html(self: HTML5Translator, node: nodes.Element) -> None:
    self.body.append(self.starttag(node, "div", CLASS="book-gpu-tab"))


def depart_gpu_tab_html(self: HTML5Translator, node: nodes.Element) -> None:
    self.body.append("</div>\n")


# ---- LaTeX ----------------------------------------------------------------------

def visit_fold_latex(self: LaTeXTranslator, node: nodes.Element) -> None:
    self.body.append("\n\\begin{sphinxadmonition}{%s}{%s:}\n"
                     % (node.get("box", "note"), self.encode(node.get("summary", ""))))
    self.no_latex_floats += 1


def depart_fold_latex(self: LaTeXTranslator, node: nodes.Element) -> None:
    self.body.append("\\end{sphinxadmonition}\n")
    self.no_latex_floats -= 1


def visit_check_latex(self: LaTeXTranslator, node: nodes.Element) -> None:
    self.body.append("\n\\begin{sphinxadmonition}{note}{%s:}\n"
                     % self.encode(node.get("label", "Check yourself")))
    self.no_latex_floats += 1


depart_check_latex = depart_fold_latex


# ---- builders that show everything in place (text, man, texinfo, ...) ----------------

def visit_plain(self: SphinxTranslator, node: nodes.Node) -> None:
    pass


def depart_plain(self: SphinxTranslator, node: nodes.Node) -> None:
    pass


def register(app: Sphinx) -> None:
    plain = (visit_plain, depart_plain)
    others = {"text": plain, "man": plain, "texinfo": plain}
    app.add_node(fold, html=(visit_fold_html, depart_fold_html),
                 latex=(visit_fold_latex, depart_fold_latex), **others)
    app.add_node(check_yourself, html=(visit_check_html, depart_check_html),
                 latex=(visit_check_latex, depart_check_latex), **others)
    app.add_node(check_answer, html=(visit_answer_html, depart_answer_html),
                 latex=plain, **others)
    # LaTeX never meets them: LeadTabOnly (records.py) leaves the first tab's content.
    app.add_node(gpu_tabs, html=(visit_gpu_tabs_html, depart_gpu_tabs_html), latex=plain, **others)
    app.add_node(gpu_tab, html=(visit_gpu_tab_html, depart_gpu_tab_html), latex=plain, **others)
