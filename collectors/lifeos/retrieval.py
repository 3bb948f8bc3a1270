"""Collect stage: retrieval evidence, the last row of O/memory-retrievals.jsonl.

Called through the check list (health.judge.checks). The whole file is read (a malformed line anywhere
counts; after the first audit only what was appended, collectors.readers.cursors) but only the last row is kept and checked against the row model the hook writes with
(cortex.evidencerows).
"""
from __future__ import annotations

from collectors.readers.cursors import scan_log
from collectors.lifeos.layout import Layout
from collectors.readers.text import brief
from cortex.core.timestamps import parse_timestamp_ms
from collectors.evidence import as_json, same_record
from cortex.evidencerows import retrieval_row_problem as row_problem  # the writer's own row model
from cortex.layout import RETRIEVALS_LOG as LOG_NAME
from cortex.core.numbers import finite_number

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from typing import Any

    from collectors.metric import Limit, Metric



class RetrievalRow:
    """line: int; ts: object; at_ms: int | None; query_hash: object; returned_count: object; duration_ms: object;
    top_score: object; problem: str | None, why the row is not a valid retrieval row.
    """

    __slots__ = ("line", "ts", "at_ms", "query_hash", "returned_count", "duration_ms", "top_score", "problem")

    def __init__(self, line, ts, at_ms, query_hash, returned_count, duration_ms, top_score, problem) -> None:
        self.line, self.ts, self.at_ms, self.query_hash = line, ts, at_ms, query_hash
        self.returned_count, self.duration_ms, self.top_score = returned_count, duration_ms, top_score
        self.problem = problem

    __eq__ = same_record  # compared field by field (resumed evidence against a full read)


class RetrievalEvidence:
    """status: EvidenceStatus; log: FileState; rows: int; malformed: tuple[MalformedLine, ...]; malformed_total: int;
    latest: RetrievalRow | None.
    """

    __slots__ = ("status", "log", "rows", "malformed", "malformed_total", "latest")

    def __init__(self, status, log, rows, malformed, malformed_total, latest) -> None:
        self.status, self.log, self.rows, self.malformed = status, log, rows, malformed
        self.malformed_total, self.latest = malformed_total, latest

    __eq__ = same_record  # compared field by field (resumed evidence against a full read)


def retrieval_row(line: int, row: dict) -> RetrievalRow:
    return RetrievalRow(line, brief(row.get("ts")), parse_timestamp_ms(row.get("ts")), brief(row.get("query_hash")),
                        brief(row.get("returned_count")), brief(row.get("duration_ms")), brief(row.get("top_score")),
                        row_problem(row))


class LatestRetrieval:
    """The aggregate (collectors.readers.cursors.Aggregate): the last row, judged only when asked for."""

    key = "retrieval.latest/1"

    def __init__(self) -> None:
        self.judged: RetrievalRow | None = None
        self.last: tuple[int, dict] | None = None

    def rows(self, first_line: int, rows: list[dict]) -> None:
        self.last = (first_line + len(rows) - 1, rows[-1])

    def latest(self) -> RetrievalRow | None:
        if self.last is not None:
            self.judged, self.last = retrieval_row(*self.last), None
        return self.judged

    def state(self) -> dict:
        latest = self.latest()
        return {"latest": as_json(latest) if latest else None}

    def restore(self, state: dict) -> None:
        self.judged = RetrievalRow(**state["latest"]) if state["latest"] is not None else None


def collect(layout: Layout) -> RetrievalEvidence:
    scan, found = scan_log(layout.evidence(LOG_NAME), LatestRetrieval, anchor=layout.memory, cursors=layout.cursors)
    return RetrievalEvidence(scan.status, scan.file, scan.rows, scan.malformed, scan.malformed_total, found.latest())


# What this evidence gives a monitoring system (collectors.metric_table lists this function).
def metrics(evidence: Mapping[str, Any], now_ms: int | None, limit: Limit) -> Iterator[Metric]:
    """The age of the latest retrieval row, against retrieval_stale_ms."""
    from collectors.metric import Metric, json_object, seconds  # only a monitoring format asks (not JSON, not text)

    at_ms = json_object(evidence.get("latest")).get("at_ms")
    if now_ms is not None and finite_number(at_ms):
        yield Metric("retrieval_age_seconds", "Age of the latest retrieval row at the time of the run, in seconds.",
                     seconds(now_ms - at_ms), "seconds", warn=limit("retrieval_stale_ms", 1000))
