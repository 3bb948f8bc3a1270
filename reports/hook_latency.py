"""Report stage: the hook latencies of a report's evidence, in base units, for monitoring. Read by the prometheus format.

From the hook_latency collector's evidence (the last 24 h of each hook's own rows): per
hook its p50 and p95, the sum and count of the window, and the registered timeout, all in
seconds. A hook without rows in the window, or a run without that evidence, gives nothing.
"""
from __future__ import annotations

import math
from collections import namedtuple
from collections.abc import Mapping

from reports.report import Report


class HookSummary(namedtuple("HookSummary", "hook quantiles sum_seconds count timeout_seconds")):
    """hook: str; quantiles: tuple[tuple[str, float], ...], ("0.5", s) and ("0.95", s); sum_seconds: float; count:
    int; timeout_seconds: float | None."""

    __slots__ = ()


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and value >= 0


def summaries(report: Report) -> list[HookSummary]:
    evidence = report.evidence.get("hook_latency")
    hooks = evidence.get("hooks") if isinstance(evidence, Mapping) else None
    found = []
    for item in hooks if isinstance(hooks, (list, tuple)) else ():
        if not isinstance(item, Mapping) or not isinstance(item.get("hook"), str):
            continue
        count, p50, p95, total = item.get("samples"), item.get("p50_ms"), item.get("p95_ms"), item.get("sum_ms")
        if not (type(count) is int and count > 0 and _number(p50) and _number(p95) and _number(total)):
            continue
        timeout = item.get("timeout_ms")
        found.append(HookSummary(item["hook"], (("0.5", p50 / 1000), ("0.95", p95 / 1000)), total / 1000, count,
                                 timeout / 1000 if _number(timeout) else None))
    return found
