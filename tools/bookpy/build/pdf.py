# SPDX-License-Identifier: MIT
"""Build the PDF edition: Sphinx's LaTeX builder, then XeLaTeX (latexmk).

    python3 -m bookpy.build.pdf <repo> <build-dir> <out.pdf> [reader|instructor]

Sphinx writes <build-dir>/latex-stage (warnings as errors, its own doctrees in
<build-dir>/latex-doctrees), latexmk runs XeLaTeX and makeindex there as often
as the cross-references need, and only a PDF that built cleanly is copied to
<out.pdf>, atomically: a failed build leaves the last good PDF where it was.
Then the HTML book is published once more (bookpy.build.html), so that every
page's sidebar links the new PDF. Writes <out.pdf>.d, a depfile of every file
a page read, for the PDF step's DEPFILE, and <out.pdf>.made-from.json, the
sha256 of the PDF and of what it was built from (the site's pdf-current check).

On failure it names what failed: Sphinx's own messages (file:line), or the
first LaTeX error from book.log with its line.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import time

from ..ext.pdfedition import MADE_FROM, file_sha256
from . import html as html_step


def made_from(out: str, doctrees: str, html_doctrees: str) -> None:
    """<out>.made-from.json: the PDF's sha256, that of every file its pages read
    (as Sphinx's LaTeX run read them) and of every file the HTML pages read (as
    they are now), which the site compares to tell whether this PDF is the book
    as it is (tools/bookpy/ext/pdfedition.py, pdf_stale)."""
    with open(os.path.join(doctrees, "book-inputs.sha256.json"), encoding="utf-8") as f:
        inputs = json.load(f)
    html = {}
    try:
        with open(os.path.join(html_doctrees, "book-inputs.json"), encoding="utf-8") as f:
            for path in json.load(f):
                digest = file_sha256(path)
                if digest is not None:
                    html[path] = digest
    except (OSError, ValueError):
        pass
    record = {"pdf": file_sha256(out), "inputs": inputs, "html": html}
    with open(out + MADE_FROM + ".tmp", "w", encoding="utf-8") as f:
        json.dump(record, f, indent=0, sort_keys=True)
    os.replace(out + MADE_FROM + ".tmp", out + MADE_FROM)


def latex_error(log: str) -> str:
    """The first error of a LaTeX log, with its file:line where it gives one."""
    try:
        with open(log, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return "no log was written"
    m = re.search(r"^(\./[^\s:]+:\d+: .*)$", text, re.M) or re.search(r"^(! .*)$", text, re.M)
    if not m:
        return "see " + log
    after = text[m.end():m.end() + 400].strip().splitlines()
    context = " ".join(line.strip() for line in after[:3] if line.strip())
    return f"{m.group(1)} {context}".strip()


def main() -> int:
    repo, build, out = sys.argv[1:4]
    edition = sys.argv[4] if len(sys.argv) > 4 else "reader"
    stage = os.path.join(build, "latex-stage")
    doctrees = os.path.join(build, "latex-doctrees")
    started = time.monotonic()
    if not html_step.run_sphinx("latex", repo, build, doctrees, stage, edition):
        print(f"build-pdf: Sphinx (LaTeX) failed; {out} is unchanged", file=sys.stderr)
        return 1
    sphinx_s = time.monotonic() - started
    latexmk = shutil.which("latexmk")
    if not latexmk or not shutil.which("xelatex"):
        print("build-pdf: the PDF needs latexmk and XeLaTeX (Debian: latexmk texlive-xetex); "
              "`tools/book deps` installs them", file=sys.stderr)
        return 1
    tex_env = dict(os.environ, LATEXOPTS="-interaction=nonstopmode -halt-on-error -file-line-error")
    proc = subprocess.run([latexmk, "-pdf", "-dvi-", "-ps-", "-silent", "book.tex"], cwd=stage,
                          env=tex_env, capture_output=True, text=True)
    pdf = os.path.join(stage, "book.pdf")
    if proc.returncode != 0 or not os.path.exists(pdf):
        print(f"build-pdf: XeLaTeX failed: {latex_error(os.path.join(stage, 'book.log'))}",
              file=sys.stderr)
        print(f"build-pdf: the full log is {os.path.join(stage, 'book.log')}; {out} is unchanged",
              file=sys.stderr)
        return 1
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    shutil.copyfile(pdf, out + ".tmp")
    os.replace(out + ".tmp", out)
    html_step.record_extension(repo, doctrees)
    made_from(out, doctrees, os.path.join(build, "sphinx-doctrees"))
    html_step.write_depfile(out, doctrees, [os.path.join(repo, "book", "conf.py")], present_only=True)
    latex_s = time.monotonic() - started - sphinx_s
    print(f"build-pdf: {out} (Sphinx {sphinx_s:.0f} s, XeLaTeX {latex_s:.0f} s)")
    # The site links the PDF from every page once it exists: publish it again.
    stamp = os.path.join(build, "html.stamp")
    html = subprocess.run([sys.executable, "-m", "bookpy.build.html", repo, build, stamp, edition])
    if html.returncode != 0:
        print("build-pdf: the PDF is built, but publishing the HTML book with its link failed",
              file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
