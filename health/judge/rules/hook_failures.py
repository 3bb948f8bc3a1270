"""Evaluate stage rule: each hook's newest recorded failure against its newest heartbeat. Used by the evaluator through health.judge.checks.

A hook that failed after its last success is failing now (critical, with the reason and the
file at fault): the agent goes on without it, since a hook never blocks a prompt. A hook that
succeeded since is recovered (ok, with the time of its last failure). The hook this audit
runs in (the gate) is running, so it has just succeeded. A failure log that cannot be read,
or holds rows of another shape, could hide a failure: warn.
"""
from __future__ import annotations

from collectors.lifeos.hook_failures import HookFailureEvidence, HookRecord
from cortex.core.timestamps import iso_from_ms
from health.judge.catalogue.hook_failures import HOOK_FAILING, HOOK_FAILURES_LOG_INVALID, HOOK_FAILURES_NONE, HOOK_RECOVERED
from health.judge.model import EvidenceStatus, Finding
from health.judge.rules import Context

TYPE_CHECKING = False  # annotations only: collections.abc imports collections (~7M instructions)
if TYPE_CHECKING:
    from collections.abc import Iterator


def judge(ev: HookFailureEvidence, ctx: Context) -> Iterator[Finding]:
    log = ev.log
    if log.status is EvidenceStatus.UNREADABLE or ev.malformed_total:
        why = log.reason if log.status is EvidenceStatus.UNREADABLE else (
            f"{ev.malformed_total} row(s) not in the hook-failures shape (newest: {ev.malformed[0].reason})")
        yield HOOK_FAILURES_LOG_INVALID.at(
            message=f"The hooks' failure log cannot be fully read: {why}; a hook failure "
            "may be hidden.", path=log.path, reason=why, malformed_total=ev.malformed_total or None)
    failed = [record for record in ev.hooks if record.failed]
    if not failed:
        if log.status is not EvidenceStatus.UNREADABLE:
            yield HOOK_FAILURES_NONE.at(message="No hook has recorded a failure.", path=log.path)
        return
    for record in failed:
        yield judge_hook(record, log.path, ctx)


def _where(failure: HookRecord) -> str:
    if failure.file is None:
        return ""
    line = f":{failure.line}" if failure.line else ""
    field = f" (field {failure.field})" if failure.field else ""
    return f" [{failure.file}{line}{field}]"


def judge_hook(record: HookRecord, path: str, ctx: Context) -> Finding:
    failure, beat = record, record.heartbeat
    beat_ms = ctx.now_ms if record.running else beat.at_ms
    detail = dict(hook=record.hook, command=record.command, failed_at=failure.ts, code=failure.code,
                  reason=failure.reason, file=failure.file, line=failure.line, field=failure.field, rule=failure.rule,
                  failures=record.failures, last_heartbeat=iso_from_ms(beat_ms) if beat_ms is not None else "never",
                  heartbeat_path=beat.file.path, path=path)
    if beat_ms is not None and (record.running or beat_ms > failure.at_ms):
        return HOOK_RECOVERED.at(
            record.hook, message=f"Hook {record.hook} (`{record.command}`) ran at {detail['last_heartbeat']} after "
            "its last failure "
            f"at {failure.ts} ({failure.code}).", **detail)
    return HOOK_FAILING.at(
        record.hook, message=f"Hook {record.hook} (`{record.command}`) fails: its last run at {failure.ts} could not "
        "do its "
        f"job and none has succeeded since (last heartbeat {detail['last_heartbeat']}): "
        f"{failure.code}: {failure.reason}{_where(failure)}.", **detail)
