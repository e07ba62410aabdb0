# SPDX-License-Identifier: MIT
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

The chapter's programs are a download too (cmake/BookPackPrograms.cmake), listed
in ``BUILD/downloads/programs.json`` with the source archive of the commit the
book is built from (cmake/BookPackSource.cmake, ``source.json``)::

    {"programs": {"<key>": "<abs path>.tar.gz"}, "source": "<abs path>/source.json"}

A box after a chapter's opening paragraph links its programs' archive
(ProgramsDownload); ``source_archive`` gives the pages the source archive.
"""
from __future__ import annotations

import os
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx import addnodes
from sphinx.transforms import SphinxTransform
from sphinx.util import logging

from .common import BookError, chapter_of, is_chapter_page, load_json
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


PROGRAMS = "programs.json"


def programs_list(config: Config) -> dict:
    """programs.json, or {} where the build made none."""
    path = os.path.join(os.path.dirname(list_path(config)), PROGRAMS)
    if not os.path.exists(path):
        return {}
    data = load_json(path, "program downloads")
    if not isinstance(data, dict) or not isinstance(data.get("programs", {}), dict):
        raise BookError(f"program downloads {path}: should read " + '{"programs": {"<key>": ...}, "source": ...}')
    return data


def source_archive(config: Config, env: Any = None) -> dict:
    """{"commit", "archive", "changed"} of the source archive the build made, or {}."""
    try:
        path = programs_list(config).get("source")
        if not path or not os.path.exists(path):
            return {}
        if env is not None:
            env.note_dependency(path)
        data = load_json(path, "source archive")
    except BookError:
        return {}
    if not isinstance(data, dict) or not data.get("archive") or not os.path.isfile(data["archive"]):
        return {}
    return data


def download_link(docname: str, docdir: str, archive: str) -> addnodes.download_reference:
    name = os.path.basename(archive)
    ref = addnodes.download_reference("", "", refdoc=docname, refexplicit=True,
                                      reftarget=os.path.relpath(archive, docdir))
    ref += nodes.literal(name, name)
    return ref


class ProgramsDownload(SphinxTransform):
    """After a chapter's opening paragraph, the link to its programs' archive."""
    default_priority = 870

    def apply(self, **kwargs: Any) -> None:
        docname = self.env.docname
        chapter = chapter_of(docname)
        top = next(iter(self.document.findall(nodes.section)), None)
        if chapter is None or top is None or not is_chapter_page(docname):  # not a section's page
            return
        path = os.path.join(os.path.dirname(list_path(self.config)), PROGRAMS)
        if os.path.exists(path):
            self.env.note_dependency(path)
        try:
            archive = programs_list(self.config).get("programs", {}).get(chapter)
        except BookError as e:
            logger.warning(str(e), location=(docname, 1))
            return
        if not archive or not os.path.isfile(archive):
            return
        opening = next((c for c in top.children if isinstance(c, nodes.paragraph)), None)
        at = top.index(opening) + 1 if opening is not None else 1
        docdir = os.path.dirname(self.env.doc2path(docname))
        box = nodes.container(classes=["book-download", "book-programs-download"])
        para = nodes.paragraph()
        para += nodes.strong(text="Download the programs: ")
        para += download_link(docname, docdir, archive)
        para += nodes.Text(f" ({_size(os.path.getsize(archive))}): every program of this chapter with the "
                           "book's small library, a CMakeLists.txt to build them on their own, and a "
                           "README with the commands that build them and print each output below.")
        box += para
        top.insert(at, box)


#: Where the HTML book holds the source archive (copied at build-finished).
SOURCE_DIR = "_downloads/source"


def source_archive_link(app: Sphinx, docname: str) -> tuple[nodes.Node, str] | None:
    """HTML, where the build made a source archive: a link to it from `docname`
    and its commit; elsewhere None (the PDF names the repository, or nothing)."""
    if app.builder.format != "html":
        return None
    data = source_archive(app.config, app.env)
    if not data:
        return None
    name = os.path.basename(data["archive"])
    uri = "../" * docname.count("/") + f"{SOURCE_DIR}/{name}"
    ref = nodes.reference("", "", refuri=uri, classes=["book-source-archive"])
    ref += nodes.literal(name, name)
    return ref, str(data.get("commit", ""))


def source_archive_finished(app: Sphinx, exception: Exception | None) -> None:
    """build-finished, after publish.py removes what this build did not write
    (500) and before it checks every link (900): the source archive in place."""
    import shutil
    if exception is not None or app.builder.format != "html":
        return
    data = source_archive(app.config)
    if not data:
        return
    folder = os.path.join(app.outdir, SOURCE_DIR)
    os.makedirs(folder, exist_ok=True)
    shutil.copyfile(data["archive"], os.path.join(folder, os.path.basename(data["archive"])))


def source_commit_outdated(app: Sphinx, env: Any, added: set, changed: set,
                           removed: set) -> list[str]:
    """env-get-outdated: every page is read again when the source archive's commit
    changes, since any of them may link the archive (its name holds the commit) and
    a page left as it was would link an archive this build no longer holds."""
    data = source_archive(app.config)
    commit = str(data.get("commit", "")) if data else ""
    if getattr(env, "book_source_commit", None) == commit:
        return []
    env.book_source_commit = commit
    return sorted(d for d in env.found_docs if d not in added and d not in changed)


def setup(app: Sphinx) -> None:
    app.connect("env-get-outdated", source_commit_outdated)
    app.connect("build-finished", source_archive_finished, priority=850)
    app.add_transform(ExerciseDownload)
    app.add_transform(ProgramsDownload)
