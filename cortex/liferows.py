"""Evidence rows (stdlib only): the reviewer-starts, reviewer-fires and memory-locks row models; used by their writers and collectors.

Each writer builds its row through one of these models (WriteContext.record adds `ts`), and
each collector asks the same module which rows count and when they happened, so the names
and fields the two sides share are declared once. The collectors read only what they need
from a row (a start: `started` true, a runId, a valid ts); extra fields are tolerated there
so an older or newer writer's rows still count, while the writer refuses a row that breaks
its own shape (ValueError).
"""
from __future__ import annotations

from cortex.core.timestamps import parse_timestamp_ms

# memory-locks.jsonl events: written by cortex.write.locks (through WriteContext) and cortex-health fix
LOCK_LOST = "lock_lost"
STALE_LOCK_RECOVERED = "stale_lock_recovered"
LOCK_CONTENDED = "lock_contended"
LOCK_BROKEN_BY_FIX = "lock_broken_by_fix"
LOCK_EVENTS = frozenset([LOCK_LOST, STALE_LOCK_RECOVERED, LOCK_CONTENDED, LOCK_BROKEN_BY_FIX])
CONTENDED = (LOCK_CONTENDED, STALE_LOCK_RECOVERED)  # what the lock-contention rule counts


def _is_pid(value: object) -> bool:
    return type(value) is int and value > 0


def _require(ok: bool, log: str, why: str) -> None:
    if not ok:
        raise ValueError(f"{log} row: {why}")


class StartRow:
    """O/reviewer-starts.jsonl: a run's `started` row, written before inference. run_id: str; pid: int; host: str."""

    __slots__ = ("run_id", "pid", "host")

    def __init__(self, run_id, pid, host) -> None:
        self.run_id, self.pid, self.host = run_id, pid, host

    def as_row(self) -> dict:
        _require(isinstance(self.run_id, str) and bool(self.run_id), "reviewer-starts", "runId must be a non-empty string")
        _require(_is_pid(self.pid) and isinstance(self.host, str), "reviewer-starts", "pid must be > 0 and host a string")
        return {"runId": self.run_id, "started": True, "pid": self.pid, "host": self.host}


def start_at_ms(row: dict) -> int | None:
    """When a reviewer-starts row says its run started, or None if it is not a start."""
    if row.get("started") is not True or not isinstance(row.get("runId"), str):
        return None
    return parse_timestamp_ms(row.get("ts"))


class FireRow:
    """O/reviewer-fires.jsonl: one row per Stop turn, started or not (a start carries the reviewer's pid).

    session: str; turns: int; started: bool; reason: str; pid: int | None; duration_ms: float | None, how long the
    hook took up to its row (from the command's start, interpreter start-up not included); absent from the row when
    not measured (the reference's rows have no such key, and readers tolerate it either way).
    """

    __slots__ = ("session", "turns", "started", "reason", "pid", "duration_ms")

    def __init__(self, session, turns, started, reason, pid=None, duration_ms=None) -> None:
        self.session, self.turns, self.started, self.reason, self.pid = session, turns, started, reason, pid
        self.duration_ms = duration_ms

    def as_row(self) -> dict:
        _require(isinstance(self.session, str) and type(self.turns) is int and self.turns >= 0,
                 "reviewer-fires", "session must be a string and turns an integer >= 0")
        _require(type(self.started) is bool and isinstance(self.reason, str), "reviewer-fires",
                 "started must be a boolean and reason a string")
        _require(self.pid is None or _is_pid(self.pid), "reviewer-fires", "pid must be null or > 0")
        _require(self.duration_ms is None or (type(self.duration_ms) in (int, float) and 0 <= self.duration_ms < 1e12),
                 "reviewer-fires", "duration_ms must be null or a finite number >= 0")
        row = {"session": self.session, "turns": self.turns, "started": self.started, "reason": self.reason,
               "pid": self.pid}
        if self.duration_ms is not None:
            row["duration_ms"] = self.duration_ms
        return row


def spawn_at_ms(row: dict) -> int | None:
    """When a reviewer-fires row spawned a reviewer, or None if it did not."""
    return parse_timestamp_ms(row.get("ts")) if row.get("started") is True else None


class LockEventRow:
    """O/memory-locks.jsonl: a lock lost, recovered, contended or broken by `cortex-health fix`.

    pid: int; event, reason, detail: str; lock: str (shown relative to ROOT).
    """

    __slots__ = ("pid", "event", "reason", "lock", "detail")

    def __init__(self, pid, event, reason, lock, detail) -> None:
        self.pid, self.event, self.reason, self.lock, self.detail = pid, event, reason, lock, detail

    def as_row(self) -> dict:
        _require(self.event in LOCK_EVENTS, "memory-locks", f"event must be one of {sorted(LOCK_EVENTS)}")
        _require(_is_pid(self.pid) and all(isinstance(text, str) for text in (self.reason, self.lock, self.detail)),
                 "memory-locks", "pid must be > 0 and reason, lock, detail strings")
        return {"pid": self.pid, "event": self.event, "reason": self.reason, "lock": self.lock, "detail": self.detail}


def contention_at_ms(row: dict) -> int | None:
    """When a memory-locks row records contention (a writer waited or broke a stale lock), else None."""
    return parse_timestamp_ms(row.get("ts")) if row.get("event") in CONTENDED else None
