"""A download per chapter of its exercises: the starter code, the visible tests
and the build files, never a solution or a hidden test.

The build makes one archive per chapter that has exercises (cmake/BookSite.cmake
runs the student-bundle command for it) and lists them in
``BUILD/downloads/downloads.json``::

    {"chapters": {"<key>": {"archive": "<abs path>.tar.gz", "exercises": ["<ex>", ...]}}}

On a chapter's page, before its first exercise, a box links the archive (the
builder copies it beside the pages). A chapter with exercises that the list
does not name is an error once the build has made any list; without a list
(a build folder from before downloads, a test's scratch tree) no box is shown.
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms import SphinxTransform
from sphinx.util import logging

from .common import BookError, chapter_of, load_json
from .config import downloads_file

if TYPE_CHECKING:
    from typing import Any

    from sphinx.application import Sphinx
    from sphinx.config import Config

logger = logging.getLogger(__name__)


def list_path(config: Config) -> str:
    return downloads_file(config)


def downloads(config: Config) -> dict | None:
    """{chapter key: {"archive", "exercises"}}, or None where the build made none."""
    path = list_path(config)
    if not os.path.exists(path):
        return None
    data = load_json(path, "exercise downloads")
    chapters = data.get("chapters") if isinstance(data, dict) else None
    if not isinstance(chapters, dict) or not all(
            isinstance(v, dict) and isinstance(v.get("archive"), str) for v in chapters.values()):
        raise BookError(f"exercise downloads {path}: should read "
                        '{"chapters": {"<key>": {"archive": ..., "exercises": [...]}}}')
    return chapters


def _size(n: int) -> str:
    return f"{n / 1024:.0f} KB" if n >= 1024 else f"{n} bytes"


class ExerciseDownload(SphinxTransform):
    """Before a chapter's first exercise, the link to its exercises' archive."""
    default_priority = 870  # before doctree-read (880), where the download collector looks

    def apply(self, **kwargs: Any) -> None:
        docname = self.env.docname
        chapter = chapter_of(docname)
        first = next(iter(self.document.findall(
            lambda n: isinstance(n, nodes.section) and "book-exercise" in n["classes"])), None)
        if chapter is None or first is None:
            return
        if os.path.exists(list_path(self.config)):
            self.env.note_dependency(list_path(self.config))
        try:
            listed = downloads(self.config)
        except BookError as e:
            logger.warning(str(e), location=first)
            return
        if listed is None:
            return
        entry = listed.get(chapter)
        if entry is None:
            logger.warning(f"chapter {chapter} has exercises, but the build made no download of them "
                           "(downloads.json has no entry): build through CMake", location=first)
            return
        archive = entry["archive"]
        if not os.path.isfile(archive):
            logger.warning(f"the exercises' download {archive} was not built; build through CMake",
                           location=first)
            return
        docdir = os.path.dirname(self.env.doc2path(docname))
        name = os.path.basename(archive)
        box = nodes.container(classes=["book-download"])
        para = nodes.paragraph()
        para += nodes.strong(text="Download the exercises: ")
        ref = addnodes.download_reference("", "", refdoc=docname, refexplicit=True,
                                          reftarget=os.path.relpath(archive, docdir))
        ref += nodes.literal(name, name)
        para += ref
        count = len(entry.get("exercises", []))
        what = f"the {count} exercise{'s' if count != 1 else ''} of this chapter" if count else \
            "this chapter's exercises"
        para += nodes.Text(f" ({_size(os.path.getsize(archive))}): {what}, with the starter code, "
                           "the tests you can see and the files to build them. No solutions, and "
                           "none of the grader's hidden tests.")
        box += para
        first.parent.insert(first.parent.index(first), box)


def setup(app: Sphinx) -> None:
    app.add_transform(ExerciseDownload)
