"""Collect stage: reviewer cadence state, O/review-state.json.

Called through the check list (health.judge.checks). Reads the file with a size bound, keeps the scalar
fields the evaluator needs and says precisely why the file is unusable when it is.
"""
from __future__ import annotations

from collectors.readers.fsprobe import probe_file
from collectors.lifeos.layout import Layout
from collectors.readers.text import brief
from cortex.core.safeio import UnsafeFile, read_bounded
from cortex.core.timestamps import parse_timestamp_ms
from collectors.evidence import EvidenceStatus, FileState
from cortex.core.strictjson import parse_object
from cortex.layout import REVIEW_STATE_FILE as FILE_NAME

MAX_STATE_BYTES = 1 << 20


class ReviewStateEvidence:
    """status: EvidenceStatus; file: FileState; problem: str | None, why the content is unusable; last_review_at:
    object; last_review_ms: int | None; turn_count_since_last_review: object; pending_review: object.
    """

    __slots__ = ("status", "file", "problem", "last_review_at", "last_review_ms", "turn_count_since_last_review",
                 "pending_review")

    def __init__(self, status, file, problem=None, last_review_at=None, last_review_ms=None,
                 turn_count_since_last_review=None, pending_review=None) -> None:
        self.status, self.file, self.problem, self.last_review_at = status, file, problem, last_review_at
        self.last_review_ms, self.turn_count_since_last_review = last_review_ms, turn_count_since_last_review
        self.pending_review = pending_review


def collect(layout: Layout) -> ReviewStateEvidence:
    path = layout.evidence(FILE_NAME)
    state = probe_file(path, layout.memory)
    if state.status is not EvidenceStatus.OK:
        return ReviewStateEvidence(state.status, state)
    try:
        data = read_bounded(path, MAX_STATE_BYTES)
    except (UnsafeFile, OSError) as error:
        state = FileState(path, EvidenceStatus.UNREADABLE, str(error))
        return ReviewStateEvidence(state.status, state)
    parsed = parse_object(data.strip())
    if isinstance(parsed, str):
        return ReviewStateEvidence(EvidenceStatus.MALFORMED, state, parsed)
    raw = parsed.get("last_review_at")
    at_ms = parse_timestamp_ms(raw)
    problem = None
    if raw is not None and at_ms is None:
        problem = "last_review_at is not a valid timestamp"
    return ReviewStateEvidence(
        EvidenceStatus.MALFORMED if problem else EvidenceStatus.OK, state, problem, brief(raw), at_ms,
        brief(parsed.get("turn_count_since_last_review")), brief(parsed.get("pending_review")),
    )

