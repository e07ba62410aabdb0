# SPDX-License-Identifier: MIT
"""What every feature of the extension shares: the error a chapter's reference
raises, the directive base that reports it at the directive's line, chapter
keys (the invariant chapter-key, docs/architecture.md: one key chNN-name names
a chapter in every tree), paths kept inside the source tree, and text made
safe to show."""
from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.environment.collectors import EnvironmentCollector
from sphinx.util.docutils import SphinxDirective


from ..records.checkeval import BookError  # noqa: E402,F401  (one class: the checks' errors are the book's)
from ..records.jsonfile import load_json  # noqa: F401  (the extension's modules import it from here)
from .. import chapters
from ..chapters import KEY_PATTERN, SECTION_PATTERN

if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

    from sphinx.application import Sphinx
    from sphinx.environment import BuildEnvironment


class BookDirective(SphinxDirective):
    def fail(self, message: str) -> list:
        return [self.state.document.reporter.error(message, line=self.lineno)]

    def caption_nodes(self) -> list:
        """The directive's content as a figure caption's inline nodes ([] if none)."""
        if not self.content:
            return []
        return self.state.inline_text(" ".join(self.content), self.lineno)[0]

    def no_caption(self) -> list:
        """The error of a figure directive without a caption."""
        return self.fail(f"{self.name} '{self.arguments[0]}' has no caption: write one as the "
                         "directive's content (every figure is numbered and captioned)")


# ---- chapter keys (chapter-key: one key names a chapter in every tree) -----------

#: A chapter's page: chapters/<key>.md with <key> = chNN-<name>; a page of one of
#: its sections: chapters/<key>/NN-<name>.md (bookpy.chapters, the same layout).
CHAPTER_DOC = re.compile(rf"(?:^|/)({KEY_PATTERN})(/{SECTION_PATTERN})?$")
#: A chapter key as a page's folder.
KEY_PART = chapters.KEY
#: One part of a key: no slashes, no "..", nothing a path could escape with.
NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]*")


def chapter_of(docname: str) -> str | None:
    """The chapter key of a page (the chapter's page or one of its sections'), or
    None when the page is not a chapter's."""
    m = CHAPTER_DOC.search(docname)
    return m.group(1) if m else None


def is_chapter_page(docname: str) -> bool:
    """Whether the page is a chapter's own page (its title and opening), not a section's."""
    m = CHAPTER_DOC.search(docname)
    return bool(m) and not m.group(2)


def resolve_key(docname: str, name: str, what: str = "run") -> str:
    """`<key>/<name>` for a name given in a page: a name without a '/' is the
    page's chapter's (chapter-key); a full key is taken as it is."""
    parts = name.split("/")
    if len(parts) == 1:
        chapter = chapter_of(docname)
        if chapter is None:
            raise BookError(f"{what} '{name}' names no chapter, and this page is not a chapter "
                            f"(chapters/chNN-<name>.md): write <chapter>/{name}")
        parts = [chapter, name]
    if len(parts) != 2 or not all(NAME.fullmatch(p) and ".." not in p for p in parts):
        raise BookError(f"{what} '{name}' should read <name> or <chapter>/<name> "
                        "(letters, digits, '.', '_' and '-')")
    return "/".join(parts)


# ---- paths --------------------------------------------------------------------

def source_path(root: str, rel: str, build_dir: str | None = None) -> str:
    """The file `rel` names inside the repository's source tree. A path that
    leads out of it (absolute, '..', a symbolic link) or into the build folder
    is an error: a page shows sources, nothing else on the machine."""
    root_real = os.path.realpath(root)
    path = os.path.realpath(os.path.join(root_real, rel))
    if os.path.commonpath([root_real, path]) != root_real:
        raise BookError(f"{rel} is outside the repository's source tree ({root_real})")
    if build_dir:
        build_real = os.path.realpath(build_dir)
        if os.path.commonpath([build_real, path]) == build_real:
            raise BookError(f"{rel} is in the build folder ({build_real}), not a source")
    return path


# ---- JSON files, read once per change ---------------------------------------------

# ---- text shown to the reader --------------------------------------------------------

def _visible(ch: str) -> str:
    code = ord(ch)
    if code < 0x20:
        return chr(0x2400 + code)  # the Control Pictures block: NUL -> U+2400, ESC -> U+241B
    if code == 0x7F:
        return "\u2421"
    return f"\\x{code:02x}"  # C1 controls


CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def visible_text(text: str) -> str:
    """Program output as a reader may see it: every control character but tab
    and newline shown as a visible sign (NUL as U+2400, ESC as U+241B, other C1
    controls as \\xNN), never passed on raw. A CR before a newline is dropped."""
    return CONTROL.sub(lambda m: _visible(m.group()), text.replace("\r\n", "\n"))


def cap_text(text: str, max_lines: int, max_bytes: int) -> tuple[str, str | None]:
    """At most max_lines lines and max_bytes bytes (UTF-8) of text, cut at a line
    end, and a note saying what was left out (None when nothing was)."""
    lines = text.split("\n")
    kept, size = [], 0
    for line in lines:
        n = len(line.encode("utf-8")) + 1
        if len(kept) >= max_lines or size + n > max_bytes:
            break
        kept.append(line)
        size += n
    if len(kept) == len(lines):
        return text, None
    if not kept:  # one line longer than the cap: cut inside it, at a character
        cut = text.encode("utf-8")[:max_bytes].decode("utf-8", "ignore")
        kept, size = [cut], len(cut.encode("utf-8"))
    left_lines = len(lines) - len(kept)
    left_bytes = len(text.encode("utf-8")) - size
    note = (f"[output cut here by the book: {left_lines:,} more line{'s' if left_lines != 1 else ''}, "
            f"{left_bytes:,} bytes not shown (the page shows at most {max_lines:,} lines and "
            f"{max_bytes:,} bytes); the run record holds all of it]")
    return "\n".join(kept), note


def literal(text: str, language: str = "text", classes: Iterable[str] = ()) -> nodes.literal_block:
    block = nodes.literal_block(text, text)
    block["language"] = language
    block["classes"].extend(classes)
    return block


class PerPageCollector(EnvironmentCollector):
    """What each page holds of one kind, kept in the environment as
    env.<attr> = {docname: found}: dropped when the page is read again, merged
    from parallel readers. A subclass names `attr` and says what it finds."""
    attr = ""

    @classmethod
    def pages(cls, env: BuildEnvironment) -> dict:
        if not hasattr(env, cls.attr):
            setattr(env, cls.attr, {})
        return getattr(env, cls.attr)

    def found(self, doctree: nodes.document) -> Any:
        raise NotImplementedError

    def clear_doc(self, app: Sphinx, env: BuildEnvironment, docname: str) -> None:
        self.pages(env).pop(docname, None)

    def merge_other(self, app: Sphinx, env: BuildEnvironment, docnames: set[str],
                    other: BuildEnvironment) -> None:
        mine, theirs = self.pages(env), self.pages(other)
        for docname in docnames:
            if docname in theirs:
                mine[docname] = theirs[docname]

    def process_doc(self, app: Sphinx, doctree: nodes.document) -> None:
        found = self.found(doctree)
        if found:
            self.pages(app.env)[app.env.docname] = found
        else:
            self.pages(app.env).pop(app.env.docname, None)
