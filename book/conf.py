"""Sphinx configuration of the book. The build (CMake) passes the paths of its
outputs through environment variables; see cmake/BookDocs.cmake."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "_ext"))
sys.dont_write_bytecode = True  # no __pycache__ in book/, whose files the HTML step depends on
ROOT = os.path.dirname(HERE)
BUILD = os.environ.get("BOOK_BUILD_DIR", os.path.join(ROOT, "build", "book"))

project = "How GPUs Run Code"
author = "The book's authors"
copyright = "2026, the book's authors"
html_title = "How GPUs Run Code — an executable CUDA textbook"

extensions = ["myst_parser", "breathe", "bookext"]
myst_enable_extensions = ["colon_fence", "deflist", "dollarmath"]
myst_heading_anchors = 3
source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["README.md"]
numfig = True
language = "en"
highlight_language = "text"

html_theme = "furo"
html_static_path = [os.path.join(HERE, "_static")]
html_show_sourcelink = False
html_last_updated_fmt = None

breathe_projects = {"book": os.path.join(BUILD, "doxygen", "xml")}
breathe_default_project = "book"
breathe_domain_by_extension = {"hpp": "cpp", "cuh": "cpp"}

# The book's extension (book/_ext/bookext). Where the build wrote its manifest
# (BUILD/book-manifest.json), the folders come from it; these are the fallback.
book_source_root = ROOT
book_build_dir = BUILD
book_records_dir = os.path.join(BUILD, "records")
book_diagrams_dir = os.path.join(BUILD, "diagrams")
book_schema = os.path.join(HERE, "record-schema.json")

# LaTeX (the PDF edition comes later): XeLaTeX, for the Unicode the chapters use.
latex_engine = "xelatex"
latex_use_xindy = False  # makeindex: xindy is not in Debian's texlive-xetex
latex_documents = [(root_doc, "book.tex", project, author, "manual")]
