"""Collect stage: the memory loop's heartbeats, the memory system's newest write and the agent's activity. Called through health.judge.checks.

Each hook leaves a heartbeat: render the surface heartbeat (LIFEOS/MEMORY/STATE/
delta-surface-heartbeat, an ISO instant), recall the newest row of memory-retrievals.jsonl,
fire the newest row of reviewer-fires.jsonl, gate the newest row of memory-health.jsonl.
A hook is judged only when the effective settings.json registers it. Logs are read from
the end (bounded), so their size never matters. The gate runs its audit with
RUNNING_HOOK_ENV=gate in the audit's environment: that hook is running now (the rule takes its
heartbeat as the audit's own time), so a first Stop never calls the gate silent.
"""
from __future__ import annotations

import os

from collectors.readers.activity import collect_activity
from collectors.readers.fsprobe import probe_file
from collectors.lifeos.layout import HEALTH_LOG_NAME, Layout
from cortex import layout as contract
from collectors.readers.text import brief
from collectors.readers.jsonl import tail_of, tail_rows
from collectors.readers.tailstamps import tail_stamps
from cortex.core.safeio import UnsafeFile, read_bounded
from cortex.core.timestamps import parse_timestamp_ms
from collectors.evidence import EvidenceStatus, FileState

HEARTBEAT_PARTS = (contract.STATE, contract.SURFACE_HEARTBEAT_FILE)
RUNNING_HOOK_ENV = "CORTEX_HEALTH_RUNNING_HOOK"  # set by `cortex-health gate` for the audit it runs
WRITES_LOG = contract.WRITES_LOG
TAIL_ROWS = 200
MAX_HEARTBEAT_BYTES = 4096
# hook → (its heartbeat log under O, or None for the surface heartbeat; what registers it)
HOOKS = {
    "render": (None, ("cortex hot render", "MemoryTurnStart.hook.ts", "LoadMemory.hook.ts",
                      "MemoryDeltaSurface.hook.ts")),
    "recall": (contract.RETRIEVALS_LOG, ("cortex recall",)),
    "fire": (contract.REVIEWER_FIRES_LOG, ("cortex review fire",)),
    "gate": (HEALTH_LOG_NAME, ("cortex-health gate", "MemoryHealthGate.hook.ts")),
}


def memory_system_write(updated_by: object) -> bool:
    """A write by the memory system (LifeOS MemorySystem.add, cortex's governed dispatch), not a hand edit."""
    return isinstance(updated_by, str) and (updated_by == "MemorySystem.add" or updated_by.startswith("cortex-remember"))


class Beat:
    """file: FileState; at_ms: int | None; raw: object, the value that should have been a timestamp; problem: str |
    None, why the file's content gives no time.
    """

    __slots__ = ("file", "at_ms", "raw", "problem")

    def __init__(self, file, at_ms=None, raw=None, problem=None) -> None:
        self.file, self.at_ms, self.raw, self.problem = file, at_ms, raw, problem


class HookBeat:
    """hook: str; registered: bool; heartbeat: Beat; running: bool, this audit is that hook's own run (the gate)."""

    __slots__ = ("hook", "registered", "heartbeat", "running")

    def __init__(self, hook, registered, heartbeat, running=False) -> None:
        self.hook, self.registered, self.heartbeat, self.running = hook, registered, heartbeat, running


class HeartbeatEvidence:
    """status: EvidenceStatus, that of the transcript folder: activity is what hooks are judged against; surface: Beat;
    newest_write: Beat, the newest memory-system write in the tail of memory-writes.jsonl; hooks: tuple[HookBeat,
    ...]; activity: AgentActivity.
    """

    __slots__ = ("status", "surface", "newest_write", "hooks", "activity")

    def __init__(self, status, surface, newest_write, hooks, activity) -> None:
        self.status, self.surface, self.newest_write, self.hooks = status, surface, newest_write, hooks
        self.activity = activity


def surface_beat(layout: Layout) -> Beat:
    path = os.path.join(layout.memory, *HEARTBEAT_PARTS)
    state = probe_file(path, layout.memory)
    if state.status is not EvidenceStatus.OK:
        return Beat(state)
    try:
        text = read_bounded(path, MAX_HEARTBEAT_BYTES).decode("utf-8", "replace").strip()
    except (OSError, UnsafeFile) as error:
        return Beat(FileState(path, EvidenceStatus.UNREADABLE, str(error)))
    at_ms = parse_timestamp_ms(text)
    return Beat(state, at_ms, brief(text), None if at_ms is not None else "not an ISO instant")


def newest_row(path: str, anchor: str, keep=lambda row: True) -> Beat:
    """The newest `ts` among the last TAIL_ROWS rows of a JSONL log that `keep` accepts."""
    state, rows = tail_rows(path, TAIL_ROWS, anchor)
    if not state.readable:
        return Beat(state)
    return _newest(state, [row.get("ts") for row in rows if isinstance(row, dict) and keep(row)], bool(rows))


def newest_stamp(path: str, anchor: str, cursors: str | None) -> Beat:
    """newest_row of a hook's log (every row counts), its lines' instants remembered between audits."""
    state, lines = tail_of(path, TAIL_ROWS, anchor)
    if not state.readable:
        return Beat(state)
    return _newest(state, tail_stamps(lines, path, cursors), bool(lines))


def _newest(state: FileState, stamps: list, any_rows: bool) -> Beat:
    best: int | None = None
    raw = None
    for ts in stamps:
        at_ms = parse_timestamp_ms(ts)
        if at_ms is not None and (best is None or at_ms > best):
            best, raw = at_ms, brief(ts)
    return Beat(state, best, raw, None if best is not None or not any_rows else "no row with a valid ts in the tail")


def collect(layout: Layout) -> HeartbeatEvidence:
    settings = layout.settings  # the reading install judged too
    surface = surface_beat(layout)
    writes = newest_row(layout.evidence(WRITES_LOG), layout.memory, lambda row: memory_system_write(row.get("updated_by")))
    hooks = []
    running = layout.environ.get(RUNNING_HOOK_ENV)
    for hook, (log, names) in HOOKS.items():
        registered = any(settings.registers(name) for name in names)
        beat = surface if log is None else newest_stamp(layout.evidence(log), layout.memory, layout.cursors)
        hooks.append(HookBeat(hook, registered, beat, hook == running))
    activity = collect_activity(layout.root, layout.review_config, layout.environ)
    return HeartbeatEvidence(activity.folder.status, surface, writes, tuple(hooks), activity)
