// SPDX-License-Identifier: MIT
// The results of Sphinx's search page once it has finished (or after 20 s), for
// check_site.py's search check: calls arguments[0] with [[href, snippet], ...].
const done = arguments[0], started = Date.now();
(function poll() {
  const status = document.querySelector('#search-results .search-summary, #search-results p');
  const items = document.querySelectorAll('#search-results li');
  const finished = status && /finished|did not match/i.test(status.textContent);
  const snippets = Array.from(items).every((li) => li.querySelector('.context'));
  if ((finished && snippets) || Date.now() - started > 20000)
    done([(status || {}).textContent || '',
          Array.from(items).map((li) => [li.querySelector('a').href, (li.querySelector('.context') || {}).textContent || ''])]);
  else setTimeout(poll, 200);
})();
