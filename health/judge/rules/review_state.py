"""Evaluate stage rule: review-state.json. Used by the evaluator through the check list (health.judge.checks).

Beyond the reference: a state without last_review_at, or with one that cannot be parsed or
lies in the future, never reads as a fresh review.
"""
from __future__ import annotations

from collectors.lifeos.review_state import ReviewStateEvidence
from health.judge.catalogue.review_state import (REVIEW_FRESH, REVIEW_FUTURE, REVIEW_STALE, STATE_CORRUPT, STATE_MISSING,
                                           STATE_READABLE)
from health.judge.findings import human_ms
from health.judge.model import EvidenceStatus, Finding
from health.judge.rules import Context

TYPE_CHECKING = False  # annotations only: collections.abc imports collections (~7M instructions)
if TYPE_CHECKING:
    from collections.abc import Iterator


def judge(ev: ReviewStateEvidence, ctx: Context) -> Iterator[Finding]:
    path = ev.file.path
    if ev.status is EvidenceStatus.MISSING:
        yield STATE_MISSING.at(message="review-state.json does not exist: the reviewer never fired.", path=path)
        return
    if ev.status is not EvidenceStatus.OK:
        reason = ev.problem or ev.file.reason
        yield STATE_CORRUPT.at(
            message=f"review-state.json is corrupt: {reason}.", path=path, reason=reason,
            last_review_at=ev.last_review_at)
        return
    yield STATE_READABLE.at(
        message="review-state.json readable.", path=path,
        turn_count=ev.turn_count_since_last_review, pending_review=ev.pending_review)
    stale = ctx.thresholds["reviewer_stale_ms"]
    if ev.last_review_ms is None:
        yield REVIEW_STALE.at(
            message="review-state.json records no last_review_at: no review can be shown.",
            path=path, threshold=stale, unit="ms")
        return
    age = ctx.now_ms - ev.last_review_ms
    where = dict(last_review_at=ev.last_review_at, measured=age, threshold=stale, unit="ms")
    if age < 0:
        yield REVIEW_FUTURE.at(message="last_review_at is in the future and cannot prove a recent review.", **where)
    elif age > stale:
        yield REVIEW_STALE.at(
            message=f"Last reviewer fire was {human_ms(age)} ago: the autonomic loop may be stuck.",
            **where)
    else:
        yield REVIEW_FRESH.at(message=f"Last reviewer fire was {human_ms(age)} ago.", **where)

