#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The browser test: open every page of the built book in Debian's headless
Chromium, as a reader would, and fail on anything a reader would hit.

    check_site.py --html <html folder> [--out <folder>] [--pages a.html,b.html]
                  [--widths 1280,390] [--themes light,dark] [--every-view] [--jobs N]

The site is served over HTTP on 127.0.0.1 (a port of its own) and driven with
Selenium and chromium-driver. Every page is opened at each width (a 1280 px
window, a 390 px phone) in each theme (THEMES): "light" and "dark" (chosen by
the reader, the system light), "auto-light" and "auto-dark" (the reader left
furo's "auto": the system's preference decides), and "print" and "print-dark"
(a reader who chose dark prints the page, on a light and on a dark system:
paper is always light); views() says which pages are opened in which.

A page is loaded once, in its first view; for each other view the same tab is
resized (DevTools' device metrics) and the theme set as furo's toggle sets it,
with the system's preference and the media emulated (Emulation.setEmulatedMedia),
as a reader turns a phone or toggles the theme. The pages take turns at the
width they are loaded at, so both a fresh load and a resize are checked at each
width. All the checks of a view run in the page as one script (page_checks.js).
--jobs browsers (default 2) check pages side by side. A page
fails on:

  - a console error (a script that throws, a resource that fails to load);
  - a failed request: a status of 400 or more, a request that fails, or one to
    any other host (the book must work offline);
  - a theme that did not start (furo's script removes "no-js" from <html>) or
    that shows the wrong colours (a dark page is dark and its text light, a
    light page light and its text dark; in the dark theme a diagram is shown
    inverted and a plot's dark drawing is the one shown, and in the light ones
    neither);
  - an image that did not load;
  - a figure whose smallest text is under 12 px at the column width of the
    1280 px window, or under 12 px on the phone (measured in the SVG as the page
    shows it); on the phone, a plot wider than the column (a panel off the
    screen: the phone's drawing stacks its panels); a plot whose caption or alt
    text names a panel by its place ("Left:") rather than as (a), (b);
  - an output block (a program's output, often a table) that breaks a line
    over two rows, or that is wider than its column without scrolling sideways
    visibly (marked, with the cue book.js shows); a listing's line that wraps
    without the mark of a wrapped line; a code block that scrolls inside; any
    other box that hides content sideways without that cue; a page that
    scrolls sideways at all;
  - a listing's caption that is centred, breaks "Listing N" over two rows, or
    breaks its file's path inside a name rather than after a '/';
  - no skip link as the page's first link, or one that leads nowhere; on the
    phone, "Back to top" over the top of the screen, or a copy button over a
    code block's first line;
  - a block a run shows (an output, a report, SASS) without its "Run it
    yourself" and the command that reproduces it;
  - an index that lists a term twice (in another case, or as its plural);
  - a chapter's page taller than MAX_PAGE_PX at the column width (a whole
    chapter as one page, not a page per section);
  - a page with no title (<title> and an <h1>); a page that does not link the
    index of concepts and the glossary; a front page without its sections on
    what a reader needs, what works without a GPU, where to start (linking
    chapter 1), and the code and its licence;
  - invalid HTML: an element that needs an end tag left open, or an end tag
    that closes nothing;
  - a broken internal link: a file that is not there, or a #fragment that
    names no element of the target page;
  - an archive the pages link (a student's bundle) with a Markdown file that
    shows MyST markup raw (``2{sup}`28```);
  - a search (for "bank conflicts": a term, an index entry and a section's
    title) that lists a page twice;
  - no way in to the code (way_in_problems): a footer without the licences, a
    "Run it yourself" that links neither the repository nor the source archive,
    "built without a public address" said on more than one page, a chapter
    without its programs' download, a Sources entry that links no document; a
    page that states a machine its outputs ran on (GPU, driver, toolchain) in
    full more than once.

Screenshots of each chapter's first screen in each theme and width, and of
the first diagram and the first plot in each theme, go to <out>/shots.
Exit status 0 when every page passes, 1 otherwise (each problem named as
"<page> [<theme> <width>px]: <problem>").
"""
from __future__ import annotations

import argparse
import concurrent.futures
import functools
import html.parser
import http.server
import json
import os
import re
import shutil
import sys
import tempfile
import threading
import time
import urllib.parse

from site_report import finish

CHROMIUM = "/usr/bin/chromium"
DRIVER = "/usr/bin/chromedriver"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-quic", "--no-first-run",
         "--disable-features=Translate,MediaRouter", "--hide-scrollbars"]
MIN_TEXT_PX = 12.0
COLUMN_WIDTH = 1280  # the width at which figures must be readable
HEIGHTS = {1280: 900, 390: 844}


def _js(name: str) -> str:
    """A script the browser runs, from its .js file beside this one."""
    with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), name), encoding="utf-8") as f:
        return f.read()


WAIT_READY = _js("wait_ready.js")
CAPTURE = _js("capture.js")

# ---- the page-side checks (run in the page; returns a JSON-able report) ----------------------
#: theme -> (what the reader chose in furo's toggle, what the system prefers, the
#: media, what the page must look like). "print" and "print-dark": a reader who
#: chose dark prints the page, on a light and on a dark system: paper is light.
THEMES = {
    "light": ("light", "light", "screen", "light"),
    "dark": ("dark", "light", "screen", "dark"),
    "auto-light": ("auto", "light", "screen", "light"),
    "auto-dark": ("auto", "dark", "screen", "dark"),
    "print": ("dark", "light", "print", "light"),
    "print-dark": ("dark", "dark", "print", "light"),
}
#: The tallest a chapter's page may be at the column width, its folds closed. A
#: page is a section of a chapter (chapters/<key>/NN-<name>.md): the tallest,
#: section 3.10, is about 9,200 px; the chapters as one page each were 14,900
#: (chapter 4) to 45,300 px (chapter 3), and a reader scrolled a whole chapter.
MAX_PAGE_PX = 12000
PAGE_CHECKS = "const THEME_LOOKS = " + json.dumps({k: v[3] for k, v in THEMES.items()}) + ";\n" + _js("page_checks.js")


# ---- serving the site -------------------------------------------------------------------------

class Server:
    """The site over HTTP on 127.0.0.1; every response of 400 or more is noted."""

    def __init__(self, root: str):
        self.failed = []
        failed = self.failed

        class Handler(http.server.SimpleHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def send_error(self, code, *args, **kwargs):
                failed.append((code, self.path))
                super().send_error(code, *args, **kwargs)

        self.httpd = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(Handler, directory=root))
        self.port = self.httpd.server_address[1]
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def url(self, page: str) -> str:
        return f"http://127.0.0.1:{self.port}/{page}"

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


# ---- links ------------------------------------------------------------------------------------

#: Elements whose end tag HTML requires: one left open (or closed twice) is a
#: fault the browser hides by guessing.
BALANCED = {"a", "article", "aside", "code", "details", "div", "dl", "em", "figcaption", "figure",
            "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6", "header", "label", "main", "nav",
            "ol", "pre", "section", "span", "strong", "summary", "table", "ul"}


class Ids(html.parser.HTMLParser):
    """The ids of a page, and the elements it leaves open or closes unopened."""

    def __init__(self):
        super().__init__()
        self.ids = set()
        self.stack = []
        self.unbalanced = []

    def handle_starttag(self, tag, attrs):
        for k, v in attrs:
            if k in ("id", "name") and v:
                self.ids.add(v)
        if tag in BALANCED:
            self.stack.append((tag, self.getpos()[0]))

    def handle_endtag(self, tag):
        if tag not in BALANCED:
            return
        if not any(t == tag for t, _ in self.stack):
            self.unbalanced.append(f"line {self.getpos()[0]}: </{tag}> closes nothing")
            return
        while self.stack:
            t, line = self.stack.pop()
            if t == tag:
                break
            self.unbalanced.append(f"line {line}: <{t}> is never closed (</{tag}> at line {self.getpos()[0]})")


@functools.lru_cache(maxsize=None)
def parsed(path: str) -> Ids:
    parser = Ids()
    with open(path, encoding="utf-8", errors="replace") as f:
        parser.feed(f.read())
    parser.close()
    parser.unbalanced += [f"line {line}: <{t}> is never closed" for t, line in parser.stack]
    return parser


def ids_of(path: str) -> frozenset:
    return frozenset(parsed(path).ids)


def check_link(root: str, origin: str, page: str, href: str):
    """None when an internal link resolves, else the problem; external links are not followed."""
    if not href.startswith(origin + "/"):
        return None
    parsed = urllib.parse.urlsplit(href)
    path = urllib.parse.unquote(parsed.path).lstrip("/")
    target = os.path.join(root, path)
    if os.path.isdir(target):
        target = os.path.join(target, "index.html")
    if not os.path.isfile(target):
        return f"a link leads to a missing file: {path or '/'}"
    frag = urllib.parse.unquote(parsed.fragment)
    if frag and target.endswith(".html") and frag not in ids_of(target):
        return f"a link names an anchor that {path} does not have: #{frag}"
    return None


# ---- the downloads ---------------------------------------------------------------------------

MYST_MARKUP = re.compile(r"\{[A-Za-z][\w:+-]*\}`[^`]*`|^\s*(?:`{3,}|:{3,})\s*\{[A-Za-z][\w:+-]*\}", re.M)


#: The front page's parts, in order: (what a reader looks for, a regex of its
#: section's heading, a regex its section's text must match).
FRONT_PAGE = [
    ("what the reader needs", r"what you need", r"\bC\+\+.*\bGPU"),
    ("what works without a GPU", r"without a GPU", r"\bCPU\b"),
    ("where to start", r"where to start", r"chapter 1"),
    ("the code and the licence", r"\bcode\b.*\blicen[cs]e", r"\blicen[cs]e\b"),
]


class Sections(html.parser.HTMLParser):
    """A page's level-two sections in its article: [(heading, text, hrefs)]."""

    def __init__(self):
        super().__init__()
        self.sections, self.depth, self.in_h2, self.in_article = [], 0, False, False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "article":
            self.in_article = True
        if not self.in_article:
            return
        if tag == "h2":
            self.in_h2 = True
            self.sections.append(["", "", []])
        elif tag == "a" and self.sections and a.get("href") and "headerlink" not in (a.get("class") or ""):
            self.sections[-1][2].append(a["href"])

    def handle_endtag(self, tag):
        if tag == "h2":
            self.in_h2 = False
        elif tag == "article":
            self.in_article = False

    def handle_data(self, data):
        if not self.in_article or not self.sections:
            return
        self.sections[-1][0 if self.in_h2 else 1] += data


def front_page_problems(root: str) -> list:
    """The front page says what the book is (its first paragraph), what a reader
    needs, what works without a GPU, where to start (a link to chapter 1), and
    where the code is and under which licence (FRONT_PAGE); each is a section
    of its own, so that a reader finds it in the page's contents."""
    path = os.path.join(root, "index.html")
    parser = Sections()
    with open(path, encoding="utf-8") as f:
        parser.feed(f.read())
    out = []
    for what, heading, text in FRONT_PAGE:
        found = [sec for sec in parser.sections if re.search(heading, sec[0], re.I)]
        if not found:
            out.append(f"index.html: the front page has no section on {what} (a heading matching /{heading}/)")
            continue
        h, body, hrefs = found[0]
        if not re.search(text, " ".join(body.split()), re.I | re.S):
            out.append(f"index.html: the front page's section '{h.strip()}' does not say {what} (/{text}/)")
        if what == "where to start" and not any(re.match(r"(\./)?ch01-[^/#]*\.html", x) for x in hrefs):
            out.append(f"index.html: the front page's section '{h.strip()}' does not link chapter 1")
    return out


def index_problems(root: str) -> list:
    """The index lists a term once: not again in another case ("Shared memory")
    or as its plural ("bank conflicts" beside "bank conflict")."""
    path = os.path.join(root, "genindex.html")
    if not os.path.isfile(path):
        return []
    import html as htmllib
    with open(path, encoding="utf-8") as f:
        page = f.read()
    body = page[page.find("<article"):page.find("</article>")]
    names = [htmllib.unescape(n).strip() for n in re.findall(r"<li><a [^>]*>([^<]+)</a>", body)]
    seen, out = {}, []
    for name in names:
        key = name.lower()
        for k in (key, key[:-1] if key.endswith("s") else None, key[:-2] if key.endswith("es") else None,
                  key + "s", key + "es"):
            if k and k in seen:
                out.append(f"genindex.html: the index lists '{seen[k]}' and '{name}' as two terms")
                break
        seen[key] = name
    return out


def reference_problems(page: str, root: str, hrefs) -> list:
    """Every page links the index of concepts and (where the site has one) the
    glossary."""
    names = {urllib.parse.urlsplit(h).path.rsplit("/", 1)[-1] for h in hrefs}
    out = []
    for target, what in (("genindex.html", "the index of concepts"), ("glossary.html", "the glossary")):
        if os.path.isfile(os.path.join(root, target)) and target not in names and page != target:
            out.append(f"{page}: the page does not link {what} ({target})")
    return out


def archive_problems(root: str, origin: str, hrefs) -> list:
    """Each archive the site links (a student's bundle) opened: a Markdown file in
    it that shows MyST's markup raw (``2{sup}`28```) is a problem."""
    import tarfile
    import zipfile
    out = []
    for href in sorted(hrefs):
        if not href.startswith(origin + "/"):
            continue
        path = urllib.parse.unquote(urllib.parse.urlsplit(href).path).lstrip("/")
        full = os.path.join(root, path)
        if not os.path.isfile(full) or not path.endswith((".tar.gz", ".tgz", ".zip")):
            continue
        if path.startswith("_downloads/source/"):
            continue  # the book's own source: MyST is what it is written in
        try:
            if path.endswith(".zip"):
                with zipfile.ZipFile(full) as z:
                    files = [(n, z.read(n)) for n in z.namelist() if n.endswith(".md")]
            else:
                with tarfile.open(full) as t:
                    files = [(m.name, t.extractfile(m).read()) for m in t.getmembers()
                             if m.isfile() and m.name.endswith(".md")]
        except (OSError, tarfile.TarError, zipfile.BadZipFile) as e:
            out.append(f"{path}: the archive cannot be read: {e}")
            continue
        for name, data in files:
            text = data.decode("utf-8", "replace")
            for m in MYST_MARKUP.finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                out.append(f"{path}: {name}:{line}: MyST markup a student would see raw: {m.group(0).strip()}")
                break
    return out


#: A chapter's page, chNN-<name>.html, or one of its sections' pages, chNN-<name>/NN-<name>.html.
CHAPTER_PAGE = re.compile(r"(ch\d\d-[a-z0-9-]+)(/\d\d-[a-z0-9-]+)?\.html$")
NO_ADDRESS = re.compile(r"built without (its|a) public address")


def way_in_problems(root: str, pages: list) -> list:
    """A reader's way in to the code and its licence, page by page: every page's
    footer names the licences (CC BY-SA 4.0 for the text and figures, MIT for the
    code); where the book has no public address, the site says so once (on one
    page, not under every output), and every "Run it yourself" links the source
    archive of the commit (or, with an address, the repository); a chapter links
    its programs' download; every entry of a chapter's Sources links its document."""
    out, saying = [], []
    for page in pages:
        path = os.path.join(root, page)
        if not page.endswith(".html") or not os.path.isfile(path) or page.startswith("_"):
            continue
        with open(path, encoding="utf-8") as f:
            text = f.read()
        footer = re.search(r'<p class="book-licence-line">(.*?)</p>', text, re.S)
        if not footer or "CC&nbsp;BY-SA&nbsp;4.0" not in footer.group(1) or "MIT" not in footer.group(1):
            out.append(f"{page}: the footer does not name the licences (CC BY-SA 4.0 and MIT)")
        if NO_ADDRESS.search(re.sub(r"<[^>]+>", "", text)):
            saying.append(page)
        repository = 'class="book-source-line"' in text
        folds = re.findall(r'<details class="[^"]*book-run-yourself[^"]*">(.*?)</details>', text, re.S)
        if folds and not repository and not all("book-source-archive" in f for f in folds):
            n = sum("book-source-archive" not in f for f in folds)
            out.append(f"{page}: {n} of its {len(folds)} \u201cRun it yourself\u201d folds link neither the "
                       "repository nor the source archive")
        m = CHAPTER_PAGE.match(page)
        if m:
            if not m.group(2) and os.path.isdir(os.path.join(root, "_downloads")) \
                    and f"{m.group(1)}-programs.tar.gz" not in text:
                out.append(f"{page}: the chapter does not link its programs' download "
                           f"({m.group(1)}-programs.tar.gz)")
            # (on its own page, the Sources section's tag carries the page's classes too)
            sources = re.search(r'<section[^>]*\sid="sources"[^>]*>(.*?)</section>', text, re.S)
            for item in re.findall(r"<li>(.*?)</li>", sources.group(1), re.S) if sources else []:
                if not re.search(r'<a class="reference external" href="https?://', item):
                    words = " ".join(re.sub(r"<[^>]+>", "", item).split())[:60]
                    out.append(f"{page}: a Sources entry links no document: {words}")
        # Each machine an output ran on is stated in full once a page: GPU, driver,
        # runtime and toolchain (records.ProvenanceOncePerPage); later outputs from
        # it say "set up as above".
        machines = {}
        for para in re.findall(r'<p class="book-provenance">(.*?)</p>', text, re.S):
            words = " ".join(re.sub(r"<[^>]+>", "", para).split())
            full = re.match(r"(?:Recorded on|Ran live during this build on) (.+?); at commit", words)
            if full and not full.group(1).endswith("as above"):
                machines[full.group(1)] = machines.get(full.group(1), 0) + 1
        for machine, n in machines.items():
            if n > 1:
                out.append(f"{page}: states the machine its outputs ran on {n} times in full "
                           f"(\u201c{machine[:60]}...\u201d): once a page, then \u201cas above\u201d")
    if len(saying) > 1:
        out.append(f"the site says it was built without a public address on {len(saying)} pages "
                   f"({', '.join(saying[:4])}{', ...' if len(saying) > 4 else ''}): say it once")
    return out


# ---- the browser -------------------------------------------------------------------------------

def start_browser(profile: str):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.set_script_timeout(60)
    driver.set_page_load_timeout(30)
    return driver


class Network:
    """Requests that failed or left 127.0.0.1, from the browser's performance log."""

    def __init__(self, origin: str):
        self.origin = origin
        self.urls = {}

    def problems(self, driver) -> list:
        out = []
        for entry in driver.get_log("performance"):
            msg = json.loads(entry["message"])["message"]
            method, params = msg.get("method"), msg.get("params", {})
            if method == "Network.requestWillBeSent":
                url = params.get("request", {}).get("url", "")
                self.urls[params.get("requestId")] = url
                if url.startswith(("http:", "https:", "ws:", "wss:")) and not url.startswith(self.origin + "/"):
                    out.append(f"a request leaves the site: {url}")
            elif method == "Network.loadingFailed":
                url = self.urls.get(params.get("requestId"), "?")
                if url.startswith(self.origin + "/") or url == "?":
                    out.append(f"a request failed ({params.get('errorText')}): {url}")
            elif method == "Network.responseReceived":
                status = params.get("response", {}).get("status", 0)
                if status >= 400:
                    out.append(f"a request got status {status}: {params['response'].get('url')}")
        return out


def console_problems(driver) -> list:
    return [f"console error: {e['message']}" for e in driver.get_log("browser") if e.get("level") == "SEVERE"]


def capture(driver, path: str, selector: str | None = None) -> bool:
    """A PNG of the first screen of the page, or of the first shown element that
    matches selector (the page scrolled to it); False where none is shown. Only
    an element taller than the window is captured beyond it (which lays out the
    whole page again: slow on a chapter)."""
    import base64
    params = {"format": "png", "optimizeForSpeed": True}
    r = driver.execute_script(CAPTURE, selector)
    if r is None:
        return False
    if r:
        params.update(clip={"x": r[0], "y": r[1], "width": r[2], "height": r[3], "scale": 1},
                      captureBeyondViewport=r[3] > r[4])
    data = driver.execute_cdp_cmd("Page.captureScreenshot", params)["data"]
    with open(path, "wb") as f:
        f.write(base64.b64decode(data))
    return True


def wait_ready(driver) -> None:
    driver.execute_async_script(WAIT_READY)


SEARCH_RESULTS = _js("search_results.js")


def search_problems(driver, server, query: str = "bank+conflicts") -> list:
    """The search page for a term that is also a section's title (Sphinx lists
    such a page once per way it matched): one result per page (a
    section of a page already listed joins its result), and the count it states
    is the count it lists."""
    driver.get(server.url(f"search.html?q={query}"))
    wait_ready(driver)
    status, results = driver.execute_async_script(SEARCH_RESULTS)
    out, seen = [], set()
    if not results:
        return [f"search.html?q={query}: no result"]
    said = re.search(r"found (\d+) page", status)
    if said and int(said.group(1)) != len(results):
        out.append(f"search.html?q={query}: the page says it found {said.group(1)} pages and lists {len(results)}")
    for href, snippet in results:
        page = urllib.parse.urlsplit(href).path
        if page in seen:
            out.append(f"search.html?q={query}: {page} is listed twice")
        seen.add(page)
    return out


def views(pages: list, theme: str, width: int, explicit: bool, every: bool) -> list:
    """The pages opened in one theme at one width. Every page in the light theme
    at every width (the layout checks); in the other themes, whose colours are
    the same stylesheet on every page, the front page and the chapters (their
    figures, code and outputs) at every width in "dark", at 1280 px in the
    others. Pages named with --pages, or --every-view, are opened in all."""
    if explicit or every or theme == "light":
        return pages
    if theme != "dark" and width != COLUMN_WIDTH:
        return []
    return [p for p in pages if p == "index.html" or CHAPTER_PAGE.match(p)]


def plan(pages: list, themes: list, widths: list, explicit: bool, every: bool) -> list:
    """[(page, [(width, theme), ...])]: each page with the views views() opens it
    in. A page is loaded once, in its first view; the others are set on the
    loaded page: a width as a window resized (or a phone turned) to it, a theme
    as furo's toggle sets it. So that both ways are checked at every width, the
    pages take turns at the width they are loaded at (with several widths), and
    "dark" comes first where a page has it: the pages shown in both are loaded
    with each choice stored, light (the pages shown in light only) and dark."""
    out = []
    for i, page in enumerate(pages):
        first = widths[i % len(widths)]
        order = []
        for width in [first] + [w for w in widths if w != first]:
            mine = [t for t in themes if page in views(pages, t, width, explicit, every)]
            if "dark" in mine:
                mine = ["dark"] + [t for t in mine if t != "dark"]
            order += [(width, t) for t in mine]
        if order:
            out.append((page, order))
    return out


#: What furo's theme toggle does (its setTheme): the choice stored and set on
#: <body>; then two frames, for what the page does on a change (book.js marks
#: its blocks again on the next frame).
SET_THEME = _js("set_theme.js")


class Shared:
    """What the browsers find, together: problems per page (by its place in the
    plan), the figures measured, the pages whose links were checked, the
    screenshots of figures taken, and the time spent."""

    def __init__(self, root: str, origin: str, server, shots):
        self.root, self.origin, self.server, self.shots = root, origin, server, shots
        self.lock = threading.Lock()
        self.found = {}
        self.figures = {}
        self.link_problems = {}
        self.archives = set()
        self.checked_links = set()
        self.shot_figures = set()
        self.opened = self.loads = 0
        self.spent = dict.fromkeys(("starting the browsers", "opening", "checking", "screenshots",
                                    "searching"), 0.0)

    def claim(self, kind: str, key) -> bool:
        """True the first time (kind, key) is asked for: that caller does it."""
        with self.lock:
            done = self.__dict__[kind]
            if key in done:
                return False
            done.add(key)
            return True


class Browser:
    """One Chromium session (its own profile) and the state of its tab: the width
    shown and the theme stored for the next page it loads."""

    def __init__(self, shared: Shared):
        self.shared = shared
        self.profile = tempfile.mkdtemp(prefix="book-site-test-")
        self.driver = start_browser(self.profile)
        self.driver.get("about:blank")
        self.network = Network(shared.origin)
        self.driver.get_log("browser")
        self.driver.get_log("performance")
        self.stored = None  # the theme the reader chose, as a new page finds it in localStorage
        self.script_id = None
        self.width = None

    def close(self):
        try:
            self.driver.quit()
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)

    def check_page(self, page: str, page_views: list) -> list:
        """The page in each of its views [(width, theme)]: loaded in the first,
        then resized and its theme set for each other. The problems found."""
        sh, driver = self.shared, self.driver
        problems = []
        for n, (width, theme) in enumerate(page_views):
            choice, system, media, _looks = THEMES[theme]
            where = f"{page} [{theme} {width}px]"
            t0 = time.monotonic()
            if width != self.width:
                driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                    "width": width, "height": HEIGHTS.get(width, 900), "deviceScaleFactor": 1,
                    "mobile": width < 600})
                self.width = width
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": media, "features": [
                {"name": "prefers-color-scheme", "value": system}]})
            if n == 0:
                # Loaded in its first view: the reader's choice is read from
                # localStorage by furo's own script as the page starts.
                if choice != self.stored:
                    if self.script_id:
                        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument",
                                               {"identifier": self.script_id})
                    self.script_id = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {
                        "source": f"try {{ localStorage.setItem('theme', '{choice}'); }} catch (e) {{}}"
                    })["identifier"]
                    self.stored = choice
                driver.get(sh.server.url(page))
                wait_ready(driver)
            else:
                driver.execute_async_script(SET_THEME, choice)
            t1 = time.monotonic()
            with sh.lock:
                measured = sorted(sh.figures) if width == COLUMN_WIDTH else None
            report = driver.execute_async_script(PAGE_CHECKS, theme, width, measured)
            found = list(report["problems"])
            if width == COLUMN_WIDTH and CHAPTER_PAGE.match(page) and report.get("height", 0) > MAX_PAGE_PX:
                found.append(f"the page is {report['height']} px tall at {width} px, over {MAX_PAGE_PX} px: a "
                             "whole chapter on one page? A chapter is a page per section "
                             "(chapters/<key>/NN-<name>.md)")
            found += console_problems(driver)
            found += self.network.problems(driver)
            problems += [f"{where}: {p}" for p in found]
            with sh.lock:
                sh.opened += 1
                sh.loads += n == 0
                for fig in report["figures"]:
                    sh.figures.setdefault(fig["src"], fig)
                sh.archives.update(h for h in report["links"]
                                   if h.split("?")[0].endswith((".tar.gz", ".tgz", ".zip")))
            if sh.claim("checked_links", page):
                faults = [f"{page}: invalid HTML: {fault}"
                          for fault in parsed(os.path.join(sh.root, page)).unbalanced[:3]]
                faults += reference_problems(page, sh.root, report["links"])
                for href in sorted(set(report["links"])):
                    issue = check_link(sh.root, sh.origin, page, href)
                    if issue:
                        faults.append(f"{page}: {issue}")
                with sh.lock:
                    for fault in faults:
                        sh.link_problems.setdefault(fault, None)
            t2 = time.monotonic()
            chapter = CHAPTER_PAGE.match(page) if sh.shots else None
            if chapter:
                if not chapter.group(2):  # (each chapter's first screen, on its own page)
                    stem = os.path.splitext(page)[0].replace("/", "_")
                    capture(driver, os.path.join(sh.shots, f"{stem}-{theme}-{width}.png"))
                if width == COLUMN_WIDTH:
                    for kind in ("diagram", "plot"):
                        if sh.claim("shot_figures", (kind, theme)) and not capture(
                                driver, os.path.join(sh.shots, f"figure-{kind}-{theme}.png"),
                                f"figure.book-{kind}"):
                            with sh.lock:
                                sh.shot_figures.discard((kind, theme))  # none here: the next page's
            t3 = time.monotonic()
            with sh.lock:
                sh.spent["opening"] += t1 - t0
                sh.spent["checking"] += t2 - t1
                sh.spent["screenshots"] += t3 - t2
        return problems


def cannot_check(root: str) -> str:
    """Why the site cannot be checked here (no built book, no browser, no
    Selenium), or ""."""
    if not os.path.isfile(os.path.join(root, "index.html")):
        return f"{root} holds no built book (no index.html); build it first"
    if not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)):
        return f"needs {CHROMIUM} and {DRIVER} (Debian: chromium chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "needs Selenium for Python 3 (Debian: python3-selenium)"
    return ""


def browse(shared, work, jobs: int, search: bool) -> list:
    """Start jobs browsers and check every page of work in them (with search, the
    search page too); the problems they found, in the pages' order. The server is
    closed when they are done."""
    browsers = []
    try:
        # The browsers start together; then each takes the next page to check
        # (the heaviest first: the chapters) until none is left.
        t0 = time.monotonic()
        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            browsers = list(pool.map(lambda _n: Browser(shared), range(jobs)))
        shared.spent["starting the browsers"] = time.monotonic() - t0
        # (A page's weight: its size times its views.)
        queue = sorted(range(len(work)), key=lambda i: (
            -os.path.getsize(os.path.join(shared.root, work[i][0])) * len(work[i][1]), i))
        lock = threading.Lock()

        def run(browser):
            while True:
                with lock:
                    if not queue:
                        return
                    i = queue.pop(0)
                page, page_views = work[i]
                shared.found[i] = browser.check_page(page, page_views)

        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            for f in [pool.submit(run, b) for b in browsers]:
                f.result()
        problems = [p for i in range(len(work)) for p in shared.found.get(i, [])]
        if os.path.isfile(os.path.join(shared.root, "search.html")) and search:
            t0 = time.monotonic()
            problems += search_problems(browsers[0].driver, shared.server)
            shared.spent["searching"] = time.monotonic() - t0
        for p in shared.server.failed:
            problems.append(f"the server answered {p[0]} for {p[1]}")
    finally:
        for b in browsers:
            b.close()
        shared.server.close()
    return problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--html", required=True)
    ap.add_argument("--out", default=None, help="where screenshots go (default: no screenshots)")
    ap.add_argument("--pages", default="", help="comma-separated pages (default: every page)")
    ap.add_argument("--widths", default="1280,390")
    ap.add_argument("--themes", default=",".join(THEMES))
    ap.add_argument("--every-view", action="store_true",
                    help="every page in every theme and width (default: see views())")
    ap.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1),
                    help="browsers checking pages side by side (default: 2, or 1 on one core)")
    a = ap.parse_args()
    started = time.monotonic()
    root = os.path.abspath(a.html)
    why = cannot_check(root)
    if why:
        print(f"check_site: {why}", file=sys.stderr)
        return 1
    if a.pages:
        pages = [p.strip() for p in a.pages.split(",") if p.strip()]
    else:
        pages = sorted(os.path.relpath(os.path.join(d, f), root).replace(os.sep, "/")
                       for d, _dirs, files in os.walk(root) for f in files if f.endswith(".html"))
    widths = [int(w) for w in a.widths.split(",")]
    themes = a.themes.split(",")
    for theme in themes:
        if theme not in THEMES:
            print(f"check_site: unknown theme {theme} ({', '.join(THEMES)})", file=sys.stderr)
            return 1
    shots = os.path.join(a.out, "shots") if a.out else None
    if shots:
        shutil.rmtree(shots, ignore_errors=True)
        os.makedirs(shots)

    server = Server(root)
    origin = f"http://127.0.0.1:{server.port}"
    work = plan(pages, themes, widths, explicit=bool(a.pages), every=a.every_view)
    jobs = max(1, min(a.jobs, len(work)))
    shared = Shared(root, origin, server, shots)
    problems = browse(shared, work, jobs, search=not a.pages)
    figures, link_problems, archives = shared.figures, shared.link_problems, shared.archives
    opened, loads, spent = shared.opened, shared.loads, shared.spent

    if not a.pages or "index.html" in pages:
        problems += front_page_problems(root)
    if not a.pages or "genindex.html" in pages:
        problems += index_problems(root)
    problems += list(link_problems)
    problems += archive_problems(root, origin, archives)
    problems += way_in_problems(root, pages)
    elapsed = time.monotonic() - started
    print(f"check_site: {len(pages)} pages, {len(widths)} widths, {len(themes)} themes: "
          f"{opened} page views ({loads} page loads) in {elapsed:.1f} s, {jobs} browser{'s' if jobs > 1 else ''}")
    print("  time in each browser, summed: " + ", ".join(f"{k} {v:.1f} s" for k, v in spent.items()))
    for src, fig in sorted(figures.items()):
        size = f"{fig['min']:.1f} px" if fig.get("min") is not None else "no text"
        print(f"  figure {src}: {fig['width']:.0f} px wide at {COLUMN_WIDTH} px, smallest text {size}")
    if shots:
        print(f"  screenshots: {shots}")
    return finish("check_site", problems, "every page passes")


if __name__ == "__main__":
    sys.exit(main())
