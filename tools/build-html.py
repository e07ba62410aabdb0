#!/usr/bin/env python3
"""Build the HTML book with Sphinx and publish it only when the build succeeds.

    build-html.py <repo> <build-dir> <stamp> [reader|instructor]

Sphinx builds incrementally into <build-dir>/sphinx-stage with warnings as
errors. Only a clean build is copied to <build-dir>/html, by building a new
folder and swapping it in with renames, so a failed build never replaces (or
half-replaces) a good book.
"""
import os
import shutil
import subprocess
import sys


def main() -> int:
    repo, build, stamp = sys.argv[1:4]
    edition = sys.argv[4] if len(sys.argv) > 4 else "reader"
    stage = os.path.join(build, "sphinx-stage")
    doctrees = os.path.join(build, "sphinx-doctrees")
    html = os.path.join(build, "html")
    env = dict(os.environ, BOOK_BUILD_DIR=build)
    # The instructor edition shows the solutions ({only} instructor blocks).
    tags = ["-t", "instructor"] if edition == "instructor" else []
    cmd = [sys.executable, "-m", "sphinx", "-b", "html", "-W", "--keep-going", "-q", *tags,
           "-d", doctrees, "-c", os.path.join(repo, "book"), os.path.join(repo, "chapters"), stage]
    proc = subprocess.run(cmd, env=env)
    if proc.returncode != 0:
        print(f"build-html: Sphinx failed; the published book at {html} is unchanged", file=sys.stderr)
        # Sphinx would not re-read a failed page that has not changed, and so would
        # not report it again: drop its environment so the next build reads all.
        try:
            os.unlink(os.path.join(doctrees, "environment.pickle"))
        except FileNotFoundError:
            pass
        return 1
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
