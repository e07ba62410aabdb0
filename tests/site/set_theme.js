// SPDX-License-Identifier: MIT
// What furo's theme toggle does (its setTheme), for check_site.py: the choice
// arguments[0] stored and set on <body>; done (arguments[1]) two frames later.
const [choice, done] = arguments;
try { localStorage.setItem('theme', choice); } catch (e) {}
document.body.dataset.theme = choice;
window.scrollTo({top: 0, left: 0, behavior: 'instant'});  // (as a page starts: at its top)
requestAnimationFrame(() => requestAnimationFrame(() =>
  (document.fonts ? document.fonts.ready : Promise.resolve()).then(() => done())));
