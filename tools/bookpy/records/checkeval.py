# SPDX-License-Identifier: MIT
"""The evaluation of a check (``{check}`...```) against run records: parsing
the expression, and whether it holds in the medians and in every recorded
repeat. Pure Python (no docutils, no Sphinx, no relative import), so that a
machine without them, the GPU machine that records the book, can check every
claim of the chapters against its fresh records (tools/bookpy/build/check_claims.py); the
extension's check role (claims.py) and value role (records.py) use it too.
"""
from __future__ import annotations

import ast
import itertools
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any


class BookError(Exception):
    """A problem in a chapter's reference: reported at the line that made it."""


class NotApplicable(BookError):
    """A claim that names a run's expectation scoped to other GPUs ("gpus" in its
    checks file) than the record's: it is neither true nor false of this record."""


#: <run>:<key>: a run (or <chapter>/<run>) and a result, check:<id> or ncu:... key.
REFERENCE = re.compile(r"(?<![\w.:/-])([A-Za-z0-9_][A-Za-z0-9_.-]*(?:/[A-Za-z0-9_][A-Za-z0-9_.-]*)?)"
                       r":([A-Za-z0-9_%][A-Za-z0-9_.:%-]*[A-Za-z0-9_%]|[A-Za-z0-9_%])")
FUNCTIONS = {"abs": abs, "min": min, "max": max}
COMPARE = {ast.Lt: (lambda a, b: a < b, "<"), ast.LtE: (lambda a, b: a <= b, "<="),
           ast.Gt: (lambda a, b: a > b, ">"), ast.GtE: (lambda a, b: a >= b, ">="),
           ast.Eq: (lambda a, b: a == b, "=="), ast.NotEq: (lambda a, b: a != b, "!=")}
ARITH = {ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b,
         ast.Mult: lambda a, b: a * b, ast.Div: lambda a, b: a / b,
         ast.Pow: lambda a, b: a ** b}
#: The most pairings of repeats of different runs one check evaluates.
MAX_PAIRINGS = 100_000
#: How a figure is perturbed to see whether a check can fail (can_fail): scaled
#: by each factor (halved and doubled, and taken towards zero and towards
#: infinity, for figures compared across orders of magnitude); a zero is set to
#: each of ZERO_PERTURBED (a zero may be of either sign); a negative figure is
#: also sign-flipped (it may be of either sign; a positive one, a time, a rate, a
#: count, a ratio, stays positive whatever it measures, so its sign is not flipped).
FACTORS = (0.5, 2.0, 1e-9, 1e9)
ZERO_PERTURBED = (1.0, -1.0, 1e9, -1e9)


def parse(text: str) -> tuple[ast.AST, list[tuple[str, str]]]:
    """The expression's tree, its references replaced by names r0, r1, ...
    (the list gives each name's run and key, as written)."""
    refs: list[tuple[str, str]] = []

    def name(m: re.Match[str]) -> str:
        refs.append((m.group(1), m.group(2)))
        return f" r{len(refs) - 1} "

    source = REFERENCE.sub(name, text)
    if not refs:
        raise BookError(f"check '{text}' names no recorded figure (<run>:<result>)")
    try:
        tree = ast.parse(source.strip(), mode="eval")
    except SyntaxError:
        raise BookError(f"check '{text}' is not an expression the check role reads (put a space "
                        "on each side of an operator; see tools/bookpy/ext/claims.py)") from None
    body = tree.body
    if not _is_claim(body, refs):
        raise BookError(f"check '{text}' compares nothing: it should be a comparison "
                        "(<, <=, >, >=, ==, !=) or <run>:check:<id>, or several joined by and/or")
    for node in ast.walk(body):
        if isinstance(node, ast.Call):
            if not (isinstance(node.func, ast.Name) and node.func.id in FUNCTIONS) or node.keywords:
                raise BookError(f"check '{text}': only {', '.join(FUNCTIONS)} may be called")
        elif isinstance(node, ast.Name):
            if node.id not in FUNCTIONS and not re.fullmatch(r"r[0-9]+", node.id):
                raise BookError(f"check '{text}': '{node.id}' is no <run>:<result> reference")
        elif isinstance(node, ast.Constant):
            if isinstance(node.value, bool) or not isinstance(node.value, (int, float)):
                raise BookError(f"check '{text}': only numbers may be written in a check")
        elif not isinstance(node, (ast.Compare, ast.BoolOp, ast.And, ast.Or, ast.BinOp, ast.UnaryOp,
                                   ast.USub, ast.UAdd, ast.Load, *COMPARE, *ARITH)):
            raise BookError(f"check '{text}': '{type(node).__name__}' is not allowed in a check")
    return body, refs


def _is_claim(node, refs) -> bool:
    if isinstance(node, ast.Compare):
        return True
    if isinstance(node, ast.Name):
        return _named(node, refs) is not None
    return isinstance(node, ast.BoolOp) and all(_is_claim(v, refs) for v in node.values)


def _named(node, refs):
    """The index of the reference a bare name stands for, when it names a
    run's expectation (<run>:check:<id>), else None."""
    m = re.fullmatch(r"r([0-9]+)", node.id) if isinstance(node, ast.Name) else None
    if m and int(m.group(1)) < len(refs) and refs[int(m.group(1))][1].startswith("check:"):
        return int(m.group(1))
    return None


def named_expectations(node: ast.AST, refs: list[tuple[str, str]]) -> list[int]:
    """The references that stand as claims of their own (expectations that
    must have held), not as values inside a comparison."""
    if isinstance(node, ast.BoolOp):
        return [i for v in node.values for i in named_expectations(v, refs)]
    i = _named(node, refs)
    return [] if i is None else [i]


def holds(node: ast.AST, values: dict, refs: list[tuple[str, str]]) -> bool:
    """Whether the claim holds: comparisons evaluated, named expectations
    taken as verified (verify checks them first)."""
    if isinstance(node, ast.BoolOp):
        parts = (holds(v, values, refs) for v in node.values)
        return all(parts) if isinstance(node.op, ast.And) else any(parts)
    if _named(node, refs) is not None:
        return True
    return bool(evaluate(node, values))


def perturbed(value: float) -> list[float]:
    """The values a figure is tried at to see whether a check can fail."""
    if value == 0:
        return list(ZERO_PERTURBED)
    out = [value * f for f in FACTORS]
    return out + [-value] if value < 0 else out


def parts(node: ast.AST, refs: list[tuple[str, str]]) -> list[ast.AST]:
    """What must each be able to fail: each comparison joined by 'and' (an 'or'
    as a whole), each link of a chained comparison; a named expectation
    (<run>:check:<id>) is its checks file's, and is left out."""
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        return [p for v in node.values for p in parts(v, refs)]
    if _named(node, refs) is not None:
        return []
    if isinstance(node, ast.Compare) and len(node.ops) > 1:
        operands = [node.left, *node.comparators]
        return [ast.Compare(left=operands[i], ops=[op], comparators=[operands[i + 1]])
                for i, op in enumerate(node.ops)]
    return [node]


def can_fail(node: ast.AST, values: dict, refs: list[tuple[str, str]],
             same: list | None = None) -> bool:
    """Whether the claim fails for some perturbation of one figure it reads
    (each reference in turn at each of perturbed(its value), the rest as
    recorded): a claim that holds at all of them holds whatever the figures
    are (x >= x, x > 5.3 - 10), and says nothing about them. same[i] names the
    figure reference i reads (its run resolved), else refs[i]: a figure written
    twice, or by two names of its run, is one figure."""
    figures: dict[tuple[str, str], list[str]] = {}  # a figure written twice is one figure
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and n.id in values:
            figures.setdefault((same or refs)[int(n.id[1:])], []).append(n.id)
    for names in figures.values():
        for v in perturbed(values[names[0]]):
            try:
                if not holds(node, {**values, **{name: v for name in names}}, refs):
                    return True
            except (BookError, ArithmeticError, ValueError):
                return True  # a figure it divides by, set to zero: it does not hold
    return False


def text_of(node: ast.AST, refs: list[tuple[str, str]]) -> str:
    """A part of a check as written: its references by name."""
    text = ast.unparse(node)
    return re.sub(r"\br([0-9]+)\b", lambda m: ":".join(refs[int(m.group(1))]), text)


def vacuous(tree: ast.AST, values: dict, refs: list[tuple[str, str]],
            same: list | None = None) -> list[str]:
    """The parts of a check (parts) that cannot fail (can_fail), as written."""
    return [text_of(p, refs) for p in parts(tree, refs) if not can_fail(p, values, refs, same)]


def evaluate(node: ast.AST, values: dict) -> float:
    """The expression's value, with values {"r0": 1.5, ...}."""
    if isinstance(node, ast.Name):
        return values[node.id]
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.UnaryOp):
        v = evaluate(node.operand, values)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.BinOp):
        a, b = evaluate(node.left, values), evaluate(node.right, values)
        if isinstance(node.op, ast.Div) and b == 0:
            raise BookError("divides by zero")
        return ARITH[type(node.op)](a, b)
    if isinstance(node, ast.Call):
        return FUNCTIONS[node.func.id](*(evaluate(a, values) for a in node.args))
    if isinstance(node, ast.BoolOp):
        parts = (evaluate(v, values) for v in node.values)
        return all(parts) if isinstance(node.op, ast.And) else any(parts)
    if isinstance(node, ast.Compare):
        left = evaluate(node.left, values)
        for op, right_node in zip(node.ops, node.comparators):
            right = evaluate(right_node, values)
            if not COMPARE[type(op)][0](left, right):
                return False
            left = right
        return True
    raise BookError(f"cannot evaluate '{type(node).__name__}'")


def variants(record: dict, run: str) -> list[tuple[str, dict | None, int | None]]:
    """What a comparison is evaluated on: the medians ('results'), then each
    recorded repeat (its label, its results, its index)."""
    out = [("the medians ('results')", None, None)]
    repeats = record.get("repeats")
    if repeats is None:
        return out
    if not isinstance(repeats, list):
        raise BookError(f"run record '{run}': 'repeats' should be a list")
    for i, rep in enumerate(repeats):
        results = rep.get("results") if isinstance(rep, dict) else None
        if not isinstance(results, dict):
            raise BookError(f"run record '{run}': repeat {i + 1} has no 'results' object")
        out.append((f"repeat {i + 1} of {len(repeats)}", results, i))
    return out


def figure(record: dict, run: str, key: str, repeat: dict | None, index: int | None) -> float:
    """One referenced figure in one variant: a repeat's own value where it has
    one, else the median's."""
    if key.startswith("check:") and index is not None:
        cid = key[len("check:"):]
        for check in record.get("checks") or []:
            if check.get("id") == cid and isinstance(check.get("values"), list) \
                    and index < len(check["values"]):
                value = check["values"][index]
                break
        else:
            value = lookup_value(record, run, key)
    elif repeat is not None and isinstance(repeat.get(key), dict) and "value" in repeat[key]:
        value = repeat[key]["value"]
    else:
        value = lookup_value(record, run, key)
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        raise BookError(f"'{run}:{key}' is not a number ({value!r})")
    return value


def _named_check(record: dict, run: str, key: str, text: str) -> None:
    cid = key[len("check:"):]
    for check in record.get("checks") or []:
        if check.get("id") == cid:
            if "not_applicable" in check:
                raise NotApplicable(f"check '{text}' is not applicable to this record: the run's "
                                    f"expectation '{cid}' is {check['not_applicable']}")
            if check.get("ok") is not True:
                raise BookError(f"check '{text}' does not hold: the run's expectation '{cid}' "
                                f"failed ({check.get('detail', 'no detail')})")
            return
    lookup_value(record, run, key)  # raises, listing the checks there are


def verify_with(text: str, resolve: Callable[[str], str], load: Callable[[str], dict]) -> int:
    """Check the claim `text`; resolve(run name as written) gives the run's full
    name (<key>/<run>), load(full name) its record. The number of variants
    (medians and repeats, in every pairing) it held in. BookError if it fails."""
    tree, refs = parse(text)
    runs: dict[str, dict] = {}
    resolved = []
    for run, key in refs:
        full = resolve(run)
        if full not in runs:
            runs[full] = load(full)
        resolved.append((full, key))
    for i in named_expectations(tree, refs):
        run, key = resolved[i]
        _named_check(runs[run], run, key, text)
    if isinstance(tree, ast.Name):
        return 1
    names = list(runs)
    choices = [variants(runs[r], r) for r in names]
    total = 1
    for c in choices:
        total *= len(c)
    if total > MAX_PAIRINGS:
        raise BookError(f"check '{text}' would compare {total:,} pairings of repeats "
                        f"(at most {MAX_PAIRINGS:,}): compare fewer runs in one check")
    for n, combo in enumerate(itertools.product(*choices)):
        picked = dict(zip(names, combo))
        values = {}
        for i, (run, key) in enumerate(resolved):
            _, rep, index = picked[run]
            values[f"r{i}"] = figure(runs[run], run, key, rep, index)
        try:
            held = holds(tree, values, refs)
        except BookError as e:
            raise BookError(f"check '{text}': {e}") from None
        if n == 0 and held:
            # On the medians, once: a claim that no figure of it could break.
            empty = vacuous(tree, values, refs, resolved)
            if empty:
                raise BookError(
                    f"check '{text}' holds whatever the figures are: "
                    f"{'; '.join(repr(p) for p in empty)} still holds with each figure it reads "
                    f"scaled by {', '.join(f'{f:g}' for f in FACTORS)} (a zero set to "
                    f"{' and '.join(f'{z:g}' for z in ZERO_PERTURBED)}, a negative figure "
                    "sign-flipped): bound the figures by what the sentence says of them, a bound "
                    "they could miss")
        if not held:
            where = "; ".join(f"{label} of '{run}'" for run, (label, _, _) in picked.items())
            shown = ", ".join(f"{run.split('/')[-1]}:{key} = {values[f'r{i}']:.6g}"
                              for i, (run, key) in enumerate(resolved))
            raise BookError(f"check '{text}' does not hold in {where}: {shown}")
    return total


def lookup_value(record: dict, run: str, key: str) -> Any:
    """A result's value, or with `check:<id>` the value one of the run's checks
    computed (a ratio `value / over` where the check has `over`), so that prose
    can quote a derived number that an expectation also bounds."""
    return lookup_values(record, run, key)[0]


def lookup_values(record: dict, run: str, key: str) -> tuple:
    """(the value, every repeat's value): for a run made once the list holds the
    value alone; for a measuring run (book_run REPEATS) the value is the median
    over its repeats, and the list holds each (a result's from `repeats`, a
    check's from its `values`)."""
    if key.startswith("check:"):
        cid = key[len("check:"):]
        for check in record.get("checks") or []:
            if check.get("id") == cid:
                if "value" not in check:
                    raise BookError(f"check '{cid}' of '{run}' computed no value")
                return check["value"], list(check.get("values") or [check["value"]])
        ids = ", ".join(c.get("id", "?") for c in record.get("checks") or []) or "none"
        raise BookError(f"run record '{run}' has no check '{cid}' (it has: {ids})")
    results = record["results"]
    if key not in results:
        raise BookError(f"run record '{run}' has no result '{key}'")
    value = results[key]["value"]
    repeats = [r["results"][key]["value"] for r in record.get("repeats") or []
               if key in r.get("results", {})]
    return value, repeats or [value]
