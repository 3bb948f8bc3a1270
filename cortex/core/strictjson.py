"""Shared: the one strict JSON decoder, for write payloads, model output, evidence rows, state
files, manifests, threshold config and benchmark labels. Stdlib only (the status line may use it).

Refuses what `json.loads` would quietly accept: NaN/Infinity, numbers that overflow to
infinity, duplicate object keys (JSON.parse keeps the last one silently; which one was meant
is ambiguous), lone surrogate escapes, and nesting deep enough to exhaust the stack. Every
refusal carries a precise reason; callers decide whether that is an error or a finding.
"""
from __future__ import annotations

import json
import math

MAX_DEPTH = 64


class StrictJSONError(ValueError):
    """Why a text is not strict JSON (the message is the reason, ready to show); a syntax error also
    knows its 1-based `line` and `column` (None for the other refusals)."""

    line: int | None = None
    column: int | None = None


def _no_constant(name: str):
    raise StrictJSONError(f"non-finite number {name}")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise StrictJSONError(f"non-finite number {text}")
    return value


def _unique_keys(pairs: list[tuple[str, object]]) -> dict:
    row = dict(pairs)
    if len(row) != len(pairs):
        seen: set[str] = set()
        duplicate = next(key for key, _ in pairs if key in seen or seen.add(key))
        raise StrictJSONError(f"duplicate key {duplicate!r}")
    return row


def _check(value, level: int = 0) -> None:
    """Depth bound and lone surrogates (which cannot be written back as UTF-8), first problem first."""
    if level > MAX_DEPTH:
        raise StrictJSONError(f"invalid JSON: nested deeper than {MAX_DEPTH} levels")
    if isinstance(value, str):
        if not value.isascii():
            try:
                value.encode("utf-8")
            except UnicodeEncodeError:
                raise StrictJSONError("invalid JSON: lone surrogate escape") from None
    elif isinstance(value, dict):
        for key, item in value.items():
            _check(key, level + 1)
            _check(item, level + 1)
    elif isinstance(value, list):
        for item in value:
            _check(item, level + 1)


def too_deep(value) -> bool:
    """Whether a decoded value nests deeper than MAX_DEPTH, visiting containers only.

    Such a value exists exactly when a non-empty container sits at level MAX_DEPTH or deeper
    (its keys and items are one level below it): _check's depth rule without a call per value.
    """
    stack = [(value, 0)] if type(value) in (dict, list) and value else []
    while stack:
        container, level = stack.pop()
        if level >= MAX_DEPTH:
            return True
        for item in container.values() if type(container) is dict else container:
            if type(item) in (dict, list) and item:
                stack.append((item, level + 1))
    return False


def _validated(value, text: str) -> None:
    """_check, cheaply where it can: a lone surrogate comes from a \\u escape or from the text itself,
    and deep nesting needs more than MAX_DEPTH opening brackets (a report row has hundreds of
    values and no escape: walking every one took most of the time to read a health log)."""
    if "\\u" in text or not (text.isascii() or _encodable(text)):
        _check(value)
    elif text.count("{") + text.count("[") > MAX_DEPTH and too_deep(value):
        raise StrictJSONError(f"invalid JSON: nested deeper than {MAX_DEPTH} levels")


def _encodable(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


_STRICT = dict(parse_constant=_no_constant, parse_float=_finite_float, object_pairs_hook=_unique_keys)
_DECODER = json.JSONDecoder(**_STRICT)  # json.loads with these would build one (and its scanner) per call


def _loads(text: str):
    if type(text) is str and not text.startswith("\ufeff"):
        return _DECODER.decode(text)
    return json.loads(text, **_STRICT)  # bytes, or a BOM: json.loads's own handling and message


def decode(text: str):
    """The value of `text`, or StrictJSONError naming what is wrong."""
    try:
        value = _loads(text)
    except StrictJSONError:
        raise
    except json.JSONDecodeError as error:
        # One-line texts (a JSONL row) are located by their caller; the column is enough.
        where = f"line {error.lineno} column" if "\n" in text else "column"
        refused = StrictJSONError(f"invalid JSON: {error.msg} at {where} {error.colno}")
        refused.line, refused.column = error.lineno, error.colno
        raise refused from None
    except RecursionError:
        raise StrictJSONError("invalid JSON: nested too deeply") from None
    except ValueError:  # an integer too long to convert
        raise StrictJSONError("invalid JSON: number too long") from None
    _validated(value, text)
    return value


def json_type(value: object) -> str:
    if value is None:
        return "null"
    return {bool: "boolean", int: "number", float: "number", str: "string", list: "array", dict: "object"}.get(
        type(value), "value")


def loads_strict(text: str, *, what: str = "payload"):
    """The value, or InvalidInput (exit 4) saying why `what` is not valid JSON."""
    from cortex.errors import InvalidInput

    try:
        return decode(text)
    except StrictJSONError as error:
        raise InvalidInput(f"{what} must be valid JSON ({error})").at(line=error.line, rule="json") from None


def parse_object(raw: bytes) -> dict | str:
    """The JSON object in `raw`, or the reason it is not one (evidence readers report it)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        return f"invalid UTF-8 at byte {error.start}"
    try:
        value = decode(text)
    except StrictJSONError as error:
        return str(error)
    if not isinstance(value, dict):
        return f"not a JSON object ({json_type(value)})"
    return value
