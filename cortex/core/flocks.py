"""Shared helper: an exclusive flock taken without waiting. Used by cortex.searchcache.builder (one builder per
cache) and health.gatedetach (one detached gate check per tree).

The file is opened only to be locked, never read: a directory with O_DIRECTORY, a lock file with O_CREAT.
"""
from __future__ import annotations

import os


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
