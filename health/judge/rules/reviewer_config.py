"""Evaluate stage rule: the reviewer's config as its hooks load it. Used by the evaluator through health.judge.checks.

A config the reviewer's loader refuses stops the whole curation half of the loop (`review fire`
exits 1 on every Stop, `review run` exits 4): critical, naming the field or line it names.
"""
from __future__ import annotations

from collectors.lifeos.reviewer_config import ReviewerConfigEvidence
from health.judge.catalogue.reviewer_config import REVIEWER_CONFIG_INVALID, REVIEWER_CONFIG_VALID
from health.judge.model import EvidenceStatus, Finding
from health.judge.rules import Context

TYPE_CHECKING = False  # annotations only: collections.abc imports collections (~7M instructions)
if TYPE_CHECKING:
    from collections.abc import Iterator


def judge(ev: ReviewerConfigEvidence, ctx: Context) -> Iterator[Finding]:
    if ev.status is EvidenceStatus.OK:
        said = ("absent: the documented defaults apply" if ev.state == "absent"
                else "valid as `cortex review fire` and `review run` load it")
        yield REVIEWER_CONFIG_VALID.at(
            message=f"The reviewer config {ev.path} is {said}.", path=ev.path, state=ev.state)
        return
    where = [f"field {ev.field}"] if ev.field else []
    where += [f"line {ev.line}"] if ev.line else []
    place = f" ({', '.join(where)})" if where else ""
    yield REVIEWER_CONFIG_INVALID.at(
        message=f"The reviewer config is refused{place}: {ev.message}. `cortex review fire` exits 1 on every Stop "
        "and `cortex review run` exits 4, so no review runs until it is fixed.",
        path=ev.path, reason=ev.message, field=ev.field, line=ev.line, rule=ev.rule)
