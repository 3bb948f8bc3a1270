"""Search cache builder: indexes and stores the files a read call answered without a trusted entry; called by the loader's close, and by cortex.cli.main after the answer is printed.

Building (every term's postings, the contents, sqlite's writes) costs about as much again as
reading the files, so a call never pays for it in its answer: the call reads the files it has
no entry for exactly as an uncached call does and hands them here. Called in-process
(cortex.cli.run, tests, the adapter), the build runs when the call closes its corpus. Under
the console entry point (cortex.cli.main passes a list for the work) it runs after the answer
is printed, in a forked child that leaves the session, closes the call's output streams, builds, and exits:
no standing process, and one builder per cache at a time (a lock file beside the database,
taken without waiting: a call that finds it held leaves the work to the builder running).
The child stores what it has built at least every FLUSH_EVERY_S, so a builder killed midway
keeps most of its work.
"""
from __future__ import annotations

import os
import time

FLUSH_EVERY_S = 1.0
LOCK_SUFFIX = "-build.lock"


class BuildJob:
    """What one call read without an entry. path: str, the database; root: str, the pinned memory root;
    written_at: str, the meta stamp; fresh: list[(file path, stat key, read_ns, records)], the files to
    index (each aged past the racy margin when read); gone: list[str], stored paths no longer canonical.
    (Not a named tuple: nothing uses it as one, and its class cost every warm call ~0.4M instructions.)"""

    __slots__ = ("path", "root", "written_at", "fresh", "gone")

    def __init__(self, path: str, root: str, written_at: str, fresh: list, gone: list) -> None:
        self.path, self.root, self.written_at, self.fresh, self.gone = path, root, written_at, fresh, gone


def submit(job: BuildJob, deferred: list | None = None) -> None:
    """Build now, or, given a `deferred` list, leave the job there for run_deferred (after the answer)."""
    if deferred is not None and hasattr(os, "fork"):
        deferred.append(job)
        return
    lock = take_lock(job.path)
    if lock is None:
        return  # another caller is building this cache
    try:
        build(job)
    finally:
        os.close(lock)


def take_lock(db_path: str) -> int | None:
    """The builder lock of one cache (a descriptor holding an exclusive flock), or None when it is held
    or cannot be taken (then nobody builds in this call: the cache is a hint)."""
    from cortex.core.flocks import try_exclusive

    return try_exclusive(db_path + LOCK_SUFFIX, os.O_RDWR | os.O_CREAT | os.O_NONBLOCK)


def run_deferred(jobs: list[BuildJob]) -> bool:
    """After the answer is printed: fork one detached builder for the deferred jobs (none when a
    builder of that cache already runs); whether one was started. The caller goes on to exit; the
    child never returns."""
    if not jobs:
        return False
    lock = take_lock(jobs[0].path)
    if lock is None:
        return False
    try:
        pid = os.fork()
    except OSError:
        os.close(lock)
        return False
    if pid:
        os.close(lock)  # the child holds the lock (the same open file) until it exits
        return True
    _child(jobs)
    return False  # never reached: the child leaves through os._exit


def _child(jobs: list[BuildJob]) -> None:
    code = 0
    try:
        os.setsid()  # a hook runner that kills the caller's process group does not end the build
        null = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):  # the caller's pipes close now: whoever waits for its output stops waiting
            os.dup2(null, fd)
        for job in jobs:
            build(job)
    except BaseException:  # noqa: BLE001 - a builder only ever costs the cache, silently
        code = 1
    finally:
        os._exit(code)


def build(job: BuildJob) -> None:
    """Index and store the job's files; any failure (locked, read-only, full, damaged) only costs the cache."""
    import sqlite3

    from cortex.searchcache.entries import index_records, new_entry
    from cortex.searchcache.store import CacheUnusable, Store

    try:
        store = Store.open(job.path, [])
    except (CacheUnusable, sqlite3.Error, OSError):
        return
    meta = {"written_at": job.written_at, "root": job.root}
    try:
        batch, flushed = [], time.monotonic()
        for path, key, read_ns, records in job.fresh:
            lengths, postings = index_records(records)
            batch.append(new_entry(path, key, read_ns, records, lengths, postings))
            if time.monotonic() - flushed >= FLUSH_EVERY_S:
                store.write(batch, meta)
                batch, flushed = [], time.monotonic()
        store.write(batch, meta, job.gone)
        store.merge()  # the terms those writes changed, merged again for the whole root
    except (sqlite3.Error, OSError):
        pass
    finally:
        store.close()
