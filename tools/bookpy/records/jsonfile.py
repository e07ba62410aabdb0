# SPDX-License-Identifier: MIT
"""A JSON file the book reads (a record schema, the build manifest, a page's
data), with errors that name the file and, for bad JSON, its line."""
from __future__ import annotations

import json
import os
import tempfile
from typing import Any

from .checkeval import BookError

_json_cache: dict = {}


def load_json(path: str, what: str) -> Any:
    """A JSON file, parsed once for as long as it is unchanged (size and time).
    Errors name the file and, for bad JSON, its line."""
    try:
        st = os.stat(path)
    except OSError:
        raise BookError(f"{what} {path} does not exist") from None
    stamp = (st.st_mtime_ns, st.st_size)
    hit = _json_cache.get(path)
    if hit and hit[0] == stamp:
        return hit[1]
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except json.JSONDecodeError as e:
        raise BookError(f"{what} {path}:{e.lineno}: malformed JSON: {e.msg}") from None
    except UnicodeDecodeError as e:
        raise BookError(f"{what} {path}: not UTF-8 (byte {e.start}: {e.reason})") from None
    _json_cache[path] = (stamp, data)
    return data


def write_json(path: str, data: Any, **dump) -> None:
    """Writes data as JSON (json.dump's keyword arguments, indent=2 by default)
    to a file beside path, then renames it: a reader never sees half a file, and
    a failed write leaves the old one."""
    folder = os.path.dirname(os.path.abspath(path))
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix="." + os.path.basename(path) + ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump(data, f, **{"indent": 2, "ensure_ascii": False, **dump})
            f.write("\n")
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
