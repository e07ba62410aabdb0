# SPDX-License-Identifier: MIT
"""A run's input hash seen from outside the runner: the compile database
against what the runs hash (compile_check.py)."""
