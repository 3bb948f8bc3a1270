"""Evaluate stage rule: heartbeats against memory writes and agent activity. Used by the evaluator through health.judge.checks.

A relative check (two timestamps of one subsystem) cannot fail when both stop, so beyond the
reference's delta-surface comparison every registered hook is judged against the wall clock
and the user turns in the agent's transcripts: turns newer than the hook's last heartbeat by
more than hook_silence_ms mean the hook did not run for them. No turns in the activity window
means the agent was idle, which is not a failure (the evidence says so).
"""
from __future__ import annotations

from collectors.readers.activity import MAX_TURNS
from collectors.lifeos.heartbeats import Beat, HeartbeatEvidence, HookBeat
from cortex.core.timestamps import iso_from_ms
from health.judge.catalogue.heartbeats import (AGENT_ACTIVE, AGENT_ACTIVITY_UNREADABLE, AGENT_IDLE, DELTA_SURFACE_ALIVE,
                                         DELTA_SURFACE_CHECK_ERROR, DELTA_SURFACE_DEAD, DELTA_SURFACE_NO_WRITES,
                                         HOOK_AGENT_IDLE, HOOK_ALIVE, HOOK_SILENT)
from health.judge.findings import human_ms
from health.judge.model import EvidenceStatus, Finding
from health.judge.rules import Context

TYPE_CHECKING = False  # annotations only: collections.abc imports collections (~7M instructions)
if TYPE_CHECKING:
    from collections.abc import Iterator

UNREADABLE = (EvidenceStatus.UNREADABLE, EvidenceStatus.ERROR)


def judge(ev: HeartbeatEvidence, ctx: Context) -> Iterator[Finding]:
    yield surface(ev, ctx)
    turns, finding = activity(ev, ctx)
    yield finding
    for hook in ev.hooks:
        if hook.registered:
            yield silence(hook, turns, ctx)


def _iso(ms: int | None) -> str:
    return iso_from_ms(ms) if ms is not None else "never"


def surface(ev: HeartbeatEvidence, ctx: Context) -> Finding:
    write, beat = ev.newest_write, ev.surface
    unreadable = [item.file for item in (write, beat) if item.file.status in UNREADABLE]
    if unreadable:
        return DELTA_SURFACE_CHECK_ERROR.at(
            message=f"Delta-surface liveness cannot be checked: {unreadable[0].path} is unreadable "
            f"({unreadable[0].reason}).", path=unreadable[0].path, reason=unreadable[0].reason)
    if write.at_ms is None:
        return DELTA_SURFACE_NO_WRITES.at(
            message="No memory-system write in memory-writes.jsonl to compare the surface "
            "heartbeat with.", path=write.file.path)
    lag = ctx.thresholds["delta_surface_lag_ms"]
    where = dict(lastWrite=_iso(write.at_ms), heartbeat=_iso(beat.at_ms), path=beat.file.path, threshold=lag, unit="ms")
    if beat.at_ms is None or write.at_ms - beat.at_ms > lag:
        measured = None if beat.at_ms is None else write.at_ms - beat.at_ms
        return DELTA_SURFACE_DEAD.at(
            message=f"Curation is writing memory (newest write {_iso(write.at_ms)}) but the memory surface has "
            f"not run for more than {human_ms(lag)} before it (heartbeat {_iso(beat.at_ms)}"
            f"{'; ' + beat.problem if beat.problem else ''}): chat visibility is dead.",
            measured=measured, **where)
    return DELTA_SURFACE_ALIVE.at(
        message="The surface heartbeat is current relative to memory writes.",
        measured=max(0, write.at_ms - beat.at_ms), **where)


def activity(ev: HeartbeatEvidence, ctx: Context) -> tuple[list[int], Finding]:
    seen = ev.activity
    folder = seen.folder
    if folder.status is EvidenceStatus.UNREADABLE:
        return [], AGENT_ACTIVITY_UNREADABLE.at(
            message=f"The transcript folder {folder.path} cannot be read ({folder.reason}): hook silence cannot "
            "be judged against the agent's activity.", path=folder.path, reason=folder.reason)
    window = ctx.thresholds["agent_activity_window_ms"]
    turns = [ms for ms in seen.turns_ms if ctx.now_ms - window <= ms <= ctx.now_ms]
    where = dict(path=folder.path, files_scanned=seen.files_scanned, threshold=window, unit="ms")
    if not turns:
        why = "no transcript folder" if folder.status is EvidenceStatus.MISSING else "no user turn"
        return [], AGENT_IDLE.at(
            message=f"The agent was idle: {why} within the last {human_ms(window)} "
            f"({folder.path}); idle is not a failure, so no hook is judged silent.", **where)
    return turns, AGENT_ACTIVE.at(
        message=f"{len(turns)} user turn(s) within the last {human_ms(window)}, newest "
        f"{_iso(turns[0])}.", turns=len(turns), newest_turn=_iso(turns[0]), **where)


def silence(hook: HookBeat, turns: list[int], ctx: Context) -> Finding:
    beat = hook.heartbeat
    if hook.running:  # this audit is the hook's own run (the gate): its heartbeat is now, whatever the log says
        beat = Beat(beat.file, max(ctx.now_ms, beat.at_ms or ctx.now_ms), beat.raw, None)
    quiet = ctx.thresholds["hook_silence_ms"]
    where = dict(hook=hook.hook, heartbeat_path=beat.file.path, last_heartbeat=_iso(beat.at_ms), threshold=quiet,
                 unit="ms", running=hook.running or None)
    if not turns:
        return HOOK_AGENT_IDLE.at(
            hook.hook, message=f"Hook {hook.hook}: the agent was idle, nothing to judge "
            "(idle is not a failure).", **where)
    late = [ms for ms in turns if beat.at_ms is None or ms - beat.at_ms > quiet]
    if late:
        count = f"{len(late)}+" if len(late) >= MAX_TURNS else str(len(late))
        measured = None if beat.at_ms is None else turns[0] - beat.at_ms
        return HOOK_SILENT.at(
            hook.hook, message=f"Hook {hook.hook} left no heartbeat for {count} user turn(s) (newest {_iso(turns[0])}, "
            f"last heartbeat {_iso(beat.at_ms)}{'; ' + beat.problem if beat.problem else ''}): it does "
            "not run.", turns_since=len(late), newest_turn=_iso(turns[0]), measured=measured, **where)
    return HOOK_ALIVE.at(
        hook.hook, message=f"Hook {hook.hook} ran within {human_ms(quiet)} of every recent user turn.",
        newest_turn=_iso(turns[0]), **where)
