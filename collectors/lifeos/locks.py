"""Collect stage: write locks, their holders and the lock event log. Called through health.judge.checks.

Stamp locks are the governed writers' `<file>.lock` ({pid, host, ts, token}, cortex.write.locks): the
two hot files' locks and every `*.lock` directly under O (review state, proposals). For each
present lock the holder's liveness is measured: alive, gone (this host and provably dead:
no such pid, a zombie, a reused pid; psutil, imported only when a lock exists) or
unverifiable (another host, an unreadable stamp). The health log's flock file cannot go
stale (the kernel releases an flock with its holder), so it is only reported held or free.
O/memory-locks.jsonl gives the contended and recovered events (the newest TAIL_ROWS rows).
"""
from __future__ import annotations

import os
import stat

from collectors.lifeos.layout import Layout
from cortex import layout as contract
from collectors.readers.text import brief
from cortex.liferows import contention_at_ms
from collectors.readers.jsonl import tail_rows
from cortex.core.safeio import UnsafeFile, open_regular, read_bounded
from cortex.core.timestamps import parse_timestamp_ms
from collectors.evidence import FileState

EVENTS_LOG = contract.LOCKS_LOG
TAIL_ROWS = 2000
MAX_LOCKS = 100


class LockHolder:
    """file: str, the lock's file name; path: str; pid: object; host: object; at_ms: int | None, the stamp's ts, else
    the file's mtime; stamped: bool, the stamp parsed; holder: str, alive | gone | unverifiable.
    """

    __slots__ = ("file", "path", "pid", "host", "at_ms", "stamped", "holder")

    def __init__(self, file, path, pid, host, at_ms, stamped, holder) -> None:
        self.file, self.path, self.pid, self.host, self.at_ms, self.stamped = file, path, pid, host, at_ms, stamped
        self.holder = holder


class LocksEvidence:
    """status: EvidenceStatus, that of memory-locks.jsonl; events_log: FileState; locks: tuple[LockHolder, ...];
    contended_ms: tuple[int, ...], times of contended or recovered events in the log's tail; health_lock_held: bool
    | None, None when the flock file is absent.
    """

    __slots__ = ("status", "events_log", "locks", "contended_ms", "health_lock_held")

    def __init__(self, status, events_log, locks, contended_ms, health_lock_held) -> None:
        self.status, self.events_log, self.locks, self.contended_ms = status, events_log, locks, contended_ms
        self.health_lock_held = health_lock_held


def lock_paths(layout: Layout) -> list[str]:
    paths = [path + ".lock" for _, path in layout.hot_files]
    health_lock = layout.health_log + ".lock"
    try:
        names = sorted(os.listdir(layout.observability))
    except OSError:
        names = []
    paths += [os.path.join(layout.observability, n) for n in names if n.endswith(".lock")
              and os.path.join(layout.observability, n) != health_lock]
    return paths[:MAX_LOCKS]


def holder_of(path: str) -> LockHolder | None:
    try:
        info = os.lstat(path)
    except OSError:
        return None
    name = os.path.basename(path)
    if not stat.S_ISREG(info.st_mode):
        return LockHolder(name, path, None, None, info.st_mtime_ns // 1_000_000, False, "unverifiable")
    from cortex.write.locks import MAX_STAMP_BYTES, parse_stamp  # the writer's lock module, only when a lock is there

    try:
        stamp = parse_stamp(read_bounded(path, MAX_STAMP_BYTES))
    except (OSError, UnsafeFile):
        stamp = None
    if stamp is None:
        return LockHolder(name, path, None, None, info.st_mtime_ns // 1_000_000, False, "unverifiable")
    at_ms = parse_timestamp_ms(stamp["ts"])
    holder = "unverifiable"
    from cortex.core.liveness import host_name, process_is_gone  # only for a stamped lock (psutil: this host's)

    if stamp["host"] == host_name():
        holder = "gone" if process_is_gone(stamp["pid"], at_ms) else "alive"
    return LockHolder(name, path, stamp["pid"], brief(stamp["host"]), at_ms, True, holder)


def health_lock_held(path: str) -> bool | None:
    try:
        fd = open_regular(path)  # a FIFO, a folder or a symlink at the lock's place is no lock we can test
    except OSError:
        return None
    import fcntl  # (an extension module: ~0.5M instructions to load) only when there is a lock to test

    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)  # shared, released at once: never blocks a writer for long
        fcntl.flock(fd, fcntl.LOCK_UN)
        return False
    except BlockingIOError:
        return True
    except OSError:
        return None
    finally:
        os.close(fd)


def contended_events(path: str, anchor: str) -> tuple[FileState, tuple[int, ...]]:
    state, rows = tail_rows(path, TAIL_ROWS, anchor)
    times = []
    for row in rows:
        at_ms = contention_at_ms(row) if isinstance(row, dict) else None  # the writer's own event names
        if at_ms is not None:
            times.append(at_ms)
    return state, tuple(times)


def collect(layout: Layout) -> LocksEvidence:
    locks = tuple(found for found in map(holder_of, lock_paths(layout)) if found is not None)
    state, times = contended_events(layout.evidence(EVENTS_LOG), layout.memory)
    return LocksEvidence(state.status, state, locks, times, health_lock_held(layout.health_log + ".lock"))
