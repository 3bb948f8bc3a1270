"""Collect stage (the health log's lines): read published reports back from the end of O/memory-health.jsonl.

Used by the status line and the gate's summary (the newest report), `cortex-health history` and the
dashboard (the last N) and `history --verify` (what an unchained line is). Stdlib only. The log is opened with cortex.core.safeio.open_regular (non-blocking, regular files
only, never through a symlink) and read backwards in blocks from the size seen at open,
so the cost depends on the lines asked for, never on the size of the log. A line longer
than `max_line_bytes` is reported (as None) as soon as it is known to be too long and is
never buffered; `max_bytes` bounds the whole scan.
"""
from __future__ import annotations

import os

from collectors.healthlog.format import report_problem
from cortex.core.safeio import UnsafeFile, open_regular
from cortex.core.strictjson import parse_object

BLOCK = 64 * 1024
MAX_LINE_BYTES = 1 << 20


class ReverseLines:
    """Iterate the lines of a file newest first: bytes, or None for an over-long line.

    Use as a context manager. `bytes_read` counts what was read; `exhausted` is set when
    `max_bytes` stopped the scan before the start of the file.
    """

    def __init__(self, path: str, *, max_line_bytes: int = MAX_LINE_BYTES, max_bytes: int | None = None,
                 block: int = BLOCK):
        self.path = path
        self.max_line_bytes = max_line_bytes
        self.max_bytes = max_bytes
        self.block = block
        self.bytes_read = 0
        self.exhausted = False
        self.fd = open_regular(path)  # FileNotFoundError, UnsafeFile or OSError for the caller
        self.size = os.fstat(self.fd).st_size

    def __enter__(self) -> "ReverseLines":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1

    def _blocks(self):
        position = self.size
        while position > 0:
            if self.max_bytes is not None and self.bytes_read >= self.max_bytes:
                self.exhausted = True
                return
            step = min(self.block, position)
            position -= step
            chunk = os.pread(self.fd, step, position)
            self.bytes_read += len(chunk)
            yield chunk

    def __iter__(self):
        tail = bytearray()  # the newest line being assembled, its left end not found yet
        overlong = False  # the current line was already reported as too long
        for chunk in self._blocks():
            end = len(chunk)
            while True:
                newline = chunk.rfind(b"\n", 0, end)
                piece = chunk[newline + 1:end]
                if not overlong:
                    tail[0:0] = piece
                    if len(tail) > self.max_line_bytes:
                        overlong = True
                        tail.clear()
                        yield None
                if newline < 0:
                    break
                if not overlong and tail.strip():
                    yield bytes(tail)
                tail.clear()
                overlong = False
                end = newline
        if not overlong and not self.exhausted and tail.strip():
            yield bytes(tail)


def parse_report(raw: bytes | None, max_line_bytes: int = MAX_LINE_BYTES) -> dict | str:
    """The report in one log line, or why it is not one."""
    if raw is None:
        return f"line longer than {max_line_bytes} bytes"
    row = parse_object(raw.strip())
    if isinstance(row, str):
        return row
    problem = report_problem(row)
    if problem or not _may_hold_tags(raw):
        return problem or row
    # A hand-edited or legacy line crosses the privacy boundary before the status line or the
    # history shows any of it (imported only here: the status line's start-up stays lean).
    from cortex.core.privatejson import KeyCollision, strip_private_json

    try:
        return strip_private_json(row)
    except KeyCollision as error:
        return str(error)


# Every character that NFKC-normalises to "<": without one no string can open a private span. In the
# line's bytes each is written as itself (UTF-8) or as a \u escape, so these marks find every candidate.
_ANGLES = ("<", "\uff1c", "\ufe64")
_MARKS = tuple(angle.encode("utf-8") for angle in _ANGLES) + (b"\\u",)


def _may_hold_tags(raw: bytes) -> bool:
    """Whether a key or string of the line may open a private span: a few scans of its bytes (a walk over
    every value of a report took most of the time to read a window of them)."""
    return any(mark in raw for mark in _MARKS)


def describe_open_error(error: OSError) -> str:
    """A short reason without the path (the status line has no room for it)."""
    if isinstance(error, UnsafeFile):
        return str(error).split(": ", 1)[0]
    return f"{error.strerror or error}"


def newest_report(path: str) -> tuple[dict | None, str | None]:
    """(report, None), (None, None) when no run was published, or (None, why it cannot be read)."""
    try:
        reader = ReverseLines(path, max_bytes=MAX_LINE_BYTES + BLOCK)
    except FileNotFoundError:
        return None, None
    except OSError as error:
        return None, f"health log unreadable: {describe_open_error(error)}"
    with reader:
        for raw in reader:
            parsed = parse_report(raw)
            return (parsed, None) if isinstance(parsed, dict) else (None, f"bad newest report: {parsed}")
    if reader.size:
        return None, "health log has no complete report in its last MiB"
    return None, None
