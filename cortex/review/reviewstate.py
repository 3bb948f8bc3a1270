"""Cadence stage (stdlib only): per-session turn counters and O/review-state.json; used by `review fire` and the reviewer.

- M/STATE/memory-review/<session>.json: {schema_version, session_id,
  turn_count_since_last_review, last_message_at} — per session, so concurrent sessions never
  reset each other's count (the reference's bug #1711).
- O/review-state.json: exactly {last_review_at, turn_count_since_last_review, pending_review},
  the global mirror the auditor and status surfaces read. last_review_at is when a review
  last started; turn_count_since_last_review counts Stop turns of all sessions since then;
  pending_review is true from the moment a session reaches its threshold until a review
  completes (success or skip).
Both are read and written under one lock, O/review-state.json.lock, always replaced
atomically. A file we cannot read is an IntegrityError, never a silent reset.
"""
from __future__ import annotations

import os

from cortex.core.durable import replace_file
from cortex.errors import IntegrityError, InvalidInput
from cortex.core.hookjson import loads
from cortex.core.jsjson import dumps
from cortex.core.safeio import UnsafeFile, read_bounded
from cortex.core.safepaths import check_regular_or_absent, memory_dir
from cortex.core.timestamps import parse_timestamp_ms
from cortex.write.writecontext import WriteContext
from cortex.layout import OBSERVABILITY, REVIEW_STATE_FILE as STATE_NAME

SESSION_PARTS = ("STATE", "memory-review")
MAX_STATE_BYTES = 65_536
_ALNUM = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
_SESSION_CHARS = _ALNUM | {".", "_", "-"}  # [A-Za-z0-9][A-Za-z0-9._-]{0,127}, not compiled by every Stop hook


def is_safe_session(value: str) -> bool:
    """A session id usable as a file name: letters, digits, '.', '_' and '-', at most 128, no leading dot."""
    return 0 < len(value) <= 128 and value[0] in _ALNUM and _SESSION_CHARS.issuperset(value)


def check_session_id(value: str) -> str:
    if not is_safe_session(value):
        raise InvalidInput("session id must be 1-128 letters, digits, '.', '_' or '-' and start with a letter or digit")
    return value


class ReviewState:
    """OBSERVABILITY's review state, updated in place by a fire under the state lock."""

    __slots__ = ("last_review_at", "turn_count_since_last_review", "pending_review")

    def __init__(self, last_review_at: str | None = None, turn_count_since_last_review: int = 0,
                 pending_review: bool = False) -> None:
        self.last_review_at = last_review_at
        self.turn_count_since_last_review = turn_count_since_last_review
        self.pending_review = pending_review

    def to_json(self) -> dict:
        return {"last_review_at": self.last_review_at, "turn_count_since_last_review": self.turn_count_since_last_review,
                "pending_review": self.pending_review}


class SessionCounter:
    """One session's turn counter, updated in place by a fire under the state lock."""

    __slots__ = ("session_id", "turn_count_since_last_review", "last_message_at")

    def __init__(self, session_id: str, turn_count_since_last_review: int = 0,
                 last_message_at: str | None = None) -> None:
        self.session_id = session_id
        self.turn_count_since_last_review = turn_count_since_last_review
        self.last_message_at = last_message_at

    def to_json(self) -> dict:
        return {"schema_version": 1, "session_id": self.session_id,
                "turn_count_since_last_review": self.turn_count_since_last_review,
                "last_message_at": self.last_message_at}


def state_path(ctx: WriteContext) -> str:
    return os.path.join(memory_dir(ctx.layout.memory_root, OBSERVABILITY), STATE_NAME)


def session_path(ctx: WriteContext, session: str) -> str:
    return os.path.join(memory_dir(ctx.layout.memory_root, *SESSION_PARTS), f"{check_session_id(session)}.json")


def _read_object(path: str, shown: str) -> dict | None:
    if not check_regular_or_absent(path):
        return None
    try:
        value = loads(read_bounded(path, MAX_STATE_BYTES).decode("utf-8"))
    except (UnsafeFile, OSError, UnicodeDecodeError, ValueError) as error:
        raise IntegrityError(f"{shown} is not readable JSON ({error}); repair or remove it") from None
    if not isinstance(value, dict):
        raise IntegrityError(f"{shown} is not a JSON object; repair or remove it")
    return value


def _count(value: object, shown: str, key: str) -> int:
    if type(value) is not int or value < 0:
        raise IntegrityError(f"{shown}: {key} must be an integer >= 0; repair or remove it")
    return value


def _stamp(value: object, shown: str, key: str) -> str | None:
    if value is not None and parse_timestamp_ms(value) is None:
        raise IntegrityError(f"{shown}: {key} must be a timestamp or null; repair or remove it")
    return value


def read_state(ctx: WriteContext) -> ReviewState:
    shown = f"OBSERVABILITY/{STATE_NAME}"
    raw = _read_object(state_path(ctx), shown)
    if raw is None:
        return ReviewState()
    pending = raw.get("pending_review", False)
    if type(pending) is not bool:
        raise IntegrityError(f"{shown}: pending_review must be true or false; repair or remove it")
    return ReviewState(_stamp(raw.get("last_review_at"), shown, "last_review_at"),
                       _count(raw.get("turn_count_since_last_review", 0), shown, "turn_count_since_last_review"),
                       pending)


def write_state(ctx: WriteContext, state: ReviewState) -> None:
    replace_file(state_path(ctx), (dumps(state.to_json()) + "\n").encode("utf-8"))


def read_session(ctx: WriteContext, session: str) -> SessionCounter:
    shown = f"STATE/memory-review/{session}.json"
    raw = _read_object(session_path(ctx, session), shown)
    if raw is None:
        return SessionCounter(session)
    return SessionCounter(session, _count(raw.get("turn_count_since_last_review", 0), shown, "turn_count_since_last_review"),
                          _stamp(raw.get("last_message_at"), shown, "last_message_at"))


def write_session(ctx: WriteContext, counter: SessionCounter) -> None:
    replace_file(session_path(ctx, counter.session_id), (dumps(counter.to_json()) + "\n").encode("utf-8"))


def state_lock(ctx: WriteContext):
    return ctx.lock(state_path(ctx) + ".lock")
