# SPDX-License-Identifier: MIT
"""The chapters' source files, as every reader of chapters/ finds them (the
lints, the claims' check, the answers' mutations, the drift table; the
extension's own rule is common.chapter_of, the same layout by page name).

A chapter <key> (chNN-<name>) is its page, chapters/<key>.md (its title, its
opening text and the table of contents of its sections), and, where the chapter
is split into pages, one page per section in chapters/<key>/NN-<name>.md, read
in the order of their numbers. A problem found in a chapter is reported at the
file that holds it, chapters/<key>/NN-<name>.md:<line>, never at the chapter.
"""
from __future__ import annotations

import os
import re

#: A chapter key, chNN-<name>, and a section page's name, NN-<name> (the extension's
#: page names are built from the same two: bookpy.ext.common.CHAPTER_DOC).
KEY_PATTERN = r"ch[0-9][0-9]-[a-z0-9][a-z0-9-]*"
SECTION_PATTERN = r"[0-9][0-9]-[a-z0-9][a-z0-9-]*"
#: The chapter's page, chapters/<key>.md.
CHAPTER_FILE = re.compile(rf"({KEY_PATTERN})\.md")
#: One of its section pages, chapters/<key>/NN-<name>.md.
SECTION_FILE = re.compile(rf"{SECTION_PATTERN}\.md")
KEY = re.compile(KEY_PATTERN)


def chapter_keys(chapters: str) -> list[str]:
    """The keys of the chapters in the folder chapters (those with a page <key>.md)."""
    return sorted(m.group(1) for m in map(CHAPTER_FILE.fullmatch, os.listdir(chapters)) if m)


def chapter_files(chapters: str, key: str) -> list[str]:
    """The files of chapter key, in reading order: its page, then its sections'."""
    files = []
    page = os.path.join(chapters, key + ".md")
    if os.path.isfile(page):
        files.append(page)
    folder = os.path.join(chapters, key)
    if os.path.isdir(folder):
        files += [os.path.join(folder, f) for f in sorted(os.listdir(folder)) if SECTION_FILE.fullmatch(f)]
    return files


def all_chapter_files(chapters: str) -> list[str]:
    """Every chapter's files, chapter by chapter: the keys with a page <key>.md or
    a folder <key>/ of sections."""
    keys = set(chapter_keys(chapters)) | {
        d for d in os.listdir(chapters) if KEY.fullmatch(d) and os.path.isdir(os.path.join(chapters, d))}
    return [f for key in sorted(keys) for f in chapter_files(chapters, key)]


def key_of(path: str) -> str | None:
    """The chapter key of a chapter's file (chapters/<key>.md or
    chapters/<key>/NN-<name>.md), or None."""
    name, parent = os.path.basename(path), os.path.basename(os.path.dirname(os.path.abspath(path)))
    m = CHAPTER_FILE.fullmatch(name)
    if m:
        return m.group(1)
    if SECTION_FILE.fullmatch(name) and KEY.fullmatch(parent):
        return parent
    return None


def chapters_folder(path: str) -> str:
    """The folder chapters/ that holds a chapter's file (its page or a section's)."""
    folder = os.path.dirname(os.path.abspath(path))
    if SECTION_FILE.fullmatch(os.path.basename(path)) and KEY.fullmatch(os.path.basename(folder)):
        return os.path.dirname(folder)
    return folder
