#!/usr/bin/env python3
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
width. All the checks of a view run in the page as one script (PAGE_CHECKS).
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
  - a block a run shows (an output, a report, SASS) without its "Run it
    yourself" and the command that reproduces it;
  - an index that lists a term twice (in another case, or as its plural);
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
    title) that lists a page twice.

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
// measured: at the column width, the drawings (their src) already measured (a
// drawing's text does not change with the theme or the page: each is measured
// once); null at other widths.
const [chosen, width, measured, done] = [arguments[0], arguments[1], arguments[2], arguments[3]];
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
    // Every block a run shows (a program's output, a report, SASS) says how to
    // reproduce it: "Run it yourself", with the command.
    for (const run of document.querySelectorAll('article div.book-run')) {
      const fold = run.querySelector(':scope > details.book-run-yourself');
      const command = fold && fold.querySelector('.book-run-command pre');
      if (!fold || !/Run it yourself/.test((fold.querySelector('summary') || {}).textContent || '') ||
          !command || !/^\$ \S/.test(command.textContent))
        { say(`a run's block has no "Run it yourself" with its command: ${describe(run.querySelector('pre') || run)}`); break; }
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
        // The first line's text, to its end (it may span several of the
        // highlighter's spans): the button must be clear of all of it.
        const walker = document.createTreeWalker(pre, NodeFilter.SHOW_TEXT);
        const first = walker.nextNode();
        if (!first) continue;
        let last = first, end = first.length;
        for (let t = first; t; t = walker.nextNode()) {
          const nl = t.data.indexOf('\n');
          last = t; end = nl >= 0 ? nl : t.length;
          if (nl >= 0) break;
        }
        const range = document.createRange(); range.setStart(first, 0); range.setEnd(last, end);
        const a = button.getBoundingClientRect();
        const rects = Array.from(range.getClientRects());
        const top = rects.length ? Math.min(...rects.map((r) => r.top)) : 0;
        const row = rects.filter((r) => r.width && r.top < top + 4);
        if (a.width && row.some((b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom))
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
      if (measured && /\.svg(\?|$)/.test(img.currentSrc || img.src)) {
        if (measured.includes(src)) continue;
        measured.push(src);
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
    // An output's table (outtables.py): every row on one line (a cell or a
    // number never breaks), the box scrolls sideways visibly where the column is
    // narrower, and the output as printed is behind its reveal after the table.
    for (const table of document.querySelectorAll('table.book-output-table')) {
      if (!shown(table)) continue;
      const box = table.parentElement;
      const cell = table.querySelector('td, th');
      const rowPx = (parseFloat(getComputedStyle(cell).lineHeight) || parseFloat(getComputedStyle(cell).fontSize) * 1.5) +
                    parseFloat(getComputedStyle(cell).paddingTop) + parseFloat(getComputedStyle(cell).paddingBottom) + 3;
      const broken = [...table.rows].filter((tr) => tr.getBoundingClientRect().height > rowPx * 1.5);
      if (broken.length)
        say(`an output table breaks ${broken.length} of its ${table.rows.length} rows over two lines or more ` +
            `(a row of ${broken[0].getBoundingClientRect().height.toFixed(0)} px, a line ${rowPx.toFixed(0)} px): "${broken[0].textContent.slice(0, 60)}"`);
      if (box.scrollWidth > box.clientWidth + 1) {
        const cue = box.previousElementSibling;
        if (!['auto', 'scroll'].includes(getComputedStyle(box).overflowX) || !box.classList.contains('book-scrolls') ||
            !cue || !cue.classList.contains('book-scroll-cue') || !shown(cue))
          say(`an output table is wider than its column (${box.scrollWidth} px in ${box.clientWidth} px) and does not show that it scrolls sideways`);
      }
      const tabled = table.closest('div.book-output-tabled');
      const raw = tabled && tabled.querySelector(':scope > details.book-raw pre');
      if (!raw || !raw.textContent.includes(table.rows[1].cells[0].textContent))
        say(`an output table has no reveal with the output as the program printed it: "${table.rows[0].textContent.slice(0, 60)}"`);
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
      if (el.tagName === 'PRE') continue;
      const ox = getComputedStyle(el).overflowX;
      if (ox === 'visible' || el.scrollWidth <= el.clientWidth + 1 || !shown(el)) continue;
      const cue = el.previousElementSibling;
      const visiblyScrolls = ['auto', 'scroll'].includes(ox) && el.classList.contains('book-scrolls') &&
                             cue && cue.classList.contains('book-scroll-cue') && shown(cue);
      if (!visiblyScrolls)
        say(`content is hidden sideways (${el.scrollWidth} px of content in ${el.clientWidth} px, ` +
            `overflow ${ox}): ${describe(el.firstElementChild || el)}`);
    }
    // Text or an image that reaches past the column (clipped further out, or
    // off the screen): the column is the article's box with its gutter, and
    // never past the window. Boxes themselves may overhang (furo's headings
    // do); what counts is what the reader would not see.
    const article = document.querySelector('article');
    // The folds (hints, answers: closed <details>) are measured open, as a reader
    // who opens one sees it: closed, Chrome keeps their content's layout from
    // the width it last had (a page loaded at 1280 px and turned to 390 px
    // reported a closed hint 202 px past the column), and it would hide a
    // real overflow. They are closed again after.
    const folds = article ? Array.from(article.querySelectorAll('details:not([open])')) : [];
    for (const d of folds) d.open = true;
    if (article) try {
      const edge = Math.min(window.innerWidth, (article.parentElement || article).getBoundingClientRect().right);
      // (Whether a box between the node and the article clips or scrolls, each box
      // asked once.)
      const clips = new Map();
      const scrolls = (n) => {
        const p = n.parentElement;
        if (!p || p === article) return false;
        if (!clips.has(p)) clips.set(p, getComputedStyle(p).overflowX !== 'visible' || scrolls(p));
        return clips.get(p);
      };
      const past = new Map();  // block -> how far its content reaches past the edge
      const note = (el, right) => { const block = el.closest('table, pre, figure, p, li, dt, dd, h1, h2, h3, h4, h5, h6') || el;
                                    past.set(block, Math.max(past.get(block) || 0, right - edge)); };
      const walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT);
      const range = document.createRange();
      for (let t = walker.nextNode(); t; t = walker.nextNode()) {
        const el = t.parentElement;
        // (A <pre> is measured above; its wrapped lines' trailing spaces hang
        // past its edge, unseen.)
        if (!el || el.closest('.headerlink, pre') || !t.textContent.trim()) continue;
        range.selectNodeContents(t);
        const right = range.getBoundingClientRect().right;
        if (right > edge + 1 && shown(el) && !scrolls(t)) note(el, right);
      }
      for (const img of article.querySelectorAll('img'))
        if (shown(img) && !scrolls(img) && img.getBoundingClientRect().right > edge + 1) note(img, img.getBoundingClientRect().right);
      for (const [el, by] of Array.from(past).slice(0, 3))
        say(`content reaches past the column (by ${Math.round(by)} px): ${describe(el)}`);
    } finally {
      for (const d of folds) d.open = false;
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


def capture(driver, path: str, selector: str | None = None) -> bool:
    """A PNG of the first screen of the page, or of the first shown element that
    matches selector (the page scrolled to it); False where none is shown. Only
    an element taller than the window is captured beyond it (which lays out the
    whole page again: slow on a chapter)."""
    import base64
    params = {"format": "png", "optimizeForSpeed": True}
    r = driver.execute_script(
        "const el = arguments[0] && Array.from(document.querySelectorAll(arguments[0]))"
        "  .find((e) => e.offsetWidth || e.offsetHeight || e.getClientRects().length);"
        "if (!arguments[0]) { window.scrollTo({top: 0, left: 0, behavior: 'instant'}); return []; }"
        "if (!el) return null;"
        "el.scrollIntoView({block: 'start', behavior: 'instant'});"
        "const r = el.getBoundingClientRect();"
        "return [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height, window.innerHeight];",
        selector)
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
SET_THEME = """
const [choice, done] = arguments;
try { localStorage.setItem('theme', choice); } catch (e) {}
document.body.dataset.theme = choice;
window.scrollTo({top: 0, left: 0, behavior: 'instant'});  // (as a page starts: at its top)
requestAnimationFrame(() => requestAnimationFrame(() =>
  (document.fonts ? document.fonts.ready : Promise.resolve()).then(() => done())));
"""


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
            if sh.shots and os.path.basename(page).startswith("ch"):
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
            -os.path.getsize(os.path.join(root, work[i][0])) * len(work[i][1]), i))
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
        if os.path.isfile(os.path.join(root, "search.html")) and not a.pages:
            t0 = time.monotonic()
            problems += search_problems(browsers[0].driver, server)
            shared.spent["searching"] = time.monotonic() - t0
        for p in server.failed:
            problems.append(f"the server answered {p[0]} for {p[1]}")
    finally:
        for b in browsers:
            b.close()
        server.close()
    figures, link_problems, archives = shared.figures, shared.link_problems, shared.archives
    opened, loads, spent = shared.opened, shared.loads, shared.spent

    if not a.pages or "index.html" in pages:
        problems += front_page_problems(root)
    if not a.pages or "genindex.html" in pages:
        problems += index_problems(root)
    problems += list(link_problems)
    problems += archive_problems(root, origin, archives)
    elapsed = time.monotonic() - started
    print(f"check_site: {len(pages)} pages, {len(widths)} widths, {len(themes)} themes: "
          f"{opened} page views ({loads} page loads) in {elapsed:.1f} s, {jobs} browser{'s' if jobs > 1 else ''}")
    print("  time in each browser, summed: " + ", ".join(f"{k} {v:.1f} s" for k, v in spent.items()))
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
