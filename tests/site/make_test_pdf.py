#!/usr/bin/env python3
"""A small PDF for check_pdf.py's own test: pages with text, one of them blank.

    make_test_pdf.py <out.pdf> [--pages N] [--blank K]
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
a = ap.parse_args()
with PdfPages(a.out) as pdf:
    for n in range(1, a.pages + 1):
        fig = Figure(figsize=(8.27, 11.69))
        if n != a.blank:
            fig.text(0.1, 0.9, f"Page {n}: text on the page.", fontsize=24)
            fig.text(0.1, 0.5, "More text, so that the page is clearly not blank. " * 2, fontsize=14)
        pdf.savefig(fig)
