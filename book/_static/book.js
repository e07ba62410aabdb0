// SPDX-License-Identifier: MIT
// The book's own script (tools/bookpy/ext/site.py adds it to every page).
//
// - A listing's caption links to the page of its file with ?lines=a-b[,c-d]#L-a:
//   mark those lines, so the reader sees which part of the file the listing showed.
// - A code block's lines become one block each, so that a line longer than the
//   column wraps with a hanging indent inside its own indentation and is marked
//   as wrapped (class book-wrapped: a bar beside its continuation rows), never
//   read as indentation; a highlighted line stays highlighted on every row.
// - An output block keeps its lines whole (a table stays a table): where it is
//   wider than the column it scrolls sideways, and says so (class book-scrolls
//   and a cue above it). An output's table (outtables.py) does the same in its box.
// tests/site/check_site.py checks all three in the browser.
(function () {
  "use strict";
  function markLines() {
    var spec = new URLSearchParams(window.location.search).get("lines");
    if (!spec) return;
    spec.split(",").forEach(function (part) {
      var ends = part.split("-").map(Number);
      var first = ends[0], last = ends.length > 1 ? ends[1] : ends[0];
      if (!(first > 0) || !(last >= first) || last - first > 100000) return;
      for (var n = first; n <= last; n++) {
        var line = document.getElementById("L-" + n);
        if (line) line.classList.add("book-marked-line");
      }
    });
  }

  // The text of `pre` as lines, each a list of [text, ancestors] pieces (the
  // elements between `pre` and the text, outermost first).
  function piecesByLine(pre) {
    var lines = [[]];
    (function walk(node, chain) {
      node.childNodes.forEach(function (child) {
        if (child.nodeType === Node.TEXT_NODE) {
          child.data.split("\n").forEach(function (part, i) {
            if (i > 0) lines.push([]);
            if (part) lines[lines.length - 1].push([part, chain]);
          });
        } else if (child.nodeType === Node.ELEMENT_NODE) {
          walk(child, chain.concat([child]));
        }
      });
    })(pre, []);
    if (lines.length > 1 && lines[lines.length - 1].length === 0) lines.pop();
    return lines;
  }

  function splitIntoLines(pre) {
    if (pre.dataset.bookLines) return;
    pre.dataset.bookLines = "1";
    var lines = piecesByLine(pre);
    var out = document.createDocumentFragment();
    lines.forEach(function (pieces) {
      var line = document.createElement("span");
      line.className = "book-line";
      pieces.forEach(function (piece) {
        var at = line;
        piece[1].forEach(function (el) {
          var copy = el.cloneNode(false);
          copy.removeAttribute("id");
          at.appendChild(copy);
          at = copy;
        });
        at.appendChild(document.createTextNode(piece[0]));
      });
      // Its indentation, for the continuation rows (book.css), and Pygments'
      // highlight of a whole line (emphasize-lines) given to the line itself.
      var text = pieces.map(function (piece) { return piece[0]; }).join("");
      var indent = text.length - text.replace(/^[ \t]+/, "").length;
      if (indent) line.style.setProperty("--book-indent", indent + "ch");
      if (pieces.length && pieces.every(function (piece) {
        return piece[1].some(function (el) { return el.classList && el.classList.contains("hll"); });
      })) line.classList.add("book-hll");
      out.appendChild(line);
    });
    pre.textContent = "";
    pre.appendChild(out);
  }

  function rowHeight(el) {
    var lh = parseFloat(getComputedStyle(el).lineHeight);
    return lh > 0 ? lh : parseFloat(getComputedStyle(el).fontSize) * 1.5;
  }

  function markWrapped(pre) {
    var row = rowHeight(pre);
    pre.style.setProperty("--book-row", row + "px");
    pre.querySelectorAll(":scope > .book-line, :scope > span[id^='L-']").forEach(function (line) {
      line.classList.toggle("book-wrapped", line.getBoundingClientRect().height > row * 1.5);
    });
  }

  // `box` scrolls sideways where `scroller` (itself or the block inside) is wider
  // than the column: mark it and show the cue before it.
  function markScrolling(box, scroller) {
    if (!scroller) return;
    var scrolls = scroller.scrollWidth > scroller.clientWidth + 1;
    box.classList.toggle("book-scrolls", scrolls);
    var cue = box.previousElementSibling;
    if (!(cue && cue.classList.contains("book-scroll-cue"))) {
      cue = document.createElement("p");
      cue.className = "book-scroll-cue";
      cue.textContent = box.tagName === "A" ? "Scroll the figure sideways \u21c6 (or tap it to open it alone)"
                                            : "Wider than the page: scroll the block sideways \u21c6";
      box.parentNode.insertBefore(cue, box);
    }
    cue.hidden = !scrolls;
  }

  // A figure (an SVG: a diagram or a plot) is drawn no smaller than the width at
  // which its smallest text is 12 px: on a narrow column it then scrolls
  // sideways, with the cue (markScrolling), rather than shrinking its text. The
  // smallest text is measured once per image, in a hidden frame at the image's
  // own size (where the frame cannot read the SVG, as from file://, the figure
  // just fits the column).
  var MIN_TEXT_PX = 12;
  function smallestText(img, done) {
    var frame = document.createElement("iframe");
    frame.setAttribute("aria-hidden", "true");
    frame.tabIndex = -1;
    frame.style.cssText = "position:absolute;left:-20000px;top:0;border:0;width:" +
      (img.naturalWidth + 40) + "px;height:200px";
    frame.onload = function () {
      var min = Infinity;
      try {
        var doc = frame.contentDocument, svg = doc && doc.documentElement;
        if (svg && svg.tagName.toLowerCase() === "svg") {
          var walker = doc.createTreeWalker(svg, NodeFilter.SHOW_TEXT);
          for (var t = walker.nextNode(); t; t = walker.nextNode()) {
            var el = t.parentElement;
            if (!t.textContent.trim() || !el || !el.getClientRects().length) continue;
            var style = doc.defaultView.getComputedStyle(el);
            if (style.display === "none" || style.visibility === "hidden") continue;
            var g = el.closest("foreignObject") || el.closest("text") || el;
            var m = g.getScreenCTM ? g.getScreenCTM() : null;
            var px = parseFloat(style.fontSize) * (m ? Math.hypot(m.a, m.b) : 1);
            if (px > 0 && px < min) min = px;
          }
        }
      } catch (e) { min = Infinity; }
      frame.remove();
      done(min);
    };
    frame.src = img.currentSrc || img.src;
    document.body.appendChild(frame);
  }
  function readableFigures() {
    document.querySelectorAll("article figure a.book-zoom img").forEach(function (img) {
      if (!/\.svg(\?|#|$)/.test(img.currentSrc || img.src) || img.dataset.bookFitted) return;
      img.dataset.bookFitted = "1";
      var fit = function () {
        if (!img.naturalWidth) return;
        smallestText(img, function (px) {
          if (px === Infinity) return;
          // (a quarter pixel to spare: the text is drawn at a fraction of a pixel)
          img.style.minWidth = Math.ceil(img.naturalWidth * (MIN_TEXT_PX + 0.25) / px) + "px";
          layout();
        });
      };
      if (img.complete) fit(); else img.addEventListener("load", fit, {once: true});
    });
  }

  function layout() {
    document.querySelectorAll("article .highlight pre").forEach(function (pre) {
      if (!pre.closest(".book-output")) markWrapped(pre);
    });
    document.querySelectorAll("article div.book-output").forEach(function (box) {
      markScrolling(box, box.querySelector("pre"));
    });
    document.querySelectorAll("article div.book-table-scroll").forEach(function (box) {
      markScrolling(box, box);
    });
    document.querySelectorAll("article figure a.book-zoom").forEach(function (link) {
      markScrolling(link, link);
    });
  }

  function start() {
    markLines();
    document.querySelectorAll("article .highlight pre").forEach(function (pre) {
      if (pre.closest(".book-output") || pre.closest(".book-source")) return;
      splitIntoLines(pre);
    });
    layout();
    readableFigures();
    var pending = null;
    function later() {
      if (pending) cancelAnimationFrame(pending);
      pending = requestAnimationFrame(layout);
    }
    window.addEventListener("resize", later);
    // What is shown changes with the theme (a plot's light or dark drawing) and
    // the media: mark again when the reader toggles the theme, the system's
    // preference changes, or the page is printed.
    new MutationObserver(later).observe(document.body, {attributes: true, attributeFilter: ["data-theme"]});
    ["(prefers-color-scheme: dark)", "print"].forEach(function (query) {
      var list = window.matchMedia(query);
      if (list.addEventListener) list.addEventListener("change", later);
    });
    // Printed, every fold (answers, hints, "Run it yourself") is open: paper
    // cannot be clicked. The ones the reader had closed close again after.
    var opened = [];
    window.addEventListener("beforeprint", function () {
      document.querySelectorAll("article details:not([open])").forEach(function (d) {
        d.open = true;
        opened.push(d);
      });
      layout();
    });
    window.addEventListener("afterprint", function () {
      opened.splice(0).forEach(function (d) { d.open = false; });
      layout();
    });
    if (document.fonts && document.fonts.ready) document.fonts.ready.then(layout);
    window.addEventListener("load", layout);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
