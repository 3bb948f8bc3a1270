"""Collect stage: how long the memory hooks take in real use, against the timeout the agent gives them. Called through health.judge.checks.

Each hook records its own duration in its log: recall in memory-retrievals.jsonl
(`duration_ms`, the reference's row), fire in reviewer-fires.jsonl (`duration_ms`, written
since cortex-health 0.1: older rows have none and are not counted) and the gate's audit in
each memory-health.jsonl report (`duration_ms`: collect and evaluate, as every published
audit). Durations are measured inside the command, so the interpreter's start-up (about
30-60 ms) is not in them; `cortex-health probe` times whole hooks. Render leaves one
heartbeat instant, not a log, so its latency comes from the probe alone.

Per hook: the durations of the rows from the last 24 h before the audit's clock (read from the
log's end: at most MAX_LINES lines, the gate's newest GATE_LINES reports, and 1 MiB), their
count, p50, p95, max and sum (a Prometheus summary), and the timeout the effective
settings.json registers for it (its `timeout`, else Claude Code's 60 s; None when the hook is
not registered).
"""
from __future__ import annotations

from collectors.evidence import EvidenceStatus, FileState
from collectors.lifeos.heartbeats import TAIL_ROWS
from collectors.lifeos.hook_registry import read_registry
from collectors.readers.jsonl import tail_of
from collectors.lifeos.latency_rows import quick_row
from collectors.lifeos.layout import HEALTH_LOG_NAME, Layout
from cortex import layout as contract
from cortex.core.strictjson import parse_object
from cortex.core.timestamps import parse_timestamp_ms
from cortex.core.numbers import finite_number
from cortex.evidencerows import is_duration

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from typing import Any

    from collectors.metric import Limit, Metric, Summary

WINDOW_MS = 24 * 3_600_000
FIRST_LINES = 200
MAX_LINES = 2000
MAX_STRICT = 50  # lines decoded in full when a writer's exact form is not recognised (older or foreign writers)
# (hook, log under O, lines read first, at most): the hooks whose rows carry their duration. The gate's p95 comes
# from the newest GATE_LINES reports of the window: the tail the gate's heartbeat reads (collectors.readers.jsonl.tail_of
# hands the same read on), so the latency costs no second read of that log.
GATE_LINES = TAIL_ROWS
LOGS = (("recall", contract.RETRIEVALS_LOG, FIRST_LINES, MAX_LINES),
        ("fire", contract.REVIEWER_FIRES_LOG, FIRST_LINES, MAX_LINES),
        ("gate", HEALTH_LOG_NAME, GATE_LINES, GATE_LINES))


class HookLatency:
    """hook: str; log: FileState; timeout_ms: int | None, the registered timeout (None: not registered);
    timeout_declared: bool, False when Claude Code's default applies; samples: int, rows of the window with a
    duration; p50_ms, p95_ms, max_ms: float | None (nearest rank); sum_ms: float (with samples, what a Prometheus
    summary's _sum and _count need).
    """

    __slots__ = ("hook", "log", "timeout_ms", "timeout_declared", "samples", "p50_ms", "p95_ms", "max_ms", "sum_ms")

    def __init__(self, hook, log, timeout_ms=None, timeout_declared=False, samples=0, p50_ms=None, p95_ms=None,
                 max_ms=None, sum_ms=0.0) -> None:
        self.hook, self.log, self.timeout_ms, self.timeout_declared = hook, log, timeout_ms, timeout_declared
        self.samples, self.p50_ms, self.p95_ms, self.max_ms, self.sum_ms = samples, p50_ms, p95_ms, max_ms, sum_ms


class HookLatencyEvidence:
    """status: EvidenceStatus; window_ms: int; settings_problem: str | None, why settings.json gave no timeouts;
    hooks: tuple[HookLatency, ...]."""

    __slots__ = ("status", "window_ms", "settings_problem", "hooks")

    def __init__(self, status, window_ms, settings_problem, hooks) -> None:
        self.status, self.window_ms, self.settings_problem, self.hooks = status, window_ms, settings_problem, hooks


def percentile(ordered: list[float], share: float) -> float:
    """Nearest-rank percentile of an ascending, non-empty list."""
    rank = share * len(ordered)
    return ordered[max(0, int(rank) + (rank > int(rank)) - 1)]  # the rank rounded up (math.ceil, without math)


def _duration(value: object) -> float | None:
    return float(value) if is_duration(value) else None  # the rows' own duration rule (cortex.evidencerows)


def row_sample(hook: str, line: bytes, strict_left: list[int]) -> tuple[int, float] | None:
    """(ts in ms, duration in ms) of one log line, or None."""
    quick = quick_row(hook, line)  # the writer's exact form (collectors.lifeos.latency_rows), not decoded
    if quick:
        at_ms = parse_timestamp_ms(quick[0].decode("ascii", "replace"))
        return None if at_ms is None else (at_ms, float(quick[1]))
    if strict_left[0] <= 0:
        return None
    strict_left[0] -= 1
    row = parse_object(line)
    if not isinstance(row, dict):
        return None
    at_ms, duration = parse_timestamp_ms(row.get("ts")), _duration(row.get("duration_ms"))
    return None if at_ms is None or duration is None else (at_ms, duration)


def window_samples(hook: str, path: str, anchor: str, now_ms: int, count: int = FIRST_LINES,
                   most: int = MAX_LINES) -> tuple[FileState, list[float]]:
    """The durations of the rows from the last WINDOW_MS up to now_ms, read from the end of the log (`count` lines,
    then `most` when all of those are in the window)."""
    while True:
        state, lines = tail_of(path, count, anchor)
        if not state.readable:
            return state, []
        strict_left = [MAX_STRICT]
        found = [row_sample(hook, line, strict_left) for line in lines]
        inside = [duration for item in found if item and now_ms - WINDOW_MS <= item[0] <= now_ms
                  for duration in (item[1],)]
        oldest = next((item[0] for item in found if item), None)
        if len(lines) < count or count >= most or oldest is None or oldest < now_ms - WINDOW_MS:
            return state, inside
        count = most


def summarise(hook: str, state: FileState, durations: list[float], timeout_ms: int | None,
              declared: bool) -> HookLatency:
    if not durations:
        return HookLatency(hook, state, timeout_ms, declared)
    ordered = sorted(durations)
    return HookLatency(hook, state, timeout_ms, declared, len(ordered), percentile(ordered, 0.5),
                       percentile(ordered, 0.95), ordered[-1], round(sum(ordered), 3))


def collect(layout: Layout) -> HookLatencyEvidence:
    import time

    now_ms = layout.now_ms if layout.now_ms is not None else int(time.time() * 1000)  # the audit's clock, if given
    registry = read_registry(layout.root, layout.environ)
    hooks = []
    for hook, log, first, most in LOGS:
        state, durations = window_samples(hook, layout.evidence(log), layout.memory, now_ms, first, most)
        timeout = registry.timeout_ms(hook)
        declared = any(item.timeout_declared for item in registry.hooks if item.hook == hook)
        hooks.append(summarise(hook, state, durations, timeout, declared))
    return HookLatencyEvidence(EvidenceStatus.OK, WINDOW_MS, registry.problem, tuple(hooks))


# What this evidence gives a monitoring system (collectors.metric_table lists this function).
def metrics(evidence: Mapping[str, Any], now_ms: int | None, limit: Limit) -> Iterator[Metric | Summary]:
    """Per hook with rows in the window: its latency summary (p50, p95, sum, count) and its registered timeout.

    Prometheus and OTLP only: a summary is not a perfdata value, and the timeout is a setting."""
    from collectors.metric import Metric, Summary, json_object  # only a monitoring format asks (not JSON, not text)

    hooks = evidence.get("hooks")
    for item in map(json_object, hooks if isinstance(hooks, (list, tuple)) else ()):
        if not isinstance(item.get("hook"), str):
            continue
        count, p50, p95, total = item.get("samples"), item.get("p50_ms"), item.get("p95_ms"), item.get("sum_ms")
        if not (type(count) is int and count > 0 and all(map(_seconds_worth, (p50, p95, total)))):
            continue
        labels = (("hook", item["hook"]),)
        yield Summary("hook_duration_seconds", "Duration of each memory hook over the last 24 h of its own rows "
                      "(recall, fire, gate), in seconds; _sum and _count cover the same window.", "seconds", labels,
                      (("0.5", p50 / 1000), ("0.95", p95 / 1000)), total / 1000, count)
        timeout = item.get("timeout_ms")
        if _seconds_worth(timeout) and timeout:
            yield Metric("hook_timeout_seconds", "Timeout settings.json registers for each memory hook (Claude "
                         "Code's 60 s when none), in seconds.", timeout / 1000, "seconds", labels, perfdata=False)


def _seconds_worth(value: Any) -> bool:
    """A stored duration a metric can carry: a finite number of ms, not negative."""
    return finite_number(value) and value >= 0
