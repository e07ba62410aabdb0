# SPDX-License-Identifier: MIT
"""Render Mermaid diagrams to SVG (the HTML book) or PDF (the PDF edition)
with Mermaid CLI on Debian's Chromium, all of one call in one browser session.

    python3 -m bookpy.build.render_diagram <repo> <in.mmd> <out.svg|out.pdf> [<in.mmd> <out> ...]

The build calls it once per format, for every diagram (cmake/BookDocs.cmake:
the SVGs with the book, the PDFs for the PDF edition), so Chromium starts once
per format, not once per diagram or chapter. The browser is driven
by tools/mermaid-batch.mjs with Mermaid CLI's own renderer and the options its
command line would give (tools/puppeteer.json, tools/mermaid.json).

Each format follows its output's suffix. An SVG gets its drawing size as its
width and height (tools/mermaid.json turns Mermaid's useMaxWidth off), so a
page shows it at that size or, where the column is narrower, scaled to the
column, never stretched. A PDF is a vector figure cut to the drawing
(`--pdfFit`), for LaTeX.

A syntax error, or a first line that names no diagram type Mermaid knows, is
reported as `<in.mmd>:<line>: error: ...` and leaves no
output behind for that diagram (the others of the call are still rendered, and
the call fails); an output appears only complete (written to a temporary file,
then renamed).
"""
import bisect
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# What Mermaid strips before it parses (mermaid 11, src/diagram-api/frontmatter.ts,
# regexes.ts and comments.ts). Its parse errors count lines of what is left, so a
# file that starts with a %% comment would be reported a line early.
FRONT_MATTER = re.compile(r"^([^\S\n\r]*)-{3}\s*[\n\r](.*?)[\n\r]\1-{3}\s*[\n\r]+", re.S)
DIRECTIVE = re.compile(r"%{2}{\s*(?:(\w+)\s*:|(\w+))\s*(?:(\w+)|((?:(?!}%{2}).|\r?\n)*))?\s*(?:}%{2})?",
                       re.I)
COMMENT = re.compile(r"^\s*%%(?!{)[^\n]+\n?", re.M)


def parsed_to_file_lines(source: str) -> list:
    """For each line Mermaid's parser sees (0-based), the line of the file (1-based)."""
    text = source.replace("\r\n", "\n").replace("\r", "\n")
    starts = [0] + [i + 1 for i, ch in enumerate(text) if ch == "\n"]
    origin = list(range(len(text)))  # each kept character's offset in the file

    def drop(pattern, count=0):
        nonlocal text, origin
        kept_text, kept_origin, pos = [], [], 0
        for n, m in enumerate(pattern.finditer(text)):
            if count and n >= count:
                break
            kept_text.append(text[pos:m.start()])
            kept_origin += origin[pos:m.start()]
            pos = m.end()
        kept_text.append(text[pos:])
        kept_origin += origin[pos:]
        text, origin = "".join(kept_text), kept_origin

    drop(FRONT_MATTER, count=1)
    drop(DIRECTIVE)
    drop(COMMENT)
    drop(re.compile(r"^\s+"), count=1)  # trimStart()
    lines, start = [], 0
    for i, ch in enumerate(text + "\n"):
        if ch == "\n":
            at = origin[start] if start < len(origin) else len(source)
            lines.append(bisect.bisect_right(starts, at))
            start = i + 1
    return lines


def tool_failure(text: str, status: int) -> str:
    """One line that says why Mermaid CLI itself failed (not the diagram): a
    package Node cannot load (a partial node_modules), a browser that does not
    start, or else the first line of its error, never a line of a stack trace."""
    m = re.search(r"Cannot find (?:package|module) '([^']+)'", text)
    if m:
        what = m.group(1)
        if os.path.isabs(what):  # a file of a package: name the package
            parts = what.split("/node_modules/")[-1].split("/")
            what = "/".join(parts[:2] if parts[0].startswith("@") else parts[:1])
        return (f"Mermaid CLI cannot load '{what}': node_modules is incomplete; "
                "run `tools/book deps`, which repairs it")
    if "Failed to launch the browser process" in text or "Could not find Chrome" in text:
        detail = next((ln.strip() for ln in text.splitlines()
                       if re.search(r"error|cannot|no such", ln, re.I) and "Failed to launch" not in ln),
                      "")
        return ("Mermaid CLI could not start Chromium (tools/puppeteer.json names it)"
                + (f": {detail}" if detail else ""))
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    noise = re.compile(r"^(at |node:|Node\.js v|\^|throw |\{|\}|code: )")
    errors = [ln for ln in lines if re.match(r"^[A-Za-z]*Error\b", ln)]
    first = (errors or [ln for ln in lines if not noise.match(ln)] or ["no output"])[0]
    return f"Mermaid CLI failed (exit {status}): {first}"


SVG_ROOT = re.compile(r"<svg\b[^>]*>")


def sized_svg(text: str) -> str:
    """The SVG with its viewBox size as width and height where Mermaid wrote a
    relative width (width="100%" and a max-width style)."""
    m = SVG_ROOT.search(text)
    if not m:
        raise ValueError("no <svg> element")
    root = m.group(0)
    box = re.search(r'viewBox="\s*[-\d.]+[\s,]+[-\d.]+[\s,]+([\d.]+)[\s,]+([\d.]+)\s*"', root)
    if not box or not re.search(r'width="[\d.]+%"', root):
        return text
    width, height = box.group(1), box.group(2)
    fixed = re.sub(r'\swidth="[\d.]+%"', f' width="{width}" height="{height}"', root, count=1)
    fixed = re.sub(r"max-width:\s*[\d.]+px;?\s*", "", fixed)
    return text[:m.start()] + fixed + text[m.end():]


def render_error(rel: str, text: str, file_lines: list, n_lines: int) -> str:
    """The error line for one diagram Mermaid CLI could not render: its file and
    line for a syntax error, else why the tool failed."""
    m = re.search(r"(?:Parse|Lexical) error on line (\d+):?\s*(.*?)(?:\n\s*at |\Z)", text, re.S)
    if m:
        parsed = int(m.group(1))
        line = file_lines[parsed - 1] if 0 < parsed <= len(file_lines) else parsed
        line = min(line, n_lines)
        detail = " ".join(m.group(2).split())
        detail = re.sub(r"\s*Parser\.parseError.*", "", detail)
        if len(detail) > 240:
            detail = detail[:240] + "..."
        return f"{rel}:{line}: error: Mermaid syntax error: {detail}"
    if "UnknownDiagramError" in text:
        # Mermaid reads the diagram's type from its first line (after front
        # matter, directives and comments): that line names none it knows.
        line = min(file_lines[0] if file_lines else 1, n_lines)
        return (f"{rel}:{line}: error: Mermaid syntax error: no diagram type it knows starts the "
                "diagram (flowchart, sequenceDiagram, stateDiagram-v2, ...)")
    return f"{rel}: error: {tool_failure(text, 1)}"


class Diagram:
    """One diagram of a batch: its source, where it goes, and the temporary file
    Mermaid CLI writes first."""

    def __init__(self, repo: str, src: str, out: str):
        self.src, self.out = src, out
        self.rel = os.path.relpath(src, repo)
        self.pdf = out.endswith(".pdf")
        with open(src, encoding="utf-8") as f:
            source = f.read()
        self.n_lines = max(1, source.count("\n"))
        self.file_lines = parsed_to_file_lines(source)
        os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
        fd, self.tmp = tempfile.mkstemp(suffix=".pdf" if self.pdf else ".svg",
                                        dir=os.path.dirname(os.path.abspath(out)))
        os.close(fd)

    def finish(self) -> str:
        """Puts the rendered file in place; returns an error line, or "" when done."""
        if not os.path.exists(self.tmp) or os.path.getsize(self.tmp) == 0:
            return f"{self.rel}: error: {tool_failure('Mermaid CLI wrote nothing', 1)}"
        if not self.pdf:
            with open(self.tmp, encoding="utf-8") as f:
                text = f.read()
            try:
                text = sized_svg(text)
            except ValueError as e:
                return f"{self.rel}:1: error: Mermaid CLI wrote no usable SVG ({e})"
            with open(self.tmp, "w", encoding="utf-8") as f:
                f.write(text)
        os.chmod(self.tmp, 0o644)
        os.replace(self.tmp, self.out)
        self.tmp = None
        return ""

    def clean(self):
        if self.tmp and os.path.exists(self.tmp):
            os.unlink(self.tmp)


def main() -> int:
    if len(sys.argv) < 4 or len(sys.argv) % 2 != 0:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    repo, pairs = sys.argv[1], sys.argv[2:]
    mmdc = os.path.join(repo, "node_modules", ".bin", "mmdc")
    batch = os.path.join(repo, "tools", "mermaid-batch.mjs")
    srcs = [os.path.relpath(s, repo) for s in pairs[0::2]]
    if not os.access(mmdc, os.X_OK):
        for rel in srcs:
            print(f"{rel}: error: Mermaid CLI is not installed ({mmdc}); run `tools/book deps`",
                  file=sys.stderr)
        return 1
    node = shutil.which("node")
    if not node:
        for rel in srcs:
            print(f"{rel}: error: Node.js (node) is not on PATH; run `tools/book deps`",
                  file=sys.stderr)
        return 1
    diagrams = []
    try:
        for src, out in zip(pairs[0::2], pairs[1::2]):
            diagrams.append(Diagram(repo, src, out))
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
            json.dump({"puppeteer": os.path.join(repo, "tools", "puppeteer.json"),
                       "mermaid": os.path.join(repo, "tools", "mermaid.json"),
                       "jobs": [{"input": os.path.abspath(d.src), "output": d.tmp,
                                 "format": "pdf" if d.pdf else "svg"} for d in diagrams]}, f)
            jobs = f.name
        limit = 60 + 30 * len(diagrams)
        try:
            proc = subprocess.run([node, batch, jobs], capture_output=True, text=True,
                                  timeout=limit)
        except subprocess.TimeoutExpired:
            for d in diagrams:
                print(f"{d.rel}:1: error: Mermaid CLI did not finish within {limit} s "
                      f"({len(diagrams)} diagrams in one batch)", file=sys.stderr)
            return 1
        finally:
            os.unlink(jobs)
        results = {}
        for line in proc.stdout.splitlines():
            try:
                r = json.loads(line)
                results[r["output"]] = r["error"]
            except (ValueError, KeyError, TypeError):
                pass  # not one of the batch's result lines
        failed = False
        for d in diagrams:
            if d.tmp not in results:  # the batch stopped before this diagram
                why = tool_failure(proc.stderr + proc.stdout, proc.returncode)
                message = f"{d.rel}: error: {why}"
            elif results[d.tmp] is not None:
                message = render_error(d.rel, results[d.tmp], d.file_lines, d.n_lines)
            else:
                message = d.finish()
            if message:
                print(message, file=sys.stderr)
                failed = True
        return 1 if failed else 0
    finally:
        for d in diagrams:
            d.clean()


if __name__ == "__main__":
    sys.exit(main())
