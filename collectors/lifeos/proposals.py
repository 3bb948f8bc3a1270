"""Collect stage: proposal evidence, the pending rows of O/pending-proposals.jsonl.

Called through the check list (health.judge.checks). Pending means `status` is exactly the string "pending".
"""
from __future__ import annotations

from collectors.readers.cursors import scan_log
from collectors.lifeos.layout import Layout
from cortex.evidencerows import is_pending_proposal
from cortex.layout import PENDING_PROPOSALS_LOG as LOG_NAME
from cortex.core.numbers import finite_number
from collectors.evidence import same_record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from typing import Any

    from collectors.metric import Limit, Metric


class ProposalEvidence:
    """status: EvidenceStatus; log: FileState; rows: int; pending: int; malformed: tuple[MalformedLine, ...];
    malformed_total: int.
    """

    __slots__ = ("status", "log", "rows", "pending", "malformed", "malformed_total")

    def __init__(self, status, log, rows, pending, malformed, malformed_total) -> None:
        self.status, self.log, self.rows, self.pending, self.malformed = status, log, rows, pending, malformed
        self.malformed_total = malformed_total

    __eq__ = same_record  # compared field by field (resumed evidence against a full read)


class PendingCount:
    """The aggregate (collectors.readers.cursors.Aggregate): how many rows are pending."""

    key = "proposals.pending/1"

    def __init__(self) -> None:
        self.pending = 0

    def rows(self, first_line: int, rows: list[dict]) -> None:
        self.pending += sum(map(is_pending_proposal, rows))  # the writer's own status names

    def state(self) -> dict:
        return {"pending": self.pending}

    def restore(self, state: dict) -> None:
        if type(state["pending"]) is not int:
            raise TypeError("pending")
        self.pending = state["pending"]


def collect(layout: Layout) -> ProposalEvidence:
    scan, found = scan_log(layout.evidence(LOG_NAME), PendingCount, anchor=layout.memory, cursors=layout.cursors)
    return ProposalEvidence(scan.status, scan.file, scan.rows, found.pending, scan.malformed, scan.malformed_total)


# What this evidence gives a monitoring system (collectors.metric_table lists this function).
def metrics(evidence: Mapping[str, Any], now_ms: int | None, limit: Limit) -> Iterator[Metric]:
    """The pending proposals of a log that could be read, against proposal_backlog."""
    from collectors.metric import Metric  # only a monitoring format asks (not JSON, not text)

    if evidence.get("status") in ("ok", "malformed") and finite_number(evidence.get("pending")):
        yield Metric("pending_proposals", "Proposals whose status is exactly \"pending\".", evidence["pending"],
                     "count", warn=limit("proposal_backlog"))
