// SPDX-License-Identifier: MIT
// For check_site.py's screenshots: the first shown element matching the selector
// arguments[0], scrolled to, as [x, y, width, height, window height]; null where
// none is shown; [] (the page scrolled to its top) without a selector.
const el = arguments[0] && Array.from(document.querySelectorAll(arguments[0]))
  .find((e) => e.offsetWidth || e.offsetHeight || e.getClientRects().length);
if (!arguments[0]) { window.scrollTo({top: 0, left: 0, behavior: 'instant'}); return []; }
if (!el) return null;
el.scrollIntoView({block: 'start', behavior: 'instant'});
const r = el.getBoundingClientRect();
return [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height, window.innerHeight];
