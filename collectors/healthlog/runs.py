"""Collect stage (the health log's lines): the last N runs read back from the end of O/memory-health.jsonl.
Used by `cortex-health history` (health.history) and the dashboard (health.dashboard.data).

Each of the last N lines becomes a Run: its report, or why it is not one (collectors.healthlog.read
parses it), with its position from the end, so a bad line is shown, never skipped. The scan's
byte budget grows with N, never with the log's size; `truncated` says it ran out first.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from collectors.healthlog.read import BLOCK, MAX_LINE_BYTES, ReverseLines, parse_report


@dataclass
class Run:
    position: int  # 1 = the newest line
    report: dict | None = None
    problem: str | None = None


@dataclass
class History:
    log: str
    runs: list[Run] = field(default_factory=list)  # oldest first
    truncated: bool = False  # the scan budget ended before N lines were found


def read_history(path: str, last: int, parse: Callable[[bytes | None], dict | str] = parse_report) -> History:
    """The last `last` lines as runs; OSError (FileNotFoundError included) for the caller.

    `parse` turns one line into a report or the reason it is none (the dashboard passes a memo of it).
    """
    history = History(path)
    budget = last * (MAX_LINE_BYTES + BLOCK)
    with ReverseLines(path, max_bytes=budget) as reader:
        for position, raw in enumerate(reader, start=1):
            parsed = parse(raw)
            history.runs.append(Run(position, parsed, None) if isinstance(parsed, dict) else Run(position, None, parsed))
            if position >= last:
                break
        history.truncated = reader.exhausted
    history.runs.reverse()
    return history
