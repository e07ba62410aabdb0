# SPDX-License-Identifier: MIT
"""The extension's tests (pytest): units, the fixture chapter tree built in
process (conftest.py), and the published site (test_build.py)."""
