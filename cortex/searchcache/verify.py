"""Search cache verification and facts: what `cortex cache status|verify` report; used by cortex.commands.cache.

Verify re-reads every canonical file, builds the entry the loader would store, and compares
it with the stored one field by field (decoded, not byte by byte: marshal output may differ
for equal values). A trusted entry that differs is removed and reported: the cache was wrong
and is never believed again; the verdict is kept in the cache's meta rows for `status` and
for the auditor (collectors/lifeos/search_cache.py).
"""
from __future__ import annotations

import json
import marshal
import os

from cortex.core.corpus import parse_file, pinned_files
from cortex.errors import IntegrityError
from cortex.searchcache.entries import facts_crc, identity, index_records, new_entry, stat_key, trusted
from cortex.searchcache.store import Store


def describe(store: Store | None, path: str | None, enabled: bool, size: int) -> dict:
    """The cache of one root as `cortex cache status` shows it (never opened for writing here); `size` is
    location.cache_bytes taken before the store was opened, as the auditor sees it."""
    info = {"enabled": enabled, "path": path, "exists": bool(path and os.path.exists(path)),
            "bytes": size, "schema": None, "entries": 0, "indexed": 0,
            "written_at": None, "last_verification": None, "source_of_truth": False}
    if store is not None:
        meta = store.meta()
        info.update(store.counts())
        info["schema"] = meta.get("schema")
        info["written_at"] = meta.get("written_at")
        info["last_verification"] = json.loads(meta["verified"]) if "verified" in meta else None
    return info


def verify(store: Store, root: str, at: str) -> dict:
    """Compare every trusted entry with a fresh read; drop the ones that differ; record the verdict."""
    root_real, files = pinned_files(root)
    problem = store.quick_check()
    stored = store.entries()
    checked, stale, mismatched = 0, 0, []
    for path in files:
        entry = stored.get(path)
        if entry is None:
            continue
        key = stat_key(os.lstat(path))
        if not trusted(entry.key, entry.read_ns, key):
            stale += 1  # would be re-read (and refreshed) by the next read command anyway
            continue
        checked += 1
        rel = os.path.relpath(path, root_real)
        try:
            records = parse_file(path, root_real)
        except (IntegrityError, OSError):
            mismatched.append(rel)
            continue
        lengths, postings = index_records(records) if entry.indexed else (None, None)
        fresh = new_entry(path, key, entry.read_ns, records, lengths, postings)  # the entry's identity: same checksums
        if not _same(store, entry, fresh):
            mismatched.append(rel)
    listed = set(files)
    verdict = {"at": at, "ok": problem == "ok" and not mismatched, "quick_check": problem, "files": len(files),
               "checked": checked, "stale": stale, "uncached": sum(1 for p in files if p not in stored),
               "orphaned": sum(1 for p in stored if p not in listed), "mismatched": mismatched[:100],
               "mismatched_count": len(mismatched)}
    removed = [path for path in files if os.path.relpath(path, root_real) in set(mismatched)]
    store.write([], {"verified": json.dumps(verdict, sort_keys=True)}, removed)
    store.merge(everything=True)  # the merged postings made again from the per-file rows that stand
    return verdict


def _same(store: Store, entry, fresh) -> bool:
    if marshal.loads(entry.facts) != marshal.loads(fresh.facts) or entry.crc != facts_crc(
            entry.facts, entry.indexed, identity(entry.path, entry.key, entry.read_ns)):
        return False
    if not entry.indexed:
        return True
    postings = {term: (bytes(data), crc) for term, data, crc in
                store.db.execute("SELECT term, data, crc FROM postings WHERE file=?", (entry.id,))}
    contents = {seq: (content, crc) for seq, content, crc in
                store.db.execute("SELECT seq, content, crc FROM contents WHERE file=?", (entry.id,))}
    return (postings == {term: (data, crc) for term, data, crc in fresh.postings}
            and contents == {seq: (content, crc) for seq, content, crc in fresh.contents})

