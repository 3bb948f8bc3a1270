"""Report stage: the numbers a monitoring system graphs, taken from a report's evidence.

Used by the prometheus, nagios and otlp-json formats, the OTLP exporter and the dashboard so
all expose the same values under the same rules, from the typed report (ages against its
integer `now_ms`). Values are in base units (seconds, bytes, counts); a value the run could
not measure (missing evidence, a collector that failed or was skipped) is left out rather
than invented, and its absence is what alerts see. `series` is every gauge family a
monitoring system receives (the Prometheus textfile and the OTLP metrics are both written
from it, so they cannot carry different series).
"""
from __future__ import annotations

import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from reports.report import Report, finite_number
from reports.severity import rank

PREFIX = "cortex_health_"  # every series' name starts with it, in the textfile and in OTLP


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
    return finite_number(value)  # a hand-edited line may hold any JSON number: only what a float holds is graphed


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


Labels = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Series:
    """One family: a name (with its unit, as in the textfile), its help, its unit and every sample.

    A gauge by default; a summary's samples carry a `quantile` label, and `totals` holds the sum and
    count of each of its label sets (the textfile's _sum and _count lines, OTLP's summary points).
    """

    name: str
    help: str
    unit: str  # seconds | bytes | count | severity | sequence
    samples: tuple[tuple[Labels, float], ...]
    kind: str = "gauge"  # gauge | summary
    totals: tuple[tuple[Labels, float, int], ...] = ()


def without_paths(finding_id: str) -> str:
    """The id with every `:`-separated part that is an absolute path reduced to its last name."""
    if "/" not in finding_id:
        return finding_id
    return ":".join(part.rstrip("/").rsplit("/", 1)[-1] or part if part.startswith(("/", "~/")) else part
                    for part in finding_id.split(":"))


def check_rows(report: Report) -> list[tuple[str, str, int]]:
    """(id, collector, severity number) for every id of the run, ok ones included; the collector is its catalogue's.

    A label never carries an install path (without_paths); ids that collapse into one keep the worst severity."""
    rows = [(item, rank(item.severity)) for item in report.findings] + [(item, 0) for item in report.passed]
    worst: dict[tuple[str, str], int] = {}
    for item, severity in rows:
        key = (without_paths(item.id), (item.entry.collector if item.entry else None) or "run")
        worst[key] = max(severity, worst.get(key, severity))
    return sorted((finding_id, collector, severity) for (finding_id, collector), severity in worst.items())


def collector_rows(report: Report, checks: list[tuple[str, str, int]]) -> list[tuple[str, int]]:
    """Worst severity per collector that ran (skipped collectors have no series)."""
    worst: dict[str, int] = {}
    for name, item in report.evidence.items():
        if isinstance(item, Mapping) and item.get("status") != "skipped":
            worst[name] = 0
    for _, collector, severity in checks:
        if collector in worst:
            worst[collector] = max(worst[collector], severity)
    return sorted(worst.items())


def series(report: Report) -> list[Series]:
    """Every gauge family of a report, in the textfile's order; a family with no sample is left out."""
    checks = check_rows(report)
    counts = report.counts._asdict()
    found = [Series("overall", "Overall result of the last cortex-health run: 0 ok, 1 warn, 2 critical, 3 unknown "
                    "(the auditor could not run).", "severity", (((), rank(report.overall)),))]
    if report.now_ms is not None:
        found.append(Series("last_run_timestamp_seconds", "When the last cortex-health run happened (its clock), in "
                            "seconds since the epoch.", "seconds", (((), report.now_ms / 1000),)))
    found.append(Series("checks", "Checks of the last run by severity.", "count",
                        tuple(((("severity", key),), counts.get(key, 0)) for key in ("critical", "warn", "ok"))))
    found.append(Series("check_severity", "Severity of each check id of the last run: 0 ok, 1 warn, 2 critical.",
                        "severity", tuple(((("check", finding_id), ("collector", collector)), severity)
                                          for finding_id, collector, severity in checks)))
    found.append(Series("collector_severity", "Worst severity among the checks of each collector that ran: "
                        "0 ok, 1 warn, 2 critical.", "severity",
                        tuple(((("collector", name),), severity) for name, severity in collector_rows(report, checks))))
    history = report.evidence.get("health_history") or {}
    if isinstance(history, Mapping) and type(history.get("head_seq")) is int:
        found.append(Series("history_head_seq", "Sequence number of the newest chained line of memory-health.jsonl "
                            "(before this run's own line); a drop means the history was cut or rolled back.",
                            "sequence", (((), history["head_seq"]),)))
    found += hook_latency_series(report)
    grouped: dict[str, list[Measurement]] = {}
    for item in measurements(report):
        grouped.setdefault(item.name, []).append(item)
    found += [Series(name, items[0].help, items[0].unit, tuple((item.labels, item.value) for item in items))
              for name, items in grouped.items()]
    return [item for item in found if item.samples]


def hook_latency_series(report: Report) -> list[Series]:
    """The hooks' latency summary over the last 24 h of their own rows, and their registered timeouts."""
    from reports.hook_latency import summaries

    hooks = summaries(report)
    if not hooks:
        return []
    found = [Series("hook_duration_seconds", "Duration of each memory hook over the last 24 h of its own rows "
                    "(recall, fire, gate), in seconds; _sum and _count cover the same window.", "seconds",
                    tuple(((("hook", item.hook), ("quantile", quantile)), value)
                          for item in hooks for quantile, value in item.quantiles),
                    kind="summary", totals=tuple(((("hook", item.hook),), item.sum_seconds, item.count)
                                                 for item in hooks))]
    timeouts = tuple(((("hook", item.hook),), item.timeout_seconds) for item in hooks if item.timeout_seconds)
    if timeouts:
        found.append(Series("hook_timeout_seconds", "Timeout settings.json registers for each memory hook (Claude "
                            "Code's 60 s when none), in seconds.", "seconds", timeouts))
    return found
