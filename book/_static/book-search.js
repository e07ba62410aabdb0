// SPDX-License-Identifier: MIT
// The book's search page (site.py adds this script to every page; it acts only
// where Sphinx's search runs). Sphinx lists a page once per way it matched (its
// title, a section's title, an index entry, the text), each with the page's
// first matching words as the snippet, often numbers from an output table. Here:
// - one result per page and section: a result that repeats one already listed
//   is dropped; another section of a listed page joins that page's result as a
//   link of its own;
// - the snippet comes from the running text of the section the result lands
//   on, never from code, output or tables.
// - opened from file:// (where `tools/book build` points), no page is fetched
//   for its snippet (the browser refuses it: CORS): the results are listed
//   with their titles alone;
// - the count the page states is the count of results it lists.
(function () {
  "use strict";
  if (typeof Search === "undefined" || !document.getElementById("search-results")) return;
  if (window.location.protocol === "file:" && typeof DOCUMENTATION_OPTIONS !== "undefined")
    DOCUMENTATION_OPTIONS.SHOW_SEARCH_SUMMARY = false;

  function recount() {
    var status = Search.status;
    if (!status) return;
    var m = /found (\d+) page/.exec(status.textContent || "");
    var listed = document.querySelectorAll("#search-results ul.search > li").length;
    if (m && Number(m[1]) !== listed)
      status.textContent = status.textContent.replace(/found \d+ page\(s\)/, "found " + listed + " page(s)");
  }

  function runningText(root) {
    var copy = root.cloneNode(true);
    copy.querySelectorAll("pre, table, .headerlink, .book-provenance, .book-run-yourself, " +
                          ".book-scroll-cue, script, style, nav, .toctree-wrapper").forEach(function (el) {
      el.remove();
    });
    return (copy.textContent || "").replace(/\s+/g, " ").trim();
  }

  function sectionOf(doc, hash) {
    var id = decodeURIComponent((hash || "").replace(/^#/, ""));
    var el = id ? doc.getElementById(id) : null;
    if (el && el.tagName !== "SECTION") el = el.closest("section") || el.parentElement;
    return el || doc.querySelector('[role="main"]') || doc.body;
  }

  function snippet(text, terms) {
    var lower = text.toLowerCase(), at = -1;
    terms.forEach(function (t) {
      var i = lower.indexOf(t);
      if (i >= 0 && (at < 0 || i < at)) at = i;
    });
    var start = Math.max(0, at - 80);
    var out = text.substr(start, 240);
    return (start > 0 ? "\u2026" : "") + out + (start + 240 < text.length ? "\u2026" : "");
  }

  var pages = {};
  // Sphinx makes a snippet from the whole page's HTML: keep the parsed page, and
  // make it from the section once the result it belongs to is known.
  var original = Search.makeSearchSummary;
  Search.makeSearchSummary = function (htmlText, keywords) {
    var el = original.apply(this, arguments);
    try {
      el.bookDoc = new DOMParser().parseFromString(htmlText, "text/html");
      el.bookTerms = Array.from(keywords || []).map(function (k) { return String(k).toLowerCase(); });
    } catch (e) { /* keep Sphinx's */ }
    return el;
  };

  function tidy(li) {
    var link = li.querySelector("a");
    if (!link) return;
    var url = new URL(link.href, window.location.href);
    var page = url.pathname, hash = url.hash;
    var first = pages[page];
    if (!first) {
      pages[page] = {li: li, hashes: [hash]};
      return;
    }
    if (first.li === li) return;
    if (first.hashes.indexOf(hash) < 0 && hash) {
      first.hashes.push(hash);
      var also = first.li.querySelector(".book-search-also");
      if (!also) {
        also = document.createElement("div");
        also.className = "book-search-also";
        also.textContent = "Also in: ";
        first.li.insertBefore(also, link.nextSibling);
      } else {
        also.appendChild(document.createTextNode(", "));
      }
      var a = document.createElement("a");
      a.href = link.href;
      a.textContent = link.textContent.split(" > ").pop();
      also.appendChild(a);
    }
    li.remove();
  }

  function resnip(p) {
    var li = p.closest("li"), link = li && li.querySelector("a");
    if (!p.bookDoc || !link) return;
    var text = runningText(sectionOf(p.bookDoc, new URL(link.href, window.location.href).hash));
    if (text) p.textContent = snippet(text, p.bookTerms);
  }

  new MutationObserver(function (changes) {
    recount();
    changes.forEach(function (change) {
      change.addedNodes.forEach(function (node) {
        if (node.nodeType !== Node.ELEMENT_NODE) return;
        if (node.tagName === "LI") tidy(node);
        else if (node.classList.contains("context")) resnip(node);
      });
    });
  }).observe(document.getElementById("search-results"), {childList: true, subtree: true});
})();
