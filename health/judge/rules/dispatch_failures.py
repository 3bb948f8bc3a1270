"""Evaluate stage rule: reviewer items kept after a failed dispatch and not yet replayed. Used by the evaluator through health.judge.checks."""
from __future__ import annotations

from collectors.lifeos.dispatch_failures import DispatchFailuresEvidence
from health.judge.catalogue.dispatch_failures import REVIEWER_DISPATCH_FAILED, REVIEWER_DISPATCH_NONE_KEPT
from health.judge.model import Finding
from health.judge.rules import Context

TYPE_CHECKING = False  # annotations only: collections.abc imports collections (~7M instructions)
if TYPE_CHECKING:
    from collections.abc import Iterator


def judge(ev: DispatchFailuresEvidence, ctx: Context) -> Iterator[Finding]:
    if not ev.runs:
        yield REVIEWER_DISPATCH_NONE_KEPT.at(
            message="No reviewer item waits for a replay after a failed dispatch.",
            path=ev.folder.path, measured=0, unit="count")
        return
    count = sum(run.items or 0 for run in ev.runs)
    unreadable = [run.run_id for run in ev.runs if run.items is None]
    runs = [{"runId": run.run_id, "items": run.items, "codes": list(run.codes)} for run in ev.runs]
    yield REVIEWER_DISPATCH_FAILED.at(
        message=f"{count} reviewer item(s) in {len(ev.runs)} run(s) failed to dispatch and wait for "
        f"`cortex review replay {ev.runs[0].run_id}`"
        + (f" ({len(unreadable)} failed-items.json unreadable)" if unreadable else "") + ".",
        runs=runs, measured=count, unit="count", path=ev.folder.path)
