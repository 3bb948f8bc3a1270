"""Report stage: the numbers a monitoring system graphs, taken from a report's evidence.

Used by the prometheus and nagios formats and the dashboard so all expose the same values
under the same rules, from the typed report (ages against its integer `now_ms`). Values
are in base units (seconds, bytes, counts); a value the run could not measure (missing
evidence, a collector that failed or was skipped) is left out rather than invented, and
its absence is what alerts see.
"""
from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from reports.report import Report


@dataclass(frozen=True)
class Measurement:
    name: str  # base name with its unit, e.g. reviewer_age_seconds
    help: str
    value: float
    unit: str  # seconds | bytes | count
    labels: tuple[tuple[str, str], ...] = ()
    warn: float | None = None  # the threshold in the same unit, when one applies
    maximum: float | None = None


def seconds(ms: float) -> float:
    """Milliseconds as seconds, shortest-exact: 14.283 ms is 0.014283 s, never 0.014282999999999999."""
    if isinstance(ms, int) or not math.isfinite(ms):
        return ms / 1000  # a correctly rounded quotient of exact integers
    mantissa, _, exponent = repr(ms).partition("e")  # shift the shortest spelling's point instead of dividing
    return float(f"{mantissa}e{int(exponent or 0) - 3}")


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _threshold(report: Report, name: str, scale: float = 1.0) -> float | None:
    entry = report.threshold(name)
    value = entry.value if entry is not None else None
    return value / scale if _number(value) else None


def _evidence(report: Report, name: str) -> Mapping[str, Any]:
    item = report.evidence.get(name)
    return item if isinstance(item, Mapping) else {}


def ages(report: Report, now: int) -> Iterator[Measurement]:
    for collector, threshold, what in (("reviewer", "reviewer_stale_ms", "the latest reviewer run"),
                                       ("retrieval", "retrieval_stale_ms", "the latest retrieval row")):
        latest = _evidence(report, collector).get("latest")
        at_ms = latest.get("at_ms") if isinstance(latest, Mapping) else None
        if _number(at_ms):
            yield Measurement(f"{collector}_age_seconds", f"Age of {what} at the time of the run, in seconds.",
                              seconds(now - at_ms), "seconds", warn=_threshold(report, threshold, 1000))
    obs = _evidence(report, "observability")
    if obs.get("status") == "ok" and _number(obs.get("oldest_mtime_ms")):
        yield Measurement("observability_oldest_age_seconds",
                          "Age of the oldest observability log (by mtime, future mtimes count as 0), in seconds.",
                          seconds(max(0, now - obs["oldest_mtime_ms"])), "seconds",
                          warn=_threshold(report, "observability_max_age_ms", 1000))


def volumes(report: Report) -> Iterator[Measurement]:
    obs = _evidence(report, "observability")
    if obs.get("status") == "ok" and _number(obs.get("bytes")):
        yield Measurement("observability_bytes", "Total size of the *.jsonl and *.log files under OBSERVABILITY.",
                          obs["bytes"], "bytes", warn=_threshold(report, "observability_max_bytes"))
        yield Measurement("observability_files", "Number of *.jsonl and *.log files under OBSERVABILITY.",
                          obs.get("files", 0), "count")
    proposals = _evidence(report, "proposals")
    if proposals.get("status") in ("ok", "malformed") and _number(proposals.get("pending")):
        yield Measurement("pending_proposals", "Proposals whose status is exactly \"pending\".",
                          proposals["pending"], "count", warn=_threshold(report, "proposal_backlog"))
    for hot in _evidence(report, "hot_memory").get("files") or ():
        if isinstance(hot, Mapping) and _number(hot.get("valid_entries")):
            cap = hot.get("cap_entries")
            yield Measurement("hot_memory_entries", "Valid entries in a hot-memory file (the cap is 48).",
                              hot["valid_entries"], "count", (("file", str(hot.get("label"))),),
                              warn=_threshold(report, "cap_pressure"), maximum=cap if _number(cap) else None)


def measurements(report: Report) -> list[Measurement]:
    """Every measurable value of a report, in a stable order."""
    found: list[Measurement] = []
    if report.now_ms is not None:
        found.extend(ages(report, report.now_ms))
    found.extend(volumes(report))
    if _number(report.duration_ms):
        found.append(Measurement("run_duration_seconds", "Time the run took to collect and evaluate, in seconds.",
                                 seconds(report.duration_ms), "seconds"))
    return found
