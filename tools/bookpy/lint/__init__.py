# SPDX-License-Identifier: MIT
"""The lints, run as tests: of the chapters' prose, every comparative sentence
names its check (claims_checked.py) and no figure is typed beside recorded ones
(typed_figures.py); of the book's Python, no import path changed and no
function over 80 lines (python_code.py, over the files tracked.py lists)."""
