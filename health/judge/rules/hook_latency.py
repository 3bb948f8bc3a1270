"""Evaluate stage rule: hook latency from real use against the agent's timeout. Used by the evaluator through health.judge.checks.

The agent kills a hook at its timeout and the prompt goes on without memory; a hook whose p95
over the last 24 h is above half its registered timeout is one bad day from that: warn. Hooks
not registered in settings.json are not judged; a registered hook without rows in the window
is reported as such (ok: the heartbeat checks judge silence).
"""
from __future__ import annotations

from collectors.lifeos.hook_latency import HookLatency, HookLatencyEvidence
from health.judge.catalogue.hook_latency import HOOK_LATENCY_NO_ROWS, HOOK_LATENCY_OK, HOOK_SLOW
from health.judge.findings import human_ms
from health.judge.model import Finding
from health.judge.rules import Context

TYPE_CHECKING = False  # annotations only: collections.abc imports collections (~7M instructions)
if TYPE_CHECKING:
    from collections.abc import Iterator

SLOW_SHARE = 0.5  # of the registered timeout


def judge(ev: HookLatencyEvidence, ctx: Context) -> Iterator[Finding]:
    for item in ev.hooks:
        if item.timeout_ms is not None:
            yield judge_hook(item)


def judge_hook(item: HookLatency) -> Finding:
    hook, timeout = item.hook, item.timeout_ms
    limit = timeout * SLOW_SHARE
    source = "registered timeout" if item.timeout_declared else "Claude Code's default timeout"
    where = dict(measured=item.p95_ms, threshold=limit, unit="ms", samples=item.samples, p50_ms=item.p50_ms,
                 p95_ms=item.p95_ms, max_ms=item.max_ms, timeout_ms=timeout, path=item.log.path)
    if not item.samples:
        return HOOK_LATENCY_NO_ROWS.at(
            hook, message=f"No {hook} row with a duration in the last 24 h (its "
            f"{source} is {human_ms(timeout)}).", timeout_ms=timeout, path=item.log.path)
    summary = (f"{hook} p95 {human_ms(item.p95_ms)} (p50 {human_ms(item.p50_ms)}, max {human_ms(item.max_ms)}, "
               f"{item.samples} row{'' if item.samples == 1 else 's'} in the last 24 h)")
    if item.p95_ms > limit:
        return HOOK_SLOW.at(
            hook, message=f"{summary} is above half its {source} of {human_ms(timeout)}: the agent "
            "kills a hook at its timeout and the prompt goes on without it.", **where)
    return HOOK_LATENCY_OK.at(hook, message=f"{summary}, within half its {source} of {human_ms(timeout)}.", **where)
