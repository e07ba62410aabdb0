# SPDX-License-Identifier: MIT
"""The build's steps, each run as ``python3 -m bookpy.build.<step>`` by CMake or
tools/book: the HTML (html.py) and the PDF (pdf.py), the diagrams
(render_diagram.py) and plots (render_plot.py, plotting.py), the check-yourself
tags (cy_tags.py), a Catch2 program judged from its report (catch_run.py), the
chapters' claims on fresh records (check_claims.py), the snapshot of a checkout
(snapshot.py) and the golden files of the divergence port (seed_golden.py)."""
