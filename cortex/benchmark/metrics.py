"""Benchmark scoring: pure functions over returned IDs and latency samples; called by cortex.benchmark.assemble.

`returned` is always the top-K IDs of one ranking, best first.
"""
from __future__ import annotations

import math
from typing import Sequence


def recall_at_k(returned: Sequence[str], expected: Sequence[str]) -> float:
    """Share of the expected IDs that made it into the top K."""
    return sum(1 for record_id in expected if record_id in returned) / len(expected)


def reciprocal_rank(returned: Sequence[str], expected: Sequence[str]) -> float:
    """1/position of the first expected ID in the top K, 0 when none is there."""
    for position, record_id in enumerate(returned, start=1):
        if record_id in expected:
            return 1 / position
    return 0.0


def temporal_pair_accuracy(returned: Sequence[str], order: Sequence[str]) -> float:
    """Share of ordered pairs (earlier, later) that both came back, earlier first.

    A pair where either ID is missing counts as wrong: an order that was not returned was
    not honoured.
    """
    positions = {record_id: index for index, record_id in enumerate(returned)}
    pairs = correct = 0
    for left in range(len(order)):
        for right in range(left + 1, len(order)):
            pairs += 1
            a, b = positions.get(order[left]), positions.get(order[right])
            if a is not None and b is not None and a < b:
                correct += 1
    return correct / pairs


def false_recall(returned: Sequence[str], false_ids: Sequence[str]) -> float:
    """Share of the known-false IDs that were recalled into the top K."""
    return sum(1 for record_id in false_ids if record_id in returned) / len(false_ids)


def mean(values: Sequence[float]) -> float | None:
    """Arithmetic mean, None for no values (a metric no label asked for is absent, not 0)."""
    return sum(values) / len(values) if values else None


def median(values: Sequence[float]) -> float:
    ordered = sorted(values)
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def p95(values: Sequence[float]) -> float:
    """Nearest-rank 95th percentile: the smallest sample with at least 95% of samples at or below it."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(len(ordered) * 0.95) - 1)]


def estimated_tokens(payload: str) -> int:
    """Injected-token estimate of a serialised payload: ceil(UTF-8 bytes / 4)."""
    return math.ceil(len(payload.encode("utf-8")) / 4)
