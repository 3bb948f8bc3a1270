"""Collect stage (the health log's lines): what a stored memory-health.jsonl line must hold to be a report, on plain data.
Used by collectors.healthlog.read (every read back: the status line, `history`, `--verify`, the dashboard) and by
reports.report, whose documents name the same schema.

A line is the compact JSON of a published report (reports.reportjson writes it) with its chain
link as the last key (collectors.healthlog.chain). Reading one back never builds the typed
report (reports floor): this module checks the shape that readers rely on on the parsed dict
(schema, overall, ts, counts, findings, the optional sections), so the read back, the chain and
the collector that verifies it all stay on the collectors floor, below the report they store.
Stdlib only and cheap to import (the status line reads through it).
"""
from __future__ import annotations

from collectors.healthlog import REPORT_SCHEMA
OVERALLS = ("ok", "warn", "critical", "unknown")


def report_problem(row: dict) -> str | None:
    """Why a parsed line is not a cortex-health report, or None."""
    from cortex.core.timestamps import parse_timestamp_ms

    if row.get("schema") != REPORT_SCHEMA:
        return f"schema is not {REPORT_SCHEMA}"
    if row.get("overall") not in OVERALLS:
        return "overall is not ok, warn, critical or unknown"
    if parse_timestamp_ms(row.get("ts")) is None:
        return "ts is not a valid timestamp"
    counts = row.get("counts")
    if not isinstance(counts, dict) or not all(type(counts.get(k)) is int for k in ("critical", "warn", "ok")):
        return "counts must hold integer critical, warn and ok"
    findings = row.get("findings")
    if not isinstance(findings, list) or not all(
            isinstance(f, dict) and isinstance(f.get("id"), str) and f.get("severity") in ("warn", "critical")
            and isinstance(f.get("message", ""), str) and isinstance(f.get("detail") or {}, dict) for f in findings):
        return "findings must be a list of {id, severity warn|critical, message, detail object}"
    ok_summary = row.get("ok_summary", [])
    if not isinstance(ok_summary, list) or not all(isinstance(item, str) for item in ok_summary):
        return "ok_summary must be a list of ids"
    return _shape_problem(row)


def _shape_problem(row: dict) -> str | None:
    """The rest of the published shape that readers rely on (the typed report, the dashboard): a hand-edited
    line that parses but has another shape is a bad line, never a report that breaks whoever shows it."""
    for key, what in (("thresholds", "{value, source, origin, unit}"), ("evidence", "collector evidence")):
        value = row.get(key)
        if value is not None and not (isinstance(value, dict) and all(isinstance(v, dict) for v in value.values())):
            return f"{key} must be an object of {what} objects"
    for key in ("root", "reason"):
        if not isinstance(row.get(key), (str, type(None))):
            return f"{key} must be a string or null"
    duration = row.get("duration_ms")
    if duration is not None and (type(duration) not in (int, float) or duration < 0):
        return "duration_ms must be a number of at least 0"
    return None
