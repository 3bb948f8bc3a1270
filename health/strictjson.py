"""Shared: the one strict JSON-object parser (evidence rows, state files, manifests, config).

Used by collectors and by thresholds.sources. Stdlib only. Strict means: valid UTF-8, no
NaN/Infinity, no duplicate keys (JSON.parse would silently keep the last), an object at
the top, and no traceback for absurd nesting or huge integers.
"""
from __future__ import annotations

import json


class _Rejected(ValueError):
    pass


def _no_constants(name: str):
    raise _Rejected(f"non-finite number {name}")


def _unique_keys(pairs: list[tuple[str, object]]) -> dict:
    row = dict(pairs)
    if len(row) != len(pairs):
        seen: set[str] = set()
        duplicate = next(key for key, _ in pairs if key in seen or seen.add(key))
        raise _Rejected(f"duplicate key {duplicate!r}")
    return row


def json_type(value: object) -> str:
    if value is None:
        return "null"
    return {bool: "boolean", int: "number", float: "number", str: "string", list: "array", dict: "object"}.get(
        type(value), "value")


def parse_object(raw: bytes) -> dict | str:
    """The JSON object in `raw`, or the reason it is not one."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        return f"invalid UTF-8 at byte {error.start}"
    try:
        value = json.loads(text, parse_constant=_no_constants, object_pairs_hook=_unique_keys)
    except _Rejected as error:
        return str(error)
    except json.JSONDecodeError as error:
        return f"invalid JSON: {error.msg} at column {error.colno}"
    except (ValueError, RecursionError) as error:  # huge integers, absurd nesting
        return f"invalid JSON: {type(error).__name__}"
    if not isinstance(value, dict):
        return f"not a JSON object ({json_type(value)})"
    return value
