#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""For the test site.browser.bad.raw-myst: rewrite every archive under a copy of
the site so that each exercise's README.md in it is the statement as written
(MyST, ``2{sup}`20```), as the bundle once shipped it.

    make_bad_bundle.py <html folder> <repository root>
"""
import io
import os
import sys
import tarfile


def main() -> int:
    html, repo = sys.argv[1], sys.argv[2]
    changed = 0
    for dirpath, _dirs, files in os.walk(html):
        for name in files:
            if not name.endswith(".tar.gz"):
                continue
            path = os.path.join(dirpath, name)
            members = []
            with tarfile.open(path) as t:
                for m in t.getmembers():
                    data = t.extractfile(m).read() if m.isfile() else None
                    parts = m.name.split("/")
                    if data is not None and parts[-1] == "README.md" and "exercises" in parts[1:-1]:
                        source = os.path.join(repo, *parts[parts.index("exercises"):])
                        if os.path.isfile(source):
                            with open(source, "rb") as f:
                                data = f.read()
                            m.size = len(data)
                            changed += 1
                    members.append((m, data))
            with tarfile.open(path, "w:gz") as t:
                for m, data in members:
                    t.addfile(m, io.BytesIO(data) if data is not None else None)
    print(f"make_bad_bundle: {changed} statements put back as MyST")
    return 0 if changed else 1


if __name__ == "__main__":
    sys.exit(main())
