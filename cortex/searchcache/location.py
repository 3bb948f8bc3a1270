"""Search cache location: the database file of one memory root and its side files (stdlib only, no sqlite3); used by the store, `cortex cache` and the auditor.

The folder rule is cortex.core.cachedir's (CORTEX_CACHE_DIR, XDG_CACHE_HOME/cortex,
~/.cache/cortex; CORTEX_CACHE=off); this names the file inside the root's "search" folder.
"""
from __future__ import annotations

import os
import stat

from cortex.core.cachedir import cache_dir, cache_folder
from cortex.core.safeio import open_regular

TYPE_CHECKING = False  # annotations only: collections.abc imports collections (~7M instructions)
if TYPE_CHECKING:
    from collections.abc import Mapping

DB_NAME = "search.sqlite"
SIDE_FILES = ("", "-wal", "-shm", "-journal")  # the database, its WAL, shared memory and rollback journal
# ...and the summary of its file facts and the listing memo (cortex.searchcache.summary: read by us, never by sqlite,
# so never probed)
OWNED_FILES = SIDE_FILES + ("-summary", "-listing")


def db_path(environ: Mapping[str, str], memory_root: str, *, create: bool = True) -> str | None:
    """The database path in a private folder made for it, or None (no cache for this call)."""
    folder = cache_dir(environ, "search", memory_root, create=create)
    return None if folder is None else os.path.join(folder, DB_NAME)


def db_location(environ: Mapping[str, str], memory_root: str) -> str | None:
    """Where the database of `memory_root` is or would be (nothing created); None when caching is off."""
    folder = cache_folder(environ, "search", memory_root)
    return None if folder is None else os.path.join(folder, DB_NAME)


def _present_files(path: str, suffixes: tuple[str, ...] = OWNED_FILES):
    """(name, size) of the database and each of its files that exists."""
    for suffix in suffixes:
        try:
            yield path + suffix, os.lstat(path + suffix).st_size
        except (FileNotFoundError, NotADirectoryError):  # absent, or its folder is not one: no such file
            continue


def remove_files(path: str, *, strict: bool = False) -> int:
    """Delete the database and its side files; the bytes freed. A name that cannot be removed (a folder
    in its place, no permission) is skipped, or with `strict` an OSError naming it, raised before
    anything is removed when it is a folder."""
    present = list(_present_files(path))
    if strict:
        for name, _size in present:
            if stat.S_ISDIR(os.lstat(name).st_mode):
                import errno  # here: only `cortex cache clear` meets a folder there

                raise IsADirectoryError(errno.EISDIR, "a folder where a cache file belongs", name)
    freed = 0
    for name, size in present:
        try:
            os.unlink(name)
        except FileNotFoundError:
            continue
        except OSError:
            if strict:
                raise
            continue
        freed += size
    return freed


def probe_files(path: str) -> None:
    """Open the database and each side file present as every evidence file is opened (non-blocking, no
    symlink, regular files only; cortex.core.safeio) and close it again, before sqlite opens them by
    name: a FIFO there would block sqlite forever. An OSError (safeio.UnsafeFile) names the file."""
    for name, _size in _present_files(path, SIDE_FILES):
        try:
            os.close(open_regular(name))
        except FileNotFoundError:
            continue


def cache_bytes(path: str) -> int:
    """What the cache takes on disk: the database and every side file (one definition for `cortex cache status`
    and the auditor's evidence)."""
    return sum(size for _name, size in _present_files(path))
