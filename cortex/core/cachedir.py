"""Core: where derived caches live (the search cache, the auditor's log cursors); stdlib only.

Used by cortex's search cache and the auditor's incremental log reader. A cache is never a
source of truth and never lives inside the memory tree: it goes to `$CORTEX_CACHE_DIR`, else
`$XDG_CACHE_HOME/cortex`, else `~/.cache/cortex`; `CORTEX_CACHE=off` disables every cache.
Each memory root gets its own folder, named by a digest of its real path, so two trees
never share entries. A folder we cannot own privately (0700, ours, not a symlink) means
no cache: callers degrade to the uncached path, they never fail because of it.
"""
from __future__ import annotations

import os
import stat

from cortex.core.sha256 import sha256_hex

TYPE_CHECKING = False  # annotations only: collections.abc imports collections (~7M instructions)
if TYPE_CHECKING:
    from collections.abc import Mapping

OFF_VALUES = frozenset({"off", "0", "false", "no"})
DIR_MODE = 0o700
FILE_MODE = 0o600


def cache_enabled(environ: Mapping[str, str]) -> bool:
    return environ.get("CORTEX_CACHE", "").strip().lower() not in OFF_VALUES


def cache_base(environ: Mapping[str, str]) -> str | None:
    """The configured cache base folder (not created), or None when caching is off or no home is known."""
    if not cache_enabled(environ):
        return None
    explicit = environ.get("CORTEX_CACHE_DIR", "")
    if explicit:
        return os.path.abspath(explicit)
    xdg = environ.get("XDG_CACHE_HOME", "")
    if xdg and os.path.isabs(xdg):  # the XDG spec says a relative value is to be ignored
        return os.path.join(xdg, "cortex")
    home = environ.get("HOME", "")
    return os.path.join(home, ".cache", "cortex") if home and os.path.isabs(home) else None


def root_key(memory_root: str) -> str:
    """A stable folder name for one memory root: the digest of its real path."""
    return sha256_hex(os.path.realpath(memory_root).encode("utf-8", "surrogateescape"))[:32]


def private_dir(path: str) -> str | None:
    """Create `path` (and parents) as 0700 folders; None unless it ends up a real folder we own, private."""
    try:
        os.makedirs(path, mode=DIR_MODE, exist_ok=True)
        info = os.lstat(path)
    except OSError:
        return None
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid():
        return None
    if stat.S_IMODE(info.st_mode) != DIR_MODE:
        try:
            os.chmod(path, DIR_MODE)
        except OSError:
            return None
    return path


def cache_folder(environ: Mapping[str, str], kind: str, memory_root: str) -> str | None:
    """Where the folder of cache `kind` for `memory_root` is or would be (nothing created); None when off."""
    base = cache_base(environ)
    return None if base is None else os.path.join(base, kind, root_key(memory_root))


def cache_dir(environ: Mapping[str, str], kind: str, memory_root: str, *, create: bool = True) -> str | None:
    """The private folder of cache `kind` ("search", "audit") for `memory_root`, or None (no cache)."""
    path = cache_folder(environ, kind, memory_root)
    if path is None:
        return None
    if not create:
        return path if os.path.isdir(path) and not os.path.islink(path) else None
    kind_dir = os.path.dirname(path)  # base/kind: each level made private in turn
    if private_dir(os.path.dirname(kind_dir)) is None or private_dir(kind_dir) is None:
        return None
    return private_dir(path)
