"""Collect stage: the memory root's search cache (cortex.searchcache) as evidence. Called through health.judge.checks.

Size, last write and last verification, read without changing anything: the database and its
side files are first opened as every evidence file is (non-blocking, regular files only), then
read by sqlite through an escaped URI, immutable when no writer is live (no -wal/-shm is
created; the file is re-checked after the read) and read-only with a short busy timeout when
one is. sqlite3 is imported only when the file exists. The cache is derived and never a
canonical index: this reports it, it never vouches for the corpus.
"""
from __future__ import annotations

import os

from collectors.evidence import EvidenceStatus
from collectors.lifeos.layout import Layout
from cortex.core.timestamps import parse_timestamp_ms
from cortex.searchcache.location import cache_bytes, db_location, probe_files
from cortex.core.hookjson import loads

BUSY_MS = 200
ATTEMPTS = 3  # immutable reads of a file that changed under them before the last one is believed


class SearchCacheEvidence:
    """status: EvidenceStatus, ok (present), missing (absent or off), unreadable; state: str, off | absent | present |
    unreadable; path: str | None; bytes: int; entries: int; indexed: int; schema: str | None; written_at: str |
    None; written_ms: int | None; verification: dict | None, the last `cortex cache verify` verdict; error: str |
    None.
    """

    __slots__ = ("status", "state", "path", "bytes", "entries", "indexed", "schema", "written_at", "written_ms",
                 "verification", "error")

    def __init__(self, status, state, path, bytes=0, entries=0, indexed=0, schema=None, written_at=None,
                 written_ms=None, verification=None, error=None) -> None:
        self.status, self.state, self.path, self.bytes, self.entries = status, state, path, bytes, entries
        self.indexed, self.schema, self.written_at, self.written_ms = indexed, schema, written_at, written_ms
        self.verification, self.error = verification, error


def collect(layout: Layout) -> SearchCacheEvidence:
    path = db_location(layout.environ, layout.memory)
    if path is None:
        return SearchCacheEvidence(EvidenceStatus.MISSING, "off", None)
    try:
        size = cache_bytes(path)
    except OSError as error:
        return SearchCacheEvidence(EvidenceStatus.UNREADABLE, "unreadable", path, error=error.strerror)
    if not os.path.lexists(path):
        return SearchCacheEvidence(EvidenceStatus.MISSING, "absent", path)
    return _read(path, size)


def _read(path: str, size: int) -> SearchCacheEvidence:
    try:
        probe_files(path)
    except OSError as error:  # safeio.UnsafeFile names the file in its message, os.open's errors in .filename
        reason = f"{error.strerror}: {error.filename}" if error.filename else str(error)
        return SearchCacheEvidence(EvidenceStatus.UNREADABLE, "unreadable", path, size, error=reason[:300])
    import sqlite3

    try:
        meta, entries, indexed = _query(path, sqlite3)
        verification = loads(meta["verified"]) if "verified" in meta else None
    except (sqlite3.Error, ValueError, OSError) as error:
        return SearchCacheEvidence(EvidenceStatus.UNREADABLE, "unreadable", path, size, error=f"{type(error).__name__}: {error}"[:300])
    written = meta.get("written_at")
    return SearchCacheEvidence(EvidenceStatus.OK, "present", path, size, entries, indexed, meta.get("schema"), written,
                               parse_timestamp_ms(written) if written else None,
                               verification if isinstance(verification, dict) else None)


def _query(path: str, sqlite3) -> tuple[dict, int, int]:
    """The meta rows and the entry counts. A live writer (its -wal and -shm present) is read through
    sqlite's locks, read-only; otherwise every committed row is in the file itself, read immutable
    (no lock, no side file created) and believed only when the file did not change meanwhile."""
    from urllib.parse import quote

    for attempt in range(1, ATTEMPTS + 1):
        live = os.path.exists(path + "-wal") and os.path.exists(path + "-shm")
        before = None if live else _stamp(path)
        try:
            db = sqlite3.connect(f"file:{quote(path)}?{'mode=ro' if live else 'immutable=1'}", uri=True,
                                 timeout=BUSY_MS / 1000)
            try:
                meta = dict(db.execute("SELECT key, value FROM meta"))
                entries, indexed = db.execute("SELECT count(*), coalesce(sum(indexed), 0) FROM files").fetchone()
            finally:
                db.close()
        except sqlite3.DatabaseError:
            if live or attempt == ATTEMPTS or before == _stamp(path):
                raise
            continue  # a writer changed the file under the immutable read: read it again
        if live or attempt == ATTEMPTS or before == _stamp(path):
            return meta, entries, indexed
    raise sqlite3.OperationalError("the cache kept changing while it was read")


def _stamp(path: str) -> tuple:
    info = os.stat(path)
    return info.st_ino, info.st_size, info.st_mtime_ns, os.path.exists(path + "-wal")
