// SPDX-License-Identifier: MIT
// Every check of one view of a page, run in the page by check_site.py (PAGE_CHECKS,
// after a line that defines THEME_LOOKS from its THEMES): arguments
// [chosen theme, width, measured drawings, done]; calls done with the problems found.
// measured: at the column width, the drawings (their src) already measured (a
// drawing's text does not change with the theme or the page: each is measured
// once); null at other widths.
const [chosen, width, measured, done] = [arguments[0], arguments[1], arguments[2], arguments[3]];
const phone = width < 600, MIN_PHONE_TEXT_PX = 12;
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
      // The first 20 buttons shown: a block in a tab not chosen (another GPU's
      // output, the raw output) has its button laid out nowhere, and a page
      // of GPU tabs has more hidden blocks than shown ones before its listings.
      const shown = Array.from(document.querySelectorAll('article .highlight button.copybtn'))
        .filter((b) => b.getBoundingClientRect().width > 0);
      for (const button of shown.slice(0, 20)) {
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
    // Printed: no copy buttons on the paper.
    if (chosen.startsWith('print')) {
      const buttons = Array.from(document.querySelectorAll('button.copybtn'))
        .filter((b) => b.getClientRects().length && getComputedStyle(b).display !== 'none');
      if (buttons.length) say(`printed, the page shows ${buttons.length} copy button(s)`);
      // Every fold (answers, hints, "Run it yourself") is printed open: paper
      // cannot be clicked (book.js opens them on beforeprint, which the emulated
      // print media does not fire).
      window.dispatchEvent(new Event('beforeprint'));
      const closed = document.querySelectorAll('article details:not([open])').length;
      window.dispatchEvent(new Event('afterprint'));
      if (closed) say(`printed, ${closed} fold(s) (answers, hints) stay closed`);
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
      // On a phone a plot fits the column whole (the phone's drawing, its panels
      // stacked): none of its panels, which its caption describes, is past the
      // screen's edge behind a scroll.
      if (phone && img.closest('figure.book-plot')) {
        const box = img.closest('a.book-zoom') || img.parentElement;
        const w = img.getBoundingClientRect().width;
        if (w > box.clientWidth + 1)
          say(`on a phone a plot is wider than the column (${Math.round(w)} px in ${box.clientWidth} px), ` +
              `a part of it off the screen: ${src}`);
      }
    }
    // A plot shows one drawing: its wide one, or on a phone its phone drawing, in
    // the page's theme. A plot whose run awaits a GPU (ext/plots.py: the figure
    // book-plot-waiting) has no drawing at all, and says so where the drawing would
    // be: its note "Not yet drawn: not yet run on the <GPU>", shown, then its caption.
    for (const fig of document.querySelectorAll('figure.book-plot')) {
      const drawn = Array.from(fig.querySelectorAll('img')).filter(shown);
      if (fig.classList.contains('book-plot-waiting')) {
        const note = fig.querySelector('.book-gpu-state');
        const says = note && shown(note) && /Not yet drawn: not yet run on the \S/.test(note.textContent);
        if (fig.querySelectorAll('img').length || !says || !fig.querySelector('figcaption'))
          say(`a plot marked as awaiting a GPU run ${fig.querySelectorAll('img').length ? 'holds a drawing' :
              (says ? 'has no caption' : 'does not show its note "Not yet drawn: not yet run on the ..."')}: ` +
              `${fig.id || describe(fig)}`);
      } else if (drawn.length !== 1)
        say(`a plot shows ${drawn.length} drawings: ${drawn.map((i) => i.getAttribute('src')).join(', ')}`);
    }
    // A plot's caption and alt text name its panels (a), (b), never by their place:
    // the phone's drawing stacks them, so "left" and "right" would be wrong there.
    if (measured) {
      for (const fig of document.querySelectorAll('figure.book-plot')) {
        const cap = fig.querySelector('figcaption');
        const text = ((cap && cap.textContent) || '') + ' ' +
          Array.from(fig.querySelectorAll('img')).map((i) => i.alt || '').join(' ');
        const m = text.match(/\b(left|right)\s*:|\b(on )?the (left|right)\b|\b(left|right)(-hand)? (chart|panel|one)\b/i);
        if (m) say(`a plot's caption or alt text names a panel by its place ("${m[0]}"), which its ` +
                   `phone drawing (panels stacked) does not keep: name the panels (a), (b)`);
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
        // A wrapped line keeps its indentation: its continuation rows start
        // inside it (book.js sets --book-indent to the line's leading spaces).
        let flat = 0, flatFirst = null, wrapped = 0;
        for (const line of lines) {
          if (line.getBoundingClientRect().height <= rowPx * 1.5) continue;
          wrapped++;
          const lead = (line.textContent.match(/^ */) || [''])[0].length;
          const pad = parseFloat(getComputedStyle(line).paddingLeft);
          const ch = parseFloat(getComputedStyle(pre).fontSize) * 0.55;
          // (book.css caps the hang at 30% of the window: a line indented past
          // that continues there.)
          if (lead && pad < Math.min(lead * ch, window.innerWidth * 0.29)) { flat++; flatFirst = flatFirst || line; }
        }
        if (flat)
          say(`a code block has ${flat} wrapped line(s) whose continuation rows start left of the line's own ` +
              `indentation: ${describe(flatFirst)}`);
        // On a desktop no listing of a chapter wraps: the column holds a
        // listing's 100 columns (book.css).
        if (width >= 1280 && wrapped && pre.closest('.book-listing') && !chosen.startsWith('print'))
          say(`at ${width} px a listing wraps ${wrapped} line(s): ${describe(pre)}`);
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
    // Its height, folds closed (check_site.py: no chapter's page is a whole chapter).
    out.height = doc.scrollHeight;
    // Links, for the link check.
    for (const a of document.querySelectorAll('a[href]')) out.links.push(a.href);
  } catch (e) { say('the check itself failed: ' + e); }
  done(out);
})();
