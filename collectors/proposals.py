"""Collect stage: proposal evidence, the pending rows of O/pending-proposals.jsonl.

Called through the check list (health.checks). Pending means `status` is exactly the string "pending".
"""
from __future__ import annotations

from dataclasses import dataclass

from collectors.jsonl import scan_jsonl
from collectors.layout import Layout
from collectors.evidence import EvidenceStatus, FileState, MalformedLine
from cortex.evidencerows import is_pending_proposal
from cortex.layout import PENDING_PROPOSALS_LOG as LOG_NAME


@dataclass(frozen=True)
class ProposalEvidence:
    status: EvidenceStatus
    log: FileState
    rows: int
    pending: int
    malformed: tuple[MalformedLine, ...]
    malformed_total: int


def collect(layout: Layout) -> ProposalEvidence:
    pending = [0]

    def visit(_line: int, row: dict) -> None:
        if is_pending_proposal(row):  # the writer's own status names
            pending[0] += 1

    scan = scan_jsonl(layout.evidence(LOG_NAME), visit, anchor=layout.memory)
    return ProposalEvidence(scan.status, scan.file, scan.rows, pending[0], scan.malformed, scan.malformed_total)

