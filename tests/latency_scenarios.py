"""Mutations of the demo tree for the hook-latency check (health.judge.rules.hook_latency): hook rows with durations."""
from __future__ import annotations

import json
from pathlib import Path

from cortex.core.timestamps import iso_from_ms
from tests.health_support import HOUR_MS, NOW_MS, obs

MINUTE_MS = 60_000


def recall_rows(root: Path, durations: list[float], *, hours_ago: float = 1.0) -> None:
    """memory-retrievals.jsonl rows in the writer's exact form, one a minute, the newest `hours_ago` hours old."""
    start = NOW_MS - int(hours_ago * HOUR_MS) - len(durations) * MINUTE_MS
    rows = [{"ts": iso_from_ms(start + i * MINUTE_MS), "query_hash": f"{i:016x}", "returned_count": 1,
             "duration_ms": duration, "top_score": 1.5} for i, duration in enumerate(durations, 1)]
    (obs(root) / "memory-retrievals.jsonl").write_text("".join(json.dumps(row, separators=(",", ":")) + "\n"
                                                              for row in rows))


def recall_slow(root):
    recall_rows(root, [40.0] * 18 + [6500.0, 7200.0])  # p95 above half the demo's 10 s timeout
