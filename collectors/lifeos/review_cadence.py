"""Collect stage: how the reviewer keeps up, the newest reviewer rows' kinds and the turns waiting for a review. Called through health.judge.checks.

Reads the tail of O/reviewer-runs.jsonl (the newest TAIL_ROWS rows, classified with the same
shapes as collectors.lifeos.reviewer), `turn_count_since_last_review` of O/review-state.json and
`turn_threshold` of LIFEOS/USER/CONFIG/memory-review.json (default 8, the reviewer's own).
"""
from __future__ import annotations

from collectors.lifeos.layout import Layout
from cortex import layout as contract
from collectors.readers.reviewer_rows import RowClass, classify
from cortex.evidencerows import is_count
from collectors.readers.text import brief
from collectors.readers.jsonl import json_object, tail_rows

TAIL_ROWS = 50
DEFAULT_TURN_THRESHOLD = 8


class ReviewCadenceEvidence:
    """status: EvidenceStatus, that of reviewer-runs.jsonl; log: FileState; recent: tuple[str, ...], RowClass values of
    the newest rows, newest first; recent_run_ids: tuple[object, ...]; turns_waiting: int | None,
    turn_count_since_last_review, None when unknown; turn_threshold: int; turn_threshold_source: str.
    """

    __slots__ = ("status", "log", "recent", "recent_run_ids", "turns_waiting", "turn_threshold",
                 "turn_threshold_source")

    def __init__(self, status, log, recent, recent_run_ids, turns_waiting, turn_threshold,
                 turn_threshold_source) -> None:
        self.status, self.log, self.recent, self.recent_run_ids = status, log, recent, recent_run_ids
        self.turns_waiting, self.turn_threshold = turns_waiting, turn_threshold
        self.turn_threshold_source = turn_threshold_source


def collect(layout: Layout) -> ReviewCadenceEvidence:
    state, rows = tail_rows(layout.evidence(contract.REVIEWER_RUNS_LOG), TAIL_ROWS, layout.memory)
    classes: list[str] = []
    run_ids: list[object] = []
    for row in reversed(rows):
        classes.append(classify(row)[0].value if isinstance(row, dict) else RowClass.INVALID.value)
        run_ids.append(brief(row.get("runId")) if isinstance(row, dict) else None)
    review_state = json_object(layout.evidence(contract.REVIEW_STATE_FILE))
    waiting = review_state.get("turn_count_since_last_review")
    config = layout.review_config
    threshold = config.get("turn_threshold")
    source = "memory-review.json" if is_count(threshold) and threshold > 0 else "default"
    return ReviewCadenceEvidence(state.status, state, tuple(classes), tuple(run_ids),
                                 waiting if is_count(waiting) else None,
                                 threshold if source != "default" else DEFAULT_TURN_THRESHOLD, source)
