"""Collect stage: decide, without reading content, whether an evidence path may be read.

Used by every collector. Evidence files must be regular, non-symlink files whose real
location stays inside their anchor (M for everything under the memory tree): a symlink
that escapes, a directory, a FIFO or a device is reported as unreadable with a reason.
"""
from __future__ import annotations

import errno
import os
import stat

from cortex.core.safepaths import is_within
from collectors.evidence import EvidenceStatus, FileState


def describe_os_error(error: OSError) -> str:
    name = errno.errorcode.get(error.errno or 0, "OSError")
    return f"{error.strerror or error} ({name})"


def probe_file(path: str, anchor: str | None = None) -> FileState:
    """The state of `path` as an evidence file: missing, unreadable (why) or ok."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return FileState(path, EvidenceStatus.MISSING)
    except NotADirectoryError:
        return FileState(path, EvidenceStatus.UNREADABLE, "a parent of the path is not a directory")
    except OSError as error:
        return FileState(path, EvidenceStatus.UNREADABLE, describe_os_error(error))
    if stat.S_ISLNK(info.st_mode):
        return FileState(path, EvidenceStatus.UNREADABLE, "is a symlink (evidence must be a regular file)")
    if not stat.S_ISREG(info.st_mode):
        return FileState(path, EvidenceStatus.UNREADABLE, f"not a regular file ({file_kind(info.st_mode)})")
    if anchor is not None:
        escape = escapes(path, anchor)
        if escape:
            return FileState(path, EvidenceStatus.UNREADABLE, escape)
    return FileState(path, EvidenceStatus.OK)


def escapes(path: str, anchor: str) -> str | None:
    """Why `path` resolves outside `anchor` (a symlinked parent folder), or None."""
    if _plainly_below(path, anchor):
        return None
    anchor_real = os.path.realpath(anchor)
    real = os.path.realpath(path)
    if not is_within(anchor_real, real):
        return f"resolves outside {anchor} (to {real})"
    return None


def _plainly_below(path: str, anchor: str) -> bool:
    """Whether `path` is `anchor`/NAME/... through no symlink, "." or "..": realpath resolves left to right, so it is
    then realpath(anchor)/NAME/..., inside. One lstat per name below the anchor instead of two realpaths (one per
    name of both whole paths: most of what probing the evidence files cost an audit)."""
    prefix = anchor.rstrip(os.sep) + os.sep
    if prefix == os.sep or not path.startswith(prefix):
        return False
    current = prefix[:-1]
    for name in path[len(prefix):].split(os.sep):
        if name in ("", ".", ".."):
            return False
        current += os.sep + name
        try:
            if stat.S_ISLNK(os.lstat(current).st_mode):
                return False
        except OSError:
            pass  # realpath takes a missing or unreadable name as it is, as here
    return True


def file_kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISDIR, "directory"),
        (stat.S_ISFIFO, "FIFO"),
        (stat.S_ISSOCK, "socket"),
        (stat.S_ISCHR, "character device"),
        (stat.S_ISBLK, "block device"),
        (stat.S_ISLNK, "symlink"),
    ):
        if test(mode):
            return name
    return "special file"
