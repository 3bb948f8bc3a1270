"""Collect stage: each hook's newest recorded failure (O/hook-failures.jsonl) beside its newest heartbeat. Called through health.judge.checks.

The hooks append a row (cortex.hookrows, shared with their writer cortex.hookfailures) whenever
they cannot do their job; this reads the log's last TAIL_ROWS rows from the end (bounded, so
its size never matters) and keeps, per hook, the newest failure and how many the tail holds.
Only for a hook with a failure is its newest success heartbeat read (the same readings as
collectors.lifeos.heartbeats: the surface heartbeat, memory-retrievals.jsonl, reviewer-fires.jsonl,
memory-health.jsonl), so a tree without failures pays for one missing file. The hook the audit
runs in (the gate, collectors.lifeos.heartbeats.RUNNING_HOOK_ENV) is marked running.
"""
from __future__ import annotations

from collectors.evidence import EvidenceStatus, FileState, MalformedLine
from collectors.lifeos.heartbeats import HOOKS as HEARTBEATS, RUNNING_HOOK_ENV, Beat, newest_stamp, surface_beat
from collectors.readers.jsonl import tail_rows
from collectors.lifeos.layout import Layout
from collectors.readers.text import clip
from cortex.hookrows import HOOK_COMMANDS, HOOKS, hook_failure_problem
from cortex.core.timestamps import parse_timestamp_ms
from cortex.layout import HOOK_FAILURES_LOG

TAIL_ROWS = 200
MAX_MALFORMED_LISTED = 5


class HookRecord:
    """One hook and its newest recorded failure, as the row says it (strings privacy-stripped and clipped again).

    hook: str (render | recall | fire | gate); command: str; failures: int, rows for it in the tail; heartbeat: Beat |
    None, its newest success heartbeat (read only when it has a failure); running: bool, this audit is that hook's
    own run; ts: str | None, the newest failure's (None: no failure); at_ms: int | None; code, reason: str | None;
    file: str | None; line: int | None; field, rule: str | None.
    """

    __slots__ = ("hook", "command", "failures", "heartbeat", "running", "ts", "at_ms", "code", "reason", "file", "line",
                 "field", "rule")

    def __init__(self, hook, command, failures, heartbeat=None, running=False, ts=None, at_ms=None, code=None,
                 reason=None, file=None, line=None, field=None, rule=None) -> None:
        self.hook, self.command, self.failures, self.heartbeat = hook, command, failures, heartbeat
        self.running, self.ts, self.at_ms, self.code, self.reason, self.file = running, ts, at_ms, code, reason, file
        self.line, self.field, self.rule = line, field, rule

    @property
    def failed(self) -> bool:
        return self.at_ms is not None


class HookFailureEvidence:
    """status: EvidenceStatus; log: FileState; malformed: tuple[MalformedLine, ...], by position from the end (1 =
    newest); malformed_total: int; hooks: tuple[HookRecord, ...], one per hook.
    """

    __slots__ = ("status", "log", "malformed", "malformed_total", "hooks")

    def __init__(self, status, log, malformed, malformed_total, hooks) -> None:
        self.status, self.log, self.malformed, self.malformed_total = status, log, malformed, malformed_total
        self.hooks = hooks


def failure_of(row: dict) -> tuple:
    """(ts, at_ms, code, reason, file, line, field, rule) of a valid row: HookRecord's failure fields."""
    return (row["ts"], parse_timestamp_ms(row["ts"]), clip(row["code"]), clip(row["reason"]), clip(row["file"]),
            row["line"], clip(row["field"]), clip(row["rule"]))


def heartbeat_of(layout: Layout, hook: str) -> Beat:
    log = HEARTBEATS[hook][0]
    return surface_beat(layout) if log is None else newest_stamp(layout.evidence(log), layout.memory, layout.cursors)


def collect(layout: Layout) -> HookFailureEvidence:
    state, rows = tail_rows(layout.evidence(HOOK_FAILURES_LOG), TAIL_ROWS, layout.memory)
    newest: dict[str, tuple] = {}
    counts = dict.fromkeys(HOOKS, 0)
    malformed: list[MalformedLine] = []
    for back, row in enumerate(reversed(rows), start=1):
        problem = row if isinstance(row, str) else hook_failure_problem(row)
        if problem:
            malformed.append(MalformedLine(back, clip(problem)))
            continue
        failure = failure_of(row)
        counts[row["hook"]] += 1
        known = newest.get(row["hook"])
        if known is None or failure[1] > known[1]:
            newest[row["hook"]] = failure
    running = layout.environ.get(RUNNING_HOOK_ENV)
    hooks = tuple(HookRecord(hook, HOOK_COMMANDS[hook], counts[hook], heartbeat_of(layout, hook), hook == running,
                             *newest[hook]) if hook in newest else HookRecord(hook, HOOK_COMMANDS[hook], 0)
                  for hook in HOOKS)
    status = EvidenceStatus.MALFORMED if malformed and state.status is EvidenceStatus.OK else state.status
    return HookFailureEvidence(status, state, tuple(malformed[:MAX_MALFORMED_LISTED]), len(malformed), hooks)
