"""Evaluate stage rule: proposal evidence. Used by the evaluator through the check list (health.judge.checks)."""
from __future__ import annotations

from collectors.lifeos.proposals import ProposalEvidence
from health.judge.catalogue.proposals import (PROPOSAL_BACKLOG_HIGH, PROPOSAL_BACKLOG_OK, PROPOSAL_EVIDENCE_MALFORMED,
                                        PROPOSAL_EVIDENCE_MISSING, PROPOSAL_EVIDENCE_OK)
from health.judge.findings import line_list, malformed_detail
from health.judge.model import EvidenceStatus, Finding
from health.judge.rules import Context

TYPE_CHECKING = False  # annotations only: collections.abc imports collections (~7M instructions)
if TYPE_CHECKING:
    from collections.abc import Iterator


def judge(ev: ProposalEvidence, ctx: Context) -> Iterator[Finding]:
    log = ev.log
    if log.status is EvidenceStatus.MISSING:
        yield PROPOSAL_EVIDENCE_MISSING.at(
            message="Proposal evidence is absent: pending-proposals.jsonl does not exist.",
            path=log.path)
        return
    if log.status is EvidenceStatus.UNREADABLE:
        yield PROPOSAL_EVIDENCE_MALFORMED.at(
            message=f"Proposal log is unreadable: {log.reason}.",
            path=log.path, reason=log.reason)
        return
    if ev.malformed_total:
        yield PROPOSAL_EVIDENCE_MALFORMED.at(
            message=f"pending-proposals.jsonl has {line_list(ev.malformed, ev.malformed_total)}.",
            path=log.path, **malformed_detail(ev.malformed, ev.malformed_total))
    else:
        yield PROPOSAL_EVIDENCE_OK.at(message=f"{ev.rows} proposal rows read.", path=log.path)
    backlog = ctx.thresholds["proposal_backlog"]
    where = dict(path=log.path, measured=ev.pending, threshold=backlog, unit="count")
    if ev.pending > backlog:
        yield PROPOSAL_BACKLOG_HIGH.at(
            message=f"Pending proposal backlog {ev.pending} exceeds threshold {backlog}.",
            **where)
    else:
        yield PROPOSAL_BACKLOG_OK.at(message=f"{ev.pending} pending proposals (threshold {backlog}).", **where)

