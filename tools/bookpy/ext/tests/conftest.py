# SPDX-License-Identifier: MIT
"""Helpers for the extension's tests: the fixture chapter tree and a Sphinx
build of it, in process (no interpreter started per build)."""
from __future__ import annotations

import io
import json
import os
import shutil
import sys

import pytest

from bookpy import ROOT

HERE = os.path.dirname(os.path.abspath(__file__))
BOOK = os.path.join(ROOT, "book")
FIXTURE = os.path.join(HERE, "fixtures")
sys.dont_write_bytecode = True


class Tree:
    """A copy of the fixture tree: repo/ (chapters, code, ...) and build/."""

    def __init__(self, base: str):
        self.base = base
        self.repo = os.path.join(base, "repo")
        self.build = os.path.join(base, "build")
        shutil.copytree(os.path.join(FIXTURE, "repo"), self.repo)
        shutil.copytree(os.path.join(FIXTURE, "build"), self.build)

    def path(self, rel: str) -> str:
        return os.path.join(self.base, rel)

    def write(self, rel: str, text: str) -> str:
        p = self.path(rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w", encoding="utf-8") as f:
            f.write(text)
        return p

    def read(self, rel: str) -> str:
        with open(self.path(rel), encoding="utf-8") as f:
            return f.read()

    def edit_json(self, rel: str, change) -> None:
        data = json.loads(self.read(rel))
        change(data)
        self.write(rel, json.dumps(data, indent=2) + "\n")

    def touch_later(self, rel: str) -> None:
        """Make a file look newer than the last build (mtime resolution)."""
        st = os.stat(self.path(rel))
        os.utime(self.path(rel), ns=(st.st_atime_ns, st.st_mtime_ns + 2_000_000_000))

    def sphinx(self, builder: str = "html", tags=(), strict: bool = True, **overrides):
        """Build; returns (status text, warnings text, the app)."""
        from docutils import nodes
        from docutils.parsers.rst import directives, roles
        from sphinx.application import Sphinx
        from sphinx.locale import translators
        status, warnings = io.StringIO(), io.StringIO()
        conf = {"book_source_root": self.repo, "book_build_dir": self.build}
        conf.update(overrides)
        # What a build registers process-wide, put back afterwards (as sphinx.testing does),
        # so that the next build in this process starts as a fresh one would.
        saved = (sys.path[:], dict(directives._directives), dict(roles._roles),
                 set(dir(nodes.GenericNodeVisitor)))
        try:
            app = Sphinx(os.path.join(self.repo, "chapters"), BOOK, self.path(f"out/{builder}"),
                         self.path("doctrees"), builder, confoverrides=conf, status=status,
                         warning=warnings, warningiserror=False, tags=list(tags), keep_going=True)
            app.build()
        finally:
            translators.clear()
            sys.path[:] = saved[0]
            directives._directives, roles._roles = saved[1], saved[2]
            for method in set(dir(nodes.GenericNodeVisitor)) - saved[3]:
                if method.startswith("visit_"):
                    delattr(nodes.GenericNodeVisitor, method)
                    delattr(nodes.GenericNodeVisitor, "depart_" + method[6:])
        return status.getvalue(), warnings.getvalue(), app

    def html(self, doc: str = "ch90-fixture") -> str:
        return self.read(f"out/html/{doc}.html")


@pytest.fixture
def tree(tmp_path):
    return Tree(str(tmp_path))


def visible(html: str) -> str:
    """The text a reader sees in a page's article (tags and attributes removed)."""
    import html as htmllib
    import re
    body = html[html.index("<article"):html.index("</article>")]
    return htmllib.unescape(re.sub(r"<[^>]+>", "", body))
