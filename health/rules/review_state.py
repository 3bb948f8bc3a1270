"""Evaluate stage rule: review-state.json. Used by health.evaluate through the check list (health.checks).

Beyond the reference: a state without last_review_at, or with one that cannot be parsed or
lies in the future, never reads as a fresh review.
"""
from __future__ import annotations

from collections.abc import Iterator

from collectors.review_state import ReviewStateEvidence
from health.findings import critical, human_ms, ok, warn
from health.model import EvidenceStatus, Finding
from health.rules import Context


def judge(ev: ReviewStateEvidence, ctx: Context) -> Iterator[Finding]:
    path = ev.file.path
    if ev.status is EvidenceStatus.MISSING:
        yield warn("state-missing", "review-state.json does not exist: the reviewer never fired.", path=path)
        return
    if ev.status is not EvidenceStatus.OK:
        reason = ev.problem or ev.file.reason
        yield critical("state-corrupt", f"review-state.json is corrupt: {reason}.", path=path, reason=reason,
                       last_review_at=ev.last_review_at)
        return
    yield ok("state-readable", "review-state.json readable.", path=path,
             turn_count=ev.turn_count_since_last_review, pending_review=ev.pending_review)
    stale = ctx.thresholds["reviewer_stale_ms"]
    if ev.last_review_ms is None:
        yield warn("review-stale", "review-state.json records no last_review_at: no review can be shown.",
                   path=path, threshold=stale, unit="ms")
        return
    age = ctx.now_ms - ev.last_review_ms
    where = dict(last_review_at=ev.last_review_at, measured=age, threshold=stale, unit="ms")
    if age < 0:
        yield warn("review-future", "last_review_at is in the future and cannot prove a recent review.", **where)
    elif age > stale:
        yield warn("review-stale", f"Last reviewer fire was {human_ms(age)} ago: the autonomic loop may be stuck.",
                   **where)
    else:
        yield ok("review-fresh", f"Last reviewer fire was {human_ms(age)} ago.", **where)

