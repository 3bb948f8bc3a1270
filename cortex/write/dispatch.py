"""Reviewer stage: send every parsed item through the governed write path and count the outcome; used by the reviewer.

Each item goes through cortex.write.routing.add, one at a time, in answer order. A suspect-write
guard refusal (ESUSPECT_SHRINK, ESUSPECT_EROSION) is the guard doing its job: it counts as
a skip (skipped_guard + skips), not a failure. Anything else that stops an item is a
failure with its code. A memory list still over the cap after the retry is refused with
the hot writer's own EAT_CAP rule before it reaches the writer (the item model would only
say "too long"). A proposal at or above confidence_threshold is approved at once, which
applies its edit; a failed approval is counted in proposals_auto_apply_failed.

The summary is exactly what the auditor validates: total = succeeded + skipped_guard (+
failed) = sum of by_type; proposals_auto_applied ≤ by_type.proposal.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from cortex.errors import CortexError
from cortex.write.hotguards import cap_refusal
from cortex.hot.hotmemory import validate_entries
from cortex.write.proposals import decide
from cortex.write.refusals import Refusal
from cortex.write.routing import add
from cortex.write.writecontext import WriteContext

GUARD_REASONS = ("ESUSPECT_SHRINK", "ESUSPECT_EROSION")
SOURCE = "reviewer"
DECIDED_BY = "cortex-reviewer:auto"
MAX_MESSAGE_CHARS = 500


@dataclass
class DispatchSummary:
    by_type: dict[str, int] = field(default_factory=lambda: {"memory": 0, "idea": 0, "knowledge": 0, "proposal": 0})
    succeeded: int = 0
    failures: list[dict] = field(default_factory=list)
    skips: list[dict] = field(default_factory=list)
    proposals_auto_applied: int = 0
    proposals_auto_apply_failed: int = 0
    results: list[dict] = field(default_factory=list)  # per item, for the run directory

    @property
    def failed(self) -> int:
        return sum(1 for failure in self.failures if failure["stage"] == "dispatch")

    @property
    def ok(self) -> bool:
        return not self.failures and self.proposals_auto_apply_failed == 0

    def to_row(self) -> dict:
        return {
            "total": sum(self.by_type.values()),
            "by_type": dict(self.by_type),
            "succeeded": self.succeeded,
            "failed": self.failed,
            "failures": list(self.failures),
            "skipped_guard": len(self.skips),
            "skips": list(self.skips),
            "proposals_auto_applied": self.proposals_auto_applied,
            "proposals_auto_apply_failed": self.proposals_auto_apply_failed,
        }


def _problem(index: int, kind: str, stage: str, code: str, message: str) -> dict:
    return {"index": index, "type": kind, "stage": stage, "code": code, "error": f"{code}: {message}"[:MAX_MESSAGE_CHARS]}


def _code(error: Exception) -> str:
    if isinstance(error, Refusal):
        return error.reason
    if isinstance(error, CortexError):
        return error.code
    return "EWRITE_FAILED"


def _message(error: Exception) -> str:
    if isinstance(error, CortexError):
        return error.message.removeprefix(f"{_code(error)}: ")
    return f"{type(error).__name__}: {error}"


def _write(ctx: WriteContext, item: dict) -> dict:
    if item["type"] == "memory":
        refusal = cap_refusal(validate_entries(item["entries"]).accepted)
        if refusal is not None:
            raise refusal
    return add(ctx, item, source=SOURCE)


def _auto_approve(ctx: WriteContext, index: int, result: dict, summary: DispatchSummary) -> None:
    proposal_id = result["detail"]["id"]
    try:
        decide(ctx, proposal_id, "approved", decided_by=DECIDED_BY)
        summary.proposals_auto_applied += 1
        result["auto_approved"] = True
    except (CortexError, OSError) as error:
        summary.proposals_auto_apply_failed += 1
        summary.failures.append(_problem(index, "proposal", "auto-approve", _code(error), _message(error)))


def dispatch(ctx: WriteContext, items: tuple[dict, ...] | list[dict], confidence_threshold: float) -> DispatchSummary:
    summary = DispatchSummary()
    for index, item in enumerate(items):
        kind = item["type"]
        summary.by_type[kind] += 1
        try:
            result = _write(ctx, item)
        except Refusal as refusal:
            problem = _problem(index, kind, "dispatch", refusal.reason, _message(refusal))
            if refusal.reason in GUARD_REASONS:
                summary.skips.append({key: problem[key] for key in ("index", "type", "code", "error")})
            else:
                summary.failures.append(problem)
            summary.results.append({"index": index, "type": kind, "ok": False, "code": refusal.reason})
            continue
        except (CortexError, OSError) as error:
            summary.failures.append(_problem(index, kind, "dispatch", _code(error), _message(error)))
            summary.results.append({"index": index, "type": kind, "ok": False, "code": _code(error)})
            continue
        summary.succeeded += 1
        entry = {"index": index, "type": kind, "ok": True, "path": result.get("path")}
        if kind == "proposal" and item["confidence"] >= confidence_threshold:
            _auto_approve(ctx, index, result, summary)
            entry["auto_approved"] = result.get("auto_approved", False)
        summary.results.append(entry)
    return summary
