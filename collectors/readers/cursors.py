"""Collect stage: incremental reads of append-only evidence logs from a remembered cursor. Used by the log collectors.

A cursor remembers, per (log, aggregation): the log's device and inode, the offset just past
its last complete line and that line's number, digests of sampled byte ranges before the
offset (the first and last 64 KiB and 16 blocks spread between them), and what was gathered
up to there (the scan's counts and malformed lines, the collector's aggregate), as JSON,
sealed by a BLAKE2b digest over all of it (collectors.readers.memos, so the aggregate is bound to the digests of the
log prefix it summarises). The next audit checks the seal, then the rest against the open
file, and reads only what was appended. A seal that does not match (an edit, even into other
valid JSON), an inode change, a smaller size, any sampled range that differs, an unknown format
or aggregation version, or a cursor file that is corrupt or foreign means a full read. Cursors
live outside the tree (cortex.core.cachedir, kind "audit"), 0600, written atomically; a
location that cannot be written means full reads, never a failure. They hold only derived,
privacy-stripped evidence, never a row's text.
"""
from __future__ import annotations

import os

from collectors.evidence import EvidenceStatus, MalformedLine
from collectors.readers.fsprobe import probe_file
from collectors.readers.jsonl import MAX_LINE_BYTES, LogScan, Tally, read_failure
from collectors.readers.memos import DAMAGED, FORMAT, cursor_path, load_sealed, save_cursor
from collectors.readers.rowscan import Position, read_rows
from cortex.core.safeio import open_regular
from cortex.core.sha256 import blake2b
from cortex.core.hookjson import dumps

TYPE_CHECKING = False  # typing costs every audit ~2 ms; the protocol only documents and checks types
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Protocol

    class Aggregate(Protocol):
        """What a collector gathers from a log's rows, resumable from its JSON state."""

        key: str  # names the aggregation and its version: a new version ignores old cursors

        def rows(self, first_line: int, rows: list[dict]) -> None: ...

        def state(self) -> dict: ...

        def restore(self, state: dict) -> None: ...  # raises on a state it cannot take


EDGE_BYTES = 64 << 10
SAMPLES = 16
SAMPLE_BYTES = 4 << 10


def checked_ranges(offset: int) -> list[tuple[int, int]]:
    """(start, length) of the byte ranges before `offset` whose digests a cursor keeps."""
    edge = min(offset, EDGE_BYTES)
    ranges = [(0, edge), (offset - edge, edge)]
    if offset > 2 * EDGE_BYTES:
        inner = offset - 2 * EDGE_BYTES - SAMPLE_BYTES
        ranges += [(EDGE_BYTES + inner * k // (SAMPLES - 1), SAMPLE_BYTES) for k in range(SAMPLES)]
    return ranges


def digest(fd: int, start: int, length: int) -> str:
    return blake2b(os.pread(fd, length, start), digest_size=16).hexdigest()


def load_cursor(path: str, log: str, key: str, fd: int) -> dict | None:
    """The cursor at `path` when it is ours, sealed, and still describes the open log; None means read in full."""
    try:
        cursor = load_sealed(path)
        info = os.fstat(fd)
        if cursor["format"] != FORMAT or cursor["log"] != log or cursor["aggregate"] != key:
            return None
        offset = cursor["offset"]
        if (cursor["dev"], cursor["ino"]) != (info.st_dev, info.st_ino) or type(offset) is not int \
                or not 0 < offset <= info.st_size or type(cursor["lines"]) is not int:
            return None
        if [list(item) for item in cursor["checks"]] != [[start, length, digest(fd, start, length)]
                                                        for start, length in checked_ranges(offset)]:
            return None
        return cursor
    except DAMAGED:
        return None


def resume(cursor: dict | None, fresh: Callable[[], Aggregate]) -> tuple[Position, Tally, Aggregate]:
    """Where to start reading, with the counts and aggregate gathered before it (from nothing without a cursor)."""
    if cursor is not None:
        aggregate = fresh()
        try:
            scan = cursor["scan"]
            bad = [MalformedLine(int(line), str(reason)) for line, reason in scan["malformed"]]
            aggregate.restore(cursor["state"])
            tally = Tally(aggregate.rows, int(scan["rows"]), bad, int(scan["malformed_total"]))
            return Position(cursor["offset"], cursor["lines"]), tally, aggregate
        except (ValueError, KeyError, TypeError, AttributeError):
            pass  # a state this version cannot take: read in full
    aggregate = fresh()
    return Position(), Tally(aggregate.rows), aggregate


def scan_log(path: str, fresh: Callable[[], Aggregate], *, anchor: str | None, cursors: str | None,
             max_line_bytes: int = MAX_LINE_BYTES,
             quick: Callable[[bytes], dict | None] | None = None) -> tuple[LogScan, Aggregate]:
    """Every row of `path` gathered by an Aggregate, reading only what follows a valid cursor in `cursors`."""
    state = probe_file(path, anchor)
    if state.status is not EvidenceStatus.OK:
        return LogScan(state), fresh()
    key = fresh().key
    where = cursor_path(cursors, path, key, max_line_bytes) if cursors else None
    try:
        fd = open_regular(path)
    except OSError as error:
        return LogScan(read_failure(path, error)), fresh()
    snapshot: list[bytes] = []
    try:
        cursor = load_cursor(where, path, key, fd) if where else None
        start, tally, aggregate = resume(cursor, fresh)

        def remember(position: Position) -> None:  # serialised at once: the unfinished last line comes after
            if where and position.offset > 0 and position.offset != start.offset:
                info = os.fstat(fd)
                snapshot.append(dumps({
                    "format": FORMAT, "log": path, "aggregate": key, "dev": info.st_dev, "ino": info.st_ino,
                    "offset": position.offset, "lines": position.lines,
                    "checks": [[s, n, digest(fd, s, n)] for s, n in checked_ranges(position.offset)],
                    "scan": {"rows": tally.count, "malformed": [[m.line, m.reason] for m in tally.bad],
                             "malformed_total": tally.total},
                    "state": aggregate.state()}, separators=(",", ":")).encode())

        try:
            read_rows(fd, start, tally, max_line_bytes=max_line_bytes, at_last_complete=remember, quick=quick)
        except OSError as error:
            return tally.scan(read_failure(path, error)), aggregate
    finally:
        os.close(fd)
    if snapshot:
        save_cursor(where, snapshot[0])
    return tally.scan(state), aggregate
