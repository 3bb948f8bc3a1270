"""Report stage: the numbers a monitoring system graphs: every metric of every evidence, and the run's own.

Used by the prometheus, nagios and otlp-json formats, the OTLP exporter and the dashboard so
all expose the same values under the same rules, from the typed report. What a collector's
evidence gives is declared beside that collector (its `metrics` function, collectors.metric)
and listed once, in output order, in collectors.metric_table; this module walks that table
over the report's evidence (stored JSON: a report read back from memory-health.jsonl graphs as
the run did) with the report's clock (`now_ms`) and thresholds (each metric's `warn`), and
adds what is about the run itself: overall, the counts, the severity of each check and
collector, its clock and its duration. Values are in base units (seconds, bytes, counts); a
value the run could not measure (missing evidence, a collector that failed or was skipped) is
left out rather than invented, and its absence is what alerts see. `series` is every family a
monitoring system receives (the Prometheus textfile and the OTLP metrics are both written
from it, so they cannot carry different series); `measurements` the gauges of the Nagios
perfdata and the dashboard.
"""
from __future__ import annotations

from collections import namedtuple
from collections.abc import Mapping

from collectors.metric import Metric, Summary, seconds
from cortex.core.numbers import finite_number
from reports.report import Report
from reports.severity import rank

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    from collectors.metric import Limit, Metrics

    Labels = tuple[tuple[str, str], ...]
    Table = tuple[tuple[str, Metrics], ...] | None  # (evidence key, its metrics); None: collectors.metric_table's

PREFIX = "cortex_health_"  # every series' name starts with it, in the textfile and in OTLP


def _limit(report: Report) -> Limit:
    def limit(name: str, scale: float = 1.0) -> float | None:
        """The report's threshold `name` in the metric's unit (divided by `scale`), None without a finite one."""
        entry = report.threshold(name)
        value = entry.value if entry is not None else None
        return value / scale if finite_number(value) else None  # a hand-edited line may hold any JSON number
    return limit


def evidence_metrics(report: Report, table: Table = None) -> list[Metric | Summary]:
    """Every metric of every evidence of the report, in the table's order (collectors.metric_table unless given)."""
    if not report.evidence:
        return []  # the exit-3 report collected nothing: no collector module is loaded for it
    if table is None:
        from collectors.metric_table import EVIDENCE_METRICS as table
    limit = _limit(report)
    found: list[Metric | Summary] = []
    for name, metrics in table:
        evidence = report.evidence.get(name)
        if isinstance(evidence, Mapping):
            found.extend(metrics(evidence, report.now_ms, limit))
    return found


def run_metrics(report: Report) -> list[Metric]:
    """What is measured of the run itself, after every evidence's metrics: its duration."""
    if not finite_number(report.duration_ms):
        return []
    return [Metric("run_duration_seconds", "Time the run took to collect and evaluate, in seconds.",
                   seconds(report.duration_ms), "seconds")]


def measurements(report: Report, table: Table = None) -> list[Metric]:
    """The gauges of the Nagios perfdata and the dashboard, in a stable order (a metric with perfdata=False is not)."""
    gauges = [item for item in evidence_metrics(report, table) if isinstance(item, Metric) and item.perfdata]
    return gauges + run_metrics(report)


class Series(namedtuple("Series", "name help unit samples kind totals", defaults=("gauge", ()))):
    """One family: a name (with its unit, as in the textfile), its help, its unit and every sample.

    unit: seconds | bytes | count | severity | sequence; samples: tuple[tuple[Labels, float], ...]; kind: gauge |
    summary. A gauge by default; a summary's samples carry a `quantile` label, and `totals`
    (tuple[tuple[Labels, float, int], ...]) holds the sum and count of each of its label sets
    (the textfile's _sum and _count lines, OTLP's summary points). A named tuple: the formats
    that run after every audit do not pay for `dataclasses`.
    """

    __slots__ = ()


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


def series(report: Report, table: Table = None) -> list[Series]:
    """Every family of a report, in the textfile's order: the run's own, every evidence's, the run's duration.

    A family with no sample is left out."""
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
    found += families(evidence_metrics(report, table) + run_metrics(report))
    return [item for item in found if item.samples]


def families(metrics: Iterable[Metric | Summary]) -> list[Series]:
    """The metrics grouped by name into families, in the order each name first appears."""
    grouped: dict[str, list] = {}
    for item in metrics:
        grouped.setdefault(item.name, []).append(item)
    return [_family(items) for items in grouped.values()]


def _family(items: list) -> Series:
    first = items[0]
    if isinstance(first, Summary):  # each label set's quantile samples, and its sum and count
        return Series(first.name, first.help, first.unit,
                      tuple((item.labels + (("quantile", quantile),), value)
                            for item in items for quantile, value in item.quantiles),
                      kind="summary", totals=tuple((item.labels, item.total, item.count) for item in items))
    return Series(first.name, first.help, first.unit, tuple((item.labels, item.value) for item in items))
