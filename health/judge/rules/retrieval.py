"""Evaluate stage rule: retrieval evidence. Used by the evaluator through the check list (health.judge.checks).

Only a well-formed, valid, past latest row within the window proves retrieval works.
"""
from __future__ import annotations

from collectors.lifeos.retrieval import RetrievalEvidence
from health.judge.catalogue.retrieval import (RETRIEVAL_EVIDENCE_MALFORMED, RETRIEVAL_FRESH, RETRIEVAL_FUTURE,
                                        RETRIEVAL_MISSING, RETRIEVAL_STALE)
from health.judge.findings import human_ms, line_list, malformed_detail
from health.judge.model import EvidenceStatus, Finding
from health.judge.rules import Context

TYPE_CHECKING = False  # annotations only: collections.abc imports collections (~7M instructions)
if TYPE_CHECKING:
    from collections.abc import Iterator


def judge(ev: RetrievalEvidence, ctx: Context) -> Iterator[Finding]:
    log = ev.log
    stale = ctx.thresholds["retrieval_stale_ms"]
    if log.status is EvidenceStatus.MISSING:
        yield RETRIEVAL_MISSING.at(
            message="No retrieval evidence: memory-retrievals.jsonl does not exist.",
            path=log.path, threshold=stale, unit="ms")
    elif log.status is EvidenceStatus.UNREADABLE:
        yield RETRIEVAL_EVIDENCE_MALFORMED.at(
            message=f"Retrieval log is unreadable: {log.reason}.",
            path=log.path, reason=log.reason)
    elif ev.malformed_total:
        yield RETRIEVAL_EVIDENCE_MALFORMED.at(
            message=f"memory-retrievals.jsonl has {line_list(ev.malformed, ev.malformed_total)}.",
            path=log.path, **malformed_detail(ev.malformed, ev.malformed_total))
    elif ev.latest is None:
        yield RETRIEVAL_MISSING.at(
            message="No retrieval evidence: memory-retrievals.jsonl has no rows.",
            path=log.path, threshold=stale, unit="ms")
    elif ev.latest.problem:
        yield RETRIEVAL_EVIDENCE_MALFORMED.at(
            message=f"Latest retrieval row is invalid: {ev.latest.problem}.",
            path=log.path, line=ev.latest.line, reason=ev.latest.problem)
    else:
        yield freshness(ev, ctx.now_ms - ev.latest.at_ms, stale)


def freshness(ev: RetrievalEvidence, age: int, stale: float) -> Finding:
    where = dict(path=ev.log.path, line=ev.latest.line, ts=ev.latest.ts, measured=age, unit="ms")
    if age < 0:
        return RETRIEVAL_FUTURE.at(
            message="Latest retrieval timestamp is in the future and cannot prove freshness.",
            **where)
    if age > stale:
        return RETRIEVAL_STALE.at(
            message=f"Latest retrieval is {human_ms(age)} old (threshold {human_ms(stale)}).",
            threshold=stale, **where)
    return RETRIEVAL_FRESH.at(message=f"Latest retrieval is {human_ms(age)} old.", threshold=stale, **where)

