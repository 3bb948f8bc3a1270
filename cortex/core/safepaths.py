"""Write path: pins each tree's top-level alias and refuses symlinks below it; used by every writer.

A top-level alias (LIFEOS/MEMORY or LIFEOS/USER pointing into a private repository) is
resolved once with realpath and becomes the trust boundary, exactly like the read path.
Below it every component must be a real directory or a regular file: a symlink there could
redirect a write outside the tree, so it is an integrity_error, never followed.
"""
from __future__ import annotations

import os
import stat

from cortex.errors import IntegrityError

DIR_MODE = 0o700  # memory is private: directories we create are owner-only
FILE_MODE = 0o600


def is_within(anchor: str, path: str) -> bool:
    """`path` is `anchor` or below it (both already resolved); the one containment check."""
    anchor = anchor.rstrip(os.sep) or os.sep
    return path == anchor or path.startswith(anchor + os.sep) or anchor == os.sep


def pin_tree(path: str, *, what: str, hint: str = " (run `cortex init`)") -> str:
    """Realpath of an existing directory (the alias is allowed here and only here)."""
    if not os.path.exists(path):
        raise IntegrityError(f"{what} does not exist: {path}{hint}")
    real = os.path.realpath(path)
    if not stat.S_ISDIR(os.lstat(real).st_mode):
        raise IntegrityError(f"{what} is not a directory: {path}")
    return real


def real_subdir(base_real: str, parts: tuple[str, ...] | list[str], *, create: bool) -> str:
    """base_real/parts..., each component a real directory; missing ones created when asked."""
    current = base_real
    for part in parts:
        current = os.path.join(current, part)
        try:
            info = os.lstat(current)
        except FileNotFoundError:
            if not create:
                raise IntegrityError(f"Directory does not exist: {current}") from None
            try:
                os.mkdir(current, DIR_MODE)
            except FileExistsError:
                pass  # a concurrent writer created it; re-check what it is below
            info = os.lstat(current)
        if stat.S_ISLNK(info.st_mode):
            raise IntegrityError(f"Refusing to write through a symlink: {current}")
        if not stat.S_ISDIR(info.st_mode):
            raise IntegrityError(f"Not a directory: {current}")
    return current


def check_regular_or_absent(path: str) -> bool:
    """True when `path` is a regular file, False when absent; anything else is refused."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return False
    except OSError as error:
        if isinstance(error, NotADirectoryError):  # errno ENOTDIR (not the errno module: a hook's start-up)
            raise IntegrityError(f"Not a directory on the way to: {path}") from None
        raise
    if stat.S_ISLNK(info.st_mode):
        raise IntegrityError(f"Refusing to write through a symlink: {path}")
    if not stat.S_ISREG(info.st_mode):
        raise IntegrityError(f"Not a regular file: {path}")
    return True


def memory_dir(memory_root: str, *parts: str, create: bool = True) -> str:
    """A real directory below the pinned memory root."""
    return real_subdir(pin_tree(memory_root, what="Memory root"), parts, create=create)


def user_dir(lifeos: str, *parts: str, create: bool = False) -> str:
    """A real directory below the pinned LIFEOS/USER tree."""
    return real_subdir(pin_tree(os.path.join(lifeos, "USER"), what="LIFEOS/USER"), parts, create=create)
