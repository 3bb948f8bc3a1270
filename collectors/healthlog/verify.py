"""Collect stage (the health log's chain): verify the hash chain of O/memory-health.jsonl, from the start or from the checkpoint. Used by the
health_history collector, publish (before each append), `history --verify` and serve.

Stdlib only. The log is read forwards in blocks; each line is hashed as it streams (an
over-long line is hashed without being kept), so memory stays bounded whatever its size.
Incremental mode trusts what the checkpoint's head covers (it was verified before that
append) and checks only that the head line is still there, byte for byte, and what follows
it; if the head does not match, the whole log is verified so the first broken line can be
named. The checkpoint itself is derived, so it is checked against the line it points at
first (that line starts a line, carries the checkpoint's seq and its report the checkpoint's
ts; a full verification also checks its line number and byte range): one the log
contradicts is not used at all (`checkpoint_problem` says why; the log is verified in full
without it, so its true head is known), and one written before seals is used only by a full
verification. The scan goes on after a break (to learn the true head for the next append), but
only the first break is reported: what broke, and on which line.
"""
from __future__ import annotations

import os

from cortex.core.safeio import open_regular
from collectors.healthlog.chain import Checkpoint, link_of, sha256_hex
from cortex.core.sha256 import sha256_for
from cortex.core.hookjson import loads

BLOCK = 1 << 20
MAX_LINE_BYTES = 1 << 20
MAX_LISTED = 20


class Break:
    """line: int, 1-based number of the line named as broken; kind: str, edited | inserted | deleted | reordered |
    truncated; message: str.
    """

    __slots__ = ("line", "kind", "message")

    def __init__(self, line, kind, message) -> None:
        self.line, self.kind, self.message = line, kind, message


class Walk:
    """Where the scan stands; after it, the state of the log's end (mutable: the verifier moves it along)."""

    __slots__ = ("lines", "offset", "seq", "head", "head_line", "head_start", "last", "last_start", "before_last",
                 "ends_with_newline")

    def __init__(self, lines: int = 0, offset: int = 0, seq: int | None = None, head: str | None = None,
                 head_line: int = 0, head_start: int = 0, last: str | None = None, last_start: int = 0,
                 before_last: str | None = None, ends_with_newline: bool = True) -> None:
        self.lines = lines  # lines seen so far (numbers continue from a checkpoint)
        self.offset = offset
        self.seq = seq  # seq of the newest chained line
        self.head = head  # its hash
        self.head_line = head_line
        self.head_start = head_start
        self.last = last  # hash of the newest line of any kind
        self.last_start = last_start
        self.before_last = before_last
        self.ends_with_newline = ends_with_newline


class Verification:
    """What a verification found; the verifier fills it in as it reads (mutable)."""

    __slots__ = ("walk", "mode", "first_line", "broken", "unchained", "unchained_total", "checkpoint_behind", "torn",
                 "checkpoint_problem")

    def __init__(self, walk: Walk, mode: str, first_line: int) -> None:
        self.walk = walk
        self.mode = mode  # full | incremental
        self.first_line = first_line  # first line verified (1 in full mode)
        self.broken: Break | None = None
        self.unchained: list[int] = []  # first MAX_LISTED lines after the start that lack a chain
        self.unchained_total = 0
        self.checkpoint_behind = 0  # chained lines after the checkpoint's head
        self.torn = False  # the log ends inside a line (an append in progress, or a cut)
        self.checkpoint_problem: str | None = None  # how the log contradicts the checkpoint (then it was not used)

    @property
    def intact(self) -> bool:
        return self.broken is None and self.checkpoint_problem is None


def _lines(fd: int, offset: int, max_line_bytes: int):
    """(start, end, sha256 hex, content or None when over-long) of each line from `offset`."""
    new = sha256_for(os.fstat(fd).st_size - offset)  # one constructor for every line: OpenSSL's for a large log
    hasher, content, start, overlong = new(), bytearray(), offset, False
    position = offset
    while True:
        chunk = os.pread(fd, BLOCK, position)
        if not chunk:
            break
        begin = 0
        while True:
            newline = chunk.find(b"\n", begin)
            piece = chunk[begin:] if newline < 0 else chunk[begin:newline + 1]
            hasher.update(piece)
            if not overlong:
                content += piece
                overlong = len(content) > max_line_bytes + 1
                if overlong:
                    content.clear()
            if newline < 0:
                break
            end = position + newline + 1
            yield start, end, hasher.hexdigest(), None if overlong else bytes(content[:-1])
            hasher, start, overlong = new(), end, False
            content.clear()
            begin = newline + 1
        position += len(chunk)
    if position > start:
        yield start, position, hasher.hexdigest(), None if overlong else bytes(content)


def contradiction(point: Checkpoint, line: bytes, start: int, number: int | None = None) -> str | None:
    """How the head line `line` (its bytes, newline included), starting at byte `start` and numbered `number` when
    known, contradicts the checkpoint whose head hash it matches; None when it agrees with all of it."""
    where = f"the line it points at (line {point.line}, bytes {point.start}-{point.end})"
    if number is not None and (number, start, start + len(line)) != (point.line, point.start, point.end):
        return (f"it records seq {point.seq} at line {point.line} (bytes {point.start}-{point.end}), but that line is "
                f"line {number} (bytes {start}-{start + len(line)})")
    link = link_of(line[:-1]) if line.endswith(b"\n") else None
    if not isinstance(link, tuple) or link[0] != point.seq:
        found = f"has seq {link[0]}" if isinstance(link, tuple) else "carries no chain link"
        return f"it records seq {point.seq} but {where} {found}"
    try:
        ts = loads(line).get("ts") or ""
    except (ValueError, AttributeError, RecursionError):
        ts = None
    if ts != point.ts:  # neither time is quoted: the line's is not ours to echo
        return f"its time is not that of the report on {where}"
    return None


def _head_problem(fd: int, size: int, point: Checkpoint, max_line_bytes: int) -> tuple[bool, str | None]:
    """(whether the bytes the checkpoint points at hash to its head, how they contradict it)."""
    if point.end > size or point.end - point.start > max_line_bytes + 2:
        return False, None  # gone or cut (the full verification names it), or no line the chain covers
    head = os.pread(fd, point.end - point.start, point.start)
    if sha256_hex(head) != point.head:
        return False, None
    if point.start > 0 and os.pread(fd, 1, point.start - 1) != b"\n":
        return True, f"it points into the middle of a line (byte {point.start})"
    return True, contradiction(point, head, point.start)


def prefix_hash(fd: int, end: int, extra: bytes = b"") -> str:
    """SHA-256 of the log's first `end` bytes, then `extra` (what the line with seq 1 commits to)."""
    hasher, position = sha256_for(end)(), 0
    while position < end:
        chunk = os.pread(fd, min(BLOCK, end - position), position)
        if not chunk:
            break
        hasher.update(chunk)
        position += len(chunk)
    hasher.update(extra)
    return hasher.hexdigest()


class _Verifier:
    def __init__(self, fd: int, walk: Walk, checkpoint: Checkpoint | None, full: bool):
        self.fd, self.walk, self.checkpoint, self.full = fd, walk, checkpoint, full
        self.result = Verification(walk, "full" if full else "incremental", walk.lines + 1)
        self.pending: Break | None = None  # a seq jump that the next line may show to be a swap
        self.missing: int | None = None

    def fail(self, found: Break) -> None:
        if self.result.broken is None:
            self.result.broken = found

    def chained(self, number: int, seq: int, prev: str, digest: str, start: int, content: bytes) -> None:
        walk = self.walk
        if self.pending is not None:
            if self.missing is not None and seq == self.missing:
                self.fail(Break(number - 1, "reordered", f"line {number - 1} (seq {seq + 1}) comes before line "
                                f"{number} (seq {seq}): the lines were reordered"))
            elif self.missing is None and walk.seq is not None and seq == walk.seq + 1 and prev == walk.before_last:
                self.fail(Break(number - 1, "inserted", f"line {number - 1} was inserted: line {number} (seq {seq}) "
                                f"chains to the line before it"))
            self.fail(self.pending)
            self.pending, self.missing = None, None
        if walk.seq is None:
            if seq != 1:
                self.fail(Break(number, "deleted", f"the first chained line (line {number}) has seq {seq}, not 1: "
                                f"the chained lines before it were deleted"))
            elif self.full and prev != prefix_hash(self.fd, walk.head_start):
                self.fail(Break(number, "edited", f"line {number} (seq 1) commits to every byte before it, and those "
                                f"bytes changed: one of lines 1-{number - 1} was edited, inserted or deleted"))
        elif seq <= walk.seq:  # the next line tells a repeated (inserted) line from a reordering
            self.pending = Break(number, "reordered", f"line {number} has seq {seq} after seq {walk.seq} (line "
                                 f"{walk.head_line}): lines were reordered or repeated")
            return
        elif seq > walk.seq + 1:
            self.pending = Break(number, "deleted", f"seq jumps from {walk.seq} (line {walk.head_line}) to {seq} "
                                 f"(line {number}): {seq - walk.seq - 1} chained line(s) were deleted")
            self.missing = walk.seq + 1
        elif prev != walk.last:
            if prev == walk.before_last:
                self.fail(Break(number - 1, "inserted", f"line {number - 1} was inserted: line {number} (seq {seq}) "
                                f"chains to the line before it"))
            else:
                self.fail(Break(number - 1, "edited", f"line {number - 1} was edited (or a line after it deleted): its "
                                f"hash is not the prev of line {number} (seq {seq})"))
        self.compare_checkpoint(number, seq, digest, start, content)
        walk.seq, walk.head, walk.head_line = seq, digest, number

    def compare_checkpoint(self, number: int, seq: int, digest: str, start: int, content: bytes) -> None:
        point = self.checkpoint
        if point is None or seq != point.seq:
            return
        if digest != point.head:
            self.fail(Break(number, "edited", f"line {number} (seq {seq}) does not match the checkpoint of {point.ts}: "
                            f"it was edited, or the log was rewritten from there"))
        elif self.result.checkpoint_problem is None:
            self.result.checkpoint_problem = contradiction(point, content + b"\n", start, number)

    def line(self, start: int, end: int, digest: str, content: bytes | None, last: bool) -> None:
        walk = self.walk
        walk.lines += 1
        number = walk.lines
        walk.ends_with_newline = content is None or not last or (end - start) > len(content)
        link = link_of(content) if content is not None else None
        if isinstance(link, str):
            self.fail(Break(number, "edited", f"line {number} was edited: {link}"))
        elif isinstance(link, tuple):
            walk.head_start = start
            self.chained(number, link[0], link[1], digest, start, content)
        elif walk.seq is not None and not (last and not walk.ends_with_newline):
            self.result.unchained_total += 1
            if len(self.result.unchained) < MAX_LISTED:
                self.result.unchained.append(number)
        if last and not walk.ends_with_newline:
            self.result.torn = True
        walk.before_last, walk.last, walk.last_start, walk.offset = walk.last, digest, start, end

    def finish(self) -> Verification:
        if self.pending is not None:
            self.fail(self.pending)
        point, walk = self.checkpoint, self.walk
        if point is not None:
            if walk.seq is None or walk.seq < point.seq:
                ends = f"seq {walk.seq} (line {walk.head_line})" if walk.seq is not None else "no chained line"
                self.fail(Break(walk.lines + 1, "truncated", f"the log ends at {ends} but the checkpoint of "
                                f"{point.ts} records seq {point.seq} at line {point.line}: its tail was cut or it "
                                f"was rolled back"))
            else:
                self.result.checkpoint_behind = walk.seq - point.seq
        return self.result


def _scan(fd: int, walk: Walk, checkpoint: Checkpoint | None, full: bool, max_line_bytes: int) -> Verification:
    verifier = _Verifier(fd, walk, checkpoint, full)
    lines = _lines(fd, walk.offset, max_line_bytes)
    current = next(lines, None)
    while current is not None:
        following = next(lines, None)
        start, end, digest, content = current
        verifier.line(start, end, digest, content, following is None)
        current = following
    return verifier.finish()


def verify(path: str, checkpoint: Checkpoint | None = None, *, incremental: bool = True,
           max_line_bytes: int = MAX_LINE_BYTES) -> Verification:
    """Verify the log at `path` (OSError for the caller, FileNotFoundError included)."""
    fd = open_regular(path)
    try:
        if checkpoint is not None:
            found, problem = _head_problem(fd, os.fstat(fd).st_size, checkpoint, max_line_bytes)
            if problem is not None:
                result = _scan(fd, Walk(), None, True, max_line_bytes)
                result.checkpoint_problem = problem
                return result
            if found and incremental and checkpoint.sealed:
                walk = Walk(lines=checkpoint.line, offset=checkpoint.end, seq=checkpoint.seq, head=checkpoint.head,
                            head_line=checkpoint.line, head_start=checkpoint.start, last=checkpoint.head,
                            last_start=checkpoint.start)
                return _scan(fd, walk, checkpoint, False, max_line_bytes)
        return _scan(fd, Walk(), checkpoint, True, max_line_bytes)
    finally:
        os.close(fd)
