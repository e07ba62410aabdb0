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
the repeat and the values; the role shows nothing on the page. A check must be
able to fail (checkeval.vacuous): each comparison joined by ``and`` (each
link of a chain) must fail for some perturbation of one figure it reads, that
figure halved, doubled, taken towards zero (x 1e-9) or towards infinity
(x 1e9), a zero set to +-1 and +-1e9, a negative one sign-flipped; one that
holds at all of them (``x >= x``, ``x > 5.3 - 10``) holds whatever the figures
are, and is an error at its line. A check written on its own line before a
punctuation mark leaves no space before the mark (CheckMarkers).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from docutils import nodes
from docutils.transforms import Transform

import json
import re

from ..records.checkeval import (ARITH, COMPARE, FUNCTIONS, MAX_PAIRINGS, REFERENCE,  # noqa: F401
                                 NotApplicable, evaluate, figure, holds, named_expectations, parse,
                                 variants, verify_with)
from .common import BookError, resolve_key
from .inline import role_line
from .manifest import manifest
from .records import gpu_records, load_record

if TYPE_CHECKING:
    from typing import Any

    from docutils.parsers.rst.states import Inliner
    from sphinx.environment import BuildEnvironment


class _NotFresh(Exception):
    """A GPU whose record of a run the claim reads is stale, pending or missing."""


def verify(env: BuildEnvironment, docname: str, text: str, findings: list | None = None) -> int:
    """Check the claim `text`, read in page `docname` (checkeval.verify_with), on
    every GPU whose records of the GPU runs it reads are fresh (a CPU run's record
    is every GPU's): the pairings of repeats it held in, summed. On a GPU where it
    names an expectation scoped to other GPUs it is not applicable; on a GPU
    without fresh records it is not evaluated; neither counts as checked. On the
    reader's GPU (tools/book mine) a claim that does not hold is no error: why it
    does not is appended to `findings`, for the page to say beside the claim."""
    def resolve(run: str) -> str:
        return resolve_key(docname, run)

    _, refs = parse(text)
    per = {}
    for run, _key in refs:
        full = resolve(run)
        if full not in per:
            per[full] = gpu_records(env, full)
    gpus = []
    for recs in per.values():
        gpus += [g for g in recs if g.name not in [x.name for x in gpus]]
    if not gpus:
        try:
            return verify_with(text, resolve, lambda full: load_record(env, full)[0])
        except NotApplicable:  # it names a check scoped to other GPUs than this record's
            return 0
    total = 0
    for gpu in gpus:
        def load(full: str, gpu=gpu) -> dict:
            if not per[full]:
                return load_record(env, full)[0]
            g = next((x for x in per[full] if x.name == gpu.name), None)
            if g is None or not g.fresh:
                raise _NotFresh()
            return g.record
        try:
            held = verify_with(text, resolve, load)
        except (_NotFresh, NotApplicable):
            continue
        except BookError as e:
            if gpu.reader:
                if findings is not None:
                    findings.append((gpu, str(e)))
                continue
            raise BookError(f"on the {gpu.label} ({gpu.name}): {e}") from None
        if not gpu.reader:  # the reader's GPU counts for nothing the book claims
            total += held
    return total


def scope_of(env: BuildEnvironment, docname: str, text: str) -> list:
    """The GPUs a claim is scoped to: for each expectation it names
    (<run>:check:<id>) whose checks file gives "gpus", those GPUs, each as the
    names a sentence may call it by ([short, full name]); [] for a claim on
    every GPU."""
    m = manifest(env)
    short = {g.get("name"): g.get("short") for g in (m.gpus or {}).get("reference", [])}
    _, refs = parse(text)
    scoped = []
    for run, key in refs:
        if not key.startswith("check:"):
            continue
        path = (m.runs.get(resolve_key(docname, run)) or {}).get("checks")
        if not path:
            continue
        env.note_dependency(path)
        try:
            with open(path, encoding="utf-8") as f:
                checks = json.load(f).get("checks", [])
        except (OSError, ValueError) as e:
            raise BookError(f"checks file {path}: {e}") from None
        for c in checks:
            if isinstance(c, dict) and c.get("id") == key[len("check:"):]:
                for gpu in c.get("gpus") or []:
                    names = [n for n in (short.get(gpu), gpu) if n]
                    if names not in scoped:
                        scoped.append(names)
    return scoped


def check_role(name: str, rawtext: str, text: str, lineno: int, inliner: Inliner,
               options: dict[str, Any] | None = None,
               content: list[str] | None = None) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    """{check}`<expression>`: nothing on the page; an error at its line when
    the records make the comparison false."""
    env = inliner.document.settings.env
    line = role_line(inliner.document, lineno, "check", text)
    findings: list = []
    try:
        verify(env, env.docname, text, findings)
        scoped = scope_of(env, env.docname, text)
    except BookError as e:
        msg = inliner.reporter.error(str(e), line=line)
        return [inliner.problematic(rawtext, rawtext, msg)], [msg]
    marker = nodes.inline("", "", classes=["book-check-marker"])
    out = [marker]
    if findings:
        # The reader's GPU (tools/book mine): the claim does not hold there. A finding
        # about their GPU, said beside the claim; the build goes on.
        gpu, why = findings[0]
        note = nodes.inline("", "", classes=["book-reader-finding"])
        note += nodes.strong(text=f"[On {gpu.the}, the {gpu.name}, this does not hold: ")
        note += nodes.Text(f"{why.rstrip('.')}.]")
        env.__dict__.setdefault("book_reader_findings", {}).setdefault(env.docname, []).append(
            (line, text, why))
        out.append(note)
    if scoped:
        # ScopedClaimsNamed reads the sentence around the mark.
        marker["book_scope"] = scoped
        marker["book_claim"] = text
        marker["book_line"] = line
    return out, []


#: The end of a sentence: a full stop, a question or exclamation mark, then space.
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


class ScopedClaimsNamed(Transform):
    """A {check} that names an expectation scoped to some GPUs ("gpus" in its
    checks file) stands in a sentence that names each of them ("on the H200",
    or its full name): the claim is true of those GPUs only, and the reader must
    be told which. The sentence is the one the mark stands in, or, for a mark
    right after a full stop, the one that stop ends. An error at the role's line
    otherwise."""
    default_priority = 205  # before CheckMarkers takes the marks out

    def apply(self) -> None:
        for mark in list(self.document.findall(nodes.inline)):
            if "book-check-marker" not in mark["classes"] or not mark.get("book_scope"):
                continue
            block = mark.parent
            while block is not None and isinstance(block, nodes.Inline):
                block = block.parent
            if block is None:
                continue
            before, after, found = [], [], False
            for n in block.findall(lambda n: isinstance(n, nodes.Text) or n is mark):
                if n is mark:
                    found = True
                elif found:
                    after.append(n.astext())
                else:
                    before.append(n.astext())
            head, tail = "".join(before), "".join(after)
            if re.search(r"[.!?]\s*$", head):
                sentence = SENTENCE_END.split(head.strip())[-1]
            else:
                sentence = SENTENCE_END.split(head)[-1] + SENTENCE_END.split(tail)[0]
            missing = [names[0] for names in mark["book_scope"]
                       if not any(re.search(r"(?<![\w-])" + re.escape(n) + r"(?![\w-])", sentence)
                                  for n in names)]
            if missing:
                self.document.reporter.error(
                    f"check '{mark['book_claim']}' names an expectation that holds on the "
                    f"{' and the '.join(n[0] for n in mark['book_scope'])} only, but its sentence "
                    f"does not say so: name the {' and the '.join(missing)} in it "
                    f"(\"{sentence.strip()[:120]}\")", line=mark["book_line"])


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
