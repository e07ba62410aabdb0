# SPDX-License-Identifier: MIT
"""A student's copy of a Markdown file: the exercise statements are MyST (the book
renders them), but a student reads them in an editor or on a forge, where
MyST's roles show raw (``2{sup}`28```). So each role the statements use becomes
plain Markdown a reader sees right:

    {sup}`28` -> ²⁸  (Unicode superscripts, where every character has one;
                      else <sup>28</sup>, which Markdown renderers show)
    {sub}`h`  -> ₕ   (likewise, else <sub>h</sub>)

Any other MyST role or directive is an error naming the file and line: the
bundle never ships markup its reader would see raw. (The test site.browser
opens every archive the site links and fails on a MyST role in a Markdown file.)
"""
from __future__ import annotations

import re

SUP = dict(zip("0123456789+-=()in", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁱⁿ"))
SUB = dict(zip("0123456789+-=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ"))
ROLE = re.compile(r"\{([A-Za-z][\w:+-]*)\}`([^`]*)`")
DIRECTIVE = re.compile(r"^\s*(`{3,}|~{3,}|:{3,})\s*\{([A-Za-z][\w:+-]*)\}")


class StudentMarkdownError(ValueError):
    pass


def _script(text: str, table: dict, tag: str) -> str:
    if text and all(c in table for c in text):
        return "".join(table[c] for c in text)
    return f"<{tag}>{text}</{tag}>"


def plain_markdown(text: str, where: str) -> str:
    """`text` (the Markdown file `where`) with its MyST roles as plain Markdown."""
    out = []
    for n, line in enumerate(text.split("\n"), 1):
        d = DIRECTIVE.match(line)
        if d:
            raise StudentMarkdownError(f"{where}:{n}: a MyST directive ({{{d.group(2)}}}) in a file "
                                       "students read as plain Markdown")

        def role(m: re.Match[str], n: int = n) -> str:
            name, body = m.group(1), m.group(2)
            if name == "sup":
                return _script(body, SUP, "sup")
            if name == "sub":
                return _script(body, SUB, "sub")
            raise StudentMarkdownError(f"{where}:{n}: the MyST role {{{name}}} in a file students read as "
                                       "plain Markdown (tools/grader/student_markdown.py turns {sup} and "
                                       "{sub} into plain text; write the rest as Markdown)")

        out.append(ROLE.sub(role, line))
    return "\n".join(out)


def student_bytes(name: str, data: bytes, where: str) -> bytes:
    """A file's bytes as the bundle ships them: a Markdown file (`name` ends in .md)
    with plain Markdown for MyST's roles, any other file unchanged."""
    if not name.endswith(".md"):
        return data
    return plain_markdown(data.decode("utf-8"), where).encode("utf-8")
