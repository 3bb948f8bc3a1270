"""Evaluate stage rule: reviewer runs lost between spawn and completion. Used by the evaluator through health.judge.checks.

A run is finished (terminal row), running (holder alive and within the inference timeout plus
reviewer_run_grace_ms) or interrupted (no terminal row and the holder gone, or past that
deadline). A fire that spawned a review with no `started` row within the grace never started.
"""
from __future__ import annotations

from collectors.lifeos.reviewer_lifecycle import LifecycleEvidence, Start
from cortex.core.timestamps import iso_from_ms
from health.judge.catalogue.reviewer_lifecycle import (REVIEWER_INTERRUPTED, REVIEWER_INTERRUPTED_REPEATEDLY,
                                                 REVIEWER_NEVER_STARTED, REVIEWER_RUNS_COMPLETE,
                                                 REVIEWER_SPAWN_STARTED)
from health.judge.findings import human_ms
from health.judge.model import Finding
from health.judge.rules import Context

TYPE_CHECKING = False  # annotations only: collections.abc imports collections (~7M instructions)
if TYPE_CHECKING:
    from collections.abc import Iterator

RECENT = 5  # starts judged for interruptions
REPEATED = 3  # the newest this many all interrupted: critical
SPAWN_SLACK_MS = 5000  # a start stamped just before the fire's row (clock granularity)


def run_state(start: Start, deadline_ms: int, now_ms: int) -> str:
    if start.terminal:
        return "finished"
    if start.holder == "gone" or now_ms - start.at_ms > deadline_ms:
        return "interrupted"
    return "running"


def judge(ev: LifecycleEvidence, ctx: Context) -> Iterator[Finding]:
    grace = ctx.thresholds["reviewer_run_grace_ms"]
    deadline = ev.inference_timeout_ms + grace
    yield interruptions(ev, deadline, ctx)
    yield spawn(ev, grace, ctx)


def interruptions(ev: LifecycleEvidence, deadline: int, ctx: Context) -> Finding:
    judged = [(start, run_state(start, deadline, ctx.now_ms)) for start in ev.starts]
    judged = [(start, state) for start, state in judged if state != "running"][:RECENT]
    lost = [start for start, state in judged if state == "interrupted"]
    where = dict(path=ev.starts_log.path, threshold=deadline, unit="ms")
    runs = [{"runId": s.run_id, "started": iso_from_ms(s.at_ms), "pid": s.pid, "host": s.host, "holder": s.holder}
            for s in lost]
    if len(judged) >= REPEATED and all(state == "interrupted" for _, state in judged[:REPEATED]):
        return REVIEWER_INTERRUPTED_REPEATEDLY.at(
            message=f"The last {REPEATED} reviewer runs started and never wrote a terminal row: every review is "
            "lost between start and completion.", runs=runs, measured=len(lost), **where)
    if lost:
        return REVIEWER_INTERRUPTED.at(
            message=f"{len(lost)} of the last {len(judged)} reviewer runs started and never wrote a terminal row "
            f"(holder gone, or past the {human_ms(deadline)} deadline).", runs=runs, measured=len(lost),
            **where)
    message = (f"The last {len(judged)} started reviewer runs all ended with a terminal row." if judged
               else "No finished or interrupted start recorded in reviewer-starts.jsonl yet.")
    return REVIEWER_RUNS_COMPLETE.at(message=message, measured=0, **where)


def spawn(ev: LifecycleEvidence, grace: int, ctx: Context) -> Finding:
    fired = ev.newest_spawn
    if fired is None:
        return REVIEWER_SPAWN_STARTED.at(message="No fire has spawned a review yet (reviewer-fires.jsonl).")
    where = dict(spawned=iso_from_ms(fired.at_ms), pid=fired.pid, threshold=grace, unit="ms")
    age = ctx.now_ms - fired.at_ms
    if any(fired.at_ms - SPAWN_SLACK_MS <= start.at_ms <= fired.at_ms + grace for start in ev.starts):
        return REVIEWER_SPAWN_STARTED.at(message="The newest spawned review wrote its started row.", **where)
    if age <= grace:
        return REVIEWER_SPAWN_STARTED.at(
            message=f"The newest review was spawned {human_ms(age)} ago, within the grace.",
            measured=age, **where)
    return REVIEWER_NEVER_STARTED.at(
        message=f"A fire spawned a review {human_ms(age)} ago (pid {fired.pid}) and no started row followed "
        f"within {human_ms(grace)}: the reviewer died before it began.", measured=age, **where)
