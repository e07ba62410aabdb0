#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A built chapter made one page again, for check_site.py's own test
(site.browser.bad.chapter-one-page): the article of each of its sections'
pages (<html>/<key>/NN-<name>.html, in order) added to the chapter's page
(<html>/<key>.html), their links made the chapter page's own.

    make_one_page_chapter.py <html folder> <key>
"""
import glob
import os
import re
import sys

html, key = sys.argv[1:3]
page = os.path.join(html, key + ".html")
with open(page, encoding="utf-8") as f:
    text = f.read()
sections = sorted(glob.glob(os.path.join(html, key, "[0-9][0-9]-*.html")))
if not sections:
    sys.exit(f"make_one_page_chapter: {key} has no sections' pages in {html}")
added = []
for path in sections:
    with open(path, encoding="utf-8") as f:
        body = re.search(r"<article[^>]*>(.*)</article>", f.read(), re.S).group(1)
    # (a section's page is one folder down: its links to the book's files go up one)
    added.append(re.sub(r'(href|src)="\.\./', r'\1="', body))
end = text.rindex("</article>")
with open(page, "w", encoding="utf-8") as f:
    f.write(text[:end] + "\n".join(added) + text[end:])
print(f"make_one_page_chapter: {len(sections)} sections' pages added to {page}")
