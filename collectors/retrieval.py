"""Collect stage: retrieval evidence, the last row of O/memory-retrievals.jsonl.

Called through the check list (health.checks). The whole file is streamed (a malformed line anywhere
counts) but only the last row is kept and checked against the row model the hook writes with
(cortex.evidencerows).
"""
from __future__ import annotations

from dataclasses import dataclass

from collectors.jsonl import scan_jsonl
from collectors.layout import Layout
from collectors.text import brief
from cortex.core.timestamps import parse_timestamp_ms
from collectors.evidence import EvidenceStatus, FileState, MalformedLine
from cortex.evidencerows import retrieval_row_problem as row_problem  # the writer's own row model
from cortex.layout import RETRIEVALS_LOG as LOG_NAME



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

