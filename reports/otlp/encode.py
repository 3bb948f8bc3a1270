"""Report stage: the OTLP/JSON mapping of values, attributes, times and ids. Used by the other reports.otlp modules.

The OTLP specification's JSON encoding of the protobuf messages (opentelemetry-proto): field
names in lowerCamelCase, 64-bit integers (times, counts, intValue) as decimal strings, enums
as integers, and trace and span ids as lowercase hex (not base64, the one departure from
the proto3 JSON mapping). Times are fixed64 nanoseconds since the epoch: an instant before
1970 or after 2554 cannot be written and is clamped (a row at such a time is not exported at
all: reports.otlp.spans). Ids come from os.urandom.
"""
from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Mapping

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

SCOPE = {"name": "cortex-health"}  # the instrumentation scope of everything we export
MAX_NANOS = (1 << 64) - 1
INT64 = (-(1 << 63), (1 << 63) - 1)
_ENCODE = json.JSONEncoder(ensure_ascii=True, separators=(",", ":"), allow_nan=False, check_circular=False).encode


def in_range(nanos: int) -> bool:
    return 0 <= nanos <= MAX_NANOS


def nanos(ms: float) -> str:
    """An instant in milliseconds as fixed64 nanoseconds (a decimal string), clamped to what fixed64 holds."""
    return str(min(max(round(ms * 1_000_000), 0), MAX_NANOS))


def double(value: float) -> float | str:
    """A double for JSON: proto3 writes the non-finite ones as strings."""
    if math.isfinite(value):
        return value
    return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")


def any_value(value: Any) -> dict:
    """An AnyValue: strings, booleans, integers (int64, else a double), doubles, lists, mappings; None is empty."""
    if isinstance(value, bool):
        return {"boolValue": value}
    if isinstance(value, int):
        return {"intValue": str(value)} if INT64[0] <= value <= INT64[1] else {"doubleValue": double(float(value))}
    if isinstance(value, float):
        return {"doubleValue": double(value)}
    if isinstance(value, str):
        return {"stringValue": value}
    if isinstance(value, Mapping):
        return {"kvlistValue": {"values": attributes(value.items())}}
    if isinstance(value, (list, tuple)):
        return {"arrayValue": {"values": [any_value(item) for item in value]}}
    return {} if value is None else {"stringValue": str(value)}


def attributes(pairs: Iterable[tuple[str, Any]] | Mapping[str, Any]) -> list[dict]:
    """KeyValue list; a None value leaves its key out (an attribute is absent rather than empty)."""
    items = pairs.items() if isinstance(pairs, Mapping) else pairs
    return [{"key": str(key), "value": any_value(value)} for key, value in items if value is not None]


def number_point(value: float) -> dict:
    """The value part of a NumberDataPoint: asInt for integers, asDouble otherwise."""
    if isinstance(value, int) and not isinstance(value, bool) and INT64[0] <= value <= INT64[1]:
        return {"asInt": str(value)}
    return {"asDouble": double(float(value))}


def random_id(size: int) -> str:
    """A fresh trace (16 bytes) or span (8 bytes) id as lowercase hex; never all zeros, which means "no id"."""
    raw = os.urandom(size)
    return raw.hex() if any(raw) else "0" * (2 * size - 1) + "1"


def request_line(body: dict) -> str:
    """One request as compact JSON (ASCII only): a line of the file exporter's format, or an HTTP body."""
    return _ENCODE(body)
