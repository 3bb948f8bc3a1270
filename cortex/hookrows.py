"""Evidence rows (stdlib only): the O/hook-failures.jsonl row model; used by cortex.hookfailures and collectors.lifeos.hook_failures.

A hook (`cortex hot render`, `cortex recall`, `cortex review fire`, `cortex-health gate`) never
blocks the agent, so when it cannot do its job it still exits as always; it leaves one row here
instead: ts, hook (render | recall | fire | gate), code (the error code: integrity_error,
invalid_input, internal_error, deadline_exceeded, ...), reason (the error's message, privacy-
stripped and cut to MAX_REASON_CHARS), and where the fault sits when known: file (relative to
ROOT, else absolute), line, field, rule. Never content: messages name files, lines and fields,
never the values read. The log is cortex-native (the reference has none), so the reference's
logs keep their shapes. The writer builds its row with hook_failure_row, which refuses a row
that breaks this shape (ValueError); the auditor counts a row only when hook_failure_problem
accepts it. (A function rather than a record class: the audit imports this module on every run
and a class definition would cost it start-up for the rare failure it writes.)
"""
from __future__ import annotations

from cortex.core.timestamps import parse_timestamp_ms

HOOKS = ("render", "recall", "fire", "gate")
HOOK_COMMANDS = {"render": "cortex hot render", "recall": "cortex recall", "fire": "cortex review fire",
                 "gate": "cortex-health gate"}
KEYS = frozenset(["ts", "hook", "code", "reason", "file", "line", "field", "rule"])
MAX_REASON_CHARS = 300
MAX_CODE_CHARS = 64
MAX_PATH_CHARS = 1024
MAX_NAME_CHARS = 128  # field and rule


def _text(value: object, limit: int, *, nullable: bool = True) -> bool:
    if value is None:
        return nullable
    return isinstance(value, str) and 0 < len(value) <= limit


def hook_failure_problem(row: dict) -> str | None:
    """Why `row` is not a valid hook-failures.jsonl row, or None."""
    if set(row) != KEYS:
        return f"keys must be exactly {sorted(KEYS)}"
    if parse_timestamp_ms(row["ts"]) is None:
        return "ts is not a valid timestamp"
    if row["hook"] not in HOOKS:
        return f"hook must be one of {', '.join(HOOKS)}"
    if not _text(row["code"], MAX_CODE_CHARS, nullable=False) or not _text(row["reason"], MAX_REASON_CHARS,
                                                                             nullable=False):
        return f"code and reason must be non-empty strings (at most {MAX_CODE_CHARS} and {MAX_REASON_CHARS} characters)"
    if not _text(row["file"], MAX_PATH_CHARS) or not _text(row["field"], MAX_NAME_CHARS) \
            or not _text(row["rule"], MAX_NAME_CHARS):
        return "file, field and rule must be null or non-empty strings of bounded length"
    if row["line"] is not None and not (type(row["line"]) is int and row["line"] >= 1):
        return "line must be null or an integer >= 1"
    return None


def failure_at_ms(row: dict) -> int | None:
    """When a valid row says its hook failed, else None."""
    return parse_timestamp_ms(row["ts"]) if hook_failure_problem(row) is None else None


def clipped(text: str, limit: int) -> str:
    """One line of at most `limit` characters (an ellipsis marks a cut)."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[:limit - 1] + "…"


def hook_failure_row(ts: str, hook: str, code: str, reason: str, file: str | None = None, line: int | None = None,
                     field: str | None = None, rule: str | None = None) -> dict:
    """The JSON object to append (hook: render | recall | fire | gate; file relative to ROOT, else absolute);
    ValueError if it breaks the shape the auditor checks."""
    row = {"ts": ts, "hook": hook, "code": code, "reason": reason, "file": file, "line": line, "field": field,
           "rule": rule}
    problem = hook_failure_problem(row)
    if problem:
        raise ValueError(f"hook-failures row: {problem}")
    return row
