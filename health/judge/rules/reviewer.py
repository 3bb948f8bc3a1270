"""Evaluate stage rule: reviewer evidence. Used by the evaluator through the check list (health.judge.checks).

Latest evidence wins over history: a malformed log, a stuck or parse-failed newer run
directory, or a bad latest row is critical whatever succeeded before. The recent history
(last 5 terminal rows) is judged separately: 3+ failures warn, any EAT_CAP is critical, and
writes refused by the governed path (every item of the latest run with items, or more than
reviewer_refused_share of the items of the window) warn.
"""
from __future__ import annotations

from collectors.lifeos.reviewer import ReviewerEvidence
from collectors.readers.reviewer_rows import RowClass
from cortex.reviewrows import COMMAND_NOT_FOUND
from health.judge.catalogue.reviewer import (FAILING_RUNS, REVIEWER_COMMAND_MISSING, REVIEWER_EAT_CAP,
                                       REVIEWER_EVIDENCE_INVALID, REVIEWER_EVIDENCE_MISSING, REVIEWER_FAILING,
                                       REVIEWER_FRESH, REVIEWER_FUTURE, REVIEWER_HEALTHY, REVIEWER_LATEST_FAILED,
                                       REVIEWER_LATEST_PARSE_FAILED, REVIEWER_LATEST_TIMED_OUT, REVIEWER_STALE,
                                       REVIEWER_WRITES_ACCEPTED, REVIEWER_WRITES_REFUSED)
from health.judge.findings import human_ms, line_list, malformed_detail
from health.judge.model import EvidenceStatus, Finding
from health.judge.rules import Context

TYPE_CHECKING = False  # annotations only: collections.abc imports collections (~7M instructions)
if TYPE_CHECKING:
    from collections.abc import Iterator

# a terminal row that did not succeed: its problem and what happened
LATEST_FAILED = {RowClass.FAILED: (REVIEWER_LATEST_FAILED, "failed"),
                 RowClass.PARSE_FAILED: (REVIEWER_LATEST_PARSE_FAILED, "produced output that could not be parsed"),
                 RowClass.TIMED_OUT: (REVIEWER_LATEST_TIMED_OUT, "timed out")}


def judge(ev: ReviewerEvidence, ctx: Context) -> Iterator[Finding]:
    yield latest_run(ev, ctx)
    yield from history(ev)
    yield refusals(ev, ctx)


def latest_run(ev: ReviewerEvidence, ctx: Context) -> Finding:
    log = ev.log
    if log.status is EvidenceStatus.UNREADABLE:
        return REVIEWER_EVIDENCE_INVALID.at(
            message=f"Reviewer log is unreadable: {log.reason}.",
            path=log.path, reason=log.reason)
    if ev.malformed_total:
        return REVIEWER_LATEST_PARSE_FAILED.at(
            message=f"reviewer-runs.jsonl has {line_list(ev.malformed, ev.malformed_total)}; "
            "an older success cannot stand in for them.",
            path=log.path, **malformed_detail(ev.malformed, ev.malformed_total))
    runs = ev.run_directories
    if runs.state.status is EvidenceStatus.UNREADABLE:
        return REVIEWER_EVIDENCE_INVALID.at(
            message=f"Reviewer run folder is unreadable: {runs.state.reason}.",
            path=runs.state.path, reason=runs.state.reason)
    grace = ctx.thresholds["reviewer_run_grace_ms"]
    newest = runs.latest
    row_ms = ev.latest.at_ms if ev.latest else None
    if newest and (row_ms is None or newest.at_ms > row_ms):
        if newest.has_parse_error:
            return REVIEWER_LATEST_PARSE_FAILED.at(
                message=f"Newest reviewer run {newest.run_id} left parse-error.txt and no terminal row.",
                runId=newest.run_id, path=newest.path)
        age = ctx.now_ms - newest.at_ms
        if age > grace:
            return REVIEWER_LATEST_TIMED_OUT.at(
                message=f"Newest reviewer run {newest.run_id} has no terminal row after {human_ms(age)} "
                f"(grace {human_ms(grace)}).",
                runId=newest.run_id, path=newest.path, measured=age, threshold=grace, unit="ms")
    latest = ev.latest
    if latest is None:
        return REVIEWER_EVIDENCE_MISSING.at(
            message="No reviewer run has been recorded.",
            path=log.path, status=log.status.value)
    where = dict(path=log.path, line=latest.line, runId=latest.run_id, ts=latest.ts)
    if latest.classification is RowClass.INVALID:
        return REVIEWER_EVIDENCE_INVALID.at(
            message=f"Latest reviewer row is invalid: {latest.problem}.",
            reason=latest.problem, **where)
    if latest.classification is RowClass.FAILED and (latest.error or "").startswith(COMMAND_NOT_FOUND):
        return REVIEWER_COMMAND_MISSING.at(
            message=f"Latest reviewer run {latest.run_id} could not start its model: "
            f"{latest.error}.", error=latest.error, **where)
    if latest.classification in LATEST_FAILED:
        problem, what = LATEST_FAILED[latest.classification]
        said = f": {latest.error}" if latest.error else " (its row holds no error text)"
        return problem.at(message=f"Latest reviewer run {latest.run_id} {what}{said}.", error=latest.error, **where)
    stale = ctx.thresholds["reviewer_stale_ms"]
    age = ctx.now_ms - latest.at_ms
    if age < 0:
        return REVIEWER_FUTURE.at(
            message="Latest reviewer timestamp is in the future and cannot prove freshness.",
            measured=age, unit="ms", **where)
    if age > stale:
        return REVIEWER_STALE.at(
            message=f"Latest reviewer run is {human_ms(age)} old (threshold {human_ms(stale)}).",
            measured=age, threshold=stale, unit="ms", **where)
    return REVIEWER_FRESH.at(
        message=f"Latest reviewer run ({latest.classification.value}) is {human_ms(age)} old.",
        measured=age, threshold=stale, unit="ms", **where)


def history(ev: ReviewerEvidence) -> Iterator[Finding]:
    if not ev.history:
        return
    runs = len(ev.history)
    failed = [row.run_id for row in ev.history if row.failed]
    capped = [row.run_id for row in ev.history if row.eat_cap]
    if capped:
        yield REVIEWER_EAT_CAP.at(
            message=f"{len(capped)} of the last {runs} reviewer runs dropped a fact on EAT_CAP.",
            runs=capped, measured=len(capped), unit="count")
    if len(failed) >= FAILING_RUNS:
        errors = [row.error for row in ev.history if row.failed and row.error]
        said = f"; newest error: {errors[-1]}" if errors else ""
        yield REVIEWER_FAILING.at(
            message=f"{len(failed)} of the last {runs} reviewer runs failed (warns at "
            f"{FAILING_RUNS} or more){said}.", runs=failed, measured=len(failed), threshold=FAILING_RUNS,
            unit="count", error=errors[-1] if errors else None)
    if not capped and len(failed) < FAILING_RUNS:
        yield REVIEWER_HEALTHY.at(
            message=f"{len(failed)} of the last {runs} reviewer runs failed; none hit EAT_CAP.",
            measured=len(failed), threshold=FAILING_RUNS, unit="count")


def _codes(rows) -> dict[str, int]:
    counted: dict[str, int] = {}
    for row in rows:
        for code, count in (row.codes or {}).items():
            counted[code] = counted.get(code, 0) + count
    return dict(sorted(counted.items(), key=lambda item: (-item[1], item[0])))


def _said(codes: dict[str, int]) -> str:
    return ", ".join(f"{code} {count}" for code, count in codes.items()) or "no code recorded"


def refusals(ev: ReviewerEvidence, ctx: Context) -> Finding:
    """Refused writes: the reviewer runs, parses, dispatches, and the write path turns every item away."""
    share_limit = ctx.thresholds["reviewer_refused_share"]
    rows = [row for row in ev.history if row.items]
    items, refused = sum(row.items for row in rows), sum(row.refused for row in rows)
    share = refused / items if items else 0.0
    where = dict(runs=[row.run_id for row in rows if row.refused], items=items, refused=refused,
                 measured=round(share, 3), threshold=share_limit, unit="count")
    latest = rows[-1] if rows else None
    if latest is not None and latest.refused == latest.items:
        return REVIEWER_WRITES_REFUSED.at(
            message=f"The latest reviewer run with items ({latest.run_id}) had every one of its {latest.items} "
            f"write(s) refused ({_said(_codes([latest]))}): the reviewer runs but curates nothing.",
            codes=_codes([latest]), latest_run=latest.run_id, **where)
    if share > share_limit:
        return REVIEWER_WRITES_REFUSED.at(
            message=f"{refused} of the {items} items the last {len(rows)} reviewer run(s) dispatched were refused "
            f"({share:.0%}, warns above {share_limit:.0%}): {_said(_codes(rows))}.", codes=_codes(rows),
            **where)
    return REVIEWER_WRITES_ACCEPTED.at(
        message=f"{refused} of the {items} items the last {len(ev.history)} reviewer runs "
        f"dispatched were refused (warns above {share_limit:.0%}).", **where)
