"""Collect stage: THE table of the evidence that has metrics, in output order. Used by reports.measurements.

One row per collector whose evidence gives a monitoring system numbers: (its evidence key,
its `metrics` function, declared beside its `collect`; collectors.metric says what one
receives and yields). The Prometheus textfile, the OTLP metrics, the Nagios perfdata and the
dashboard are every metric of every row, in this order, after the run's own series (overall,
counts, severities) and before its duration; metrics of one name form one family. Giving a
collector's evidence metrics is its `metrics` function and one row here; nothing in reports/
changes. Imported only where metrics are made from a report with evidence (the formats after
an audit, which has already loaded these collectors, and the dashboard).
"""
from __future__ import annotations

from collectors.lifeos import health_history, hook_latency, hot_memory, observability, proposals, retrieval, reviewer

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collectors.metric import Metrics

EVIDENCE_METRICS: tuple[tuple[str, Metrics], ...] = (
    ("health_history", health_history.metrics),
    ("hook_latency", hook_latency.metrics),
    ("reviewer", reviewer.metrics),
    ("retrieval", retrieval.metrics),
    ("observability", observability.metrics),
    ("proposals", proposals.metrics),
    ("hot_memory", hot_memory.metrics),
)
