"""Collect stage: retrieval evidence, the last row of O/memory-retrievals.jsonl.

Called through the check list (health.checks). The whole file is streamed (a malformed line anywhere
counts) but only the last row is kept and checked against the exact row shape.
"""
from __future__ import annotations

from dataclasses import dataclass

from collectors.jsonl import scan_jsonl
from collectors.layout import Layout
from collectors.reviewer_rows import is_count, is_duration
from collectors.text import brief
from cortex.timestamps import parse_timestamp_ms
from collectors.evidence import EvidenceStatus, FileState, MalformedLine
from cortex.layout import RETRIEVALS_LOG as LOG_NAME

REQUIRED = frozenset(["ts", "query_hash", "returned_count", "duration_ms"])
OPTIONAL = frozenset(["top_score"])


@dataclass(frozen=True)
class RetrievalRow:
    line: int
    ts: object
    at_ms: int | None
    query_hash: object
    returned_count: object
    duration_ms: object
    top_score: object
    problem: str | None  # why the row is not a valid retrieval row


@dataclass(frozen=True)
class RetrievalEvidence:
    status: EvidenceStatus
    log: FileState
    rows: int
    malformed: tuple[MalformedLine, ...]
    malformed_total: int
    latest: RetrievalRow | None


def row_problem(row: dict) -> str | None:
    keys = set(row)
    if not REQUIRED <= keys or not keys <= REQUIRED | OPTIONAL:
        return f"keys must be {sorted(REQUIRED)} plus optional top_score"
    if parse_timestamp_ms(row["ts"]) is None:
        return "ts is not a valid timestamp"
    if not isinstance(row["query_hash"], str) or not row["query_hash"]:
        return "query_hash must be a non-empty string"
    if not is_count(row["returned_count"]):
        return "returned_count must be an integer >= 0"
    if not is_duration(row["duration_ms"]):
        return "duration_ms must be a finite number >= 0"
    if "top_score" in row and not is_duration(row["top_score"]):
        return "top_score must be a finite number >= 0"
    return None


def retrieval_row(line: int, row: dict) -> RetrievalRow:
    return RetrievalRow(line, brief(row.get("ts")), parse_timestamp_ms(row.get("ts")), brief(row.get("query_hash")),
                        brief(row.get("returned_count")), brief(row.get("duration_ms")), brief(row.get("top_score")),
                        row_problem(row))


def collect(layout: Layout) -> RetrievalEvidence:
    last: list = [None]

    def visit(line: int, row: dict) -> None:
        last[0] = (line, row)

    scan = scan_jsonl(layout.evidence(LOG_NAME), visit, anchor=layout.memory)
    latest = retrieval_row(*last[0]) if last[0] else None
    return RetrievalEvidence(scan.status, scan.file, scan.rows, scan.malformed, scan.malformed_total, latest)

