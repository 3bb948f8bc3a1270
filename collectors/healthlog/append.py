"""Publish stage (the health log's chain): the next memory-health.jsonl line, chained, and the checkpoint after it.
Called by health.publish.append_line while it holds the log's lock (it writes what this decides).

Before chaining, the log is verified from the checkpoint (collectors.healthlog.verify), once that
checkpoint agrees with the line it points at (else the log is verified without it). The new
line chains to the log's real last line (its seq follows the newest chained line found in the
log, never the checkpoint's word), so the record goes on whatever happened; the checkpoint
advances only when the log verified intact against a checkpoint that could be used, so a
break stays reported by every later audit until the operator archives log and checkpoint.
A log that ends inside a line (a torn append) gets its newline first, and that line is
then part of what the chain covers.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass

from cortex.core.safeio import open_regular
from collectors.healthlog.verify import Verification, Walk, prefix_hash, verify
from collectors.healthlog.chain import EMPTY_SHA256, Checkpoint, checkpoint_path, read_checkpoint, sha256_hex, splice


@dataclass(frozen=True)
class Prepared:
    line: bytes  # the chained line, without its newline (the append ends a torn last line first)
    checkpoint: Checkpoint | None  # what to write after the append; None: keep the old one


def _state(log: str, point: Checkpoint | None) -> tuple[Verification | None, int]:
    try:
        return verify(log, point), os.stat(log).st_size
    except FileNotFoundError:
        return None, 0


def _prev(log: str, walk: Walk, size: int, newline: bytes) -> str:
    fd = open_regular(log)
    try:
        if walk.seq is None:
            return prefix_hash(fd, size, newline)  # the first chained line covers every earlier byte
        if not newline:
            return walk.last or ""
        return sha256_hex(os.pread(fd, size - walk.last_start, walk.last_start) + newline)
    finally:
        os.close(fd)


def prepare(log: str, line: str) -> Prepared:
    """The bytes to append for report `line` and the checkpoint to write after it (OSError for the caller)."""
    found = read_checkpoint(checkpoint_path(log))
    point = found if isinstance(found, Checkpoint) else None
    verification, size = _state(log, point)
    walk = verification.walk if verification is not None else Walk()
    newline = b"" if walk.ends_with_newline else b"\n"
    seq = (walk.seq or 0) + 1
    prev = _prev(log, walk, size, newline) if verification is not None else EMPTY_SHA256
    chained = (splice(line, seq, prev) + "\n").encode("utf-8")
    start = size + len(newline)
    intact = not isinstance(found, str) and (verification is None or verification.intact)
    ts = json.loads(line).get("ts") or ""
    checkpoint = Checkpoint(seq, sha256_hex(chained), ts, walk.lines + 1, start,
                            start + len(chained)) if intact else None
    return Prepared(chained[:-1], checkpoint)
