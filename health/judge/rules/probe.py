"""Evaluate stage rule: the synthetic probe's steps. Used by the evaluator through the probe row of health.judge.checks (--probe, `cortex-health probe`).

A failed step is critical (the agent's next prompt or Stop would meet the same failure); a
step slower than half its timeout warns (one slow day from being killed); steps the time
budget left unrun warn; a temporary folder that could not be removed warns. A hook that
settings.json does not register is not a step (the install check reports it).
"""
from __future__ import annotations

from collectors.lifeos.probe.collect import ProbeEvidence, ProbeStep
from health.judge.catalogue.probe import (PROBE_CLEANED, PROBE_COMPLETE, PROBE_FAILED, PROBE_INCOMPLETE, PROBE_NOT_CLEANED,
                                    PROBE_PASSED, PROBE_SLOW)
from health.judge.findings import human_ms
from health.judge.model import Finding
from health.judge.rules import Context

TYPE_CHECKING = False  # annotations only: collections.abc imports collections (~7M instructions)
if TYPE_CHECKING:
    from collections.abc import Iterator

SLOW_SHARE = 0.5


def judge(ev: ProbeEvidence, ctx: Context) -> Iterator[Finding]:
    skipped = [step.step for step in ev.steps if step.status == "skipped"]
    for step in ev.steps:
        if step.status != "skipped":
            yield judge_step(step)
    if any(step.kind == "setup" for step in ev.steps):
        pass  # nothing ran: the failed setup step says why
    elif skipped:
        yield PROBE_INCOMPLETE.at(
            message=f"The probe did not run {', '.join(skipped)}: "
            f"{next(s.reason for s in ev.steps if s.status == 'skipped')}.", steps=skipped,
            total_ms=ev.total_ms, threshold=ev.budget_ms, unit="ms")
    else:
        yield PROBE_COMPLETE.at(
            message=f"The probe ran all {len(ev.steps)} steps in {human_ms(ev.total_ms)} "
            f"(budget {human_ms(ev.budget_ms)}).", total_ms=ev.total_ms, threshold=ev.budget_ms, unit="ms")
    if ev.cleaned:
        yield PROBE_CLEANED.at(message="The probe's temporary copy was removed.")
    else:
        yield PROBE_NOT_CLEANED.at(
            message="The probe's temporary copy could not be removed (a hook left files it "
            "cannot delete); the next probe retries once this process is gone.")


def judge_step(step: ProbeStep) -> Finding:
    where = dict(command=step.command, event=step.event, exit_status=step.exit_status, measured=step.duration_ms,
                 timeout_ms=step.timeout_ms, unit="ms")
    if step.status == "failed":
        said = f" (stderr: {step.stderr})" if step.stderr else ""
        ran = f"`{step.command}`" if step.command else "the probe"
        return PROBE_FAILED.at(
            step.step, message=f"Probe step {step.step}: {ran} {step.reason}{said}.",
            reason=step.reason, stderr=step.stderr, **where)
    limit = step.timeout_ms * SLOW_SHARE
    if step.duration_ms > limit:
        return PROBE_SLOW.at(
            step.step, message=f"Probe step {step.step} took {human_ms(step.duration_ms)}, more than "
            f"half its timeout of {human_ms(step.timeout_ms)}: the agent kills it at its timeout.",
            threshold=limit, **where)
    return PROBE_PASSED.at(
        step.step, message=f"Probe step {step.step} passed in {human_ms(step.duration_ms)} "
        f"(timeout {human_ms(step.timeout_ms)}).", **where)
