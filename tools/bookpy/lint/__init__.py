# SPDX-License-Identifier: MIT
"""The prose lints of the chapters, run as tests: every comparative sentence
names its check (claims_checked.py); no figure is typed beside recorded ones
(typed_figures.py)."""
