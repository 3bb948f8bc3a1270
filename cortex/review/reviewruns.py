"""Reviewer stage: the run's evidence — O/reviewer-runs/<runId>/ and the terminal row in O/reviewer-runs.jsonl; used by the reviewer.

The run directory is created first thing, then a `started` row goes to
O/reviewer-starts.jsonl, so a reviewer that dies leaves a directory and a start
without a terminal row (the auditor calls that timed out after its grace period). Its
files are created whole and pass the privacy boundary first (model output with its JSON
`\\uXXXX` escapes spelled out, so an escaped private tag is a tag). Exactly one terminal row per
run is appended at the end, in one of the three shapes of cortex.reviewrows (success, skip,
failure), the row model the auditor validates with.
The row's ts is never earlier than the runId's time, so the directory never looks newer
than its own row.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass

from cortex.core.durable import append_line, create_file
from cortex.core.jsjson import dumps
from cortex.layout import (Layout, OBSERVABILITY, REVIEWER_RUNS_DIR as RUNS_DIR, REVIEWER_RUNS_LOG as LOG_NAME,
                           REVIEWER_STARTS_LOG as STARTS_LOG)
from cortex.core.privacy import strip_private_content
from cortex.liferows import StartRow
from cortex.reviewrows import FailureRow, SkipRow, SuccessRow
from cortex.core.safepaths import DIR_MODE, memory_dir
from cortex.core.timestamps import iso_from_ms
from cortex.write.writecontext import scrub

MAX_ID_BUMPS = 10_000
# A JSON \uXXXX escape (an even run of backslashes before it is escaped backslashes, not an escape).
_ESCAPE = re.compile(r"(?<!\\)((?:\\\\)*)\\u([0-9a-fA-F]{4})")


def _spelled(match: re.Match) -> str:
    char = chr(int(match.group(2), 16))
    keep = not char.isprintable() or char in '"\\' or 0xD800 <= ord(char) <= 0xDFFF
    return match.group(0) if keep else match.group(1) + char


def spelled_out(text: str) -> str:
    """`text` with the JSON escapes of printable characters written as the characters themselves."""
    return _ESCAPE.sub(_spelled, text) if "\\u" in text else text


def run_id_for(ms: int) -> str:
    """2026-10-01T10:00:00.000Z → 2026-10-01T10-00-00-000Z."""
    return iso_from_ms(ms).replace(":", "-").replace(".", "-")


def is_run_id(text: object) -> bool:
    """Whether `text` is a run id exactly as run_id_for mints them (a real instant, nothing around it)."""
    from cortex.reviewrows import run_id_ms

    ms = run_id_ms(text)
    return ms is not None and run_id_for(ms) == text


@dataclass(frozen=True)
class ReviewRun:
    layout: Layout
    run_id: str
    run_ms: int
    path: str

    def save(self, name: str, text: str) -> None:
        create_file(os.path.join(self.path, name), strip_private_content(text).encode("utf-8"))

    def save_model_text(self, name: str, text: str) -> None:
        """The model's answer (or stderr): its escaped private tags are removed like literal ones."""
        self.save(name, spelled_out(text))

    def row_ts(self, end_ms: int) -> str:
        return iso_from_ms(max(end_ms, self.run_ms))


def open_run(layout: Layout, now_ms: int) -> ReviewRun:
    """Create a fresh O/reviewer-runs/<runId>/; a taken id (same millisecond) moves on by 1 ms."""
    base = memory_dir(layout.memory_root, OBSERVABILITY, RUNS_DIR)
    for bump in range(MAX_ID_BUMPS):
        run_id = run_id_for(now_ms + bump)
        path = os.path.join(base, run_id)
        try:
            os.mkdir(path, DIR_MODE)
        except FileExistsError:
            continue
        return ReviewRun(layout, run_id, now_ms + bump, path)
    raise FileExistsError(f"no free run id near {run_id_for(now_ms)} in {base}")


def record_start(ctx, run: ReviewRun) -> str | None:
    """The run's `started` row (run id, pid, host, ts) in O/reviewer-starts.jsonl, before any inference.

    Kept apart from reviewer-runs.jsonl so that log keeps exactly its three terminal shapes; the
    auditor joins the two by runId (running, interrupted, never started). Best effort, like every
    evidence row: a failure comes back as a warning.
    """
    from cortex.core.liveness import host_name  # the name the auditor compares it with

    return ctx.record(STARTS_LOG, StartRow(run.run_id, os.getpid(), host_name()).as_row())


def append_terminal_row(layout: Layout, row: dict) -> None:
    """The one terminal row of a run; a failure to write it is raised, never swallowed."""
    directory = memory_dir(layout.memory_root, OBSERVABILITY)
    append_line(os.path.join(directory, LOG_NAME), dumps(scrub(row)).encode("utf-8"))


def success_row(run: ReviewRun, end_ms: int, transcript: str, exchanges: int, duration_ms: float, summary: dict) -> dict:
    return SuccessRow(run.row_ts(end_ms), run.run_id, transcript, exchanges, duration_ms, summary).as_row()


def skip_row(run: ReviewRun, end_ms: int, transcript: str | None, reason: str) -> dict:
    return SkipRow(run.row_ts(end_ms), run.run_id, transcript, reason).as_row()


def failure_row(run: ReviewRun, end_ms: int, transcript: str | None, exchanges: int, duration_ms: float,
                parse_ok: bool | None, error: str, summary: dict | None = None) -> dict:
    return FailureRow(run.row_ts(end_ms), run.run_id, transcript, exchanges, duration_ms, parse_ok, error[:1000],
                      summary).as_row()
