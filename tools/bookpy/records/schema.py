# SPDX-License-Identifier: MIT
"""Run records checked against book/record-schema.json, in Python.

The twin of bookrun's schema.cpp (tools/runner), for Python readers of records
such as the book's Sphinx extension: the same shape rules, the same error
messages, the same digest. tools/bookpy/records/tests/test_schema.py holds the two to
each other.

    schema = load_schema("book/record-schema.json")
    validate(record, schema, needs_gpu=True, where="recordings/x.json")  # RecordError
    check_digest(record, schema, where="recordings/x.json")              # RecordError
"""
from __future__ import annotations

import hashlib
import os
import json

from . import jsonfloat

BASE_TYPES = {"string", "integer", "number", "boolean", "null", "array", "object"}


class RecordError(ValueError):
    """A record that does not have the schema's shape, or does not match its digest."""


def load_schema(path: str | os.PathLike) -> dict:
    with open(path, encoding="utf-8") as f:
        schema = json.load(f)
    if not isinstance(schema.get("version"), int):
        raise RecordError(f"{path}: not a record schema (no integer \"version\")")
    schema["_path"] = str(path)
    return schema


def _alternatives(type_: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for c in type_:
        depth += c == "<"
        depth -= c == ">"
        if c == "|" and depth == 0:
            out.append(cur)
            cur = ""
        else:
            cur += c
    return out + [cur]


def _json_type(v: object) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "boolean"
    if isinstance(v, (int, float)):
        return "number"
    return {str: "string", list: "array", dict: "object"}[type(v)]


def _join(path: str, key: str | int) -> str:
    return f"{path}.{key}" if path else str(key)


def _check(v: object, type_: str, path: str, schema: dict) -> str | None:
    """An error message, or None when v has the type."""
    alts = _alternatives(type_)
    if len(alts) > 1:
        if any(_check(v, a, path, schema) is None for a in alts):
            return None
        return f"field '{path}' should be {type_}, not {_json_type(v)}"
    simple = {"string": lambda x: isinstance(x, str),
              "boolean": lambda x: isinstance(x, bool),
              "null": lambda x: x is None,
              "array": lambda x: isinstance(x, list),
              "object": lambda x: isinstance(x, dict),
              "integer": lambda x: isinstance(x, int) and not isinstance(x, bool),
              "number": lambda x: isinstance(x, (int, float)) and not isinstance(x, bool)}
    if type_ in simple:
        return None if simple[type_](v) else f"field '{path}' should be {type_}, not {_json_type(v)}"
    for kind, pytype in (("array<", list), ("object<", dict)):
        if type_.startswith(kind) and type_.endswith(">"):
            inner = type_[len(kind):-1]
            if not isinstance(v, pytype):
                return f"field '{path}' should be {kind[:-1]}, not {_json_type(v)}"
            items = enumerate(v) if pytype is list else v.items()
            for key, value in items:
                error = _check(value, inner, _join(path, key), schema)
                if error:
                    return error
            return None
    section = schema[type_]
    if not isinstance(v, dict):
        return f"field '{path}' should be object, not {_json_type(v)}"
    known = set()
    for raw, field_type in section.items():
        name = raw[:-1] if raw.endswith("?") else raw
        known.add(name)
        p = _join(path, name)
        if name not in v:
            if raw.endswith("?"):
                continue
            return f"field '{p}' is missing"
        error = _check(v[name], field_type, p, schema)
        if error:
            return error
    for key in v:
        if key not in known:
            return f"field '{_join(path, key)}' is not in the record schema ({schema['_path']})"
    return None


def validate(record: object, schema: dict, needs_gpu: bool = False, where: str = "record") -> None:
    """Raises RecordError naming `where` and the field, as bookrun does."""
    if not isinstance(record, dict):
        raise RecordError(f"{where}: a record must be a JSON object")
    if "schema" not in record:
        raise RecordError(f"{where}: field 'schema' is missing")
    version = record["schema"]
    if not isinstance(version, int) or isinstance(version, bool):
        raise RecordError(f"{where}: field 'schema' should be integer, not {_json_type(version)}")
    if version != schema["version"]:
        raise RecordError(f"{where}: the record has schema {version}, which {schema['_path']} "
                          f"does not describe (it describes schema {schema['version']} only); a "
                          "record is read only under the schema it was made with: re-record it "
                          "with `tools/book record`")
    error = _check(record, "record", "", schema)
    if error:
        raise RecordError(f"{where}: {error}")
    required = schema["provenance_required"]
    for key in required["always"] + (required["gpu"] if needs_gpu else []):
        if key not in record["provenance"]:
            raise RecordError(f"{where}: field 'provenance.{key}' is missing")


def canonical(value: object) -> str:
    """The record's canonical JSON, as nlohmann::json::dump() writes it."""
    if isinstance(value, dict):
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + canonical(value[k])
                              for k in sorted(value)) + "}"
    if isinstance(value, list):
        return "[" + ",".join(canonical(v) for v in value) + "]"
    if isinstance(value, float):
        return jsonfloat.text(value)
    return json.dumps(value, ensure_ascii=False)


def digest(record: dict, schema: dict) -> str:
    """sha256:<hex> over what the record shows (without its digest, volatile and build-only fields)."""
    shown = {k: v for k, v in record.items()
             if k != "digest" and k not in schema["volatile"]["record"]
             and k not in schema["build_only"]["record"]}
    if isinstance(shown.get("provenance"), dict):
        shown["provenance"] = {k: v for k, v in shown["provenance"].items()
                               if k not in schema["volatile"]["provenance"]}
    return "sha256:" + hashlib.sha256(canonical(shown).encode("utf-8")).hexdigest()


def check_digest(record: dict, schema: dict, where: str = "record") -> None:
    if not isinstance(record.get("digest"), str):
        raise RecordError(f"{where}: the record has no digest, so nothing shows that it is what "
                          "the program printed; re-record it with `tools/book record`")
    if record["digest"] != digest(record, schema):
        raise RecordError(
            f"{where}: the record does not match its digest: what it shows (its stdout, stderr, "
            "results, texts, checks, command, inputs or provenance) was changed after the run "
            "that made it. A recording is never edited by hand: re-record it on its GPU with "
            "`tools/book record`.")


def from_recording_lines(stable: dict, schema: dict, where: str = "recording") -> dict:
    """A recording file's stdout, stderr and texts (arrays of lines, the schema's
    recording_lines) joined back into the strings a record holds."""
    lines = schema["recording_lines"]

    def join(v: object, what: str) -> str:
        if isinstance(v, str):
            return v
        if not isinstance(v, list) or not v or not all(isinstance(x, str) for x in v):
            raise RecordError(f"{where}: '{what}' should be an array of lines")
        return "\n".join(v)

    out = dict(stable)
    for f in lines["record"]:
        if f in out:
            out[f] = join(out[f], f)
    for o in lines["objects"]:
        if isinstance(out.get(o), dict):
            out[o] = {k: join(v, f"{o}.{k}") for k, v in out[o].items()}
    return out


def load_recording(path: str | os.PathLike, schema: dict) -> dict:
    """A committed recording (recordings/<gpu>/<key>/<run>.json and its
    .volatile.json) as one record, its lines joined; not validated."""
    with open(path, encoding="utf-8") as f:
        stable = json.load(f)
    vpath = str(path)[:-len(".json")] + ".volatile.json"
    try:
        with open(vpath, encoding="utf-8") as f:
            vol = json.load(f)
    except FileNotFoundError:
        vol = {}
    record = from_recording_lines(stable, schema, where=str(path))
    for k, v in vol.items():
        if k == "provenance":
            record.setdefault("provenance", {}).update(v)
        else:
            record[k] = v
    return record
