"""Benchmark input: reads and strictly validates the labeled query set (JSONL); called by `cortex benchmark`.

One row per query: `query`, `expected_ids` (non-empty list), optional `expected_order`
(expected IDs in the temporal order they should come back in), optional `false_ids` (IDs
that must not be recalled) and an optional `id` naming the row. Anything else, and any
malformed value, is invalid_input naming the file and the line: a benchmark over labels it
half-understood would publish numbers nobody asked for. Every decoded key and string
crosses the privacy boundary first, so neither the report nor an error quotes a private span.
"""
from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from typing import Callable, Iterable

from cortex.errors import InvalidInput
from cortex.core.jscompat import js_len, js_trim
from cortex.core.privatejson import KeyCollision, strip_private_json
from cortex.core.safeio import UnsafeFile, read_bounded
from cortex.core.strictjson import StrictJSONError, decode

MAX_BYTES = 1024 * 1024
MAX_ROWS = 1000
MAX_ID_CHARS = 256
MAX_IDS = 100
FIELDS = ("id", "query", "expected_ids", "expected_order", "false_ids")
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


@dataclass(frozen=True)
class Label:
    line: int
    name: str | None
    query: str
    expected_ids: tuple[str, ...]
    expected_order: tuple[str, ...] | None
    false_ids: tuple[str, ...]


@dataclass(frozen=True)
class LabelSet:
    path: str
    digest: str  # SHA-256 of the file's exact bytes
    labels: tuple[Label, ...]


class _Row(Exception):
    """A problem with one row; read_labels adds the file and line."""


def read_labels(
    path: str, *, tokenizer: Callable[[str], list[str]], max_query_chars: int, max_query_terms: int
) -> LabelSet:
    """Read `path` and validate every row; raise InvalidInput naming the first bad line."""
    shown = os.path.abspath(path)
    data = _read(shown)
    text = _decode(data, shown)
    labels: list[Label] = []
    names: dict[str, int] = {}
    for number, line in enumerate(text.split("\n"), start=1):
        line = line[:-1] if line.endswith("\r") else line
        if not js_trim(line):
            continue
        if len(labels) >= MAX_ROWS:
            raise InvalidInput(f"Labels file {shown} has more than {MAX_ROWS} rows (line {number})")
        try:
            label = _label(line, number, tokenizer, max_query_chars, max_query_terms)
            if label.name is not None:
                if label.name in names:
                    raise _Row(f"duplicate label id {label.name!r} (first used on line {names[label.name]})")
                names[label.name] = number
        except _Row as problem:
            raise InvalidInput(f"Invalid labels file {shown}, line {number}: {problem}") from None
        labels.append(label)
    if not labels:
        raise InvalidInput(f"Labels file {shown} has no rows")
    return LabelSet(shown, hashlib.sha256(data).hexdigest(), tuple(labels))


def check_ids_exist(label_set: LabelSet, record_ids: Iterable[str]) -> None:
    """Every referenced ID must name a canonical record (expired ones count: validity is measured)."""
    known = set(record_ids)
    for label in label_set.labels:
        for field, ids in (("expected_ids", label.expected_ids), ("false_ids", label.false_ids)):
            missing = [record_id for record_id in ids if record_id not in known]
            if missing:
                raise InvalidInput(
                    f"Invalid labels file {label_set.path}, line {label.line}: "
                    f"{field} names IDs not in the corpus: {', '.join(missing)}"
                )


def _read(path: str) -> bytes:
    try:
        data = read_bounded(path, MAX_BYTES)
    except FileNotFoundError:
        raise InvalidInput(f"Labels file not found: {path}") from None
    except UnsafeFile as error:
        raise InvalidInput(f"Labels file refused ({error})") from None
    except OSError as error:
        raise InvalidInput(f"Labels file unreadable: {path} ({error.strerror or error})") from None
    if not data.strip():
        raise InvalidInput(f"Labels file {path} is empty")
    return data


def _decode(data: bytes, path: str) -> str:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        raise InvalidInput(f"Invalid labels file {path}, line {line}: not valid UTF-8") from None
    return text[1:] if text.startswith("\ufeff") else text


def _label(line: str, number: int, tokenizer, max_query_chars: int, max_query_terms: int) -> Label:
    if _CONTROL.search(line):
        raise _Row("contains a control character")
    row = _json_object(line)
    unknown = sorted(key for key in row if key not in FIELDS)
    if unknown:
        raise _Row(f"unknown field(s) {', '.join(unknown)} (allowed: {', '.join(FIELDS)})")
    query = row.get("query")
    if not isinstance(query, str) or not js_trim(query):
        raise _Row("query must be a non-empty string")
    if js_len(query) > max_query_chars:
        raise _Row(f"query is longer than {max_query_chars} characters")
    query_terms = tokenizer(query)
    if not query_terms or len(query_terms) > max_query_terms:
        raise _Row(f"query must have 1 to {max_query_terms} searchable terms (it has {len(query_terms)})")
    expected = _ids(row, "expected_ids", required=True)
    order = _ids(row, "expected_order", required=False) if "expected_order" in row else None
    if order is not None:
        if len(order) < 2:
            raise _Row("expected_order needs at least two IDs to order")
        strays = [record_id for record_id in order if record_id not in expected]
        if strays:
            raise _Row(f"expected_order IDs must also be in expected_ids: {', '.join(strays)}")
    false_ids = _ids(row, "false_ids", required=False) if "false_ids" in row else ()
    overlap = [record_id for record_id in false_ids if record_id in expected]
    if overlap:
        raise _Row(f"false_ids overlap expected_ids: {', '.join(overlap)}")
    name = row.get("id")
    if "id" in row and (not isinstance(name, str) or not js_trim(name) or js_len(name) > MAX_ID_CHARS):
        raise _Row(f"id must be a non-empty string of at most {MAX_ID_CHARS} characters")
    return Label(number, name, query, expected, order, false_ids)


def _json_object(line: str) -> dict:
    try:
        row = strip_private_json(decode(line))
    except (StrictJSONError, KeyCollision) as error:
        raise _Row(str(error)) from None
    if not isinstance(row, dict):
        raise _Row("a row must be a JSON object")
    return row


def _ids(row: dict, field: str, *, required: bool) -> tuple[str, ...]:
    value = row.get(field)
    if not isinstance(value, list) or (required and not value):
        raise _Row(f"{field} must be a {'non-empty ' if required else ''}list of record IDs")
    if len(value) > MAX_IDS:
        raise _Row(f"{field} has more than {MAX_IDS} IDs")
    for item in value:
        if not isinstance(item, str) or not js_trim(item) or js_len(item) > MAX_ID_CHARS:
            raise _Row(f"{field} entries must be non-empty strings of at most {MAX_ID_CHARS} characters")
    if len(set(value)) != len(value):
        raise _Row(f"{field} lists an ID twice")
    return tuple(value)
