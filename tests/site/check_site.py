#!/usr/bin/env python3
"""The browser test: open every page of the built book in Debian's headless
Chromium, as a reader would, and fail on anything a reader would hit.

    check_site.py --html <html folder> [--out <folder>] [--pages a.html,b.html]
                  [--widths 1280,390] [--themes light,dark] [--no-shots]

The site is served over HTTP on 127.0.0.1 (a port of its own) and driven with
Selenium and chromium-driver. Every page is opened at each width (a 1280 px
window, a 390 px phone) in each theme (THEMES): "light" and "dark" (chosen by
the reader, the system light), "auto-light" and "auto-dark" (the reader left
furo's "auto": the system's preference decides), and "print" and "print-dark"
(a reader who chose dark prints the page, on a light and on a dark system:
paper is always light). A page
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
    1280 px window, or under 9 px on the phone (measured in the SVG as the page
    shows it);
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
  - a page with no title (<title> and an <h1>);
  - invalid HTML: an element that needs an end tag left open, or an end tag
    that closes nothing;
  - a broken internal link: a file that is not there, or a #fragment that
    names no element of the target page;
  - an archive the pages link (a student's bundle) with a Markdown file that
    shows MyST markup raw (``2{sup}`28```);
  - a search (for "bank conflicts": a term, an index entry and a section's
    title) that lists a page twice.

Screenshots of each chapter's first screen in each theme and width, and of
the first diagram and the first plot in each theme, go to <out>/shots.
Exit status 0 when every page passes, 1 otherwise (each problem named as
"<page> [<theme> <width>px]: <problem>").
"""
from __future__ import annotations

import argparse
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

CHROMIUM = "/usr/bin/chromium"
DRIVER = "/usr/bin/chromedriver"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--disable-quic", "--no-first-run",
         "--disable-features=Translate,MediaRouter", "--hide-scrollbars"]
MIN_TEXT_PX = 12.0
COLUMN_WIDTH = 1280  # the width at which figures must be readable
HEIGHTS = {1280: 900, 390: 844}

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
PAGE_CHECKS = "const THEME_LOOKS = " + json.dumps({k: v[3] for k, v in THEMES.items()}) + ";\n" + r"""
const [chosen, width, measureFigures, done] = [arguments[0], arguments[1], arguments[2], arguments[3]];
const phone = width < 600, MIN_PHONE_TEXT_PX = 9;
// What the page must look like: printed, always light; else what the reader chose,
// or in "auto" what the system prefers.
const theme = THEME_LOOKS[chosen];
const out = {problems: [], links: [], figures: []};
const say = (m) => out.problems.push(m);
function lum(color) {
  const m = color.match(/rgba?\(([^)]+)\)/); if (!m) return null;
  const [r, g, b, a] = m[1].split(',').map(s => parseFloat(s));
  if (a === 0) return null;
  const f = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4); };
  return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
}
function shown(el) { return !!(el.offsetWidth || el.offsetHeight || el.getClientRects().length) &&
                     getComputedStyle(el).visibility !== 'hidden'; }
function describe(el) {
  let s = el.tagName.toLowerCase();
  if (el.id) s += '#' + el.id;
  const cls = (el.getAttribute('class') || '').trim().split(/\s+/).filter(Boolean).slice(0, 3);
  if (cls.length) s += '.' + cls.join('.');
  const text = (el.textContent || '').trim().replace(/\s+/g, ' ').slice(0, 60);
  return text ? `${s} ("${text}")` : s;
}
async function smallestText(img) {
  const w = img.getBoundingClientRect().width;
  const frame = document.createElement('iframe');
  frame.style.cssText = `position:absolute;left:-20000px;top:0;width:${Math.ceil(w) + 40}px;height:400px;border:0`;
  const loaded = new Promise((ok) => { frame.onload = ok; frame.onerror = ok; });
  frame.src = img.currentSrc || img.src;
  document.body.appendChild(frame);
  await loaded;
  try {
    const doc = frame.contentDocument;
    const svg = doc && doc.documentElement;
    if (!svg || svg.tagName.toLowerCase() !== 'svg') return {error: 'not an SVG document'};
    const vb = svg.viewBox && svg.viewBox.baseVal;
    if (!vb || !vb.width) return {error: 'the SVG has no viewBox'};
    svg.style.width = w + 'px';
    svg.style.height = (w * vb.height / vb.width) + 'px';
    svg.style.maxWidth = 'none';
    const scaleOf = (g) => { const m = g && g.getScreenCTM(); return m ? Math.hypot(m.a, m.b) : 1; };
    let min = Infinity, what = '';
    const walker = doc.createTreeWalker(svg, NodeFilter.SHOW_TEXT);
    for (let t = walker.nextNode(); t; t = walker.nextNode()) {
      if (!t.textContent.trim()) continue;
      const el = t.parentElement;
      if (!el || !el.getClientRects().length) continue;
      const style = doc.defaultView.getComputedStyle(el);
      if (style.display === 'none' || style.visibility === 'hidden' || parseFloat(style.opacity) === 0) continue;
      const graphic = el.closest('foreignObject') || (el instanceof doc.defaultView.SVGGraphicsElement ? el : el.closest('text'));
      const px = parseFloat(style.fontSize) * scaleOf(graphic);
      if (px < min) { min = px; what = t.textContent.trim().slice(0, 50); }
    }
    return {min: min === Infinity ? null : min, what: what};
  } finally { frame.remove(); }
}
(async () => {
  try {
    // Title
    const h1 = document.querySelector('h1');
    if (!document.title.trim()) say('the page has no <title>');
    if (!h1 || !h1.textContent.trim()) say('the page has no <h1> heading');
    // A link to skip the navigation: the first link of the page, to an element it has.
    const skip = document.querySelector('a.book-skip-link');
    if (!skip) say('the page has no link to skip to its content');
    else {
      if (document.querySelector('a[href]') !== skip) say('the skip link is not the first link of the page');
      if (!document.getElementById(decodeURIComponent(skip.hash.slice(1)))) say(`the skip link leads nowhere: ${skip.hash}`);
    }
    // On a phone: "Back to top" away from the top of the screen (where the
    // title and headings are), and the copy button off the code's first line.
    if (phone) {
      const back = document.querySelector('.back-to-top');
      if (back) {
        document.body.classList.add('show-back-to-top');
        const r = back.getBoundingClientRect();
        if (r.height && r.top < window.innerHeight / 2)
          say(`on a phone "Back to top" covers the top of the screen (at ${Math.round(r.top)} px)`);
        document.body.classList.remove('show-back-to-top');
      }
      for (const button of Array.from(document.querySelectorAll('article .highlight button.copybtn')).slice(0, 20)) {
        const pre = button.parentElement.querySelector('pre');
        if (!pre) continue;
        const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
        const t = walker.nextNode();
        if (!t) continue;
        const range = document.createRange(); range.setStart(t, 0); range.setEnd(t, Math.min(t.length, 1));
        const a = button.getBoundingClientRect(), b = range.getBoundingClientRect();
        if (a.width && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom)
          { say(`on a phone the copy button covers a code block's first line: ${describe(pre)}`); break; }
      }
    }
    // "On this page" shown from 1200 px, inside the window.
    const toc = document.querySelector('.toc-drawer:not(.no-toc)');
    if (width >= 1200 && toc && toc.querySelector('.toc-tree a')) {
      const r = toc.getBoundingClientRect();
      if (!shown(toc) || r.left >= window.innerWidth || r.right > window.innerWidth + 1 || r.right <= 0)
        say(`"On this page" is not shown at ${width} px (its box spans ${Math.round(r.left)}-${Math.round(r.right)} px)`);
    }
    // The theme's script ran, and the colours follow the theme.
    if (document.documentElement.classList.contains('no-js')) say("the theme's script did not run (<html> still has class no-js)");
    const bg = lum(getComputedStyle(document.body).backgroundColor);
    if (bg === null) say('the page has no background colour');
    else if (theme === 'dark' && bg > 0.2) say(`the dark theme shows a light page (background luminance ${bg.toFixed(2)})`);
    else if (theme === 'light' && bg < 0.5) say(`the light theme shows a dark page (background luminance ${bg.toFixed(2)})`);
    const ink = lum(getComputedStyle(document.querySelector('article') || document.body).color);
    if (ink !== null && theme === 'light' && ink > 0.2) say(`the light theme shows light text (luminance ${ink.toFixed(2)})`);
    if (ink !== null && theme === 'dark' && ink < 0.4) say(`the dark theme shows dark text (luminance ${ink.toFixed(2)})`);
    for (const pre of document.querySelectorAll('div.highlight pre')) {
      if (!shown(pre)) continue;
      const cbg = lum(getComputedStyle(pre.closest('div.highlight')).backgroundColor);
      const fg = lum(getComputedStyle(pre).color);
      if (cbg !== null && fg !== null) {
        const contrast = (Math.max(cbg, fg) + 0.05) / (Math.min(cbg, fg) + 0.05);
        if (contrast < 4.5) say(`a code block's text has too little contrast (${contrast.toFixed(1)}:1): ${describe(pre)}`);
      }
      break;
    }
    // Images
    const imgs = Array.from(document.images);
    await Promise.all(imgs.map((i) => i.complete ? null : new Promise((ok) => { i.onload = i.onerror = ok; })));
    for (const img of imgs) {
      if (!img.complete || img.naturalWidth === 0) say(`an image did not load: ${img.getAttribute('src')}`);
      if (!(img.getAttribute('alt') || '').trim() && !img.closest('.sidebar-brand'))
        say(`an image has no alt text: ${img.getAttribute('src')}`);
    }
    // Figures: readable at the column width, right in the dark theme.
    for (const img of document.querySelectorAll('figure.book-diagram img, figure.book-plot img')) {
      if (!shown(img)) continue;
      const src = img.getAttribute('src');
      const filter = getComputedStyle(img).filter;
      if (img.closest('figure.book-diagram')) {
        if (theme === 'dark' && (!filter || filter === 'none')) say(`a diagram is not adapted to the dark theme: ${src}`);
        if (theme === 'light' && filter && filter !== 'none') say(`a diagram is filtered in the light theme: ${src}`);
      } else {
        const isDark = /-dark\.svg$/.test(src);
        if (theme === 'dark' && !isDark) say(`the dark theme shows a plot's light drawing: ${src}`);
        if (theme === 'light' && isDark) say(`the light theme shows a plot's dark drawing: ${src}`);
      }
      if (measureFigures && /\.svg(\?|$)/.test(img.currentSrc || img.src)) {
        const r = await smallestText(img);
        out.figures.push({src: src, width: img.getBoundingClientRect().width, min: r.min, what: r.what});
        if (r.error) say(`a figure could not be measured (${r.error}): ${src}`);
        else if (r.min !== null && r.min < 12)
          say(`a figure's smallest text is ${r.min.toFixed(1)} px at the column width (under 12 px): ${src} ("${r.what}")`);
      } else if (phone && chosen === 'light' && /\.svg(\?|$)/.test(img.currentSrc || img.src)) {
        // On a phone a figure keeps its text readable (it scrolls sideways if it must).
        const r = await smallestText(img);
        if (!r.error && r.min !== null && r.min < MIN_PHONE_TEXT_PX)
          say(`a figure's smallest text is ${r.min.toFixed(1)} px on a phone (under ${MIN_PHONE_TEXT_PX} px): ${src} ("${r.what}")`);
      }
    }
    // Blocks that hide content, and a page that scrolls sideways. An output block
    // (a program's output: often a table) keeps each line on one row; where it
    // is wider than the column it may scroll sideways, visibly (book.js marks
    // it and shows a cue). A listing's line may wrap, marked as wrapped.
    for (const pre of document.querySelectorAll('pre')) {
      if (!shown(pre)) continue;
      const output = pre.closest('div.book-output');
      const rowPx = parseFloat(getComputedStyle(pre).lineHeight) || parseFloat(getComputedStyle(pre).fontSize) * 1.5;
      if (output) {
        const lines = pre.textContent.replace(/\n$/, '').split('\n');
        const cs = getComputedStyle(pre);
        const inner = pre.scrollHeight - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom);
        const rows = Math.round(inner / rowPx);
        if (rows > lines.length)
          say(`an output block breaks its lines (${lines.length} lines shown in ${rows} rows: a table's rows ` +
              `and numbers must stay whole): ${describe(pre)}`);
      }
      if (pre.scrollWidth > pre.clientWidth + 1) {
        const cue = output && output.previousElementSibling;
        const scrollable = output && ['auto', 'scroll'].includes(getComputedStyle(pre).overflowX);
        if (!output)
          say(`a block overflows sideways (${pre.scrollWidth} px of content in ${pre.clientWidth} px): ${describe(pre)}`);
        else if (!scrollable || !output.classList.contains('book-scrolls') || !cue ||
                 !cue.classList.contains('book-scroll-cue') || !shown(cue))
          say(`an output block is wider than its column (${pre.scrollWidth} px of content in ${pre.clientWidth} px) ` +
              `and does not show that it scrolls sideways: ${describe(pre)}`);
      }
      if (pre.scrollHeight > pre.clientHeight + 1)
        say(`a block scrolls inside (${pre.scrollHeight} px of content in ${pre.clientHeight} px): ${describe(pre)}`);
      if (!output && pre.closest('article')) {
        // A listing: every line that takes more than one row is marked as wrapped.
        let unmarked = 0, first = null;
        const lines = pre.querySelectorAll(':scope > .book-line, :scope > span[id^="L-"]');
        if (!lines.length && pre.getBoundingClientRect().height > rowPx * (pre.textContent.split('\n').length + 1.5))
          say(`a code block wraps lines that are not marked (its lines were not split): ${describe(pre)}`);
        for (const line of lines) {
          if (line.getBoundingClientRect().height <= rowPx * 1.5) continue;
          const bg = getComputedStyle(line).backgroundImage;
          if (!line.classList.contains('book-wrapped') || !bg || bg === 'none') { unmarked++; first = first || line; }
        }
        if (unmarked)
          say(`a code block has ${unmarked} wrapped line(s) with no mark, read as indentation: ${describe(first)}`);
      }
    }
    // A listing's caption: "Listing N" on one row, the caption set left, and the
    // file's path broken only after a '/', never inside a name.
    for (const cap of document.querySelectorAll('article .code-block-caption')) {
      if (!shown(cap)) continue;
      const num = cap.querySelector('.caption-number');
      if (num && num.getClientRects().length > 1)
        say(`a listing's number breaks over ${num.getClientRects().length} rows: ${describe(cap)}`);
      const align = getComputedStyle(cap).textAlign;
      if (align === 'center') say(`a listing's caption is centred: ${describe(cap)}`);
      for (const code of cap.querySelectorAll('code')) {
        const text = code.textContent;
        const walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT);
        let prevTop = null, prevChar = '';
        for (let t = walker.nextNode(); t; t = walker.nextNode()) {
          for (let i = 0; i < t.data.length; i++) {
            if (!t.data[i].trim()) { prevChar = t.data[i]; continue; }
            const r = document.createRange(); r.setStart(t, i); r.setEnd(t, i + 1);
            const top = r.getBoundingClientRect().top;
            if (prevTop !== null && top > prevTop + 2 && !/[\/\s]/.test(prevChar))
              say(`a listing's caption breaks a name after "${prevChar}" ("${text.slice(0, 60)}"): ${describe(cap)}`);
            prevTop = top; prevChar = t.data[i];
          }
        }
      }
    }
    // Anything else that hides part of its content sideways: a box that clips
    // or scrolls (a table's wrapper, the article) with content wider than it.
    for (const el of document.querySelectorAll('article, article *')) {
      if (el.tagName === 'PRE' || !shown(el)) continue;
      const ox = getComputedStyle(el).overflowX;
      const cue = el.previousElementSibling;
      const visiblyScrolls = ['auto', 'scroll'].includes(ox) && el.classList.contains('book-scrolls') &&
                             cue && cue.classList.contains('book-scroll-cue') && shown(cue);
      if (ox !== 'visible' && el.scrollWidth > el.clientWidth + 1 && !visiblyScrolls)
        say(`content is hidden sideways (${el.scrollWidth} px of content in ${el.clientWidth} px, ` +
            `overflow ${ox}): ${describe(el.firstElementChild || el)}`);
    }
    // Text or an image that reaches past the column (clipped further out, or
    // off the screen): the column is the article's box with its gutter, and
    // never past the window. Boxes themselves may overhang (furo's headings
    // do); what counts is what the reader would not see.
    const article = document.querySelector('article');
    if (article) {
      const edge = Math.min(window.innerWidth, (article.parentElement || article).getBoundingClientRect().right);
      const scrolls = (n) => { for (let p = n.parentElement; p && p !== article; p = p.parentElement)
                                 if (getComputedStyle(p).overflowX !== 'visible') return true; return false; };
      const past = new Map();  // block -> how far its content reaches past the edge
      const note = (el, right) => { const block = el.closest('table, pre, figure, p, li, dt, dd, h1, h2, h3, h4, h5, h6') || el;
                                    past.set(block, Math.max(past.get(block) || 0, right - edge)); };
      const walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT);
      for (let t = walker.nextNode(); t; t = walker.nextNode()) {
        const el = t.parentElement;
        // (A <pre> is measured above; its wrapped lines' trailing spaces hang
        // past its edge, unseen.)
        if (!t.textContent.trim() || !el || !shown(el) || el.closest('.headerlink, pre') || scrolls(t)) continue;
        const range = document.createRange();
        range.selectNodeContents(t);
        const right = range.getBoundingClientRect().right;
        if (right > edge + 1) note(el, right);
      }
      for (const img of article.querySelectorAll('img'))
        if (shown(img) && !scrolls(img) && img.getBoundingClientRect().right > edge + 1) note(img, img.getBoundingClientRect().right);
      for (const [el, by] of Array.from(past).slice(0, 3))
        say(`content reaches past the column (by ${Math.round(by)} px): ${describe(el)}`);
    }
    const doc = document.documentElement;
    if (doc.scrollWidth > window.innerWidth + 1) {
      const wide = Array.from(document.querySelectorAll('article *')).filter((e) => shown(e) &&
        e.getBoundingClientRect().right > window.innerWidth + 1 && !e.closest('.table-wrapper')).slice(0, 3);
      say(`the page scrolls sideways (${doc.scrollWidth} px wide in a ${window.innerWidth} px window)` +
          (wide.length ? ': ' + wide.map(describe).join('; ') : ''));
    }
    // Links, for the link check.
    for (const a of document.querySelectorAll('a[href]')) out.links.push(a.href);
  } catch (e) { say('the check itself failed: ' + e); }
  done(out);
})();
"""


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


def capture(driver, path: str, element=None) -> None:
    """A PNG of the viewport, or of one element (the page scrolled to it)."""
    import base64
    params = {"format": "png"}
    if element is not None:
        r = driver.execute_script(
            "arguments[0].scrollIntoView({block: 'start'});"
            "const r = arguments[0].getBoundingClientRect();"
            "return [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height];", element)
        params.update(clip={"x": r[0], "y": r[1], "width": r[2], "height": r[3], "scale": 1},
                      captureBeyondViewport=True)
    data = driver.execute_cdp_cmd("Page.captureScreenshot", params)["data"]
    with open(path, "wb") as f:
        f.write(base64.b64decode(data))


def wait_ready(driver) -> None:
    driver.execute_async_script(
        "const done = arguments[0];"
        "const ready = () => document.fonts ? document.fonts.ready.then(() => done()) : done();"
        "if (document.readyState === 'complete') ready(); else window.addEventListener('load', ready);")


SEARCH_RESULTS = r"""
const done = arguments[0], started = Date.now();
(function poll() {
  const status = document.querySelector('#search-results .search-summary, #search-results p');
  const items = document.querySelectorAll('#search-results li');
  const finished = status && /finished|did not match/i.test(status.textContent);
  const snippets = Array.from(items).every((li) => li.querySelector('.context'));
  if ((finished && snippets) || Date.now() - started > 20000)
    done(Array.from(items).map((li) => [li.querySelector('a').href, (li.querySelector('.context') || {}).textContent || '']));
  else setTimeout(poll, 200);
})();
"""


def search_problems(driver, server, query: str = "bank+conflicts") -> list:
    """The search page for a term that is also a section's title (Sphinx lists
    such a page once per way it matched): one result per page (a
    section of a page already listed joins its result)."""
    driver.get(server.url(f"search.html?q={query}"))
    wait_ready(driver)
    results = driver.execute_async_script(SEARCH_RESULTS)
    out, seen = [], set()
    if not results:
        return [f"search.html?q={query}: no result"]
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
    return [p for p in pages if p == "index.html" or (os.path.basename(p).startswith("ch") and "/" not in p)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--html", required=True)
    ap.add_argument("--out", default=None, help="where screenshots go (default: no screenshots)")
    ap.add_argument("--pages", default="", help="comma-separated pages (default: every page)")
    ap.add_argument("--widths", default="1280,390")
    ap.add_argument("--themes", default=",".join(THEMES))
    ap.add_argument("--every-view", action="store_true",
                    help="every page in every theme and width (default: see views())")
    a = ap.parse_args()
    started = time.monotonic()
    root = os.path.abspath(a.html)
    if not os.path.isfile(os.path.join(root, "index.html")):
        print(f"check_site: {root} holds no built book (no index.html); build it first", file=sys.stderr)
        return 1
    if not (os.path.exists(CHROMIUM) and os.path.exists(DRIVER)):
        print(f"check_site: needs {CHROMIUM} and {DRIVER} (Debian: chromium chromium-driver)", file=sys.stderr)
        return 1
    try:
        import selenium  # noqa: F401
    except ImportError:
        print("check_site: needs Selenium for Python 3 (Debian: python3-selenium)", file=sys.stderr)
        return 1
    if a.pages:
        pages = [p.strip() for p in a.pages.split(",") if p.strip()]
    else:
        pages = sorted(os.path.relpath(os.path.join(d, f), root).replace(os.sep, "/")
                       for d, _dirs, files in os.walk(root) for f in files if f.endswith(".html"))
    widths = [int(w) for w in a.widths.split(",")]
    themes = a.themes.split(",")
    shots = os.path.join(a.out, "shots") if a.out else None
    if shots:
        shutil.rmtree(shots, ignore_errors=True)
        os.makedirs(shots)

    server = Server(root)
    origin = f"http://127.0.0.1:{server.port}"
    profile = tempfile.mkdtemp(prefix="book-site-test-")
    problems, figures, link_problems, archives = [], {}, {}, set()
    opened = 0
    driver = None
    try:
        driver = start_browser(profile)
        driver.get("about:blank")
        network = Network(origin)
        driver.get_log("browser")
        driver.get_log("performance")
        script_id = None
        checked_links = set()
        shot_figures = set()
        for width in widths:
            driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
                "width": width, "height": HEIGHTS.get(width, 900), "deviceScaleFactor": 1,
                "mobile": width < 600})
            for theme in themes:
                if theme not in THEMES:
                    print(f"check_site: unknown theme {theme} ({', '.join(THEMES)})", file=sys.stderr)
                    return 1
                choice, system, media, _looks = THEMES[theme]
                driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"media": media, "features": [
                    {"name": "prefers-color-scheme", "value": system}]})
                if script_id:
                    driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": script_id})
                script_id = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {
                    "source": f"try {{ localStorage.setItem('theme', '{choice}'); }} catch (e) {{}}"})["identifier"]
                for page in views(pages, theme, width, explicit=bool(a.pages), every=a.every_view):
                    where = f"{page} [{theme} {width}px]"
                    opened += 1
                    driver.get(server.url(page))
                    wait_ready(driver)
                    report = driver.execute_async_script(PAGE_CHECKS, theme, width, width == COLUMN_WIDTH)
                    found = list(report["problems"])
                    found += console_problems(driver)
                    found += network.problems(driver)
                    problems += [f"{where}: {p}" for p in found]
                    for fig in report["figures"]:
                        figures.setdefault(fig["src"], fig)
                    archives.update(h for h in report["links"] if h.split("?")[0].endswith((".tar.gz", ".tgz", ".zip")))
                    if page not in checked_links:
                        checked_links.add(page)
                        for fault in parsed(os.path.join(root, page)).unbalanced[:3]:
                            link_problems.setdefault(f"{page}: invalid HTML: {fault}", None)
                        for href in sorted(set(report["links"])):
                            issue = check_link(root, origin, page, href)
                            if issue:
                                link_problems.setdefault(f"{page}: {issue}", None)
                    if shots and os.path.basename(page).startswith("ch"):
                        stem = os.path.splitext(page)[0].replace("/", "_")
                        capture(driver, os.path.join(shots, f"{stem}-{theme}-{width}.png"))
                        if width == COLUMN_WIDTH:
                            for kind in ("diagram", "plot"):
                                if (kind, theme) in shot_figures:
                                    continue
                                els = [e for e in driver.find_elements(
                                    "css selector", f"figure.book-{kind}") if e.is_displayed()]
                                if els:
                                    capture(driver, os.path.join(shots, f"figure-{kind}-{theme}.png"), els[0])
                                    shot_figures.add((kind, theme))
        if os.path.isfile(os.path.join(root, "search.html")) and not a.pages:
            problems += search_problems(driver, server)
        for p in server.failed:
            problems.append(f"the server answered {p[0]} for {p[1]}")
    finally:
        if driver is not None:
            driver.quit()
        server.close()
        shutil.rmtree(profile, ignore_errors=True)

    problems += list(link_problems)
    problems += archive_problems(root, origin, archives)
    elapsed = time.monotonic() - started
    print(f"check_site: {len(pages)} pages, {len(widths)} widths, {len(themes)} themes: "
          f"{opened} page views in {elapsed:.1f} s")
    for src, fig in sorted(figures.items()):
        size = f"{fig['min']:.1f} px" if fig.get("min") is not None else "no text"
        print(f"  figure {src}: {fig['width']:.0f} px wide at {COLUMN_WIDTH} px, smallest text {size}")
    if shots:
        print(f"  screenshots: {shots}")
    if problems:
        print(f"check_site: {len(problems)} problem{'s' if len(problems) != 1 else ''}:")
        for p in problems:
            print("  " + p)
        return 1
    print("check_site: every page passes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
