#!/usr/bin/env python3
"""Render one Mermaid diagram to SVG with Mermaid CLI on Debian's Chromium.

    render-diagram.py <repo> <in.mmd> <out.svg>

A syntax error is reported as `<in.mmd>:<line>: error: ...` and leaves no SVG
behind; the SVG appears only complete (written to a temporary file, then
renamed).
"""
import os
import re
import subprocess
import sys
import tempfile


def main() -> int:
    repo, src, out = sys.argv[1:4]
    rel = os.path.relpath(src, repo)
    mmdc = os.path.join(repo, "node_modules", ".bin", "mmdc")
    if not os.access(mmdc, os.X_OK):
        print(f"{rel}: error: Mermaid CLI is not installed ({mmdc}); run `tools/book deps`",
              file=sys.stderr)
        return 1
    with open(src, encoding="utf-8") as f:
        n_lines = max(1, f.read().count("\n"))
    os.makedirs(os.path.dirname(out), exist_ok=True)
    fd, tmp = tempfile.mkstemp(suffix=".svg", dir=os.path.dirname(out))
    os.close(fd)
    try:
        proc = subprocess.run(
            [mmdc, "--quiet", "-p", os.path.join(repo, "tools", "puppeteer.json"),
             "-c", os.path.join(repo, "tools", "mermaid.json"), "-b", "transparent",
             "-i", src, "-o", tmp],
            capture_output=True, text=True, timeout=120)
        if proc.returncode != 0 or os.path.getsize(tmp) == 0:
            text = proc.stderr + proc.stdout
            m = re.search(r"(?:Parse|Lexical) error on line (\d+):?\s*(.*?)(?:\n\s*at |\Z)", text, re.S)
            if m:
                line = min(int(m.group(1)), n_lines)
                detail = " ".join(m.group(2).split())
                detail = re.sub(r"\s*Parser\.parseError.*", "", detail)
                if len(detail) > 240:
                    detail = detail[:240] + "..."
                print(f"{rel}:{line}: error: Mermaid syntax error: {detail}", file=sys.stderr)
            else:
                first = next((l for l in text.splitlines() if l.strip()), "no output")
                print(f"{rel}:1: error: Mermaid CLI failed (exit {proc.returncode}): {first}",
                      file=sys.stderr)
            return 1
        os.replace(tmp, out)
        tmp = None
        return 0
    except subprocess.TimeoutExpired:
        print(f"{rel}:1: error: Mermaid CLI did not finish within 120 s", file=sys.stderr)
        return 1
    finally:
        if tmp and os.path.exists(tmp):
            os.unlink(tmp)


if __name__ == "__main__":
    sys.exit(main())
