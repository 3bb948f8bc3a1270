"""Collect stage: the class of each reviewer-runs.jsonl row. Used by collectors.reviewer.

The row shapes themselves are the writer's own model (cortex.reviewrows). Classifying a
row against them is measurement (what the row *is*); the evaluator alone decides what that costs.
"""
from __future__ import annotations

import enum

from cortex.reviewrows import skip_problem, success_problem


class RowClass(str, enum.Enum):
    OK = "ok"
    SKIPPED = "skipped"
    FAILED = "failed"
    PARSE_FAILED = "parse-failed"
    TIMED_OUT = "timed-out"
    INVALID = "invalid"


def classify(row: dict) -> tuple[RowClass, str | None]:
    """The row's class and, for an invalid row, why."""
    if row.get("skipped") is True:
        problem = skip_problem(row)
        return (RowClass.INVALID, problem) if problem else (RowClass.SKIPPED, None)
    if row.get("ok") is False or row.get("parse_ok") is False:
        error = row.get("error")
        if isinstance(error, str) and "timeout" in error.lower():
            return RowClass.TIMED_OUT, None
        return (RowClass.PARSE_FAILED if row.get("parse_ok") is False else RowClass.FAILED), None
    problem = success_problem(row)
    return (RowClass.INVALID, problem) if problem else (RowClass.OK, None)


def is_failure(row: dict) -> bool:
    return row.get("ok") is False or row.get("parse_ok") is False


def carries_eat_cap(row: dict) -> bool:
    """Any dispatch failure naming EAT_CAP: the cap jam dropping a real fact."""
    summary = row.get("dispatch_summary")
    failures = summary.get("failures") if isinstance(summary, dict) else None
    if not isinstance(failures, list):
        return False
    for failure in failures:
        texts = [failure] if isinstance(failure, str) else (
            [failure.get("error"), failure.get("code")] if isinstance(failure, dict) else [])
        if any(isinstance(text, str) and "EAT_CAP" in text for text in texts):
            return True
    return False
