"""Collect stage: the exact shapes of reviewer-runs.jsonl rows. Used by collectors.reviewer.

Classifying a row against its schema is measurement (what the row *is*); the evaluator
alone decides what that costs. Integers are JSON integers (booleans are not numbers).
"""
from __future__ import annotations

import enum
import re

from cortex.evidencerows import is_count, is_duration
from cortex.timestamps import parse_timestamp_ms

SUCCESS_KEYS = frozenset(
    ["ts", "ok", "runId", "transcript", "exchanges", "inference_duration_ms", "parse_ok", "dispatch_summary"]
)
SKIP_REQUIRED = frozenset(["ts", "ok", "runId", "exchanges", "inference_duration_ms", "parse_ok", "skipped"])
SKIP_OPTIONAL = frozenset(["transcript", "error"])
SUMMARY_REQUIRED = frozenset(
    ["total", "by_type", "succeeded", "failed", "failures", "proposals_auto_applied", "proposals_auto_apply_failed"]
)
GUARD_PAIR = frozenset(["skipped_guard", "skips"])
BY_TYPE_KEYS = frozenset(["memory", "idea", "knowledge", "proposal"])
_RUN_ID = re.compile(r"(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z\Z", re.ASCII)


class RowClass(str, enum.Enum):
    OK = "ok"
    SKIPPED = "skipped"
    FAILED = "failed"
    PARSE_FAILED = "parse-failed"
    TIMED_OUT = "timed-out"
    INVALID = "invalid"


def run_id_ms(run_id: object) -> int | None:
    """Milliseconds encoded in a run id such as 2026-10-01T10-00-00-000Z."""
    if not isinstance(run_id, str):
        return None
    match = _RUN_ID.match(run_id)
    if not match:
        return None
    day, hour, minute, second, millis = match.groups()
    return parse_timestamp_ms(f"{day}T{hour}:{minute}:{second}.{millis}Z")


def _common_problem(row: dict) -> str | None:
    if not isinstance(row.get("runId"), str) or not row["runId"]:
        return "runId must be a non-empty string"
    if parse_timestamp_ms(row.get("ts")) is None:
        return "ts is not a valid timestamp"
    if row.get("ok") is not True or row.get("parse_ok") is not True:
        return "ok and parse_ok must be true"
    if not is_duration(row.get("inference_duration_ms")):
        return "inference_duration_ms must be a finite number >= 0"
    return None


def skip_problem(row: dict) -> str | None:
    keys = set(row)
    if not SKIP_REQUIRED <= keys or not keys <= SKIP_REQUIRED | SKIP_OPTIONAL:
        return f"skip row keys must be {sorted(SKIP_REQUIRED)} plus optional {sorted(SKIP_OPTIONAL)}"
    if row["exchanges"] != 0 or type(row["exchanges"]) is not int:
        return "skip row must have exchanges 0"
    if "transcript" in row and row["transcript"] is not None and not isinstance(row["transcript"], str):
        return "transcript must be null or a string"
    if "error" in row and not isinstance(row["error"], str):
        return "error must be a string"
    return _common_problem(row)


def success_problem(row: dict) -> str | None:
    if set(row) != SUCCESS_KEYS:
        return f"success row keys must be exactly {sorted(SUCCESS_KEYS)}"
    problem = _common_problem(row)
    if problem:
        return problem
    if not isinstance(row["transcript"], str) or not row["transcript"]:
        return "transcript must be a non-empty string"
    if not is_count(row["exchanges"]):
        return "exchanges must be an integer >= 0"
    return dispatch_problem(row["dispatch_summary"])


def dispatch_problem(summary: object) -> str | None:
    if not isinstance(summary, dict):
        return "dispatch_summary must be an object"
    keys = set(summary)
    guard = keys & GUARD_PAIR
    if not SUMMARY_REQUIRED <= keys or keys - SUMMARY_REQUIRED - GUARD_PAIR or guard not in (set(), GUARD_PAIR):
        return "dispatch_summary keys are not the expected set (skipped_guard and skips only as a pair)"
    counts = ["total", "succeeded", "failed", "proposals_auto_applied", "proposals_auto_apply_failed"]
    if guard:
        counts.append("skipped_guard")
        if not isinstance(summary["skips"], list):
            return "dispatch_summary.skips must be an array"
    if not all(is_count(summary[name]) for name in counts):
        return "dispatch_summary counts must be integers >= 0"
    by_type = summary["by_type"]
    if not isinstance(by_type, dict) or not set(by_type) <= BY_TYPE_KEYS or not all(map(is_count, by_type.values())):
        return "dispatch_summary.by_type must map memory/idea/knowledge/proposal to integers >= 0"
    if summary["failed"] != 0 or summary["failures"] != [] or summary["proposals_auto_apply_failed"] != 0:
        return "dispatch_summary reports failures"
    guarded = summary.get("skipped_guard", 0)
    if summary["total"] != summary["succeeded"] + guarded or summary["total"] != sum(by_type.values()):
        return "dispatch_summary totals do not add up"
    if summary["proposals_auto_applied"] > by_type.get("proposal", 0):
        return "dispatch_summary auto-applied more proposals than it dispatched"
    return None


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
