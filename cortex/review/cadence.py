"""Cadence stage: decide, per Stop turn, whether to start the reviewer, and start it detached; used by `review fire`.

The asymmetry is deliberate (reference MemoryReviewFire): the turn threshold is per session
("has this conversation said enough to review?"), the time gap is global (an inference
budget guard: N concurrent sessions must not run N reviews per window). The decision and
both state files change under one lock; the reviewer is started inside it, before the
counters are reset, so a failed start leaves the turns counted for the next Stop.
"""
from __future__ import annotations

import sys
import time
from collections import namedtuple

from cortex.review.reviewstate import read_session, read_state, state_lock, write_session, write_state
from cortex.core.timestamps import parse_timestamp_ms
from cortex.write.writecontext import WriteContext
from cortex.layout import REVIEWER_FIRES_LOG as FIRES_LOG
from cortex.liferows import FireRow


# Bare named tuples, not subclasses: a second class each costs every Stop hook ~0.2M instructions.
Cadence = namedtuple("Cadence", "turn_threshold min_minutes_between")
Cadence.__doc__ = """When a review is due. turn_threshold: int; min_minutes_between: float."""
Decision = namedtuple("Decision", "session turns started reason pid", defaults=(None,))
Decision.__doc__ = """One Stop turn's outcome. session: str; turns: int (this session's, this one included); started: bool;
    reason: str; pid: int | None."""


def _interval_elapsed(last_review_at: str | None, now_ms: int, minutes: float) -> bool:
    last = parse_timestamp_ms(last_review_at)
    return last is None or now_ms - last >= minutes * 60_000


def reviewer_argv(memory_root: str, transcript: str | None) -> list[str]:
    # -P: the working folder is not put on sys.path, so a project's own `cortex/` cannot shadow ours.
    argv = [sys.executable, "-P", "-m", "cortex", "review", "run", "--memory-root", memory_root]
    return argv + (["--input", transcript] if transcript else [])


def start_detached(argv: list[str], env: dict[str, str], cwd: str) -> int:
    """Start `argv` in its own session with no inherited stdio; returns its pid (never waited for here)."""
    import subprocess  # only a turn that starts a review pays for it

    proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            env=env, cwd=cwd, start_new_session=True, close_fds=True)
    return proc.pid


def record_turn(ctx: WriteContext, session: str, cadence: Cadence, start, began: float | None = None) -> Decision:
    """Count one turn of `session`; call start() → pid and reset the counters when a review is due.

    `began`: time.perf_counter() when the hook command started; its row then carries duration_ms.
    """
    with state_lock(ctx):
        state = read_state(ctx)
        counter = read_session(ctx, session)
        turns = counter.turn_count_since_last_review + 1
        counter.turn_count_since_last_review = turns
        counter.last_message_at = ctx.now_iso
        state.turn_count_since_last_review += 1
        decision = Decision(session, turns, False, f"{turns}/{cadence.turn_threshold} turns")
        if turns >= cadence.turn_threshold:
            state.pending_review = True
            if _interval_elapsed(state.last_review_at, ctx.now_ms, cadence.min_minutes_between):
                pid = start()
                decision = Decision(session, turns, True, "threshold reached", pid)
                counter.turn_count_since_last_review = 0
                state.turn_count_since_last_review = 0
                state.last_review_at = ctx.now_iso
            else:
                gap = f"last review less than {cadence.min_minutes_between:g} min ago"
                decision = Decision(session, turns, False, gap)
        write_session(ctx, counter)
        write_state(ctx, state)
    # One row per Stop turn, started or not: the fire hook's heartbeat (hook-silent:fire) and,
    # when started, the spawn the reviewer's `started` row must follow (reviewer-never-started).
    duration = None if began is None else round((time.perf_counter() - began) * 1000, 3)
    ctx.record(FIRES_LOG, FireRow(session, decision.turns, decision.started, decision.reason, decision.pid,
                                  duration).as_row())
    return decision
