#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""A small PDF for check_pdf.py's own test: pages with text, one of them blank.

    make_test_pdf.py <out.pdf> [--pages N] [--blank K] [--line TEXT]...

--line: a line of text (one per option, in order, in a monospaced font) on
the first page, as a listing or an output would set it.
"""
import argparse

import matplotlib

matplotlib.use("Agg")
from matplotlib.backends.backend_pdf import PdfPages  # noqa: E402
from matplotlib.figure import Figure  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument("out")
ap.add_argument("--pages", type=int, default=2)
ap.add_argument("--blank", type=int, default=0)
ap.add_argument("--line", action="append", default=[])
a = ap.parse_args()
matplotlib.rcParams["pdf.fonttype"] = 42  # TrueType: pdftotext reads the text back
with PdfPages(a.out) as pdf:
    for n in range(1, a.pages + 1):
        fig = Figure(figsize=(8.27, 11.69))
        if n != a.blank:
            fig.text(0.1, 0.9, f"Page {n}: text on the page.", fontsize=24)
            fig.text(0.1, 0.5, "More text, so that the page is clearly not blank. " * 2, fontsize=14)
        if n == 1:
            for i, line in enumerate(a.line):
                fig.text(0.1, 0.4 - 0.02 * i, line, fontsize=10, family="DejaVu Sans Mono")
        pdf.savefig(fig)
