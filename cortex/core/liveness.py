"""Write path: is a process gone? (psutil evidence), and this host's name; used by lock recovery, temp-file sweeping and the lock collectors.

Only a proof of absence counts: no such pid, a zombie, or — when the caller knows when the
holder started holding — a process that started after that moment (the pid was reused).
AccessDenied or any doubt means "alive", so doubt can never break a live lock.
"""
from __future__ import annotations

import os

PID_REUSE_SLACK_MS = 2000  # process start times are coarse; only a clearly later start proves reuse


def process_is_gone(pid: int, held_since_ms: int | None = None) -> bool:
    import psutil  # imported only when a lock or temp file actually needs judging

    try:
        process = psutil.Process(pid)
        if process.status() == psutil.STATUS_ZOMBIE:
            return True
        return held_since_ms is not None and process.create_time() * 1000 > held_since_ms + PID_REUSE_SLACK_MS
    except psutil.NoSuchProcess:
        return True
    except (psutil.AccessDenied, OSError):
        return False


def host_name() -> str:
    """socket.gethostname() without importing socket (~3 ms of every lock check): on POSIX both are the uname node name."""
    if hasattr(os, "uname"):
        return os.uname().nodename
    import socket

    return socket.gethostname()
