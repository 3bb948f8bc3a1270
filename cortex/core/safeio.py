"""Core I/O helpers: open evidence and canonical files without blocking, read with bounds.

Used by the corpus loader, the auditor's collectors and the status line (stdlib only).
A path we are asked to read may be a directory, a FIFO, a device, a symlink or a huge file:
every read here refuses what is not a regular file and never reads more than asked.
"""
from __future__ import annotations

import os
import stat

_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)


def write_quietly(stream, text: str) -> None:
    """Write and flush `text`; a closed or broken stream is not worth a traceback (hooks, status line)."""
    try:
        stream.write(text)
        stream.flush()
    except (OSError, ValueError):
        pass


class UnsafeFile(OSError):
    """The path exists but is not something we will read (not regular, symlink, too big)."""


def open_regular(path: str | os.PathLike, *, follow_symlinks: bool = False) -> int:
    """Open `path` read-only without blocking (a FIFO cannot stall us); refuse non-regular files."""
    flags = _OPEN_FLAGS | (0 if follow_symlinks else getattr(os, "O_NOFOLLOW", 0))
    try:
        fd = os.open(path, flags)
    except OSError as error:
        if not follow_symlinks and os.path.islink(path):
            raise UnsafeFile(f"is a symlink: {path}") from error
        raise
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise UnsafeFile(f"not a regular file: {path}")
    except BaseException:
        os.close(fd)
        raise
    return fd


def read_bounded(path: str | os.PathLike, limit: int, *, follow_symlinks: bool = False) -> bytes:
    """The whole file, or UnsafeFile when it is larger than `limit` bytes or not regular."""
    fd = open_regular(path, follow_symlinks=follow_symlinks)
    try:
        size = os.fstat(fd).st_size
        if size > limit:
            raise UnsafeFile(f"larger than {limit} bytes: {path}")
        chunks = []
        remaining = limit + 1
        while remaining > 0:
            # the whole file in one read where it has not grown: one chunk, which join returns without a copy
            chunk = os.read(fd, min(remaining, max(size + 1, 1 << 16)))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
        data = b"".join(chunks)
        if len(data) > limit:
            raise UnsafeFile(f"larger than {limit} bytes: {path}")
        return data
    finally:
        os.close(fd)


def iter_lines(path: str | os.PathLike, max_line_bytes: int, *, follow_symlinks: bool = False, chunk_size: int = 1 << 16):
    """Yield (line_number, bytes | None) for each line, streaming; None marks an over-long line.

    Memory stays bounded by `max_line_bytes + chunk_size` whatever the file size. The line
    terminator (\\n, with an optional preceding \\r) is removed.
    """
    fd = open_regular(path, follow_symlinks=follow_symlinks)
    try:
        number = 0
        pending = bytearray()
        overlong = False
        while True:
            chunk = os.read(fd, chunk_size)
            if not chunk:
                break
            start = 0
            while True:
                newline = chunk.find(b"\n", start)
                if newline < 0:
                    if not overlong:
                        pending += chunk[start:]
                        if len(pending) > max_line_bytes:
                            overlong = True
                            pending.clear()
                    break
                number += 1
                if overlong or len(pending) + newline - start > max_line_bytes:
                    yield number, None
                else:
                    pending += chunk[start:newline]
                    yield number, bytes(pending[:-1] if pending.endswith(b"\r") else pending)
                pending.clear()
                overlong = False
                start = newline + 1
        if pending or overlong:
            number += 1
            yield number, None if overlong else bytes(pending[:-1] if pending.endswith(b"\r") else pending)
    finally:
        os.close(fd)


def tail_lines(path: str | os.PathLike, max_lines: int, *, max_bytes: int = 1 << 20, follow_symlinks: bool = False) -> list[bytes]:
    """The last `max_lines` complete lines, read backwards from the end: cost independent of size.

    Reads at most `max_bytes` from the end; a line that does not fit is not returned.
    """
    fd = open_regular(path, follow_symlinks=follow_symlinks)
    try:
        size = os.fstat(fd).st_size
        position = size
        buffer = b""
        block = 8192
        while position > 0 and buffer.count(b"\n") <= max_lines and size - position < max_bytes:
            step = min(block, position, max_bytes - (size - position))
            position -= step
            buffer = os.pread(fd, step, position) + buffer
            block = min(block * 2, 1 << 20)
        lines = buffer.split(b"\n")
        if position > 0:
            lines = lines[1:]  # the first piece may be a partial line
        lines = [line[:-1] if line.endswith(b"\r") else line for line in lines if line.strip()]
        return lines[-max_lines:]
    finally:
        os.close(fd)
