"""Search cache location: the database file of one memory root (stdlib only, no sqlite3); used by the store and the auditor.

The folder rule is cortex.core.cachedir's (CORTEX_CACHE_DIR, XDG_CACHE_HOME/cortex,
~/.cache/cortex; CORTEX_CACHE=off); this names the file inside the root's "search" folder.
"""
from __future__ import annotations

import os
from collections.abc import Mapping

from cortex.core.cachedir import cache_dir, cache_folder

DB_NAME = "search.sqlite"


def db_path(environ: Mapping[str, str], memory_root: str, *, create: bool = True) -> str | None:
    """The database path in a private folder made for it, or None (no cache for this call)."""
    folder = cache_dir(environ, "search", memory_root, create=create)
    return None if folder is None else os.path.join(folder, DB_NAME)


def db_location(environ: Mapping[str, str], memory_root: str) -> str | None:
    """Where the database of `memory_root` is or would be (nothing created); None when caching is off."""
    folder = cache_folder(environ, "search", memory_root)
    return None if folder is None else os.path.join(folder, DB_NAME)
