#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The PDF edition, page by page: every page rendered to PNG with poppler's
pdftoppm, and none of them blank.

    check_pdf.py --pdf <book.pdf> [--log <book.log>] [--min-pages N]
                 [--expect-text TEXT]... [--titles-from <chapters folder>] [--out <folder>]
                 [--glossary-of <glossary.html>] [--tagged]

Fails when the PDF cannot be read, when its page count differs from the one
XeLaTeX reported in <book.log> ("Output written on book.pdf (N pages"), is
under --min-pages, or differs from the number of pages rendered; when a
rendered page is blank (fewer than 0.1 % of its pixels differ from white);
when the log reports a character missing from the fonts (XeLaTeX drops such
a glyph silently: a "⌈" would vanish from the page); or when an --expect-text
is not in the PDF's text (pdftotext). --titles-from expects the title (first
line, "# ...") of every page of the book's sources in the text, and at least
one page per source page more than their number (the title page).
--glossary-of: the site's glossary page; the PDF must hold the same glossary,
every term of it, in order, after the PDF's heading "Glossary" at the end of
the book. --tagged: the PDF must be tagged (pdfinfo's "Tagged: yes"). A number that a
long line of code or output breaks over two lines (a line that ends inside a
number, the next going on after the wrap mark: "99." then "↪2%") is a problem (broken_numbers). The PNGs
go to <out> (default: a temporary folder, removed).
"""
import argparse
import glob
import html
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unicodedata

from site_report import finish

BLANK_FRACTION = 0.001


def pages_of(pdf: str) -> int:
    out = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True)
    m = re.search(r"^Pages:\s+(\d+)", out.stdout, re.M)
    if out.returncode != 0 or not m:
        raise SystemExit(f"check_pdf: pdfinfo cannot read {pdf}: {out.stderr.strip()}")
    return int(m.group(1))


def glossary_terms(path: str) -> list:
    """The terms (<dt>) of the site's glossary page, in order."""
    import html
    with open(path, encoding="utf-8") as f:
        page = f.read()
    return [html.unescape(re.sub(r"<[^>]+>", "", t)).strip()
            for t in re.findall(r"<dt[^>]*>(.*?)</dt>", page, re.S)]


def glossary_problems(flat: str, terms: list) -> list:
    """The PDF's text (plain()) holds its glossary, after the last heading
    "Glossary": each term in turn."""
    if not terms:
        return ["the site's glossary lists no term"]
    at = flat.rfind("Glossary ")
    if at < 0:
        return ["the PDF has no glossary"]
    for term in terms:
        found = flat.find(plain(term), at)
        if found < 0:
            return [f"the PDF's glossary lacks the term \"{term}\" (of {len(terms)} in the site's)"]
        at = found + len(plain(term))
    return []


def bookmarks(pdf: str) -> list:
    """The titles of the PDF's outline (its bookmarks), read with poppler's
    pdftohtml (-xml writes the outline as <item> elements)."""
    xml = subprocess.run(["pdftohtml", "-xml", "-i", "-q", "-stdout", pdf], capture_output=True,
                         text=True, errors="replace").stdout
    outline = xml[xml.find("<outline>"):] if "<outline>" in xml else ""
    return [html.unescape(re.sub(r"<[^>]+>", "", t)).strip()
            for t in re.findall(r"<item[^>]*>(.*?)</item>", outline, re.S)]


def outline_top(pdf: str) -> list:
    """The titles of the outline's top level (its chapters), in order."""
    import xml.etree.ElementTree as ET
    xml = subprocess.run(["pdftohtml", "-xml", "-i", "-q", "-stdout", pdf], capture_output=True,
                         text=True, errors="replace").stdout
    start, end = xml.find("<outline>"), xml.rfind("</outline>")
    if start < 0 or end < 0:
        return []
    try:
        tree = ET.fromstring(xml[start:end + len("</outline>")])
    except ET.ParseError:
        return []
    return [" ".join("".join(item.itertext()).split()) for item in tree.findall("item")]


def structure_problems(pdf: str, chapters: list, front: str, not_top: list) -> list:
    """The book's structure: its front matter (`front`), then each chapter, at the
    top of the outline in order; the front page's own sections (`not_top`) not
    there; each chapter opening at the top of a page; Title, Author and Subject
    in the metadata; web links (URIs) in the pages."""
    out = []
    top = outline_top(pdf)
    have = [plain(t) for t in top]
    wanted = [front] + chapters
    at = -1
    for title in wanted:
        if plain(title) not in have:
            out.append(f"the outline's top level does not hold \"{title}\" (it holds: {'; '.join(top[:8])})")
            continue
        i = have.index(plain(title))
        if i < at:
            out.append(f"the outline puts \"{title}\" before the chapters it follows")
        at = i
    for title in dict.fromkeys(not_top):
        if plain(title) in have:
            out.append(f"the outline lists the section \"{title}\" as a chapter")
    info = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True).stdout
    for field in ("Title", "Author", "Subject"):
        if not re.search(rf"^{field}:\s+\S", info, re.M):
            out.append(f"the PDF has no {field} in its metadata")
    urls = subprocess.run(["pdfinfo", "-url", pdf], capture_output=True, text=True).stdout
    if not re.search(r"https?://", urls):
        out.append("the PDF has no web links")
    for title in chapters:
        found = False
        for n in range(1, pages_of(pdf) + 1):
            page = subprocess.run(["pdftotext", "-f", str(n), "-l", str(n), "-layout", pdf, "-"],
                                  capture_output=True, text=True).stdout
            lines = [plain(x) for x in page.splitlines() if x.strip()]
            if any(plain(title) in x for x in lines[:3]):
                found = True
                break
        if not found:
            out.append(f"chapter \"{title}\" does not open at the top of a page")
    return out


def plain(text: str) -> str:
    """Text compared as a reader reads it: ligatures and typographic quotes and
    dashes as plain characters, runs of white space as one space."""
    text = unicodedata.normalize("NFKC", text)
    for fancy, simple in (("\u2018", "'"), ("\u2019", "'"), ("\u201c", '"'), ("\u201d", '"'),
                          ("\u2013", "-"), ("\u2014", "-")):
        text = text.replace(fancy, simple)
    return " ".join(text.split())


#: The mark LaTeX (sphinxVerbatim) sets at the start of a wrapped line's rest, as
#: pdftotext reads it: "↪", or ",→" (Computer Modern's hook and arrow).
WRAP_MARK = re.compile("^\\s*(\u21aa|,?\u2192)\\s*")
#: The mark at the end of a line wrapped at a space (verbatimvisiblespace).
VISIBLE_SPACE = "\u2423"


def broken_numbers(text: str) -> list:
    """Each place where a wrapped line breaks a number: the line before a wrap
    mark ends in a digit (or a digit and '.' or ','), not at a space (which the
    wrap marks with a visible space), and the rest after the mark begins with a
    digit or '%'. (pdftotext -layout text.)"""
    out = []
    lines = text.splitlines()
    for i in range(1, len(lines)):
        m = WRAP_MARK.match(lines[i])
        if not m:
            continue
        rest = lines[i][m.end():]
        before = lines[i - 1].rstrip()
        if re.search(r"[0-9][.,]?$", before) and re.match(r"[0-9%]", rest):
            out.append(f"a line is wrapped inside a number: \"{before[-30:].strip()}\" / "
                       f"\"{m.group(1)}{rest[:20]}\"")
    return out


def ink(png: str) -> float:
    """The fraction of a page's pixels that are not (nearly) white."""
    from PIL import Image
    with Image.open(png) as im:
        gray = im.convert("L")
        hist = gray.histogram()
        total = sum(hist)
        return sum(hist[:245]) / total if total else 0.0


def titles_from(a) -> list:
    """With --titles-from, every page's title is looked for in the text (and, with
    --bookmark, in the bookmarks), and a section's page must not be at the
    outline's top; the chapters' titles, in order."""
    chapters = []
    if a.titles_from:
        sources = sorted(glob.glob(os.path.join(a.titles_from, "*.md")))
        for path in sources:
            with open(path, encoding="utf-8") as f:
                # (its title: the first line that is a level-one heading; MyST
                # comments, such as the SPDX line, may come before it)
                first = next((line for line in f if line.startswith("# ")), "")
            if first.startswith("# "):
                a.expect_text.append(re.sub(r"[`*_]", "", first[2:]).strip())
                if re.match(r"ch\d", os.path.basename(path)):
                    chapters.append(a.expect_text[-1])
                    if a.bookmark:
                        a.bookmark.append(a.expect_text[-1])  # (a chapter's; the front page's is the cover)
        a.min_pages = max(a.min_pages, len(sources) + 1)
        # A chapter's sections' pages (chapters/<key>/NN-<name>.md) are sections of
        # its chapter in the PDF: in its bookmarks, never at the outline's top.
        for path in sorted(glob.glob(os.path.join(a.titles_from, "ch[0-9][0-9]-*", "[0-9][0-9]-*.md"))):
            with open(path, encoding="utf-8") as f:
                first = next((line for line in f if line.startswith("# ")), "")
            if first.startswith("# "):
                title = re.sub(r"[`*_]", "", first[2:]).strip()
                a.not_top.append(title)
                if a.bookmark:
                    a.bookmark.append(title)
    return chapters


def log_problems(log_path: str, pages: int) -> list:
    """What XeLaTeX's log says is wrong: a page count other than the PDF's, or a
    character missing from the fonts."""
    problems = []
    with open(log_path, encoding="utf-8", errors="replace") as f:
        log = f.read()
    m = re.search(r"Output written on \S+ \((\d+) pages?", log)
    if not m:
        problems.append(f"{log_path} does not say how many pages XeLaTeX wrote")
    elif int(m.group(1)) != pages:
        problems.append(f"XeLaTeX wrote {m.group(1)} pages, but the PDF has {pages}")
    for miss in sorted(set(re.findall(r"Missing character: There is no (.+?) in font (\S+)", log))):
        problems.append(f"a character is missing from the fonts, so it is not on the page: {miss[0]} "
                        f"(font {miss[1]})")
    return problems


def page_problems(a, pages: int) -> list:
    """Each page rendered (none blank, as many as the PDF has), and the text: no
    number broken by a wrap, every --expect-text there, the glossary's terms."""
    problems = []
    out = a.out or tempfile.mkdtemp(prefix="book-pdf-pages-")
    try:
        os.makedirs(out, exist_ok=True)
        for old in glob.glob(os.path.join(out, "page-*.png")):
            os.unlink(old)
        r = subprocess.run(["pdftoppm", "-r", "24", "-gray", "-png", a.pdf, os.path.join(out, "page")],
                           capture_output=True, text=True)
        if r.returncode != 0:
            problems.append(f"pdftoppm cannot render the PDF: {r.stderr.strip()}")
        pngs = sorted(glob.glob(os.path.join(out, "page-*.png")))
        if r.returncode == 0 and len(pngs) != pages:
            problems.append(f"pdftoppm rendered {len(pngs)} pages of {pages}")
        for png in pngs:
            number = int(re.search(r"-(\d+)\.png$", png).group(1))
            if ink(png) < BLANK_FRACTION:
                problems.append(f"page {number} is blank")
        text = subprocess.run(["pdftotext", "-layout", a.pdf, "-"], capture_output=True, text=True).stdout
        problems += broken_numbers(text)[:5]
        flat = plain(text)
        for want in a.expect_text:
            if plain(want) not in flat:
                problems.append(f"the PDF's text does not contain \"{want}\"")
        if a.glossary_of:
            problems += glossary_problems(plain(subprocess.run(["pdftotext", a.pdf, "-"], capture_output=True,
                                                               text=True).stdout),
                                          glossary_terms(a.glossary_of))
    finally:
        if not a.out:
            shutil.rmtree(out, ignore_errors=True)
    return problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pdf", required=True)
    ap.add_argument("--log")
    ap.add_argument("--min-pages", type=int, default=1)
    ap.add_argument("--expect-text", action="append", default=[])
    ap.add_argument("--titles-from")
    ap.add_argument("--out")
    ap.add_argument("--glossary-of")
    ap.add_argument("--tagged", action="store_true")
    ap.add_argument("--structure", metavar="FRONT",
                    help="the book's structure (structure_problems): FRONT, the front matter's title, "
                         "then every chapter of --titles-from at the outline's top level")
    ap.add_argument("--not-top", action="append", default=[],
                    help="a section of the front page that must not be a chapter of the outline")
    ap.add_argument("--bookmark", action="append", default=[],
                    help="a title the PDF's bookmarks must hold (with --titles-from: every chapter's too)")
    a = ap.parse_args()
    chapters = titles_from(a)
    for tool in ("pdfinfo", "pdftoppm", "pdftotext", "pdftohtml"):
        if not shutil.which(tool):
            print(f"check_pdf: needs {tool} (Debian: poppler-utils)", file=sys.stderr)
            return 1
    if not os.path.isfile(a.pdf):
        print(f"check_pdf: {a.pdf} does not exist: build it with `cmake --build --preset book "
              "--target pdf` (or tools/book pdf)", file=sys.stderr)
        return 1
    problems = []
    pages = pages_of(a.pdf)
    if a.tagged:
        info = subprocess.run(["pdfinfo", a.pdf], capture_output=True, text=True).stdout
        if not re.search(r"^Tagged:\s+yes", info, re.M):
            problems.append("the PDF is not tagged (pdfinfo: "
                            f"{(re.findall(r'^Tagged:.*', info, re.M) or ['no Tagged line'])[0].strip()})")
    if a.bookmark:
        have = {plain(t) for t in bookmarks(a.pdf)}
        for want in a.bookmark:
            if plain(want) not in have:
                problems.append(f"the PDF's bookmarks do not hold \"{want}\"")
    if a.structure:
        problems += structure_problems(a.pdf, chapters, a.structure, a.not_top)
    if pages < a.min_pages:
        problems.append(f"the PDF has {pages} pages, fewer than the {a.min_pages} its contents need")
    if a.log:
        problems += log_problems(a.log, pages)
    problems += page_problems(a, pages)
    print(f"check_pdf: {a.pdf}: {pages} pages rendered, {len(a.expect_text)} texts looked for")
    return finish("check_pdf", problems, "every page has content")


if __name__ == "__main__":
    sys.exit(main())
