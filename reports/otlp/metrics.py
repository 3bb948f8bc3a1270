"""Report stage: the OTLP ExportMetricsServiceRequest of a run. Used by reports.otlp.live and the otlp-json format.

Every series of the Prometheus textfile (reports.measurements.series, the one source of
both) becomes one OTLP gauge (the hook latencies: one summary) under the very same name, e.g. `cortex_health_overall`, so a
Collector's Prometheus exporter, which adds a unit suffix only where the name lacks one,
serves the names node_exporter's textfile collector serves. Units are UCUM: `s`, `By`, and
curly-brace annotations for counts, severities and sequence numbers (dropped by the
Prometheus translation, so no `_ratio` or other suffix is added). Labels become data point
attributes; every point is stamped with the run's clock (`now_ms`).

The memory operations' `gen_ai.client.operation.duration` histogram (GenAI semantic
conventions: unit `s`, its advisory buckets, `gen_ai.operation.name` and `error.type`) is
cumulative since the first row of its log, kept in the operations' cursor and recounted from
the log itself when that cursor is lost, so its value never depends on the cursor.
"""
from __future__ import annotations

from reports.measurements import PREFIX, series
from reports.otlp.encode import SCOPE, attributes, double, nanos, number_point
from reports.report import Report

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from collectors.lifeos.memory_operations import DurationPoint

UNITS = {"seconds": "s", "bytes": "By", "count": "{count}", "severity": "{severity}", "sequence": "{sequence}"}
CUMULATIVE = 2  # AggregationTemporality.AGGREGATION_TEMPORALITY_CUMULATIVE
DURATION_NAME = "gen_ai.client.operation.duration"


def gauges(report: Report) -> list[dict]:
    """One metric per series of the report, in the textfile's order: a gauge, or a summary (hook latencies)."""
    when = nanos(report.now_ms) if report.now_ms is not None else "0"
    return [{"name": PREFIX + item.name, "description": item.help, "unit": UNITS.get(item.unit, ""),
             **(_summary(item, when) if item.kind == "summary" else
                {"gauge": {"dataPoints": [{"attributes": attributes(labels), "timeUnixNano": when,
                                           **number_point(value)} for labels, value in item.samples]}})}
            for item in series(report)]


def _summary(item, when: str) -> dict:
    """A summary's points: per label set its sum, count and the quantile samples that carry those labels."""
    points = []
    for labels, total, count in item.totals:
        quantiles = [{"quantile": float(dict(sample)["quantile"]), "value": double(value)}
                     for sample, value in item.samples
                     if tuple(pair for pair in sample if pair[0] != "quantile") == labels]
        points.append({"attributes": attributes(labels), "timeUnixNano": when, "count": str(count),
                       "sum": double(total), "quantileValues": quantiles})
    return {"summary": {"dataPoints": points}}


def duration_histogram(points: Iterable[DurationPoint], now_ms: int) -> dict | None:
    """The cumulative `gen_ai.client.operation.duration` histogram, or None without a measured operation."""
    data = [{"attributes": attributes((("gen_ai.operation.name", point.operation), ("error.type", point.error))),
             "startTimeUnixNano": nanos(point.start_ms), "timeUnixNano": nanos(max(now_ms, point.start_ms)),
             "count": str(point.count), "sum": double(point.total_s), "bucketCounts": [str(n) for n in point.buckets],
             "explicitBounds": list(point.bounds), "min": double(point.minimum), "max": double(point.maximum)}
            for point in points if point.count]
    if not data:
        return None
    return {"name": DURATION_NAME, "description": "GenAI operation duration.", "unit": "s",
            "histogram": {"aggregationTemporality": CUMULATIVE, "dataPoints": data}}


def metrics_request(resource: dict[str, str], metrics: list[dict]) -> dict:
    return {"resourceMetrics": [{"resource": {"attributes": attributes(resource)},
                                 "scopeMetrics": [{"scope": SCOPE, "metrics": metrics}]}]}
