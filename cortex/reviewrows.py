"""Evidence rows (stdlib only): the reviewer-runs.jsonl row model; used by cortex.review.reviewruns and collectors.readers.reviewer_rows.

The reviewer appends exactly one terminal row per run, in one of three shapes, and the
auditor validates the same shapes with the same functions, so writer and reader cannot
drift apart:
  success  ts, ok true, runId, transcript, exchanges, inference_duration_ms, parse_ok true, dispatch_summary
  skip     ts, ok true, runId, transcript (path or null), exchanges 0, inference_duration_ms, parse_ok true,
           skipped true, error (why)
  failure  ts, ok false, runId, transcript, exchanges, inference_duration_ms, parse_ok (false or null),
           error [, dispatch_summary]
A failure whose inference command could not be found says so first: its error starts with
COMMAND_NOT_FOUND (the auditor names that finding by it).
A dispatch_summary carries `skipped_guard` and `skips` together or not at all: legacy rows
written before the guard counted skips have neither and stay valid; exactly one is malformed.
Integers are JSON integers (booleans are not numbers). Named tuples, not pydantic or dataclasses,
keep the reviewer and the collector fast.
"""
from __future__ import annotations

from cortex.evidencerows import is_count, is_duration
from cortex.core.timestamps import parse_timestamp_ms

SUCCESS_KEYS = frozenset(
    ["ts", "ok", "runId", "transcript", "exchanges", "inference_duration_ms", "parse_ok", "dispatch_summary"]
)
SKIP_REQUIRED = frozenset(["ts", "ok", "runId", "exchanges", "inference_duration_ms", "parse_ok", "skipped"])
SKIP_OPTIONAL = frozenset(["transcript", "error"])
FAILURE_REQUIRED = frozenset(["ts", "ok", "runId", "transcript", "exchanges", "inference_duration_ms", "parse_ok",
                              "error"])
FAILURE_OPTIONAL = frozenset(["dispatch_summary"])
SUMMARY_REQUIRED = frozenset(
    ["total", "by_type", "succeeded", "failed", "failures", "proposals_auto_applied", "proposals_auto_apply_failed"]
)
COMMAND_NOT_FOUND = "inference command not found"
GUARD_PAIR = frozenset(["skipped_guard", "skips"])
BY_TYPE_KEYS = frozenset(["memory", "idea", "knowledge", "proposal"])
# A reviewer run id's form, 0 standing for an ASCII digit: read without `re` (tests/cortex/test_run_ids.py compares
# it with the pattern (\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})-(\d{3})Z\Z, re.ASCII).
_RUN_ID_FORM = "0000-00-00T00-00-00-000Z"
_DIGITS_AS_ZERO = str.maketrans("123456789", "000000000")


def run_id_parts(run_id: str) -> tuple[str, str, str, str, str] | None:
    """(day, hour, minute, second, millis) of a reviewer run id such as 2026-10-01T10-00-00-000Z, else None."""
    if len(run_id) != len(_RUN_ID_FORM) or run_id.translate(_DIGITS_AS_ZERO) != _RUN_ID_FORM:
        return None
    return run_id[:10], run_id[11:13], run_id[14:16], run_id[17:19], run_id[20:23]


def run_id_ms(run_id: object) -> int | None:
    """Milliseconds encoded in a run id such as 2026-10-01T10-00-00-000Z."""
    parts = run_id_parts(run_id) if isinstance(run_id, str) else None
    if parts is None:
        return None
    day, hour, minute, second, millis = parts
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


def failure_problem(row: dict) -> str | None:
    """The failure shape the writer promises (the auditor counts any ok/parse_ok false row as a failure)."""
    keys = set(row)
    if not FAILURE_REQUIRED <= keys or not keys <= FAILURE_REQUIRED | FAILURE_OPTIONAL:
        return f"failure row keys must be {sorted(FAILURE_REQUIRED)} plus optional dispatch_summary"
    if row["ok"] is not False or row["parse_ok"] not in (False, True, None):
        return "ok must be false and parse_ok a boolean or null"
    if not isinstance(row["runId"], str) or not row["runId"] or parse_timestamp_ms(row["ts"]) is None:
        return "runId must be a non-empty string and ts a valid timestamp"
    if row["transcript"] is not None and not isinstance(row["transcript"], str):
        return "transcript must be null or a string"
    if not is_count(row["exchanges"]) or not is_duration(row["inference_duration_ms"]):
        return "exchanges must be an integer >= 0 and inference_duration_ms a finite number >= 0"
    if not isinstance(row["error"], str):
        return "error must be a string"
    if "dispatch_summary" in row and not isinstance(row["dispatch_summary"], dict):
        return "dispatch_summary must be an object"
    return None


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


def _checked(row: dict, problem: str | None, shape: str) -> dict:
    if problem:
        raise ValueError(f"reviewer-runs {shape} row: {problem}")
    return row


class SuccessRow:
    """ts: str; run_id: str; transcript: str; exchanges: int; inference_duration_ms: float; dispatch_summary: dict."""

    __slots__ = ("ts", "run_id", "transcript", "exchanges", "inference_duration_ms", "dispatch_summary")

    def __init__(self, ts, run_id, transcript, exchanges, inference_duration_ms, dispatch_summary) -> None:
        self.ts, self.run_id, self.transcript, self.exchanges = ts, run_id, transcript, exchanges
        self.inference_duration_ms, self.dispatch_summary = inference_duration_ms, dispatch_summary

    def as_row(self) -> dict:
        """The JSON object to append; ValueError if it breaks the shape the auditor accepts."""
        row = {"ts": self.ts, "ok": True, "runId": self.run_id, "transcript": self.transcript,
               "exchanges": self.exchanges, "inference_duration_ms": self.inference_duration_ms, "parse_ok": True,
               "dispatch_summary": self.dispatch_summary}
        return _checked(row, success_problem(row), "success")


class SkipRow:
    """ts: str; run_id: str; transcript: str | None; error: str, why the run was skipped."""

    __slots__ = ("ts", "run_id", "transcript", "error")

    def __init__(self, ts, run_id, transcript, error) -> None:
        self.ts, self.run_id, self.transcript, self.error = ts, run_id, transcript, error

    def as_row(self) -> dict:
        row = {"ts": self.ts, "ok": True, "runId": self.run_id, "transcript": self.transcript, "exchanges": 0,
               "inference_duration_ms": 0, "parse_ok": True, "skipped": True, "error": self.error}
        return _checked(row, skip_problem(row), "skip")


class FailureRow:
    """ts: str; run_id: str; transcript: str | None; exchanges: int; inference_duration_ms: float; parse_ok: bool |
    None, False: the answer was rejected; None: parsing was never reached; error: str, says "timeout" on a timeout;
    dispatch_summary: dict | None, when items were dispatched.
    """

    __slots__ = ("ts", "run_id", "transcript", "exchanges", "inference_duration_ms", "parse_ok", "error",
                 "dispatch_summary")

    def __init__(self, ts, run_id, transcript, exchanges, inference_duration_ms, parse_ok, error,
                 dispatch_summary=None) -> None:
        self.ts, self.run_id, self.transcript, self.exchanges = ts, run_id, transcript, exchanges
        self.inference_duration_ms, self.parse_ok, self.error = inference_duration_ms, parse_ok, error
        self.dispatch_summary = dispatch_summary

    def as_row(self) -> dict:
        row = {"ts": self.ts, "ok": False, "runId": self.run_id, "transcript": self.transcript,
               "exchanges": self.exchanges, "inference_duration_ms": self.inference_duration_ms,
               "parse_ok": self.parse_ok, "error": self.error}
        if self.dispatch_summary is not None:
            row["dispatch_summary"] = self.dispatch_summary
        return _checked(row, failure_problem(row), "failure")
