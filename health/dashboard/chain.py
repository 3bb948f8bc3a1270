"""Dashboard stage: the history chain's state on the pages, judged by the audit's own check. Called by
health.dashboard.handler for each page.

The audit's collector (collectors.health_history: the checkpoint, verified against the line
it points at, then only the lines after it) and its rule (health.rules.health_history) run
for every page, so the page says what a fresh audit would say, and an edit of any kind (even
one that keeps the log's size and mtime) shows on the next page. Nothing is cached: while the
checkpoint matches its line the cost is the lines appended since it, whatever the size of the
log. When the audit has to read the whole log (no checkpoint, or one that does not match its
line) the page does too, one verification at a time.
"""
from __future__ import annotations

import threading
from typing import Any

from collectors import health_history
from collectors.evidence import EvidenceStatus
from collectors.layout import Layout
from health.rules import Context
from health.rules.health_history import judge

NO_CONTEXT = Context(None, None)  # the chain rule reads neither thresholds nor the clock


def chain_state(evidence: health_history.HealthHistoryEvidence, finding_id: str) -> str:
    """The word the pages show (and the data-state attribute): the rule's verdict, told apart for the reader."""
    if finding_id == "health-history-tampered":
        return "tampered"
    if finding_id == "health-history-unchained":
        return "unchained" if evidence.status is EvidenceStatus.OK else "unverified"
    if evidence.status is EvidenceStatus.MISSING:
        return "empty"
    return "not chained yet" if evidence.head_seq is None else "intact"


class ChainStatus:
    """{state, text} of the health log's chain, judged afresh on each call (one call at a time)."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self._lock = threading.Lock()

    def __call__(self) -> dict[str, Any]:
        with self._lock:  # concurrent pages never verify a long log side by side
            evidence = health_history.collect(self.layout)
        finding = next(iter(judge(evidence, NO_CONTEXT)))
        return {"state": chain_state(evidence, finding.id), "text": finding.message}
