"""Report stage: read published reports back from the end of O/memory-health.jsonl.

Used by the status line (the newest report) and by `cortex-health history` (the last N).
Stdlib only. The log is opened with cortex.core.safeio.open_regular (non-blocking, regular files
only, never through a symlink) and read backwards in blocks from the size seen at open,
so the cost depends on the lines asked for, never on the size of the log. A line longer
than `max_line_bytes` is reported (as None) as soon as it is known to be too long and is
never buffered; `max_bytes` bounds the whole scan.
"""
from __future__ import annotations

import os

from cortex.core.safeio import UnsafeFile, open_regular
from cortex.core.strictjson import parse_object
from reports.report import SCHEMA_ID as SCHEMA

BLOCK = 64 * 1024
MAX_LINE_BYTES = 1 << 20
OVERALLS = ("ok", "warn", "critical", "unknown")


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


def report_problem(row: dict) -> str | None:
    """Why a parsed line is not a cortex-health report, or None."""
    from cortex.core.timestamps import parse_timestamp_ms

    if row.get("schema") != SCHEMA:
        return f"schema is not {SCHEMA}"
    if row.get("overall") not in OVERALLS:
        return "overall is not ok, warn, critical or unknown"
    if parse_timestamp_ms(row.get("ts")) is None:
        return "ts is not a valid timestamp"
    counts = row.get("counts")
    if not isinstance(counts, dict) or not all(type(counts.get(k)) is int for k in ("critical", "warn", "ok")):
        return "counts must hold integer critical, warn and ok"
    findings = row.get("findings")
    if not isinstance(findings, list) or not all(
            isinstance(f, dict) and isinstance(f.get("id"), str) and f.get("severity") in ("warn", "critical")
            and isinstance(f.get("message", ""), str) and isinstance(f.get("detail") or {}, dict) for f in findings):
        return "findings must be a list of {id, severity warn|critical, message, detail object}"
    ok_summary = row.get("ok_summary", [])
    if not isinstance(ok_summary, list) or not all(isinstance(item, str) for item in ok_summary):
        return "ok_summary must be a list of ids"
    return _shape_problem(row)


def _shape_problem(row: dict) -> str | None:
    """The rest of the published shape that readers rely on (the typed report, the dashboard): a hand-edited
    line that parses but has another shape is a bad line, never a report that breaks whoever shows it."""
    for key, what in (("thresholds", "{value, source, origin, unit}"), ("evidence", "collector evidence")):
        value = row.get(key)
        if value is not None and not (isinstance(value, dict) and all(isinstance(v, dict) for v in value.values())):
            return f"{key} must be an object of {what} objects"
    for key in ("root", "reason"):
        if not isinstance(row.get(key), (str, type(None))):
            return f"{key} must be a string or null"
    duration = row.get("duration_ms")
    if duration is not None and (type(duration) not in (int, float) or duration < 0):
        return "duration_ms must be a number of at least 0"
    return None


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
