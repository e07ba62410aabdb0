# SPDX-License-Identifier: MIT
"""Sphinx configuration of the book. The build (CMake) passes the paths of its
outputs through environment variables; see cmake/BookDocs.cmake. The book's
extension is the package bookpy.ext (tools/bookpy/ext), which Sphinx finds
through PYTHONPATH=<repo>/tools, as the build and tools/book set it."""
import os

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BUILD = os.environ.get("BOOK_BUILD_DIR", os.path.join(ROOT, "build", "book"))

project = "How GPUs Run Code"
author = "The maintainers of How GPUs Run Code"
copyright = "2026, the maintainers of How GPUs Run Code"
html_title = "How GPUs Run Code — an executable CUDA textbook"

extensions = ["myst_parser", "breathe", "sphinx_copybutton", "bookpy.ext"]
myst_enable_extensions = ["colon_fence", "deflist", "dollarmath"]
myst_heading_anchors = 3
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["README.md"]
numfig = True
language = "en"
highlight_language = "text"

# ---- the reader's site ----------------------------------------------------------
# furo, as Debian ships it, with its broken assets fixed at build time
# (tools/bookpy/ext/theme.py). book.css styles the book's own blocks for both
# themes; book.js highlights the lines a listing's link points to (both added by
# the extension).
html_theme = "furo"
html_static_path = [os.path.join(HERE, "_static")]
templates_path = [os.path.join(HERE, "_templates")]
html_favicon = os.path.join(HERE, "_static", "favicon.svg")
html_show_sourcelink = False
html_copy_source = False
html_last_updated_fmt = None
html_sidebars = {"**": ["sidebar/brand.html", "sidebar/search.html", "sidebar/scroll-start.html",
                        "sidebar/navigation.html", "sidebar/book-reference.html",
                        "sidebar/book-editions.html",
                        "sidebar/scroll-end.html"]}
# A copy button on every code block: on an output block it copies the block as
# it is shown, less the "$ " of its command line (the raw text, one click away);
# the command alone is in the block's "Run it yourself" (site.py).
copybutton_prompt_text = "$ "
copybutton_only_copy_prompt_lines = False
copybutton_remove_prompts = True

breathe_projects = {"book": os.path.join(BUILD, "doxygen", "xml")}
breathe_default_project = "book"
breathe_domain_by_extension = {"hpp": "cpp", "cuh": "cpp"}

# The book's extension (tools/bookpy/ext; its settings: tools/bookpy/ext/config.py).
# What the build declared (runs, records, diagrams, chapters) comes from the build
# folder's manifest, BUILD/book-manifest.json, which must exist. The site's parts
# read what cmake/BookSite.cmake wrote into the build folder: BUILD/plots
# (book_plots_dir), BUILD/downloads/downloads.json (book_downloads_file) and
# BUILD/site/site.json (book_site_file: where a listing's caption links, the
# toolchain for the page on how the book was built). Each can be set with -D on
# the Sphinx line.
book_source_root = ROOT
book_build_dir = BUILD
book_schema = os.path.join(HERE, "record-schema.json")

# ---- the PDF edition (tools/bookpy/build/pdf.py) --------------------------------------------
# XeLaTeX, for the Unicode the chapters and the programs' output use, with
# Debian's DejaVu fonts (they cover box drawing, arrows and the control pictures).
latex_engine = "xelatex"
latex_use_xindy = False  # makeindex: xindy is not in Debian's texlive-xetex
latex_documents = [(root_doc, "book.tex", project, author, "manual")]
latex_show_urls = "no"
latex_show_pagerefs = True
# Figures, tables and listings numbered through the book (1, 2, 3...), as in HTML.
numfig_secnum_depth = 0
latex_elements = {
    "papersize": "a4paper",
    "pointsize": "10pt",
    # For the screen first: no blank pages to start chapters on the right.
    "extraclassoptions": "openany,oneside",
    "fontpkg": r"""
\setmainfont{DejaVu Serif}
\setsansfont{DejaVu Sans}
\setmonofont{DejaVu Sans Mono}[Scale=0.9]
""",
    "fncychap": r"\usepackage[Bjornstrup]{fncychap}",
    # (sphinxmanual.cls adds the index to the bookmarks itself.)
    "printindex": r"\footnotesize\raggedright\printindex",
    # A long line wraps at a space, never inside a number or a name (no forced
    # wraps); an output wider than the page is set smaller (site.py).
    "sphinxsetup": "verbatimwithframe=true, verbatimwrapslines=true, verbatimforcewraps=false",
    "maketitle": r"""
\begin{titlepage}
\centering
\vspace*{0.22\textheight}
{\sffamily\bfseries\fontsize{30}{36}\selectfont How GPUs Run Code\par}
\vspace{1.2em}
{\sffamily\Large An executable CUDA textbook\par}
\vspace{2.5em}
{\large Every listing compiled, every output run, every answer a test.\par}
\vfill
{\sffamily The maintainers of \emph{How GPUs Run Code}\par}
\vspace{2em}
{\footnotesize The text and figures of this book are under the Creative Commons
Attribution-ShareAlike 4.0 licence,
\href{https://creativecommons.org/licenses/by-sa/4.0/}{CC BY-SA 4.0};
its code is under the \href{https://opensource.org/license/mit}{MIT licence}.\par}
\end{titlepage}
""",
    "preamble": r"""
% The chapters number their own headings ("1.4 Divergence"), as the HTML shows
% them: LaTeX adds no numbers of its own.
\setcounter{secnumdepth}{-1}
% Table headers and cells do not hyphenate ("whitepa-per").
\usepackage{etoolbox}
\AtBeginEnvironment{tabulary}{\hyphenpenalty=10000\exhyphenpenalty=10000}
\AtBeginEnvironment{longtable}{\hyphenpenalty=10000\exhyphenpenalty=10000}
\AtBeginEnvironment{tabular}{\hyphenpenalty=10000\exhyphenpenalty=10000}
% A wrapped line of code or output breaks at a space, or after ; ? ! or /, but
% never after '.' or ',' (Sphinx's default list has both), which would split a
% number: "0." / "0f", "409," / "600" (check_pdf.py: broken_numbers).
\renewcommand*\sphinxbreaksafteractivelist{\do\;\do\?\do\!\do\/}
% The table of contents is titled "Contents" (Sphinx titles it with the first
% toctree's caption, "Before you start").
\makeatletter\g@addto@macro\sphinxtableofcontentshook{\renewcommand{\contentsname}{Contents}}\makeatother
% The PDF's metadata: its title, author and subject, as a reader's viewer lists them.
\AtBeginDocument{\hypersetup{pdftitle={How GPUs Run Code},
  pdfauthor={The maintainers of How GPUs Run Code},
  pdfsubject={An executable CUDA textbook: how a GPU runs the code you write},
  pdfkeywords={CUDA, GPU, SIMT, warps, shared memory, reductions}}}
% A figure and its caption fit on one page.
\makeatletter\AtBeginDocument{\spx@image@maxheight=0.72\textheight}\makeatother
""",
}
