"""Collect stage: the streaming JSONL reader every log collector uses, and the small JSON object files (state, config).

Built on collectors.readers.rowscan (big chunks, a fast path only where it is certain), so memory
stays bounded by one line (MAX_LINE_BYTES) plus one chunk whatever the file size. Every row must be one JSON object; anything else is a malformed
line with its number and reason (over-long, invalid UTF-8, invalid JSON, NaN/Infinity,
duplicate keys, not an object). Blank lines are not rows. Only the first
MAX_REPORTED_LINES malformed lines are kept, plus the total, so a garbage file of any size
costs constant memory.
"""
from __future__ import annotations

import os

from cortex import layout as contract
from cortex.core.safeio import UnsafeFile, open_regular, read_bounded, tail_lines
from cortex.review.reviewdefaults import CONFIG_NAME
from collectors.readers.fsprobe import describe_os_error, probe_file
from collectors.evidence import EvidenceStatus, FileState, MalformedLine, same_record
from collectors.readers.text import clip
from cortex.core.strictjson import parse_object
from collectors.readers.rowscan import Position, read_rows

TYPE_CHECKING = False  # annotations only: collections.abc imports collections (~7M instructions)
if TYPE_CHECKING:
    from collections.abc import Callable

MAX_LINE_BYTES = 1 << 20
MAX_REPORTED_LINES = 20


class LogScan:
    """What one pass over a JSONL file found (the rows themselves went to the visitor).

    file: FileState; rows: int; malformed: tuple[MalformedLine, ...]; malformed_total: int.
    """

    __slots__ = ("file", "rows", "malformed", "malformed_total")

    def __init__(self, file, rows=0, malformed=(), malformed_total=0) -> None:
        self.file, self.rows, self.malformed, self.malformed_total = file, rows, malformed, malformed_total

    __eq__ = same_record  # compared field by field (resumed evidence against a full read)

    @property
    def status(self) -> EvidenceStatus:
        if self.file.status is EvidenceStatus.OK and self.malformed_total:
            return EvidenceStatus.MALFORMED
        return self.file.status


class Tally:
    """The rows and malformed lines of one read (a rowscan.Sink); rows go on to `on_rows` in batches."""

    def __init__(self, on_rows: Callable[[int, list[dict]], None], rows: int = 0,
                 malformed: list[MalformedLine] | None = None, total: int = 0) -> None:
        self.on_rows = on_rows
        self.count = rows
        self.bad = malformed if malformed is not None else []
        self.total = total

    def rows(self, first_line: int, rows: list[dict]) -> None:
        self.count += len(rows)
        self.on_rows(first_line, rows)

    def malformed(self, line: int, reason: str) -> None:
        self.total += 1
        if len(self.bad) < MAX_REPORTED_LINES:  # a reason may quote a key: it crosses the privacy boundary
            self.bad.append(MalformedLine(line, clip(reason)))

    def scan(self, state: FileState) -> LogScan:
        return LogScan(state, self.count, tuple(self.bad), self.total)


def each_row(visit: Callable[[int, dict], None]) -> Callable[[int, list[dict]], None]:
    """A per-row visitor as a batch callback."""
    def on_rows(first: int, rows: list[dict]) -> None:
        for number, row in enumerate(rows, first):
            visit(number, row)
    return on_rows


def read_failure(path: str, error: OSError) -> FileState:
    """The state of a log that failed while being read (swapped, gone, an I/O error)."""
    if isinstance(error, UnsafeFile):  # swapped for a non-regular file after the probe
        return FileState(path, EvidenceStatus.UNREADABLE, str(error))
    if isinstance(error, FileNotFoundError):
        return FileState(path, EvidenceStatus.MISSING, "disappeared while being read")
    return FileState(path, EvidenceStatus.UNREADABLE, describe_os_error(error))


def scan_rows(path: str, on_rows: Callable[[int, list[dict]], None], *, anchor: str | None = None,
              max_line_bytes: int = MAX_LINE_BYTES, quick: Callable[[bytes], dict | None] | None = None) -> LogScan:
    """Read all of `path`, passing every well-formed object row to on_rows(first_line_number, rows)."""
    state = probe_file(path, anchor)
    if state.status is not EvidenceStatus.OK:
        return LogScan(state)
    tally = Tally(on_rows)
    try:
        fd = open_regular(path)
        try:
            read_rows(fd, Position(), tally, max_line_bytes=max_line_bytes, quick=quick)
        finally:
            os.close(fd)
    except OSError as error:
        state = read_failure(path, error)
    return tally.scan(state)


def scan_jsonl(path: str, visit: Callable[[int, dict], None], *, anchor: str | None = None,
               max_line_bytes: int = MAX_LINE_BYTES, quick: Callable[[bytes], dict | None] | None = None) -> LogScan:
    """Stream `path`, calling visit(line_number, row) for every well-formed object row.

    `quick` may recognise a line whose meaning is certain (e.g. a writer's exact compact form)
    and return its row without the strict decoder; None sends the line to the strict decoder.
    """
    return scan_rows(path, each_row(visit), anchor=anchor, max_line_bytes=max_line_bytes, quick=quick)


_TAILS: dict = {}  # path -> (key, lines): the newest tail read of each log, for the next collector reading it
_MAX_TAILS = 8  # logs remembered (each at most 1 MiB of lines): the audit tails fewer than that


def tail_of(path: str, count: int, anchor: str | None = None) -> tuple[FileState, list[bytes]]:
    """The last `count` non-blank lines of a log, undecoded (bounded, from the end).

    Several collectors read the same tails (the hooks' logs: their heartbeats and their latency; the health log
    also for the hot-file trend): the newest read of each log is kept, bound to the count asked for and the
    file's device, inode, size, mtime and ctime, and reused only while all are unchanged (an append changes the
    size; an edit that puts the size and mtime back still moves the ctime), so it never answers for other bytes.
    """
    state = probe_file(path, anchor)
    if state.status is not EvidenceStatus.OK:
        return state, []
    try:
        info = os.stat(path, follow_symlinks=False)
        key = (path, count, info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)
        known = _TAILS.get(path)
        if known is not None and known[0] == key:
            return state, list(known[1])
        lines = tail_lines(path, count)
    except (OSError, UnsafeFile) as error:
        return FileState(path, EvidenceStatus.UNREADABLE, str(error)), []
    if path not in _TAILS and len(_TAILS) >= _MAX_TAILS:
        _TAILS.pop(next(iter(_TAILS)))
    _TAILS[path] = (key, tuple(lines))
    return state, lines


def tail_rows(path: str, count: int, anchor: str | None = None) -> tuple[FileState, list[dict | str]]:
    """The last `count` non-blank lines of a log, each a row or the reason it is not one (bounded, from the end)."""
    state, lines = tail_of(path, count, anchor)
    return state, [parse_object(line) for line in lines]


def json_object(path: str) -> dict:
    """A small JSON object file (state, config) as a dict; {} when absent, unreadable, over 1 MiB or not an object."""
    try:
        parsed = parse_object(read_bounded(path, 1 << 20).strip())
    except (OSError, UnsafeFile):
        return {}
    return parsed if isinstance(parsed, dict) else {}


def review_config(root: str) -> dict:
    """The reviewer's ROOT/LIFEOS/USER/CONFIG/memory-review.json as json_object reads it (the reviewer validates it)."""
    return json_object(os.path.join(root, contract.LIFEOS, contract.USER, "CONFIG", CONFIG_NAME))
