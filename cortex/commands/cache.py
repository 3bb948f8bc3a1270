"""Cache command: `cortex cache status|verify|clear` shows, checks and removes this memory root's search cache.

The cache (cortex.searchcache) is derived and never a source of truth; these commands only
report and manage it. `status` never creates it; `verify` re-reads every canonical file and
compares it with the cache (a differing entry is removed); `clear` deletes the root's cache.
"""
from __future__ import annotations

import os

from cortex.errors import IntegrityError, InvalidInput
from cortex.invocation import CommandSpec, Invocation

SUBCOMMANDS = ("status", "verify", "clear")


def cache(inv: Invocation) -> dict:
    sub = inv.positionals[0] if inv.positionals else None
    if sub not in SUBCOMMANDS or len(inv.positionals) != 1:
        raise InvalidInput(f"cache requires exactly one of: {', '.join(SUBCOMMANDS)}")
    from cortex.core.cachedir import cache_base
    from cortex.core.corpus import pinned_files
    from cortex.searchcache.location import db_location, db_path, remove_files

    root, _files = inv.loaded(pinned_files)  # the same root rules and errors as every read command
    if sub == "clear":
        path = db_location(inv.environ, root)
        try:
            freed = remove_files(path, strict=True) if path else 0
        except OSError as error:  # a folder at the database path, a folder we may not write: not ours to guess
            raise IntegrityError(f"cannot remove the search cache file {error.filename}: {error.strerror}") from None
        if path:
            try:
                os.rmdir(os.path.dirname(path))
            except OSError:
                pass
        return {"root": root, "path": path, "removed": freed > 0, "bytes_freed": freed}
    enabled = cache_base(inv.environ) is not None  # CORTEX_CACHE=off, or no home to put it in
    path = db_path(inv.environ, root) if sub == "verify" else db_location(inv.environ, root)
    return _report(inv, root, path, enabled, verifying=sub == "verify")


def _report(inv: Invocation, root: str, path: str | None, enabled: bool, *, verifying: bool) -> dict:
    from cortex.core.timestamps import iso_from_ms
    from cortex.searchcache.location import cache_bytes
    from cortex.searchcache.store import CacheUnusable, Store
    from cortex.searchcache.verify import describe, verify

    size = cache_bytes(path) if path else 0  # before our own connection adds its WAL and shared memory
    store = None
    if path and (verifying or os.path.exists(path)):
        try:
            store = Store.open(path, inv.notices)
        except CacheUnusable as error:
            inv.notices.append(f"the search cache cannot be opened ({error})")
    try:
        data = {"root": root, **describe(store, path, enabled, size)}
        if verifying:
            data["verification"] = None if store is None else verify(store, root, iso_from_ms(inv.now_ms()))
            data["ok"] = bool(data["verification"] and data["verification"]["ok"])
        return data
    finally:
        if store is not None:
            store.close()


COMMANDS = [CommandSpec(
    "cache", cache, usage="cortex cache status|verify|clear",
    option_help=(("status", "where it is, its size, entries, last write and last verification"),
                 ("verify", "re-read every canonical file and compare it with the cache\n"
                            "(an entry that differs is removed; data.ok says whether all matched,\n"
                            "false with verification null when caching is off)"),
                 ("clear", "delete this root's cache (the next read rebuilds it)"),
                 ("", "Location: $CORTEX_CACHE_DIR, else $XDG_CACHE_HOME/cortex, else ~/.cache/cortex;"),
                 ("", "CORTEX_CACHE=off disables it")),
    example="cortex cache verify --root ~/.claude")]
