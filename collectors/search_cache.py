"""Collect stage: the memory root's search cache (cortex.searchcache) as evidence. Called through health.checks.

Size, last write and last verification, read without changing anything (sqlite read-only,
short busy timeout; sqlite3 imported only when the file exists). The cache is derived
and never a canonical index: this reports it, it never vouches for the corpus.
"""
from __future__ import annotations

import json
import os
from collections import namedtuple

from collectors.evidence import EvidenceStatus
from collectors.layout import Layout
from cortex.core.timestamps import parse_timestamp_ms
from cortex.searchcache.location import cache_bytes, db_location

BUSY_MS = 200


class SearchCacheEvidence(namedtuple(
        "SearchCacheEvidence", "status state path bytes entries indexed schema written_at written_ms verification "
        "error",
        defaults=(0, 0, 0, None, None, None, None, None))):
    """status: EvidenceStatus, ok (present), missing (absent or off), unreadable; state: str, off | absent | present |
    unreadable; path: str | None; bytes: int; entries: int; indexed: int; schema: str | None; written_at: str |
    None; written_ms: int | None; verification: dict | None, the last `cortex cache verify` verdict; error: str |
    None.
    """

    __slots__ = ()


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
    import sqlite3

    try:
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=BUSY_MS / 1000)
        try:
            meta = dict(db.execute("SELECT key, value FROM meta"))
            entries, indexed = db.execute("SELECT count(*), coalesce(sum(indexed), 0) FROM files").fetchone()
        finally:
            db.close()
        verification = json.loads(meta["verified"]) if "verified" in meta else None
    except (sqlite3.Error, ValueError) as error:
        return SearchCacheEvidence(EvidenceStatus.UNREADABLE, "unreadable", path, size, error=f"{type(error).__name__}: {error}"[:300])
    written = meta.get("written_at")
    return SearchCacheEvidence(EvidenceStatus.OK, "present", path, size, entries, indexed, meta.get("schema"), written,
                               parse_timestamp_ms(written) if written else None,
                               verification if isinstance(verification, dict) else None)
