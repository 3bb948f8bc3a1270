"""Evaluate stage rule: does the reviewer keep up? Used by the evaluator through health.judge.checks.

A reviewer whose last N runs were all skips curates nothing while looking healthy; turns piling
up past review_backlog_factor × the turn threshold are exchanges that will never be curated
(LifeOS lost 239 that way). Unknown evidence is judged by the reviewer and review-state rules.
"""
from __future__ import annotations

from collectors.lifeos.review_cadence import ReviewCadenceEvidence
from collectors.readers.reviewer_rows import RowClass
from health.judge.catalogue.review_cadence import (REVIEWER_ALL_SKIPS, REVIEWER_NOT_ALL_SKIPS, REVIEW_BACKLOG,
                                             REVIEW_BACKLOG_OK)
from health.judge.model import Finding
from health.judge.rules import Context

TYPE_CHECKING = False  # annotations only: collections.abc imports collections (~7M instructions)
if TYPE_CHECKING:
    from collections.abc import Iterator


def judge(ev: ReviewCadenceEvidence, ctx: Context) -> Iterator[Finding]:
    runs = int(ctx.thresholds["reviewer_all_skips"])
    newest = ev.recent[:runs]
    if len(newest) >= runs and all(kind == RowClass.SKIPPED.value for kind in newest):
        yield REVIEWER_ALL_SKIPS.at(
            message=f"The last {runs} reviewer runs were all skips: nothing was curated.",
            runs=list(ev.recent_run_ids[:runs]), measured=runs, threshold=runs, unit="count", path=ev.log.path)
    else:
        skips = sum(kind == RowClass.SKIPPED.value for kind in newest)
        yield REVIEWER_NOT_ALL_SKIPS.at(
            message=f"{skips} of the last {len(newest)} reviewer runs were skips.",
            measured=skips, threshold=runs, unit="count")
    factor = ctx.thresholds["review_backlog_factor"]
    limit = factor * ev.turn_threshold
    where = dict(turn_threshold=ev.turn_threshold, turn_threshold_source=ev.turn_threshold_source, threshold=limit,
                 unit="count")
    if ev.turns_waiting is not None and ev.turns_waiting > limit:
        yield REVIEW_BACKLOG.at(
            message=f"{ev.turns_waiting} turns wait for a review, more than {factor:g} × the turn "
            f"threshold {ev.turn_threshold}: those exchanges will never be curated.",
            measured=ev.turns_waiting, **where)
    else:
        yield REVIEW_BACKLOG_OK.at(
            message=f"{ev.turns_waiting if ev.turns_waiting is not None else 'no known'} turns "
            "wait for a review.", measured=ev.turns_waiting, **where)
