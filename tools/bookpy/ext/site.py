"""The reader's site: where a listing's caption links to, a page per listed
source file, the site's script, and the PDF edition's link.

A listing's caption names the file and the lines it shows, as a link:

- to the repository (``book_repository_url``, e.g. https://github.com/o/r, at
  ``book_repository_ref``; GitHub's ``/blob/<ref>/<path>#L<a>-L<b>`` form, or
  any form given as ``book_repository_line_url``), where one is configured;
- otherwise to a page of this site that shows the whole file as the build read
  it, with numbered lines (``_code/<path>.html``); the lines the listing shows
  are highlighted (``?lines=a-b`` read by book.js) and scrolled to (``#L-a``).

In the PDF the caption names the file and lines, linked only to a repository.
The settings come from ``BUILD/site/site.json`` (written by cmake/BookSite.cmake
from the cache variables BOOK_REPOSITORY_URL and BOOK_REPOSITORY_REF), and any
of them from ``-D`` on the Sphinx line.

The PDF edition is linked from every page's sidebar once it has been built
(``BUILD/pdf/book.pdf``, made by the ``pdf`` target): the HTML build then
publishes a copy beside the pages, but only while that PDF was built from the
book as it is, told by content, not by file times: beside the PDF,
``book.pdf.made-from.json`` (tools/bookpy/build/pdf.py) holds the PDF's sha256 and that
of every file its pages read and of every file the HTML pages read when it was
built; a PDF that is not the one described, a file changed or gone since, or a
page it does not have leaves it out (``pdf_stale``).

Also here, for the reader:

- "Run it yourself" under every output block (records.run_block adds the
  node): the repository and commit, the build target, the binary's path after
  ``tools/book build``, the exact command, and on a GPU block the GPU it needs.
  The repository is ``book_repository_url`` (BOOK_REPOSITORY_URL) or, where the
  build names none, said to be unnamed: an address is never made up.
- The front page's roles: ``{chapter}`ch01-execution-model``` (a link, or the
  name where this build left the chapter out) and ``{repository}`text```.
- The sidebar lists each chapter's sections; the index lists concepts (the API
  appendix lists the API).
- Where the repository is configured, every page's footer names it, and a page
  made from a file of chapters/ links that file (an icon at the top of the page
  and a line in the footer).
- In the PDF an output wider than the page is set in a smaller size, so that a
  table's rows stay whole.
"""
from __future__ import annotations

import hashlib
import html
import json
import os
import posixpath
import shutil
from typing import TYPE_CHECKING

from docutils import nodes
from sphinx.transforms.post_transforms import SphinxPostTransform
from sphinx.util import logging

from .common import BookError, PerPageCollector, load_json, source_path
from .config import site_file

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from typing import Any

    from docutils.parsers.rst.states import Inliner
    from sphinx.application import Sphinx
    from sphinx.config import Config
    from sphinx.util.docutils import SphinxTranslator

logger = logging.getLogger(__name__)
CODE_PAGES = "_code"
GITHUB_LINES = "{url}/blob/{ref}/{path}{lines}"


class source_ref(nodes.Inline, nodes.TextElement):
    """A file of the repository and the line ranges a listing shows:
    attributes ``path`` (from the repository root) and ``ranges`` [(a, b)]."""


def source_ref_node(path: str, ranges: list, text: str) -> source_ref:
    node = source_ref("", "", path=path, ranges=[tuple(r) for r in ranges])
    node += nodes.literal(text, text)
    return node


# ---- settings ---------------------------------------------------------------------

def site_settings(config: Config) -> dict:
    """BUILD/site/site.json as a dict ({} where the build wrote none)."""
    path = site_file(config)
    if not path or not os.path.exists(path):
        return {}
    data = load_json(path, "site settings")
    if not isinstance(data, dict):
        raise BookError(f"site settings {path}: not a JSON object")
    return data


def config_inited(app: Sphinx, config: Config) -> None:
    try:
        settings = site_settings(config)
    except BookError as e:
        logger.warning(str(e))
        settings = {}
    for key in ("repository_url", "repository_ref", "repository_line_url"):
        name = f"book_{key}"
        if not getattr(config, name) and settings.get(key):
            setattr(config, name, settings[key])
    pdf = os.path.join(os.path.abspath(config.book_build_dir), "pdf", "book.pdf") \
        if config.book_build_dir else ""
    config.book_pdf = pdf if pdf and os.path.isfile(pdf) else ""


def builder_inited(app: Sphinx) -> None:
    """HTML: a PDF not built from the pages' sources as they are is not the book
    this build shows, so the site neither serves nor links it, and says so."""
    if not app.config.book_pdf or app.builder.format != "html":
        return
    docs = app.project.discover(list(app.config.exclude_patterns) + list(app.config.templates_path))
    # What the HTML pages read last time (publish.write_inputs), such as the SVG
    # of a diagram the PDF shows as a PDF figure: changed since, the PDF is stale.
    last = []
    try:
        with open(os.path.join(app.doctreedir, "book-inputs.json"), encoding="utf-8") as f:
            last = [p for p in json.load(f) if isinstance(p, str)]
    except (OSError, ValueError, TypeError):
        pass
    stale = pdf_stale(app.config.book_pdf, [app.project.doc2path(d, True) for d in docs], last)
    if stale:
        logger.info(f"site: the PDF edition {app.config.book_pdf} was not built from the book "
                    f"as it is ({stale}), so the site does not serve or link it; `tools/book pdf` "
                    "builds it again")
        app.config.book_pdf = ""
        # book_pdf is an "html" setting: with it changed, every page is written
        # again (none keeps a link to the PDF).
        app.builder.build_info = app.builder.create_build_info()


#: Beside the PDF, what it was built from (tools/bookpy/build/pdf.py writes it once the
#: PDF is in place): {"pdf": sha256 of the PDF, "inputs": {path: sha256} of every
#: file its pages read, as Sphinx's LaTeX run read them, "html": {path: sha256} of
#: the files the HTML pages read, as they were when the PDF was built}.
MADE_FROM = ".made-from.json"


def file_sha256(path: str) -> str | None:
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def pdf_made_from(pdf: str) -> dict | None:
    """The PDF's record of what it was built from, checked, or None."""
    try:
        with open(pdf + MADE_FROM, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("pdf"), str):
        return None
    for key in ("inputs", "html"):
        part = data.get(key, {})
        if not isinstance(part, dict) or not all(isinstance(v, str) for v in part.values()):
            return None
    return data


def pdf_stale(pdf: str, pages: Iterable[str], read: Iterable[str] = ()) -> str | None:
    """Why the PDF is not the book as it is, or None when it is: it is the PDF
    its record describes (by its content), every file its pages read is as it
    was (by content), every page source of `pages` is among them (a chapter
    added since), and every file of `read` (what this HTML build read) that the
    HTML pages read when the PDF was built is as it was then."""
    made = pdf_made_from(pdf)
    if made is None:
        return f"its record of what it was built from ({pdf + MADE_FROM}) is missing or unreadable"
    if file_sha256(pdf) != made["pdf"]:
        return f"{pdf} is not the PDF that {pdf + MADE_FROM} describes"
    inputs = {os.path.normpath(p): h for p, h in made.get("inputs", {}).items()}
    for path in sorted(pages):
        if os.path.normpath(path) not in inputs:
            return f"{path}: a page it does not have"
    for path, digest in sorted(inputs.items()):
        now = file_sha256(path)
        if now is None:
            return f"{path}, which it read, is gone"
        if now != digest:
            return f"{path} changed since it was built"
    html = {os.path.normpath(p): h for p, h in made.get("html", {}).items()}
    for path in sorted({os.path.normpath(p) for p in read}):
        if path in inputs or path not in html:
            continue
        now = file_sha256(path)
        if now is not None and now != html[path]:
            return f"{path} changed since it was built"
    return None


def repository_link(config: Config, path: str, ranges: list) -> str | None:
    url = (config.book_repository_url or "").rstrip("/")
    if not url:
        return None
    lines = ""
    if ranges:
        first, last = ranges[0][0], ranges[-1][1]
        lines = f"#L{first}" if first == last else f"#L{first}-L{last}"
    form = config.book_repository_line_url or GITHUB_LINES
    return form.format(url=url, ref=config.book_repository_ref or "main", path=path, lines=lines)


def local_link(ranges: list) -> str:
    if not ranges:
        return ""
    spans = ",".join(f"{a}-{b}" for a, b in ranges)
    return f"?lines={spans}#L-{ranges[0][0]}"


def path_html(text: str) -> nodes.raw:
    """A file's path (and the lines after it) as inline code that breaks only after
    a '/' or at a space, never inside a name (``ch01-execution-`` / ``model``):
    each piece ends in '/' and does not break, with a <wbr> between pieces."""
    words = []
    for word in text.split(" "):
        parts = [p for p in word.replace("/", "/\0").split("\0") if p]
        words.append("<wbr>".join(f'<span class="pre book-path-part">{html.escape(p)}</span>' for p in parts))
    return nodes.raw("", f'<code class="docutils literal notranslate book-path">{" ".join(words)}</code>',
                     format="html")


class SourceLinks(SphinxPostTransform):
    """Each source_ref becomes a link (see the module's text) or, where there
    is nothing to link to, its text."""
    default_priority = 100

    def run(self, **kwargs: Any) -> None:
        config, builder = self.app.config, self.app.builder
        for node in list(self.document.findall(source_ref)):
            url = repository_link(config, node["path"], node["ranges"])
            if url is None and builder.format == "html":
                page = builder.get_relative_uri(self.env.docname, f"{CODE_PAGES}/{node['path']}")
                url = page + local_link(node["ranges"])
                internal = True
            else:
                internal = False
            children = node.children
            if builder.format == "html":
                children = [path_html(node.astext())]
            if url is None:
                node.replace_self(children)
                continue
            ref = nodes.reference("", "", *children, refuri=url, internal=internal,
                                  classes=["book-source-link"])
            node.replace_self(ref)


class SourceCollector(PerPageCollector):
    """Per page, the repository files its listings show: env.book_sources."""
    attr = "book_sources"

    def found(self, doctree: nodes.document) -> set[str]:
        return {n["path"] for n in doctree.findall(source_ref)}


# ---- "Run it yourself" under every output block ---------------------------------------------

class run_yourself(nodes.General, nodes.Element):
    """Where a run's output came from, for a reader who wants to reproduce it:
    attributes ``run`` (<key>/<run>), ``argv`` (the command as the runner ran
    it), ``program`` (the index in ``argv`` of the book's program: after the
    words of a tool that wraps it, such as compute-sanitizer), ``env``
    ({name: value} set for the run), ``text`` (the record's text the block shows,
    '' for the program's output), ``gpu`` (the GPU it ran on, '' for a CPU run),
    ``cc`` (its compute capability) and ``commit``. Replaced by the transform
    RunYourselfBlocks once the configuration is known."""


#: Where `tools/book build` builds (the `book` preset's folder, CMakePresets.json):
#: the "Run it yourself" of every block names its programs there, whatever folder
#: this copy of the book was built in (an instructor's build/instructor, a
#: fixture's), because that is the command it tells the reader to run.
TOOLS_BOOK_BUILD = "build/book"


def program_index(record: dict) -> int:
    """Where the book's program is in a record's command: the word before its
    own arguments (the record's ``inputs.args``), so that a run under a tool
    (``compute-sanitizer --tool memcheck stencil --check``) names the program,
    not the tool. A command that does not end with those arguments is an error:
    the block would tell the reader to run something else."""
    argv = [str(a) for a in record.get("command", [])]
    inputs = record.get("inputs", {}) if isinstance(record.get("inputs"), dict) else {}
    args = [str(a) for a in inputs.get("args", [])] if isinstance(inputs.get("args"), list) else []
    i = len(argv) - len(args) - 1
    if i < 0 or argv[i + 1:] != args:
        raise BookError(f"run record '{record.get('name', '?')}': its command {argv} does not end "
                        f"with the program's arguments {args} (inputs.args): which word is the "
                        "program is not known")
    return i


def run_yourself_node(record: dict, text: str = "", picked: bool = False) -> run_yourself:
    """The "Run it yourself" of a run record (records.run_block adds it to every
    output block); ``text``: the record's text the block shows (``sass:<kernel>``,
    ``sanitizer:<tool>``), '' for the program's output; ``picked``: the block
    shows only some of its lines."""
    p = record.get("provenance", {})
    inputs = record.get("inputs", {}) if isinstance(record.get("inputs"), dict) else {}
    env = inputs.get("env", {}) if isinstance(inputs.get("env"), dict) else {}
    return run_yourself("", run=str(record.get("name", "")), argv=[str(a) for a in record.get("command", [])],
                        program=program_index(record), text=text, picked=picked,
                        env={str(k): str(v) for k, v in sorted(env.items())},
                        gpu=str(p.get("gpu_name", "")), cc=str(p.get("compute_capability", "")),
                        commit=str(p.get("commit", "")))


def _shell_word(word: str) -> str:
    import shlex
    return shlex.quote(word)


def run_yourself_parts(config: Config, node: run_yourself) -> dict:
    """What the block says, from the node and the configuration: the repository
    (book_repository_url, or none configured), the commit, the build target, the
    binary's path after `tools/book build` and the exact command that prints
    what the block shows, from the repository's root: the run's command with the
    binary's path in place of the program's name (any tool wrapping it, such as
    compute-sanitizer, kept), or for a kernel's SASS, cuobjdump on the binary;
    ``shows``: what of that command's output the block shows, where it is not
    all of it."""
    key = node["run"].split("/")[0] if "/" in node["run"] else ""
    argv, i = node["argv"], node["program"]
    program = argv[i] if argv else ""
    binary = f"{TOOLS_BOOK_BUILD}/bin/{key}/{program}"
    text = node.get("text", "")
    shows = ""
    if text.startswith("sass:"):
        words = ["cuobjdump", "-sass", binary]
        shows = (f"the SASS of the kernel {text[5:]} from what it prints, one instruction a line "
                 "after its address, the encodings left out")
    else:
        words = [f"{k}={_shell_word(v)}" for k, v in node["env"].items()]
        words += [_shell_word(a) for a in argv[:i]] + [binary] + [_shell_word(a) for a in argv[i + 1:]]
        if text.startswith("sanitizer:"):
            shows = f"the report of compute-sanitizer's {text[10:]} tool from what it prints"
        elif text:
            shows = f"the text '{text}' the program reports (book::report)"
    if node.get("picked"):
        shows = (shows or "what it prints") + ": the lines the chapter picks, the others elided"
    return {"repository": (config.book_repository_url or "").rstrip("/"), "commit": node["commit"],
            "target": f"{key}.{program}", "binary": binary, "command": " ".join(words),
            "shows": shows, "sass": text.startswith("sass:"), "chapter": key, "gpu": node["gpu"], "cc": node["cc"]}


class RunYourselfBlocks(SphinxPostTransform):
    """HTML: a fold "Run it yourself" under the output; elsewhere (the PDF) one
    line with the command."""
    default_priority = 100

    def run(self, **kwargs: Any) -> None:
        from .booknodes import fold
        from .common import literal
        config = self.app.config
        for node in list(self.document.findall(run_yourself)):
            p = run_yourself_parts(config, node)
            if self.app.builder.format != "html":
                para = nodes.paragraph(classes=["book-run-yourself"])
                para += nodes.Text("Run it yourself: ")
                para += nodes.literal(p["command"], p["command"])
                gpu = "; needs an NVIDIA GPU" if p["gpu"] and not p["sass"] else ""
                para += nodes.Text(f" (after tools/book build{gpu}"
                                   f"{'; the block shows ' + p['shows'] if p['shows'] else ''}).")
                node.replace_self(para)
                continue
            box = fold(summary="Run it yourself", classes=["book-run-yourself"])
            items = nodes.bullet_list()

            def item(*children: nodes.Node) -> None:
                li = nodes.list_item()
                para = nodes.paragraph()
                para.extend(children)
                li += para
                items.append(li)

            if p["repository"]:
                code = nodes.reference(p["repository"], p["repository"], refuri=p["repository"])
                item(nodes.Text("The code: "), code,
                     nodes.Text(f", at commit {p['commit']}" if p["commit"] else ""), nodes.Text("."))
            else:
                item(nodes.Text("The code: this book's source tree"
                                + (f" at commit {p['commit']}" if p["commit"] else "")
                                + " (this copy of the book was built without its public address: a build "
                                  "given "),
                     nodes.literal("BOOK_REPOSITORY_URL", "BOOK_REPOSITORY_URL"), nodes.Text(" links it here)."))
            item(nodes.Text("Build: "), nodes.literal("tools/book build", "tools/book build"),
                 nodes.Text(" from the repository's root (the build target is "),
                 nodes.literal(p["target"], p["target"]), nodes.Text("); the program is then "),
                 nodes.literal(p["binary"], p["binary"]), nodes.Text("."))
            if p["sass"]:
                built = (f". This block's was compiled for compute capability {p['cc']} (the {p['gpu']} it "
                         "ran on)" if p["cc"] and p["gpu"] else "")
                item(nodes.Text("Needs nvcc (cuobjdump is beside it) but no GPU: the SASS is read from the "
                                f"binary{built}; the build compiles for the architectures "),
                     nodes.literal("BOOK_CUDA_ARCHITECTURES", "BOOK_CUDA_ARCHITECTURES"), nodes.Text(" names."))
            elif p["gpu"]:
                cc = f", compute capability {p['cc']}" if p["cc"] else ""
                item(nodes.Text(f"Needs an NVIDIA GPU and nvcc; this output came from an {p['gpu']}"
                                f"{cc}. Numbers that are times differ from GPU to GPU."))
            else:
                item(nodes.Text("Runs on the CPU: no GPU needed."))
            box += items
            box += nodes.paragraph(text="The command that printed this block:" if not p["shows"] else
                                   f"The command (the block shows {p['shows']}):")
            box += literal("$ " + p["command"], "text", ["book-run-command"])
            node.replace_self(box)


# ---- the PDF: an output wider than the page is set smaller -----------------------------------

#: (most columns, font size) for an output block in the PDF: a table's rows stay
#: whole where a smaller size fits them (at 10 pt, DejaVu Sans Mono scaled 0.9,
#: the text block holds about 76 columns).
LATEX_OUTPUT_SIZES = ((76, ""), (94, r"\footnotesize"), (108, r"\scriptsize"))


class NarrowOutputsInLatex(SphinxPostTransform):
    default_priority = 100
    formats = ("latex",)

    def run(self, **kwargs: Any) -> None:
        for block in list(self.document.findall(nodes.literal_block)):
            if "book-output" not in block.get("classes", []):
                continue
            widest = max((len(line) for line in block.astext().split("\n")), default=0)
            size = next((s for cols, s in LATEX_OUTPUT_SIZES if widest <= cols), LATEX_OUTPUT_SIZES[-1][1])
            if not size:
                continue
            parent = block.parent
            at = parent.index(block)
            parent.insert(at + 1, nodes.raw("", "\\endgroup\n", format="latex"))
            parent.insert(at, nodes.raw("", f"\\begingroup\\fvset{{fontsize={size}}}\n", format="latex"))


# ---- the front page's links: a chapter that may not be built, the repository ----------------

class chapter_link(nodes.Inline, nodes.TextElement):
    """A link to a chapter (attribute ``doc``), or its name where this build left
    the chapter out (BOOK_CHAPTERS)."""


def chapter_role(name: str, rawtext: str, text: str, lineno: int, inliner: Inliner,
                 options: dict[str, Any] | None = None,
                 content: list[str] | None = None) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    """{chapter}`ch01-execution-model` or {chapter}`text <ch01-execution-model>`."""
    import re
    m = re.match(r"^(.*?)\s*<([^<>]+)>$", text.strip())
    label, doc = (m.group(1), m.group(2)) if m else ("", text.strip())
    return [chapter_link(rawtext, label, doc=doc)], []


def repository_role(name: str, rawtext: str, text: str, lineno: int, inliner: Inliner,
                    options: dict[str, Any] | None = None,
                    content: list[str] | None = None) -> tuple[list[nodes.Node], list[nodes.system_message]]:
    """{repository}`the code`: a link to book_repository_url where one is set;
    else the text, and that no public address is configured."""
    return [repository_link_node(rawtext, text.strip())], []


class repository_link_node(nodes.Inline, nodes.TextElement):
    pass


class FrontPageLinks(SphinxPostTransform):
    default_priority = 100

    def run(self, **kwargs: Any) -> None:
        env, config = self.env, self.app.config
        for node in list(self.document.findall(chapter_link)):
            doc = node["doc"]
            title = env.titles[doc].astext() if doc in env.titles else doc
            label = node.astext() or title
            if doc in env.all_docs and self.app.builder.format == "html":
                uri = self.app.builder.get_relative_uri(env.docname, doc)
                node.replace_self(nodes.reference("", label, refuri=uri, internal=True))
            elif doc in env.all_docs:
                node.replace_self(nodes.Text(label))  # the PDF: the chapters follow in order
            else:
                node.replace_self(nodes.Text(f"{label} (not in this build)"))
        for node in list(self.document.findall(repository_link_node)):
            url = (config.book_repository_url or "").rstrip("/")
            label = node.astext()
            if url:
                node.replace_self(nodes.reference("", label, refuri=url))
            else:
                node.replace_self([nodes.Text(label + " (this copy of the book was built without its "
                                              "public address: a build given "),
                                   nodes.literal("BOOK_REPOSITORY_URL", "BOOK_REPOSITORY_URL"),
                                   nodes.Text(" links it here, and from every page's footer)")])


# ---- a page per listed file -------------------------------------------------------------

def _source_pages(app) -> dict:
    """{path: [docnames that list it]}."""
    pages: dict = {}
    for docname, paths in sorted(SourceCollector.pages(app.env).items()):
        for path in paths:
            pages.setdefault(path, []).append(docname)
    return pages


def collect_pages(app: Sphinx) -> Iterator[tuple[str, dict[str, Any], str]]:
    """html-collect-pages: _code/<path> for every file a listing shows."""
    if app.builder.format != "html" or app.config.book_repository_url:
        return
    from .listings import LANGUAGES
    highlighter = app.builder.highlighter
    for path, docnames in sorted(_source_pages(app).items()):
        try:
            full = source_path(app.config.book_source_root, path, app.config.book_build_dir)
            with open(full, encoding="utf-8") as f:
                code = f.read()
        except (BookError, OSError, UnicodeDecodeError) as e:
            logger.warning(f"source page for {path}: {e}")
            continue
        from .common import visible_text
        language = LANGUAGES.get(os.path.splitext(path)[1], "text")
        body = highlighter.highlight_block(visible_text(code).rstrip("\n"), language,
                                           linenos="inline", linespans="L")
        pagename = f"{CODE_PAGES}/{path}"
        links = ", ".join(
            f'<a href="{html.escape(app.builder.get_relative_uri(pagename, d))}">'
            f"{html.escape(app.env.titles[d].astext() if d in app.env.titles else d)}</a>"
            for d in docnames)
        lines = code.count("\n") + (0 if code.endswith("\n") else 1)
        about = (f'<p class="book-source-about">The whole file, {lines} lines, as this build '
                 f"read it. Listings of it appear in: {links}.</p>")
        body = (f'<h1>{html.escape(path)}<a class="headerlink" href="#" title="Top">#</a></h1>\n'
                f"{about}\n"
                f'<div class="highlight-{language} notranslate book-source">{body}</div>')
        yield pagename, {"title": path, "body": body, "parents": [], "display_toc": False}, "page.html"


def prune_code_pages(app: Sphinx) -> None:
    """Remove the pages of files no listing shows any more."""
    base = os.path.join(app.outdir, CODE_PAGES)
    keep = set() if app.config.book_repository_url else set(_source_pages(app))
    suffix = app.builder.out_suffix
    for dirpath, _dirs, files in os.walk(base, topdown=False):
        for f in files:
            rel = os.path.relpath(os.path.join(dirpath, f), base).replace(os.sep, "/")
            if not (rel.endswith(suffix) and rel[:-len(suffix)] in keep):
                os.unlink(os.path.join(dirpath, f))
        if dirpath != base and not os.listdir(dirpath):
            os.rmdir(dirpath)


# ---- the PDF edition's link -------------------------------------------------------------

def navigation_by_section(context: dict[str, Any]) -> None:
    """The sidebar lists each chapter's sections, not only its title (furo lists
    titles only): furo's own tree, built from the toctree with sections. A
    chapter's sections fold (furo's checkboxes); the current one is open."""
    toctree = context.get("toctree")
    if not toctree:
        return
    try:
        from furo.navigation import get_navigation_tree
    except ImportError:
        return
    tree = toctree(collapse=False, titles_only=False, maxdepth=2, includehidden=True)
    if tree:
        context["furo_navigation_tree"] = get_navigation_tree(tree)


def concepts_only(context: dict[str, Any]) -> None:
    """The index lists the book's concepts: an entry whose every link is to the
    API appendix (a book:: name; the appendix lists them all) is left out."""
    entries = context.get("genindexentries")
    if not entries:
        return
    kept = []
    for letter, items in entries:
        keep = []
        for name, (links, subitems, key) in items:
            def concept(uri: str) -> bool:
                return not uri.split("#")[0].startswith(API_PAGES)
            links = [link for link in links if concept(link[1])]
            subitems = [(sub, [link for link in sublinks if concept(link[1])])
                        for sub, sublinks in subitems]
            subitems = [(sub, sublinks) for sub, sublinks in subitems if sublinks]
            if links or subitems:
                keep.append((name, (links, subitems, key)))
        if keep:
            kept.append((letter, one_entry_per_term(keep)))
    context["genindexentries"] = kept


def one_entry_per_term(items: list) -> list:
    """[(name, (links, subitems, key))] with a term's forms made one entry: its
    plural ("bank conflicts" beside "bank conflict") and its case ("Shared
    memory", bold at the start of a sentence, beside "shared memory"), as the
    glossary keeps them (terms._glossary_key). The entry is named by the
    singular, in lower case where one form is; its links are all the forms'."""
    from .terms import _glossary_key
    singulars = {name.lower() for name, _ in items}
    merged: dict = {}
    for name, (links, subitems, key) in items:
        k = _glossary_key(name, singulars)
        if k not in merged:
            merged[k] = [name, list(links), list(subitems), key]
            continue
        entry = merged[k]
        # The singular (the shorter form), then the form in lower case.
        entry[0] = min(entry[0], name, key=lambda n: (len(n), n != n.lower()))
        entry[1] += [link for link in links if link not in entry[1]]
        entry[2] += [sub for sub in subitems if sub not in entry[2]]
    return [(name, (links, subitems, key)) for name, links, subitems, key in merged.values()]


#: Pages whose index entries are API names, not concepts.
API_PAGES = ("appendix-api",)


def source_links(app: Sphinx, pagename: str, context: dict[str, Any]) -> None:
    """Where the repository is configured (book_repository_url): its address on
    every page (book_repository, in the footer) and, on a page made from a file
    of chapters/, that file there (book_source_url, book_source_path: the icon
    at the top of the page and the footer). Nothing where none is configured:
    an address is never made up."""
    url = (app.config.book_repository_url or "").rstrip("/")
    context["book_repository"] = url
    context["book_source_url"] = context["book_source_path"] = ""
    if not url or pagename not in app.env.all_docs:
        return
    doc = app.env.doc2path(pagename)
    root = os.path.abspath(app.config.book_source_root or ".")
    rel = os.path.relpath(os.path.abspath(doc), root).replace(os.sep, "/")
    if rel.startswith("../"):
        return
    context["book_source_path"] = rel
    context["book_source_url"] = repository_link(app.config, rel, [])


def page_context(app: Sphinx, pagename: str, templatename: str, context: dict[str, Any],
                 doctree: nodes.document | None) -> None:
    if app.builder.format == "html":
        source_links(app, pagename, context)
        navigation_by_section(context)
        if pagename == "genindex":
            concepts_only(context)
    if app.config.book_pdf:
        context["book_pdf"] = posixpath.relpath("book.pdf", posixpath.dirname(pagename) or ".")
    else:
        context["book_pdf"] = ""


def publish_pdf(app: Sphinx) -> None:
    out = os.path.join(app.outdir, "book.pdf")
    if app.config.book_pdf:
        # What this build read, against the PDF once more (a source edited during
        # the build, or read by a page but not by the PDF's).
        read = set()
        for doc in app.env.all_docs:
            read.add(app.env.doc2path(doc))
            read |= {os.path.normpath(os.path.join(app.env.srcdir, dep))
                     for dep in app.env.dependencies.get(doc, ())}
        pages = [app.env.doc2path(doc) for doc in app.env.all_docs]
        stale = pdf_stale(app.config.book_pdf, pages, read)
        if stale:
            logger.warning(f"the pages link the PDF edition {app.config.book_pdf}, which was not "
                           f"built from the book as it is ({stale}): build it again "
                           "(`tools/book pdf`), or build the HTML again, which leaves it out")
            if os.path.exists(out):
                os.unlink(out)
            return
        shutil.copyfile(app.config.book_pdf, out + ".tmp")
        os.replace(out + ".tmp", out)
    elif os.path.exists(out):
        os.unlink(out)


def build_finished(app: Sphinx, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    prune_code_pages(app)
    publish_pdf(app)


# ---- nodes in builders that show no link --------------------------------------------------

def visit_source_ref(self: SphinxTranslator, node: nodes.Node) -> None:
    pass


def depart_source_ref(self: SphinxTranslator, node: nodes.Node) -> None:
    pass


def setup(app: Sphinx) -> None:
    plain = (visit_source_ref, depart_source_ref)
    app.add_node(source_ref, html=plain, latex=plain, text=plain, man=plain, texinfo=plain)
    app.add_node(run_yourself, html=plain, latex=plain, text=plain, man=plain, texinfo=plain)
    app.add_post_transform(SourceLinks)
    app.add_post_transform(RunYourselfBlocks)
    app.add_node(chapter_link, html=plain, latex=plain, text=plain, man=plain, texinfo=plain)
    app.add_node(repository_link_node, html=plain, latex=plain, text=plain, man=plain, texinfo=plain)
    app.add_role("chapter", chapter_role)
    app.add_role("repository", repository_role)
    app.add_post_transform(FrontPageLinks)
    app.add_post_transform(NarrowOutputsInLatex)
    app.add_env_collector(SourceCollector)
    app.connect("config-inited", config_inited)
    app.connect("builder-inited", builder_inited)
    app.connect("html-collect-pages", collect_pages)
    app.connect("html-page-context", page_context, priority=900)  # after furo's
    app.connect("build-finished", build_finished)
    app.add_js_file("book.js")
    app.add_js_file("book-search.js", loading_method="defer")
