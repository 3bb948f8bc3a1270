"""Collect stage helper: how a hot file's entry count moved over the health history. Used by collectors.lifeos.hot_content.

Every published report (OBSERVABILITY/memory-health.jsonl) holds the hot_memory evidence of
its run, `valid_entries` per file. Only a file near its cap asks for the trend, and a trend
needs a few points, not every line: of the log's last TAIL_LINES lines (at most 1 MiB, read
from the end) at most SAMPLES evenly spaced ones are decoded, the oldest and the newest
always among them. Lines that are not reports, or whose hot_memory evidence has no count
for the file, give no point.
"""
from __future__ import annotations

from collections import namedtuple

from collectors.readers.jsonl import tail_of
from cortex.core.strictjson import parse_object
from cortex.core.timestamps import parse_timestamp_ms

TAIL_LINES = 200
SAMPLES = 8


class TrendPoint(namedtuple("TrendPoint", "at_ms entries")):
    """at_ms: int, when that run happened; entries: int, the file's valid entries then."""

    __slots__ = ()


def entry_trend(health_log: str, label: str, anchor: str) -> tuple[TrendPoint, ...]:
    """The file's entry count at up to SAMPLES published runs, oldest first; () without a usable history."""
    state, lines = tail_of(health_log, TAIL_LINES, anchor)
    if not state.readable or not lines:
        return ()
    step = max(1, (len(lines) - 1) / max(1, SAMPLES - 1))
    picked = sorted({min(len(lines) - 1, round(i * step)) for i in range(SAMPLES)} | {len(lines) - 1})
    points = [point for point in (_point(lines[index], label) for index in picked) if point is not None]
    return tuple(sorted(points))


def _point(line: bytes, label: str) -> TrendPoint | None:
    report = parse_object(line)
    if not isinstance(report, dict):
        return None
    at_ms = parse_timestamp_ms(report.get("ts"))
    evidence = report.get("evidence")
    hot = evidence.get("hot_memory") if isinstance(evidence, dict) else None
    files = hot.get("files") if isinstance(hot, dict) else None
    for item in files if isinstance(files, list) else ():
        if isinstance(item, dict) and item.get("label") == label:
            count = item.get("valid_entries")
            if at_ms is not None and type(count) is int and count >= 0:
                return TrendPoint(at_ms, count)
    return None
