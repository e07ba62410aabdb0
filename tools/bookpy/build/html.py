# SPDX-License-Identifier: MIT
"""Build the HTML book with Sphinx and publish it only when the build succeeds.

    python3 -m bookpy.build.html <repo> <build-dir> <stamp> [reader|instructor]

Sphinx builds incrementally into <build-dir>/sphinx-stage with warnings as
errors. Only a clean build is copied to <build-dir>/html, by building a new
folder and swapping it in with renames, so a failed build never replaces (or
half-replaces) a good book. The book's extension removes from the stage what
this build no longer makes (the image of a deleted diagram, the page of a
deleted chapter), so the copy holds only what this build made.

After a clean build it writes <stamp>.d, a depfile that lists every file a
page read (chapters, records, listings, diagrams, exercise texts, the build
manifest), for the HTML step's DEPFILE: editing any of them re-runs the step.

Sphinx reads again only the pages whose sources changed; a page's doctree keeps
what the book's extension made of it when it was read. So when the extension's
code (the package tools/bookpy, its tests left out) differs from the code the environment was built with
(its sha256, kept beside the environment), the environment is dropped and
every page is read again: an edit to the extension never leaves pages built by
the old one (extension_changed).
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys

from ..records import manifest
from ..records.checkeval import BookError


def write_depfile(target: str, doctrees: str, extra: list = (), present_only: bool = False) -> None:
    """<target>.d from the list of inputs the extension wrote after the build, and
    extra; with present_only, of those files that exist (sorted, each once)."""
    with open(os.path.join(doctrees, "book-inputs.json"), encoding="utf-8") as f:
        inputs = json.load(f) + list(extra)
    if present_only:
        inputs = sorted(p for p in set(inputs) if os.path.exists(p))

    def esc(p):
        return p.replace("\\", "\\\\").replace(" ", "\\ ").replace("#", "\\#").replace("$", "$$")
    with open(target + ".d.tmp", "w", encoding="utf-8") as f:
        f.write(esc(target) + ":")
        for path in inputs:
            f.write(" \\\n  " + esc(path))
        f.write("\n")
    os.replace(target + ".d.tmp", target + ".d")


def extension_digest(repo: str) -> str:
    """sha256 over the Python sources (path and content) of the package the
    extension is part of (tools/bookpy: it imports the records' and the plots'
    modules too), its tests left out."""
    root = os.path.join(repo, "tools", "bookpy")
    h = hashlib.sha256()
    for d, dirs, files in os.walk(root):  # top-down, in sorted order, the pruned folders unvisited
        dirs[:] = sorted(x for x in dirs if x not in ("__pycache__", "tests"))
        for name in sorted(files):
            if name.endswith(".py"):
                path = os.path.join(d, name)
                h.update(os.path.relpath(path, root).encode() + b"\0")
                with open(path, "rb") as f:
                    h.update(f.read() + b"\0")
    return h.hexdigest()


def extension_changed(repo: str, doctrees: str) -> bool:
    """Whether the extension differs from the one the environment in <doctrees>
    was built with; if so, the environment is removed (every page is read again).
    The digest is written once the build succeeds (record_extension)."""
    try:
        with open(os.path.join(doctrees, "book-extension.sha256"), encoding="utf-8") as f:
            same = f.read().strip() == extension_digest(repo)
    except FileNotFoundError:
        same = False
    if not same:
        try:
            os.unlink(os.path.join(doctrees, "environment.pickle"))
        except FileNotFoundError:
            pass
    return not same


def record_extension(repo: str, doctrees: str) -> None:
    os.makedirs(doctrees, exist_ok=True)
    with open(os.path.join(doctrees, "book-extension.sha256"), "w", encoding="utf-8") as f:
        f.write(extension_digest(repo) + "\n")


def run_sphinx(builder: str, repo: str, build: str, doctrees: str, stage: str, edition: str) -> bool:
    """Sphinx's <builder> (html, latex) over the chapters into <stage>, warnings
    as errors, its environment in <doctrees>; whether it succeeded. Also the PDF's
    step (bookpy.build.pdf). The environment is dropped first when the extension's
    code changed (extension_changed), and after a failure: Sphinx would not read a
    failed page again while it is unchanged, and so would not report it again."""
    env = dict(os.environ, BOOK_BUILD_DIR=build)
    # The instructor edition shows the solutions ({only} instructor blocks).
    tags = ["-t", "instructor"] if edition == "instructor" else []
    # A reviewed sentence the book no longer prints is an error (readertext.py): read
    # page by page, as the HTML builder writes them.
    if builder == "html":
        tags += ["-D", "book_reviewed_stale=1"]
    cmd = [sys.executable, "-m", "sphinx", "-b", builder, "-W", "--keep-going", "-q", *tags,
           "-d", doctrees, "-c", os.path.join(repo, "book"), os.path.join(repo, "chapters"), stage]
    extension_changed(repo, doctrees)
    if subprocess.run(cmd, env=env).returncode == 0:
        return True
    try:
        os.unlink(os.path.join(doctrees, "environment.pickle"))
    except FileNotFoundError:
        pass
    return False


def tests_notice(build: str) -> None:
    """One line when the build did not build the tests: no question is checked."""
    try:
        m = manifest.read(os.path.join(build, manifest.MANIFEST))
    except BookError:
        return  # Sphinx has already said what is wrong with it
    if m.cy_tags is None:
        print("build-html: the tests were not built, so no check-yourself answer is checked "
              "against a test or marked as tested")


def main() -> int:
    repo, build, stamp = sys.argv[1:4]
    edition = sys.argv[4] if len(sys.argv) > 4 else "reader"
    stage = os.path.join(build, "sphinx-stage")
    doctrees = os.path.join(build, "sphinx-doctrees")
    html = os.path.join(build, "html")
    if not run_sphinx("html", repo, build, doctrees, stage, edition):
        print(f"build-html: Sphinx failed; the published book at {html} is unchanged", file=sys.stderr)
        return 1
    record_extension(repo, doctrees)
    tests_notice(build)
    write_depfile(stamp, doctrees)
    new, old = html + ".new", html + ".old"
    for d in (new, old):
        shutil.rmtree(d, ignore_errors=True)
    shutil.copytree(stage, new, ignore=shutil.ignore_patterns(".buildinfo", ".doctrees"))
    if os.path.exists(html):
        os.rename(html, old)
    os.rename(new, html)
    shutil.rmtree(old, ignore_errors=True)
    with open(stamp, "w") as f:
        f.write(os.path.join(html, "index.html") + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
