"""Write path: crash-safe file primitives (atomic replace, create-once, line append); used by all writers and the auditor.

- replace_file: unique O_EXCL temp in the same folder → write → fsync → rename over the
  target → fsync the folder. A crash at any point leaves the old or the new bytes.
  sync=False (a value rewritten on every call: the surface heartbeat) keeps the atomic rename
  but skips both fsyncs: a reader still never sees a torn write, and what a power loss may
  cost (the newest bytes, or an empty file, which no reader takes as valid) the next call restores.
- create_file: the same, but the final step is link(), which refuses an existing target,
  so a file is created whole or not at all and is never overwritten.
- append_line: one O_APPEND write of a complete line, then fsync; a torn tail left by an
  earlier crash is terminated first so our line always stands on its own.
Temp names start with "." so the corpus loader and the auditor never read them. A writer
removes only temp files it can prove were made here: its own (by the name it holds), and, in
the sweep, those of dead writers, whose names end in a check value over the rest of the name
(`.<name>.<pid>.<nonce><check>.tmp`): a file that only looks like one (`.X.<pid>.Y.tmp`, made
by someone else) is never touched.
"""
from __future__ import annotations

import os
import stat

from cortex.core.checkpoints import reached
from cortex.core.safepaths import FILE_MODE

TYPE_CHECKING = False  # annotations only: collections.abc costs every hook's start-up ~0.4M instructions
if TYPE_CHECKING:
    from collections.abc import Callable

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


def _check(base: str, pid: str, nonce: str) -> str:
    """8 hex digits of FNV-1a over a temp name's parts: the mark of a name made by temp_name_for.

    Pure Python on purpose: importing hashlib or zlib costs the hot hooks about a millisecond.
    """
    value = 0x811C9DC5
    for byte in f"{base}\0{pid}\0{nonce}".encode("utf-8", "surrogateescape"):
        value = ((value ^ byte) * 0x01000193) & 0xFFFFFFFF
    return f"{value:08x}"


def temp_name_for(path: str) -> str:
    # os.urandom(n).hex() is secrets.token_hex(n) without importing secrets (hmac, hashlib, random: ~4.7 ms)
    directory, base = os.path.split(path)
    pid, nonce = str(os.getpid()), os.urandom(4).hex()
    return os.path.join(directory, f".{base}.{pid}.{nonce}{_check(base, pid, nonce)}.tmp")


def made_by_temp_name_for(name: str) -> int | None:
    """The writer's pid when `name` (a bare file name) was made by temp_name_for, else None."""
    if not (name.startswith(".") and name.endswith(".tmp")):
        return None
    parts = name[1:-4].rsplit(".", 2)
    if len(parts) != 3:
        return None
    base, pid, token = parts
    if not (base and pid.isdigit() and pid.isascii() and len(token) == 16):
        return None
    return int(pid) if _check(base, pid, token[:8]) == token[8:] else None


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def fsync_dir(directory: str) -> None:
    fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        os.fsync(fd)
    except OSError:
        pass  # some filesystems cannot fsync a directory; the rename is still atomic
    finally:
        os.close(fd)


def _written_temp(path: str, data: bytes, mode: int, sync: bool = True) -> str:
    temp = temp_name_for(path)
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, mode)
    try:
        reached("temp-created")
        _write_all(fd, data)
        os.fchmod(fd, mode)
        if sync:
            os.fsync(fd)
    except BaseException:
        os.close(fd)
        _discard(temp)
        raise
    os.close(fd)
    reached("temp-synced")
    return temp


def _discard(path: str) -> None:
    try:
        os.unlink(path)
    except FileNotFoundError:
        pass


def replace_file(path: str, data: bytes, *, mode: int | None = None,
                 before_rename: Callable[[], None] | None = None, sync: bool = True) -> None:
    """Atomically make `path` hold exactly `data` (keeping an existing file's permissions).

    `before_rename` runs after the data is synced and just before the rename; if it raises,
    the temporary file is removed and `path` is left as it was. `sync=False`: atomic but not
    durable (see the module docstring).
    """
    if mode is None:
        try:
            mode = stat.S_IMODE(os.lstat(path).st_mode)
        except FileNotFoundError:
            mode = FILE_MODE
    sweep_dead_temps(os.path.dirname(path))
    temp = _written_temp(path, data, mode, sync)
    try:
        if before_rename is not None:
            before_rename()
        os.replace(temp, path)
    except BaseException:
        _discard(temp)
        raise
    reached("renamed")
    if sync:
        fsync_dir(os.path.dirname(path))
        reached("dir-synced")


def create_file(path: str, data: bytes, *, mode: int = FILE_MODE) -> None:
    """Create `path` with `data`, whole or not at all; FileExistsError if it already exists."""
    sweep_dead_temps(os.path.dirname(path))
    temp = _written_temp(path, data, mode)
    try:
        os.link(temp, path)
        reached("linked")
    finally:
        _discard(temp)
    fsync_dir(os.path.dirname(path))
    reached("dir-synced")


def append_line(path: str, line: bytes, *, mode: int = FILE_MODE) -> None:
    """Append one complete line (the newline is added here) to a regular, non-symlink file (created with `mode`)."""
    fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK | _NOFOLLOW, mode)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(f"not a regular file: {path}")
        prefix = b""
        if info.st_size and os.pread(fd, 1, info.st_size - 1) != b"\n":
            prefix = b"\n"  # an earlier crash tore the last line; never glue ours onto it
        _write_all(fd, prefix + line + b"\n")
        os.fsync(fd)
    finally:
        os.close(fd)
    reached("appended")


def sweep_dead_temps(directory: str) -> int:
    """Delete temp files left in `directory` by writers that died: regular files whose name temp_name_for made.

    Safe without any lock: only files whose writer process is provably gone are removed.
    """
    from cortex.core.liveness import process_is_gone

    removed = 0
    with os.scandir(directory) as entries:
        for entry in entries:
            pid = made_by_temp_name_for(entry.name)
            if pid is not None and pid != os.getpid() and entry.is_file(follow_symlinks=False) \
                    and process_is_gone(pid):
                _discard(entry.path)
                removed += 1
    return removed
