"""Collect stage: what a collector's evidence gives a monitoring system. Used by the collectors' `metrics` functions.

A collector that has numbers worth graphing declares them beside its `collect`, as
`metrics(evidence, now_ms, limit)` yielding Metric (one gauge sample: nagiosplugin's Metric)
and Summary (one summary sample: client_python's SummaryMetricFamily) values; the one table
collectors.metric_table lists those functions in output order and reports.measurements walks
it. `evidence` is the collector's evidence as stored JSON (read-only mappings and tuples: a
run's evidence and a line read back from memory-health.jsonl are the same data), so a stored
report graphs as the run did; `now_ms` is the report's clock (None for a hand-made line without
a valid ts); `limit(name, scale)` is the report's threshold `name` divided by `scale` (the
metric's unit), None when the report holds no finite one. Values are in base units (seconds,
bytes, counts); a value the evidence does not hold is left out, never invented. Stdlib only.
"""
from __future__ import annotations

from _collections_abc import Mapping  # collections.abc.Mapping itself, without importing collections (~7M instructions)

from collectors.evidence import same_record

TYPE_CHECKING = False  # typing costs every audit ~2 ms; these names are only annotations
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from typing import Any, Union

    Limit = Callable[..., "float | None"]  # limit(name, scale=1.0)
    Metrics = Callable[[Mapping[str, Any], "int | None", Limit], Iterator[Union["Metric", "Summary"]]]


class Metric:
    """One gauge sample. name: str, with its unit (reviewer_age_seconds); help: str; value: float; unit: seconds |
    bytes | count | sequence; labels: tuple[tuple[str, str], ...]; warn: float | None, its threshold in the same
    unit; maximum: float | None; perfdata: False keeps it to Prometheus and OTLP (a sequence number, a setting),
    out of the Nagios perfdata and the dashboard's series.
    """

    __slots__ = ("name", "help", "value", "unit", "labels", "warn", "maximum", "perfdata")

    def __init__(self, name, help, value, unit, labels=(), warn=None, maximum=None, perfdata=True) -> None:
        self.name, self.help, self.value, self.unit, self.labels, self.warn = name, help, value, unit, labels, warn
        self.maximum, self.perfdata = maximum, perfdata

    __eq__ = same_record  # compared field by field (resumed evidence against a full read)


class Summary:
    """One summary sample (Prometheus and OTLP only). name, help, unit as a Metric's; labels: tuple[tuple[str, str],
    ...]; quantiles: tuple[tuple[str, float], ...], e.g. ("0.5", s); total: float, the sum; count: int.
    """

    __slots__ = ("name", "help", "unit", "labels", "quantiles", "total", "count")

    def __init__(self, name, help, unit, labels, quantiles, total, count) -> None:
        self.name, self.help, self.unit, self.labels, self.quantiles = name, help, unit, labels, quantiles
        self.total, self.count = total, count

    __eq__ = same_record  # compared field by field (resumed evidence against a full read)


def json_object(value: Any) -> Mapping[str, Any]:
    """`value` when it is a JSON object (a stored line may hold anything where an object was written), else {}."""
    return value if isinstance(value, Mapping) else {}


def seconds(ms: float) -> float:
    """Milliseconds as seconds, shortest-exact: 14.283 ms is 0.014283 s, never 0.014282999999999999."""
    from math import isfinite  # here: an audit's JSON report loads no math (a shared library)

    if isinstance(ms, int) or not isfinite(ms):
        return ms / 1000  # a correctly rounded quotient of exact integers
    mantissa, _, exponent = repr(ms).partition("e")  # shift the shortest spelling's point instead of dividing
    return float(f"{mantissa}e{int(exponent or 0) - 3}")
