"""Report stage: the numbers a monitoring system graphs, taken from a report's evidence.

Used by the prometheus and nagios formats so both expose the same values under the same
rules. Values are in base units (seconds, bytes, counts); a value the run could not
measure (missing evidence, a collector that failed or was skipped) is left out rather
than invented, and its absence is what alerts see.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from cortex.core.timestamps import parse_timestamp_ms


@dataclass(frozen=True)
class Measurement:
    name: str  # base name with its unit, e.g. reviewer_age_seconds
    help: str
    value: float
    unit: str  # seconds | bytes | count
    labels: tuple[tuple[str, str], ...] = ()
    warn: float | None = None  # the threshold in the same unit, when one applies
    maximum: float | None = None


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _threshold(document: Mapping[str, Any], name: str, scale: float = 1.0) -> float | None:
    entry = (document.get("thresholds") or {}).get(name) or {}
    value = entry.get("value")
    return value / scale if _number(value) else None


def _evidence(document: Mapping[str, Any], name: str) -> Mapping[str, Any]:
    item = (document.get("evidence") or {}).get(name)
    return item if isinstance(item, Mapping) else {}


def now_ms(document: Mapping[str, Any]) -> int | None:
    return parse_timestamp_ms(document.get("ts"))


def ages(document: Mapping[str, Any], now: int) -> Iterator[Measurement]:
    for collector, threshold, what in (("reviewer", "reviewer_stale_ms", "the latest reviewer run"),
                                       ("retrieval", "retrieval_stale_ms", "the latest retrieval row")):
        latest = _evidence(document, collector).get("latest")
        at_ms = latest.get("at_ms") if isinstance(latest, Mapping) else None
        if _number(at_ms):
            yield Measurement(f"{collector}_age_seconds", f"Age of {what} at the time of the run, in seconds.",
                              (now - at_ms) / 1000, "seconds", warn=_threshold(document, threshold, 1000))
    obs = _evidence(document, "observability")
    if obs.get("status") == "ok" and _number(obs.get("oldest_mtime_ms")):
        yield Measurement("observability_oldest_age_seconds",
                          "Age of the oldest observability log (by mtime, future mtimes count as 0), in seconds.",
                          max(0, now - obs["oldest_mtime_ms"]) / 1000, "seconds",
                          warn=_threshold(document, "observability_max_age_ms", 1000))


def volumes(document: Mapping[str, Any]) -> Iterator[Measurement]:
    obs = _evidence(document, "observability")
    if obs.get("status") == "ok" and _number(obs.get("bytes")):
        yield Measurement("observability_bytes", "Total size of the *.jsonl and *.log files under OBSERVABILITY.",
                          obs["bytes"], "bytes", warn=_threshold(document, "observability_max_bytes"))
        yield Measurement("observability_files", "Number of *.jsonl and *.log files under OBSERVABILITY.",
                          obs.get("files", 0), "count")
    proposals = _evidence(document, "proposals")
    if proposals.get("status") in ("ok", "malformed") and _number(proposals.get("pending")):
        yield Measurement("pending_proposals", "Proposals whose status is exactly \"pending\".",
                          proposals["pending"], "count", warn=_threshold(document, "proposal_backlog"))
    for hot in _evidence(document, "hot_memory").get("files") or ():
        if isinstance(hot, Mapping) and _number(hot.get("valid_entries")):
            cap = hot.get("cap_entries")
            yield Measurement("hot_memory_entries", "Valid entries in a hot-memory file (the cap is 48).",
                              hot["valid_entries"], "count", (("file", str(hot.get("label"))),),
                              warn=_threshold(document, "cap_pressure"), maximum=cap if _number(cap) else None)


def measurements(document: Mapping[str, Any]) -> list[Measurement]:
    """Every measurable value of a report, in a stable order."""
    found: list[Measurement] = []
    now = now_ms(document)
    if now is not None:
        found.extend(ages(document, now))
    found.extend(volumes(document))
    if _number(document.get("duration_ms")):
        found.append(Measurement("run_duration_seconds", "Time the run took to collect and evaluate, in seconds.",
                                 document["duration_ms"] / 1000, "seconds"))
    return found
