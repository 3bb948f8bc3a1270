"""Shared helper: an exclusive flock taken without waiting, and a bounded wait for one to be let go. Used by
cortex.searchcache.builder (one builder per cache), health.gatedetach (one detached gate check per tree) and
collectors.lifeos.probe.verdicts (the probe waits for the gate's detached check).

The file is opened only to be locked, never read: a directory with O_DIRECTORY, a lock file with O_CREAT.
"""
from __future__ import annotations

import os
import time


def try_exclusive(path: str, flags: int, mode: int = 0o600) -> int | None:
    """A descriptor holding an exclusive flock on `path` (opened with `flags` plus no-follow and close-on-exec),
    or None when the lock is held or the file cannot be opened: the caller then does nothing."""
    import fcntl

    try:
        fd = os.open(path, flags | os.O_NOFOLLOW | os.O_CLOEXEC, mode)
    except OSError:
        return None
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def wait_free(path: str, flags: int, deadline: float) -> bool:
    """True once nobody holds an exclusive flock on `path` (or it cannot be opened: nothing runs under it),
    False at the monotonic `deadline`. Polled: a lock has no timed wait, and what it guards runs for milliseconds."""
    import fcntl

    try:
        fd = os.open(path, flags | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return True
    try:
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
                return True
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    return False
                time.sleep(0.02)
    finally:
        os.close(fd)
