# SPDX-License-Identifier: MIT
"""Timings of the build (build.py) and of the site (site.py) against their
targets, run by hand as ``python3 -m bookpy.bench.<name>``."""
