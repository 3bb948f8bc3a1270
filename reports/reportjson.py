"""Report stage: the compact JSON of a report without pydantic; used by the JSON format, publication and the CLI.

A document that already has exactly the shape of reports.schema.HealthReport (exact types,
every constraint met, floats that print the same in both serialisers) is written with the
standard library, byte for byte what the pydantic model would write; anything else goes
through the model (reports.schema.report_json), which coerces or raises as it always did.
tests/reports/test_report_json.py proves the two agree, so the published schema stays the one source.
"""
from __future__ import annotations

from cortex.core.hookjson import encoder

from reports.report import SCHEMA_ID

from _collections_abc import mappingproxy as MappingProxyType  # types.MappingProxyType, without importing types (~0.6M)

TYPE_CHECKING = False  # typing costs every audit ~2 ms; these names are only annotations
if TYPE_CHECKING:
    from typing import Any

    from reports.report import Report

_TOP = ("schema", "ts", "overall", "counts", "thresholds", "evidence", "findings", "ok_summary", "root",
        "duration_ms", "reason")
_OVERALL = frozenset({"ok", "warn", "critical", "unknown"})
_SOURCES = frozenset({"default", "config", "env", "cli"})
_UNITS = frozenset({"ms", "bytes", "count"})
_STATUSES = frozenset({"ok", "missing", "malformed", "unreadable", "error", "skipped"})
_ENCODE = encoder(ensure_ascii=False, separators=(",", ":"), allow_nan=False, check_circular=False)
_HEX = "0123456789abcdef"
_LEAVES = frozenset({str, int, bool, type(None)})  # JSON values both serialisers print alike as they are
_KEYS = frozenset({str})
_OBJECTS = (dict, MappingProxyType)  # a report's evidence is kept as read-only views (Report.document(views=True))


class _Slow(Exception):
    """The document needs the pydantic model (coercion, an error, or a float the serialisers print differently)."""


_MODEL = (_Slow, UnicodeEncodeError, ValueError, TypeError, KeyError, AttributeError)  # the model's to write


def report_json(document: dict[str, Any]) -> str:
    """The compact JSON of a validated report: stdout and the memory-health.jsonl line."""
    try:
        return _written(document)
    except _MODEL:
        return _validated(document)


def report_text(report: Report) -> str:
    """report_json(report.document()), the evidence read where the report keeps it rather than copied out first."""
    try:
        return _written(report.document(views=True))
    except _MODEL:
        return _validated(report.document())


def _written(document: dict[str, Any]) -> str:
    text = _ENCODE(_ordered(document))
    text.encode("utf-8")  # a lone surrogate: let the model say what it says
    return text


def _validated(document: dict[str, Any]) -> str:
    from reports.schema import report_json as validated

    return validated(document)


def _need(condition: bool) -> None:
    if not condition:
        raise _Slow


def _ordered(doc: Any) -> dict[str, Any]:
    _need(type(doc) is dict and set(doc) - {"version", "chain"} == set(_TOP))
    _need(doc["schema"] == SCHEMA_ID and type(doc["ts"]) is str and doc["overall"] in _OVERALL)
    counts = doc["counts"]
    _need(type(counts) is dict and list(counts) == ["critical", "warn", "ok"])
    _need(all(type(n) is int and n >= 0 for n in counts.values()))
    out = {key: doc[key] for key in _TOP}
    out["counts"] = dict(counts)
    out["thresholds"] = {_text(name): _threshold(entry) for name, entry in _mapping(doc["thresholds"]).items()}
    out["evidence"] = {_text(name): _evidence(entry) for name, entry in _mapping(doc["evidence"]).items()}
    _need(type(doc["findings"]) is list)
    out["findings"] = [_finding(entry) for entry in doc["findings"]]
    _need(type(doc["ok_summary"]) is list and all(type(item) is str for item in doc["ok_summary"]))
    _need(doc["root"] is None or type(doc["root"]) is str)
    _need(doc["reason"] is None or type(doc["reason"]) is str)
    duration = doc["duration_ms"]
    _need(type(duration) in (int, float) and duration >= 0)
    out["duration_ms"] = _float(float(duration))  # the model's float field prints 5 as 5.0
    version = doc.get("version")
    if version is not None:
        _need(type(version) is str and version != "")
        out["version"] = version
    chain = doc.get("chain")
    if chain is not None:
        _need(type(chain) is dict and set(chain) == {"seq", "prev"} and type(chain["seq"]) is int and chain["seq"] >= 1)
        prev = chain["prev"]
        _need(type(prev) is str and len(prev) == 64 and not prev.strip(_HEX))  # 64 lower-case hex digits
        out["chain"] = {"seq": chain["seq"], "prev": chain["prev"]}
    return out


def _mapping(value: Any) -> dict:
    _need(type(value) in _OBJECTS)
    return value


def _text(value: Any) -> str:
    _need(type(value) is str)
    return value


def _float(value: float) -> float:
    # Python and pydantic print exponents differently (1e-05 / 0.00001); non-finite floats are the model's call.
    _need(value == value and value not in (float("inf"), float("-inf")) and "e" not in repr(value))
    return value


def _threshold(entry: Any) -> dict:
    _need(type(entry) is dict and set(entry) == {"value", "source", "origin", "unit"})
    value = entry["value"]
    _need(type(value) in (int, float) and value > 0 and entry["source"] in _SOURCES and entry["unit"] in _UNITS)
    if type(value) is float:
        _float(value)
    _need(entry["origin"] is None or type(entry["origin"]) is str)
    return {"value": value, "source": entry["source"], "origin": entry["origin"], "unit": entry["unit"]}


def _evidence(entry: Any) -> dict:
    _need(type(entry) in _OBJECTS and entry.get("status") in _STATUSES and type(entry["status"]) is str)
    out = {"status": entry["status"]}
    out.update(_plain(entry))  # the other keys in their order after it (status keeps its place and value)
    return out


def _finding(entry: Any) -> dict:
    _need(type(entry) is dict and set(entry) == {"id", "severity", "message", "detail"})
    _need(type(entry["id"]) is str and entry["id"] != "" and entry["severity"] in ("warn", "critical"))
    _need(type(entry["message"]) is str and type(entry["detail"]) is dict)
    return {"id": entry["id"], "severity": entry["severity"], "message": entry["message"],
            "detail": _plain(entry["detail"])}


def _plain(value: Any) -> Any:
    """A JSON value that both serialisers print alike (tuples become lists, as in the model).

    Most values are leaves: each is taken where it stands, without a call.
    """
    kind = type(value)
    if kind in _LEAVES:
        return value
    if kind is float:
        return _float(value)
    if kind in _OBJECTS:
        _need(_KEYS.issuperset(map(type, value)))
        return {key: item if type(item) in _LEAVES else _plain(item) for key, item in value.items()}
    if kind in (list, tuple):
        return [item if type(item) in _LEAVES else _plain(item) for item in value]
    raise _Slow
