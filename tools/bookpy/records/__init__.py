# SPDX-License-Identifier: MIT
"""Run records: their schema and its one Python reader (schema.py), the checks
a chapter states over them (checkeval.py), and the drift of a GPU's figures
from the committed recordings (drift.py)."""
