"""Evaluate stage rule: the health log's hash chain. Used by the evaluator through health.judge.checks.

A break is critical (the record of whether the loop was alive was rewritten); lines after
the chain started that carry no link, or a chained log without its checkpoint (a cut tail
would go unseen), are warnings; a log not chained yet or not written yet is fine: the next
published run starts the chain.
"""
from __future__ import annotations

from collectors.lifeos.health_history import HealthHistoryEvidence
from health.judge.catalogue.health_history import HEALTH_HISTORY_INTACT, HEALTH_HISTORY_TAMPERED, HEALTH_HISTORY_UNCHAINED
from health.judge.model import EvidenceStatus, Finding
from health.judge.rules import Context

TYPE_CHECKING = False  # annotations only: collections.abc imports collections (~7M instructions)
if TYPE_CHECKING:
    from collections.abc import Iterator

VERIFY = "cortex-health history --verify"


def judge(ev: HealthHistoryEvidence, ctx: Context) -> Iterator[Finding]:
    path = ev.file.path
    if ev.broken_kind is not None:
        yield HEALTH_HISTORY_TAMPERED.at(
            message=f"The health history was tampered with: {ev.broken_reason}. "
            f"Run `{VERIFY}`.", path=path, line=ev.broken_line, kind=ev.broken_kind,
            reason=ev.broken_reason, mode=ev.mode, checkpoint=ev.checkpoint_path)
        return
    if ev.checkpoint not in ("ok", "missing"):
        yield HEALTH_HISTORY_TAMPERED.at(
            message=f"The health-history checkpoint cannot be used: {ev.checkpoint}.",
            path=ev.checkpoint_path, reason=ev.checkpoint)
        return
    if ev.status is EvidenceStatus.MISSING:
        yield HEALTH_HISTORY_INTACT.at(
            message="No health history yet: the first published run starts the chain.", path=path)
        return
    if ev.status is not EvidenceStatus.OK:
        yield HEALTH_HISTORY_UNCHAINED.at(
            message=f"The health history cannot be verified: {ev.file.reason}.",
            path=path, reason=ev.file.reason)
        return
    if ev.unchained_total:
        shown = ", ".join(str(n) for n in ev.unchained_lines)
        more = ev.unchained_total - len(ev.unchained_lines)
        yield HEALTH_HISTORY_UNCHAINED.at(
            message=f"{ev.unchained_total} line(s) after the chain started carry no chain "
            f"link (line {shown}{f' and {more} more' if more > 0 else ''}).", path=path,
            lines=list(ev.unchained_lines), measured=ev.unchained_total, unit="count")
        return
    if ev.head_seq is not None and ev.checkpoint == "missing":
        yield HEALTH_HISTORY_UNCHAINED.at(
            message="The health log is chained but its checkpoint is missing: a cut tail "
            "cannot be seen until the next published run writes it again.", path=ev.checkpoint_path)
        return
    if ev.head_seq is None:
        yield HEALTH_HISTORY_INTACT.at(
            message=f"The health log ({ev.lines} line(s)) is not chained yet: the next "
            "published run starts the chain.", path=path, lines=ev.lines)
        return
    yield HEALTH_HISTORY_INTACT.at(
        message=f"Health history intact up to seq {ev.head_seq} (line {ev.lines}; verified "
        f"{ev.mode}ly from line {ev.verified_from_line}).", path=path, head_seq=ev.head_seq, lines=ev.lines,
        mode=ev.mode)
