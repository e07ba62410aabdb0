# SPDX-License-Identifier: MIT
"""Comparisons are checks: a sentence that orders or bounds recorded figures
names, beside it in the chapter source, the check that makes it true.

``check`` (role)  ``{check}`<expression>``` or ``{check}`<run>:check:<id>```

An expression compares figures of run records::

    {check}`reduce-bench:graph_cub_us_2e16 < reduce-bench:graph_one_pass_us_2e16`
    {check}`abs(reduce-bench:cub_tbs_2e28 / reduce-bench:ceiling_tbs_2e28 - 1) <= 0.05`
    {check}`0.95 <= stencil-steps:best_over_copy <= 1.05 and stencil-steps:mismatches == 0`

A reference is ``<run>:<result>`` or ``<run>:check:<id>`` (the value a run's
check computed), written as the ``{value}`` role writes it, with a space on
each side of an operator (a run's name may hold a '-'). Numbers, ``+ - * / **``,
``abs``, ``min``, ``max``, the comparisons ``< <= > >= == !=`` (chained as in
Python) and ``and``/``or`` are allowed; the whole must be a comparison, or
several joined by ``and``/``or``. Where a comparison could stand, a bare
``<run>:check:<id>`` asserts that the run's own expectation
(``*.checks.json``) held; inside a comparison it is the value the check
computed.

A comparison must hold in every recorded repeat: a record with ``repeats``
(a list of ``{"results": {...}}``, one per repeat in a fresh process) is
evaluated on each repeat's results as well as on ``results`` (the medians);
a result a repeat does not hold (a profile taken once) is the median's. The
references of one run are taken from the same repeat; the repeats of
different runs, measured in different processes, are combined in every
pairing. A check that does not hold is an error at the role's line, naming
the repeat and the values; the role shows nothing on the page. A check
written on its own line before a punctuation mark leaves no space before the
mark (CheckMarkers).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes
from docutils.transforms import Transform

from ..records.checkeval import (ARITH, COMPARE, FUNCTIONS, MAX_PAIRINGS, REFERENCE,  # noqa: F401
                                 NotApplicable, evaluate, figure, holds, named_expectations, parse,
                                 variants, verify_with)
from .common import BookError, resolve_key
from .inline import role_line
from .records import load_record

if TYPE_CHECKING:
    from typing import Any

    from docutils.parsers.rst.states import Inliner
    from sphinx.environment import BuildEnvironment


def verify(env: BuildEnvironment, docname: str, text: str) -> int:
    """Check the claim `text`, read in page `docname` (checkeval.verify_with)."""
    return verify_with(text, lambda run: resolve_key(docname, run),
                       lambda full: load_record(env, full)[0])


def check_role(name: str, rawtext: str, text: str, lineno: int, inliner: Inliner,
               options: dict[str, Any] | None = None,
               content: list[str] | None = None) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    """{check}`<expression>`: nothing on the page; an error at its line when
    the records make the comparison false."""
    env = inliner.document.settings.env
    try:
        verify(env, env.docname, text)
    except NotApplicable:  # it names a check scoped to other GPUs than this record's: not ours
        pass
    except BookError as e:
        msg = inliner.reporter.error(str(e), line=role_line(inliner.document, lineno, "check", text))
        return [inliner.problematic(rawtext, rawtext, msg)], [msg]
    return [nodes.inline("", "", classes=["book-check-marker"])], []


PUNCTUATION = tuple(".,;:!?)")


class CheckMarkers(Transform):
    """Take out the (empty) mark each check leaves, and with it the line
    break before it where a punctuation mark follows: "(2.8 µs)\n{check}`...`,"
    reads "(2.8 µs)," on the page, not "(2.8 µs) ,"."""
    default_priority = 210

    def apply(self) -> None:
        for mark in list(self.document.findall(nodes.inline)):
            if "book-check-marker" not in mark["classes"] or mark.parent is None:
                continue
            parent = mark.parent
            # by identity: a Text node is a str, and equal Texts ("\n") abound
            i = next(k for k, child in enumerate(parent.children) if child is mark)
            del parent[i]
            after = parent[i] if i < len(parent) else None
            if after is not None and not (isinstance(after, nodes.Text)
                                          and after.astext().startswith(PUNCTUATION)):
                continue
            # the whitespace before the mark: Text nodes of line breaks, then a word's end
            k = i - 1
            while k >= 0 and isinstance(parent[k], nodes.Text) and not parent[k].astext().strip():
                del parent[k]
                k -= 1
            if k >= 0 and isinstance(parent[k], nodes.Text):
                parent[k] = nodes.Text(parent[k].astext().rstrip())
