// SPDX-License-Identifier: MIT
// Calls arguments[0] once the page has loaded and its fonts are ready (check_site.py).
const done = arguments[0];
const ready = () => document.fonts ? document.fonts.ready.then(() => done()) : done();
if (document.readyState === 'complete') ready(); else window.addEventListener('load', ready);
