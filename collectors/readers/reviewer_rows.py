"""Collect stage: the class of each reviewer-runs.jsonl row. Used by collectors.lifeos.reviewer.

The row shapes themselves are the writer's own model (cortex.reviewrows). Classifying a
row against them is measurement (what the row *is*); the evaluator alone decides what that costs.
"""
from __future__ import annotations

from collectors.readers.text import clip
from cortex.core.closedset import ClosedSet
from cortex.evidencerows import is_count
from cortex.reviewrows import skip_problem, success_problem

MAX_CODES = 10  # distinct refusal codes kept per row


class RowClass(ClosedSet):
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


def dispatch_refusals(row: dict) -> tuple[int, int, dict[str, int]]:
    """(items dispatched, items whose write was refused, refusal code -> count) of a row's dispatch_summary.

    Refused: a guard's skip (ESUSPECT_*) or a failure at the dispatch stage (EAT_CAP, EINVAL_ITEM, ...); an
    auto-approval that failed afterwards was still written. A row without a summary dispatched nothing.
    """
    summary = row.get("dispatch_summary")
    if not isinstance(summary, dict) or not is_count(summary.get("total")) or not summary["total"]:
        return 0, 0, {}
    skips = summary.get("skips") if isinstance(summary.get("skips"), list) else []
    failures = summary.get("failures") if isinstance(summary.get("failures"), list) else []
    refused = [item for item in skips] + [item for item in failures
                                          if not isinstance(item, dict) or item.get("stage", "dispatch") == "dispatch"]
    codes: dict[str, int] = {}
    for item in refused:
        code = item.get("code") if isinstance(item, dict) else None
        code = clip(code, 64) if isinstance(code, str) and code else "unknown"
        if code in codes or len(codes) < MAX_CODES:
            codes[code] = codes.get(code, 0) + 1
    if not skips and is_count(summary.get("skipped_guard")) and summary["skipped_guard"]:
        codes["skipped_guard"] = summary["skipped_guard"]  # a guard count without its list
        refused += [None] * summary["skipped_guard"]
    return summary["total"], min(len(refused), summary["total"]), codes
