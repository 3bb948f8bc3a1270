"""Write path: strict JSON decoding for write payloads; used by remember/propose (and by the reviewer for model output).

Refuses what `json.loads` would quietly accept: NaN/Infinity, numbers that overflow to
infinity, duplicate object keys (which value wins is ambiguous), lone surrogates and
nesting deep enough to exhaust the stack. Errors are InvalidInput (exit 4).
"""
from __future__ import annotations

import json
import math

from cortex.errors import InvalidInput

MAX_DEPTH = 64


def _no_constant(name: str):
    raise ValueError(f"non-standard JSON constant {name}")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError("number out of range")
    return value


def _unique_keys(pairs):
    seen = {}
    for key, value in pairs:
        if key in seen:
            raise ValueError("duplicate object key")
        seen[key] = value
    return seen


def _depth(value, level: int = 0) -> int:
    if level > MAX_DEPTH:
        raise ValueError(f"nested deeper than {MAX_DEPTH} levels")
    if isinstance(value, dict):
        for item in value.values():
            _depth(item, level + 1)
    elif isinstance(value, list):
        for item in value:
            _depth(item, level + 1)
    return level


def _has_lone_surrogate(value) -> bool:
    if isinstance(value, str):
        try:
            value.encode("utf-8")
            return False
        except UnicodeEncodeError:
            return True
    if isinstance(value, dict):
        return any(_has_lone_surrogate(k) or _has_lone_surrogate(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_has_lone_surrogate(item) for item in value)
    return False


def loads_strict(text: str, *, what: str = "payload"):
    try:
        value = json.loads(text, parse_constant=_no_constant, parse_float=_finite_float, object_pairs_hook=_unique_keys)
        _depth(value)
    except (ValueError, RecursionError) as error:
        raise InvalidInput(f"{what} must be valid JSON ({_reason(error)})") from None
    if _has_lone_surrogate(value):
        raise InvalidInput(f"{what} must be valid JSON (contains a lone surrogate escape)")
    return value


def _reason(error: Exception) -> str:
    if isinstance(error, json.JSONDecodeError):
        return f"{error.msg} at line {error.lineno} column {error.colno}"
    if isinstance(error, RecursionError):
        return "nested too deeply"
    return str(error)
