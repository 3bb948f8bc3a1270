"""Collect stage: reviewer evidence (O/reviewer-runs.jsonl and O/reviewer-runs/<runId>/).

Called through the check list (health.judge.checks). Reads the log once (after the first audit only
what was appended, collectors.readers.cursors), keeping only the latest row and
a summary of the last HISTORY terminal rows, and finds the newest run directory.
"""
from __future__ import annotations

import os
import stat
from _collections import deque  # collections.deque itself, without importing collections (~7M instructions)

from collectors.readers.fsprobe import describe_os_error, escapes, file_kind
from collectors.readers.cursors import scan_log
from collectors.lifeos.layout import Layout
from collectors.readers.reviewer_rows import RowClass, carries_eat_cap, classify, dispatch_refusals, is_failure
from cortex.reviewrows import run_id_ms
from collectors.readers.text import brief
from cortex.core.timestamps import parse_timestamp_ms
from collectors.evidence import EvidenceStatus, FileState, as_json, same_record
from cortex.layout import REVIEWER_RUNS_DIR as RUNS_DIR_NAME, REVIEWER_RUNS_LOG as LOG_NAME
from cortex.core.numbers import finite_number

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from typing import Any

    from collectors.metric import Limit, Metric

HISTORY = 5


class LatestRow:
    """line: int; run_id: object; ts: object; at_ms: int | None, ts, else the time in runId; classification: RowClass;
    problem: str | None; error: object.
    """

    __slots__ = ("line", "run_id", "ts", "at_ms", "classification", "problem", "error")

    def __init__(self, line, run_id, ts, at_ms, classification, problem, error) -> None:
        self.line, self.run_id, self.ts, self.at_ms, self.classification = line, run_id, ts, at_ms, classification
        self.problem, self.error = problem, error

    __eq__ = same_record  # compared field by field (resumed evidence against a full read)


class TerminalRow:
    """line: int; run_id: object; failed: bool; eat_cap: bool; error: object, the row's `error` text (privacy-stripped,
    bounded), for the failing finding; items: int, items its dispatch handled; refused: int, of them refused by a
    guard or the write path; codes: dict[str, int] | None, refusal code -> count.
    """

    __slots__ = ("line", "run_id", "failed", "eat_cap", "error", "items", "refused", "codes")

    def __init__(self, line, run_id, failed, eat_cap, error=None, items=0, refused=0, codes=None) -> None:
        self.line, self.run_id, self.failed, self.eat_cap, self.error = line, run_id, failed, eat_cap, error
        self.items, self.refused, self.codes = items, refused, codes

    __eq__ = same_record  # compared field by field (resumed evidence against a full read)


class RunDirectory:
    """run_id: str; path: str; at_ms: int; has_parse_error: bool."""

    __slots__ = ("run_id", "path", "at_ms", "has_parse_error")

    def __init__(self, run_id, path, at_ms, has_parse_error) -> None:
        self.run_id, self.path, self.at_ms, self.has_parse_error = run_id, path, at_ms, has_parse_error

    __eq__ = same_record  # compared field by field (resumed evidence against a full read)


class RunDirectories:
    """state: FileState; count: int; unrecognised: int, entries that are not <runId> directories (symlinks included);
    latest: RunDirectory | None.
    """

    __slots__ = ("state", "count", "unrecognised", "latest")

    def __init__(self, state, count=0, unrecognised=0, latest=None) -> None:
        self.state, self.count, self.unrecognised, self.latest = state, count, unrecognised, latest

    __eq__ = same_record  # compared field by field (resumed evidence against a full read)


class ReviewerEvidence:
    """status: EvidenceStatus; log: FileState; rows: int; malformed: tuple[MalformedLine, ...]; malformed_total: int;
    latest: LatestRow | None; history: tuple[TerminalRow, ...]; run_directories: RunDirectories.
    """

    __slots__ = ("status", "log", "rows", "malformed", "malformed_total", "latest", "history", "run_directories")

    def __init__(self, status, log, rows, malformed, malformed_total, latest, history, run_directories) -> None:
        self.status, self.log, self.rows, self.malformed = status, log, rows, malformed
        self.malformed_total, self.latest, self.history = malformed_total, latest, history
        self.run_directories = run_directories

    __eq__ = same_record  # compared field by field (resumed evidence against a full read)


def latest_row_of(line: int, row: dict) -> LatestRow:
    classification, problem = classify(row)
    at_ms = parse_timestamp_ms(row.get("ts"))
    if at_ms is None:
        at_ms = run_id_ms(row.get("runId"))
    return LatestRow(line, brief(row.get("runId")), brief(row.get("ts")), at_ms, classification, problem,
                     brief(row.get("error")))


def newest_run_directory(path: str, anchor: str) -> RunDirectories:
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return RunDirectories(FileState(path, EvidenceStatus.MISSING))
    except OSError as error:
        return RunDirectories(FileState(path, EvidenceStatus.UNREADABLE, describe_os_error(error)))
    if not stat.S_ISDIR(info.st_mode):
        return RunDirectories(FileState(path, EvidenceStatus.UNREADABLE, f"not a directory ({file_kind(info.st_mode)})"))
    escape = escapes(path, anchor)
    if escape:
        return RunDirectories(FileState(path, EvidenceStatus.UNREADABLE, escape))
    count = unrecognised = 0
    best: tuple[int, str] | None = None
    try:
        with os.scandir(path) as entries:
            for entry in entries:
                at_ms = run_id_ms(entry.name)
                if at_ms is None or not entry.is_dir(follow_symlinks=False):
                    unrecognised += 1
                    continue
                count += 1
                if best is None or (at_ms, entry.name) > best:
                    best = (at_ms, entry.name)
    except OSError as error:
        return RunDirectories(FileState(path, EvidenceStatus.UNREADABLE, describe_os_error(error)))
    latest = None
    if best is not None:
        run_path = os.path.join(path, best[1])
        latest = RunDirectory(best[1], run_path, best[0], os.path.lexists(os.path.join(run_path, "parse-error.txt")))
    return RunDirectories(FileState(path, EvidenceStatus.OK), count, unrecognised, latest)


def terminal_row(line: int, row: dict) -> TerminalRow:
    items, refused, codes = dispatch_refusals(row)
    return TerminalRow(line, brief(row.get("runId")), is_failure(row), carries_eat_cap(row), brief(row.get("error")),
                       items, refused, codes or None)


class NewestRows:
    """The aggregate (collectors.readers.cursors.Aggregate): the last row and the last HISTORY rows, judged when asked for."""

    key = "reviewer.newest/2"  # /2: terminal rows carry their dispatch refusals

    def __init__(self) -> None:
        self.recent: deque[TerminalRow | tuple[int, dict]] = deque(maxlen=HISTORY)
        self.last: LatestRow | tuple[int, dict] | None = None

    def rows(self, first_line: int, rows: list[dict]) -> None:
        tail = rows[-HISTORY:]
        self.recent.extend(enumerate(tail, first_line + len(rows) - len(tail)))
        self.last = (first_line + len(rows) - 1, rows[-1])

    def latest(self) -> LatestRow | None:
        if self.last is not None and not isinstance(self.last, LatestRow):  # (line, row): a LatestRow is a tuple too
            self.last = latest_row_of(*self.last)
        return self.last

    def history(self) -> tuple[TerminalRow, ...]:
        return tuple(item if isinstance(item, TerminalRow) else terminal_row(*item) for item in self.recent)

    def state(self) -> dict:
        latest = self.latest()
        return {"latest": as_json(latest) if latest else None, "history": [as_json(row) for row in self.history()]}

    def restore(self, state: dict) -> None:
        latest = state["latest"]
        self.last = None if latest is None else LatestRow(**{**latest, "classification":
                                                             RowClass(latest["classification"])})
        self.recent.extend(TerminalRow(**row) for row in state["history"][-HISTORY:])


def collect(layout: Layout) -> ReviewerEvidence:
    scan, found = scan_log(layout.evidence(LOG_NAME), NewestRows, anchor=layout.memory, cursors=layout.cursors)
    runs = newest_run_directory(layout.evidence(RUNS_DIR_NAME), layout.memory)
    return ReviewerEvidence(scan.status, scan.file, scan.rows, scan.malformed, scan.malformed_total, found.latest(),
                            found.history(), runs)


# What this evidence gives a monitoring system (collectors.metric_table lists this function).
def metrics(evidence: Mapping[str, Any], now_ms: int | None, limit: Limit) -> Iterator[Metric]:
    """The age of the latest reviewer run, against reviewer_stale_ms."""
    from collectors.metric import Metric, json_object, seconds  # only a monitoring format asks (not JSON, not text)

    at_ms = json_object(evidence.get("latest")).get("at_ms")
    if now_ms is not None and finite_number(at_ms):
        yield Metric("reviewer_age_seconds", "Age of the latest reviewer run at the time of the run, in seconds.",
                     seconds(now_ms - at_ms), "seconds", warn=limit("reviewer_stale_ms", 1000))
