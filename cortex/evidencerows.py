"""Evidence rows (stdlib only): strict row models of O/ logs; used by cortex.hot.retrieval, collectors.lifeos.retrieval and collectors.lifeos.proposals.

The memory-retrievals.jsonl row: the hook that writes it and the auditor that reads it
share this shape, so they cannot drift apart: exactly ts, query_hash, returned_count,
duration_ms and an optional top_score. Integers are JSON integers (booleans are not numbers); numbers are finite and
>= 0. A plain __slots__ class rather than pydantic, a dataclass or a named tuple keeps the recall hook and the
collector fast.
"""
from __future__ import annotations

from cortex.core.timestamps import parse_timestamp_ms

# pending-proposals.jsonl: the row model is cortex.write.proposalrows (pydantic, published as a schema);
# the auditor counts pending rows with this stdlib predicate so it never loads pydantic.
PROPOSAL_PENDING = "pending"
PROPOSAL_STATUSES = (PROPOSAL_PENDING, "approved", "rejected")


def is_pending_proposal(row: dict) -> bool:
    """A queued proposal still awaiting a decision: status is exactly the string "pending"."""
    status = row.get("status")
    return isinstance(status, str) and status == PROPOSAL_PENDING


REQUIRED = frozenset(["ts", "query_hash", "returned_count", "duration_ms"])
OPTIONAL = frozenset(["top_score"])


def is_count(value: object) -> bool:
    return type(value) is int and value >= 0


def is_duration(value: object) -> bool:
    # cortex.core.numbers.is_finite written out (a float's nan/inf minus itself is no 0; an int beyond any float
    # raises OverflowError, as math.isfinite does): the recall hook imports this module, not that one.
    return type(value) in (int, float) and float(value) - float(value) == 0 and value >= 0


def retrieval_row_problem(row: dict) -> str | None:
    """Why `row` is not a valid memory-retrievals.jsonl row, or None."""
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


class RetrievalRow:
    """ts: str; query_hash: str; returned_count: int; duration_ms: float; top_score: float | None, absent from the row
    when nothing was returned. (Not a named tuple: nothing uses it as one, and its class would cost every prompt
    ~0.4M instructions.)
    """

    __slots__ = ("ts", "query_hash", "returned_count", "duration_ms", "top_score")

    def __init__(self, ts: str, query_hash: str, returned_count: int, duration_ms: float,
                 top_score: float | None = None) -> None:
        self.ts, self.query_hash, self.returned_count, self.duration_ms = ts, query_hash, returned_count, duration_ms
        self.top_score = top_score

    def as_row(self) -> dict:
        """The JSON object to append; ValueError if it breaks the shape the auditor checks."""
        row = {"ts": self.ts, "query_hash": self.query_hash, "returned_count": self.returned_count,
               "duration_ms": self.duration_ms}
        if self.top_score is not None:
            row["top_score"] = self.top_score
        problem = retrieval_row_problem(row)
        if problem:
            raise ValueError(f"retrieval row: {problem}")
        return row
