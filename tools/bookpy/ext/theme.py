# SPDX-License-Identifier: MIT
"""The theme's own assets, made to work in a browser.

Debian's furo (2022.12) ships two assets that fail as published:

- ``_static/scripts/furo.js`` is an ES module source (``import Gumshoe from
  "./gumshoe-patched.js";``) that the theme loads as a plain script, so the
  browser throws a SyntaxError and the theme toggle, the back-to-top button and
  the table of contents' tracking never start;
- ``_static/styles/furo.css`` starts with ``@import
  url(/javascript/normalize.css/normalize.css);``, a path that exists on a
  Debian web server (``/usr/share/javascript``) but in no published book;
- and its compiled stylesheet lost the rule that turns the dark colours on
  when the system prefers dark and the reader chose "auto" (furo's
  base/_theme.sass nests ``@media (prefers-color-scheme: dark)`` inside
  ``@media not print``; Debian's build kept only the explicit
  ``body[data-theme="dark"]`` half), so an "auto" page stays light on a dark
  system while its code boxes, styled apart, turn dark;
- and on a page without a table of contents (the book's index), its scroll
  spy (gumshoe) throws a TypeError once the page is scrolled to its end, which
  a short page always is: ``useLastItem`` reads ``item.content`` of the last
  of no items.

So every HTML build writes fixed copies into a folder of its own, which Sphinx
copies over the theme's (``html_static_path`` is copied after the theme's
static files): each ``import X from "./file.js"`` is replaced by the file's
code, run as a CommonJS module so that its UMD wrapper hands back its export,
each ``@import`` of an absolute path is replaced by the stylesheet it
names, looked up under /usr/share, and where a stylesheet has dark rules for
``body[data-theme="dark"]`` under ``@media not print`` but none for the
system's preference, the same rules are added for ``body:not([data-theme=
"light"])`` under ``@media screen and (prefers-color-scheme: dark)`` (not
``@media not print and (...)``: ``not`` negates the whole query, so that one
matches every light screen and every print); the
scroll spy's ``useLastItem`` checks that there is an item (PATCHES: each one
applied only where its text is found, so a furo that fixed it is unchanged). A theme whose assets are already fine (a
newer furo) is copied unchanged. What cannot be fixed is an error that names
the asset: the book is not published with a theme that does not load.
"""
from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

from sphinx.errors import ExtensionError
from sphinx.util import logging

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from sphinx.application import Sphinx

logger = logging.getLogger(__name__)

IMPORT = re.compile(r"""^[ \t]*import[ \t]+([A-Za-z_$][\w$]*)[ \t]+from[ \t]+["'](\.{1,2}/[^"']+)["'];?[ \t]*$""",
                    re.M)
MODULE_SYNTAX = re.compile(r"^[ \t]*(?:import\b[^(]|export\b)", re.M)
CSS_IMPORT = re.compile(r"""@import\s+url\(\s*["']?(/[^)"']+)["']?\s*\)\s*;""")
#: Where a Debian package keeps what an absolute web path names (/javascript/... is
#: /usr/share/javascript/..., the convention of Debian's libjs-* and node-* packages).
SHARE_ROOTS = ("/usr/share",)


#: (file under static/, text, replacement, why): small fixes of known bugs.
PATCHES = [
    ("scripts/gumshoe-patched.js",
     "if (isAtBottom() && isInView(item.content, settings, true)) return true;",
     "if (item && isAtBottom() && isInView(item.content, settings, true)) return true;",
     "a page with no table of contents has no last item"),
]


class ThemeAssetError(ExtensionError):
    pass


def patched(path: str, text: str) -> str:
    """`text` (the file at `path`) with the PATCHES for it applied."""
    for name, old, new, _why in PATCHES:
        if path.replace(os.sep, "/").endswith("/static/" + name) and old in text:
            text = text.replace(old, new)
    return text


def read_patched(path: str) -> str:
    with open(path, encoding="utf-8") as f:
        return patched(path, f.read())


def bundle_script(path: str) -> str:
    """The script at `path` with each relative ES import replaced by the
    imported file's code, so that it runs as a plain script."""
    text = read_patched(path)
    folder = os.path.dirname(path)

    def inline(m: re.Match[str]) -> str:
        name, rel = m.group(1), m.group(2)
        dep = os.path.normpath(os.path.join(folder, rel))
        if not os.path.isfile(dep):
            raise ThemeAssetError(f"theme script {path} imports {rel}, which does not exist ({dep})")
        code = read_patched(dep)
        if MODULE_SYNTAX.search(code):
            raise ThemeAssetError(f"theme script {path} imports {rel}, which is itself an ES module: "
                                  "the book cannot bundle it")
        return (f"/* {rel}, bundled by the book (tools/bookpy/ext/theme.py) */\n"
                f"var {name} = (function () {{\n"
                f"  var module = {{ exports: {{}} }}, exports = module.exports;\n"
                f"{code}\n"
                f"  return module.exports;\n"
                f"}})();\n")

    out = IMPORT.sub(inline, text)
    left = MODULE_SYNTAX.search(out)
    if left:
        line = out.count("\n", 0, left.start()) + 1
        raise ThemeAssetError(f"theme script {path}: module syntax the book cannot bundle at line {line}: "
                              f"{out[left.start():out.find(chr(10), left.start())].strip()}")
    return out


def inline_css_imports(path: str, roots: Sequence[str] = SHARE_ROOTS) -> str:
    """The stylesheet at `path` with each @import of an absolute path replaced
    by that stylesheet's text (found under one of `roots`)."""
    with open(path, encoding="utf-8") as f:
        text = f.read()

    def inline(m: re.Match[str]) -> str:
        url = m.group(1)
        for root in roots:
            candidate = os.path.join(root, url.lstrip("/"))
            if os.path.isfile(candidate):
                with open(candidate, encoding="utf-8") as f:
                    return f"/* {url}, inlined by the book from {candidate} */\n{f.read()}\n"
        raise ThemeAssetError(f"theme stylesheet {path} imports {url}, which no published book has and "
                              f"which is not under {', '.join(roots)} either (Debian: node-normalize.css)")

    return CSS_IMPORT.sub(inline, text)


DARK_BLOCK = re.compile(r"@media not print\s*\{")
#: A dark system preference on a screen. `@media not print and (prefers-color-scheme:
#: dark)` would read as "not (print and dark)": true on every light screen and every
#: print (the test site.browser checks light, dark and auto in both preferences, and print).
AUTO_DARK_MEDIA = "@media screen and (prefers-color-scheme: dark)"


def _block_end(text: str, open_brace: int) -> int:
    """The index just after the brace that closes the one at `open_brace`."""
    depth = 0
    for i in range(open_brace, len(text)):
        if text[i] == "{":
            depth += 1
        elif text[i] == "}":
            depth -= 1
            if depth == 0:
                return i + 1
    raise ValueError("unbalanced braces")


def restore_auto_dark(text: str) -> str:
    """The stylesheet with its explicit dark rules also applied when the system
    prefers dark and the reader has not chosen light (see the module's text)."""
    if "prefers-color-scheme" in text or 'body[data-theme="dark"]' not in text:
        return text
    added = []
    for m in DARK_BLOCK.finditer(text):
        brace = m.end() - 1
        inner = text[brace + 1:_block_end(text, brace) - 1]
        if 'body[data-theme="dark"]' in inner:
            added.append(inner.replace('body[data-theme="dark"]', 'body:not([data-theme="light"])'))
    if not added:
        return text
    return (text + "\n/* The dark colours for a dark system preference in \"auto\" mode, from the rules "
            "above (restored by the book: tools/bookpy/ext/theme.py) */\n"
            f"{AUTO_DARK_MEDIA} {{" + "".join(added) + "}\n")


def _write_if_changed(path: str, text: str) -> None:
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except OSError:
        pass
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path + ".tmp", "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(path + ".tmp", path)


def fixed_assets(theme_dirs: Iterable[str]) -> dict:
    """{path under _static: fixed text} for the theme's scripts and stylesheets
    that need fixing."""
    fixed, seen = {}, set()
    for theme_dir in theme_dirs:  # the theme first, then those it inherits from
        static = os.path.join(theme_dir, "static")
        for dirpath, _dirs, files in os.walk(static):
            for name in files:
                path = os.path.join(dirpath, name)
                rel = os.path.relpath(path, static).replace(os.sep, "/")
                if rel in seen:  # a theme's own file hides its parent's
                    continue
                seen.add(rel)
                if name.endswith(".js"):
                    with open(path, encoding="utf-8") as f:
                        original = f.read()
                    text = bundle_script(path) if IMPORT.search(original) else patched(path, original)
                    if text != original:
                        fixed[rel] = text
                elif name.endswith(".css"):
                    with open(path, encoding="utf-8") as f:
                        original = f.read()
                    text = inline_css_imports(path) if CSS_IMPORT.search(original) else original
                    text = restore_auto_dark(text)
                    if text != original:
                        fixed[rel] = text
    return fixed


def builder_inited(app: Sphinx) -> None:
    if app.builder.format != "html" or not getattr(app.builder, "theme", None):
        return
    out = os.path.join(app.doctreedir, "book-theme-static")
    fixed = fixed_assets(app.builder.theme.get_theme_dirs())
    for rel, text in fixed.items():
        _write_if_changed(os.path.join(out, rel), text)
    if fixed:
        logger.info(f"book: fixed the theme's {', '.join(sorted(fixed))}")
        # Copied after the theme's static files, so these replace the broken ones.
        app.config.html_static_path = list(app.config.html_static_path) + [out]


def setup(app: Sphinx) -> None:
    app.connect("builder-inited", builder_inited)
