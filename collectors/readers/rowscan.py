"""Collect stage: the strict JSONL row reader under collectors.readers.jsonl and collectors.readers.cursors, from any offset, in big chunks.

Every line is judged exactly as cortex.core.strictjson.parse_object judges it. A chunk of
lines takes the fast path (orjson, a required dependency) only when the outcome is certain: each
line decodes alone to an object, re-encoding them all gives back the very same bytes (so no
duplicate key, no escape or number that changed on the way, no stray whitespace), no line
is over-long and none can nest deeper than the strict decoder allows. Any doubt sends that
chunk line by line through the strict decoder, so the verdict never depends on the path.
"""
from __future__ import annotations

import os

from cortex.core.strictjson import MAX_DEPTH, parse_object, too_deep

TYPE_CHECKING = False  # typing costs every audit ~2 ms; the protocol only documents and checks types
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Protocol

    class Sink(Protocol):
        def rows(self, first_line: int, rows: list[dict]) -> None:
            """Well-formed object rows, numbered consecutively from first_line."""

        def malformed(self, line: int, reason: str) -> None:
            """A line that is not one strict JSON object, and why."""


CHUNK_BYTES = 1 << 16  # big enough that per-chunk costs vanish, small enough to keep memory flat
# Nesting deeper than MAX_DEPTH takes MAX_DEPTH + 1 bracket pairs: a shorter line cannot.
DEEP_LINE_BYTES = 2 * (MAX_DEPTH + 1)
# Importing orjson costs ~5 ms (it loads uuid, zoneinfo, platform); the strict decoder reads
# a smaller block sooner than that, so a small log (a healthy tree's) never pays the import.
FAST_PATH_MIN_BYTES = 1 << 15


class Position:
    """Where a read stands: just past the last complete line (offset) and that line's number (the read moves it)."""

    __slots__ = ("offset", "lines")

    def __init__(self, offset: int = 0, lines: int = 0) -> None:
        self.offset = offset
        self.lines = lines


_CODEC: list = []  # (loads, dumps, error) or None, imported on the first chunk: start-up pays nothing


def fast_codec():
    if not _CODEC:
        try:
            import orjson
        except ImportError:  # a broken install: the strict decoder alone is as correct, only slower
            _CODEC.append(None)
        else:
            _CODEC.append((orjson.loads, orjson.dumps, orjson.JSONDecodeError))
    return _CODEC[0]


def certain_rows(lines: list[bytes], max_line_bytes: int, min_bytes: int = FAST_PATH_MIN_BYTES) -> list[dict] | None:
    """The rows of `lines` when the fast codec proves each is a strict object row; else None."""
    if not lines or sum(map(len, lines)) < min_bytes:
        return None
    codec = fast_codec()
    if codec is None:
        return None
    loads, dumps, error = codec
    longest = max(map(len, lines))
    if longest > max_line_bytes:
        return None
    try:
        rows = list(map(loads, lines))  # line by line: a row can never straddle two lines
        if set(map(type, rows)) != {dict}:
            return None
        # One encode of the whole list equals the joined lines only if every line re-encodes to itself.
        if dumps(rows) != b"[" + b",".join(lines) + b"]":
            return None
    except (error, ValueError, TypeError):  # any doubt at all: the strict decoder decides
        return None
    if longest >= DEEP_LINE_BYTES and any(map(too_deep, rows)):  # the strict decoder words the reason
        return None
    return rows


def judge_line(raw: bytes, number: int, sink: Sink, max_line_bytes: int,
               quick: Callable[[bytes], dict | None] | None) -> None:
    """One line by the strict decoder (blank lines are not rows)."""
    if len(raw) > max_line_bytes:  # counted with a trailing \r, as the line stands on disk
        sink.malformed(number, f"line longer than {max_line_bytes} bytes")
        return
    if raw.endswith(b"\r"):
        raw = raw[:-1]
    if not raw.strip():
        return
    row = (quick(raw) if quick is not None else None) or parse_object(raw)
    if isinstance(row, str):
        sink.malformed(number, row)
    else:
        sink.rows(number, [row])


def judge_block(lines: list[bytes], first: int, sink: Sink, max_line_bytes: int,
                quick: Callable[[bytes], dict | None] | None) -> None:
    rows = certain_rows(lines, max_line_bytes)
    if rows is not None:
        sink.rows(first, rows)
        return
    for number, raw in enumerate(lines, first):
        judge_line(raw, number, sink, max_line_bytes, quick)


def read_rows(fd: int, start: Position, sink: Sink, *, max_line_bytes: int,
              at_last_complete: Callable[[Position], None] = lambda position: None,
              quick: Callable[[bytes], dict | None] | None = None) -> Position:
    """Judge every line of `fd` from `start` to the end; returns where the last complete line ends.

    `at_last_complete` is called once all complete lines are judged and before an unfinished
    last line (no newline yet) is: what was gathered up to there may be remembered, the
    unfinished line may still change. Memory stays bounded by max_line_bytes + CHUNK_BYTES.
    """
    position = Position(start.offset, start.lines)
    read_at = start.offset
    pending = b""
    overlong = False  # the current line already passed max_line_bytes: its bytes are dropped
    while True:
        chunk = os.pread(fd, CHUNK_BYTES, read_at)
        if not chunk:
            break
        read_at += len(chunk)
        data = pending + chunk if pending else chunk
        pending = b""
        cut = data.rfind(b"\n")
        if cut < 0:
            if not overlong:
                pending = data
                if len(pending) > max_line_bytes:
                    overlong, pending = True, b""
            continue
        body_start = 0
        if overlong:
            sink.malformed(position.lines + 1, f"line longer than {max_line_bytes} bytes")
            position.lines += 1
            body_start = data.find(b"\n") + 1
            overlong = False
        if body_start <= cut:
            lines = data[body_start:cut].split(b"\n")
            judge_block(lines, position.lines + 1, sink, max_line_bytes, quick)
            position.lines += len(lines)
        position.offset = read_at - (len(data) - cut - 1)
        pending = data[cut + 1:]
        if len(pending) > max_line_bytes:
            overlong, pending = True, b""
    at_last_complete(Position(position.offset, position.lines))
    if pending or overlong:
        number = position.lines + 1
        if overlong:
            sink.malformed(number, f"line longer than {max_line_bytes} bytes")
        else:
            judge_line(pending, number, sink, max_line_bytes, quick)
    return position
