"""Collect stage: the streaming JSONL reader every log collector uses, and the small JSON object files (state, config).

Built on cortex.core.safeio.iter_lines, so memory stays bounded by one line (MAX_LINE_BYTES)
whatever the file size. Every row must be one JSON object; anything else is a malformed
line with its number and reason (over-long, invalid UTF-8, invalid JSON, NaN/Infinity,
duplicate keys, not an object). Blank lines are not rows. Only the first
MAX_REPORTED_LINES malformed lines are kept, plus the total, so a garbage file of any size
costs constant memory.
"""
from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

from cortex import layout as contract
from cortex.core.safeio import UnsafeFile, iter_lines, read_bounded
from cortex.review.reviewdefaults import CONFIG_NAME
from collectors.fsprobe import describe_os_error, probe_file
from collectors.evidence import EvidenceStatus, FileState, MalformedLine
from cortex.core.strictjson import parse_object

MAX_LINE_BYTES = 1 << 20
MAX_REPORTED_LINES = 20


@dataclass(frozen=True)
class LogScan:
    """What one pass over a JSONL file found (the rows themselves went to the visitor)."""

    file: FileState
    rows: int = 0
    malformed: tuple[MalformedLine, ...] = ()
    malformed_total: int = 0

    @property
    def status(self) -> EvidenceStatus:
        if self.file.status is EvidenceStatus.OK and self.malformed_total:
            return EvidenceStatus.MALFORMED
        return self.file.status


def scan_jsonl(path: str, visit: Callable[[int, dict], None], *, anchor: str | None = None,
               max_line_bytes: int = MAX_LINE_BYTES, quick: Callable[[bytes], dict | None] | None = None) -> LogScan:
    """Stream `path`, calling visit(line_number, row) for every well-formed object row.

    `quick` may recognise a line whose meaning is certain (e.g. a writer's exact compact form)
    and return its row without the strict decoder; None sends the line to the strict decoder.
    """
    state = probe_file(path, anchor)
    if state.status is not EvidenceStatus.OK:
        return LogScan(state)
    rows = 0
    malformed: list[MalformedLine] = []
    total = 0
    try:
        for number, raw in iter_lines(path, max_line_bytes):
            if raw is None:
                row: dict | str = f"line longer than {max_line_bytes} bytes"
            elif not raw.strip():
                continue
            else:
                row = (quick(raw) if quick is not None else None) or parse_object(raw)
            if isinstance(row, str):
                total += 1
                if len(malformed) < MAX_REPORTED_LINES:
                    malformed.append(MalformedLine(number, row))
                continue
            rows += 1
            visit(number, row)
    except UnsafeFile as error:  # swapped for a non-regular file after the probe
        state = FileState(path, EvidenceStatus.UNREADABLE, str(error))
    except FileNotFoundError:
        state = FileState(path, EvidenceStatus.MISSING, "disappeared while being read")
    except OSError as error:
        state = FileState(path, EvidenceStatus.UNREADABLE, describe_os_error(error))
    return LogScan(state, rows, tuple(malformed), total)


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
