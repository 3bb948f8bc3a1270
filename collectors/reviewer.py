"""Collect stage: reviewer evidence (O/reviewer-runs.jsonl and O/reviewer-runs/<runId>/).

Called through the check list (health.checks). Streams the log once, keeping only the latest row and
a summary of the last HISTORY terminal rows, and finds the newest run directory.
"""
from __future__ import annotations

import os
import stat
from collections import deque
from dataclasses import dataclass

from collectors.fsprobe import describe_os_error, escapes, file_kind
from collectors.jsonl import scan_jsonl
from collectors.layout import Layout
from collectors.reviewer_rows import RowClass, carries_eat_cap, classify, is_failure, run_id_ms
from collectors.text import brief
from cortex.core.timestamps import parse_timestamp_ms
from collectors.evidence import EvidenceStatus, FileState, MalformedLine
from cortex.layout import REVIEWER_RUNS_DIR as RUNS_DIR_NAME, REVIEWER_RUNS_LOG as LOG_NAME

HISTORY = 5


@dataclass(frozen=True)
class LatestRow:
    line: int
    run_id: object
    ts: object
    at_ms: int | None  # ts, else the time in runId
    classification: RowClass
    problem: str | None
    error: object


@dataclass(frozen=True)
class TerminalRow:
    line: int
    run_id: object
    failed: bool
    eat_cap: bool
    error: object = None  # the row's `error` text (privacy-stripped, bounded), for the failing finding


@dataclass(frozen=True)
class RunDirectory:
    run_id: str
    path: str
    at_ms: int
    has_parse_error: bool


@dataclass(frozen=True)
class RunDirectories:
    state: FileState
    count: int = 0
    unrecognised: int = 0  # entries that are not <runId> directories (symlinks included)
    latest: RunDirectory | None = None


@dataclass(frozen=True)
class ReviewerEvidence:
    status: EvidenceStatus
    log: FileState
    rows: int
    malformed: tuple[MalformedLine, ...]
    malformed_total: int
    latest: LatestRow | None
    history: tuple[TerminalRow, ...]
    run_directories: RunDirectories


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


def collect(layout: Layout) -> ReviewerEvidence:
    last: list = [None]
    history: deque[TerminalRow] = deque(maxlen=HISTORY)

    def visit(line: int, row: dict) -> None:
        last[0] = (line, row)
        history.append(TerminalRow(line, brief(row.get("runId")), is_failure(row), carries_eat_cap(row),
                                   brief(row.get("error"))))

    scan = scan_jsonl(layout.evidence(LOG_NAME), visit, anchor=layout.memory)
    latest = latest_row_of(*last[0]) if last[0] else None
    runs = newest_run_directory(layout.evidence(RUNS_DIR_NAME), layout.memory)
    return ReviewerEvidence(scan.status, scan.file, scan.rows, scan.malformed, scan.malformed_total, latest,
                            tuple(history), runs)

