"""Collect stage: the hash chain of O/memory-health.jsonl, verified from the last verified point (the checkpoint).

Called through health.judge.checks. Measures only: whether the log and the checkpoint can
be read, where verification started, the head sequence, the first break (line, kind,
why) and the lines after the chain started that lack a link. The judgement is
health.judge.rules.health_history. No key of this evidence is named "chain", so the only such
key in a published line is its own link.
"""
from __future__ import annotations

from collectors.readers.fsprobe import describe_os_error, probe_file
from collectors.lifeos.layout import Layout
from collectors.evidence import EvidenceStatus, FileState
from collectors.healthlog.chain import Checkpoint, checkpoint_path, read_checkpoint

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from typing import Any

    from collectors.metric import Limit, Metric


class HealthHistoryEvidence:
    """status: EvidenceStatus; file: FileState; checkpoint_path: str; checkpoint: str, ok | missing | the reason it
    cannot be used; checkpoint_seq: int | None; mode: str | None, full | incremental; verified_from_line: int |
    None; lines: int | None; head_seq: int | None, None: no chained line yet; broken_line: int | None; broken_kind:
    str | None, edited | inserted | deleted | reordered | truncated; broken_reason: str | None; unchained_lines:
    tuple[int, ...]; unchained_total: int; checkpoint_behind: int; torn: bool.
    """

    __slots__ = ("status", "file", "checkpoint_path", "checkpoint", "checkpoint_seq", "mode", "verified_from_line",
                 "lines", "head_seq", "broken_line", "broken_kind", "broken_reason", "unchained_lines",
                 "unchained_total", "checkpoint_behind", "torn")

    def __init__(self, status, file, checkpoint_path, checkpoint, checkpoint_seq=None, mode=None,
                 verified_from_line=None, lines=None, head_seq=None, broken_line=None, broken_kind=None,
                 broken_reason=None, unchained_lines=(), unchained_total=0, checkpoint_behind=0, torn=False) -> None:
        self.status, self.file, self.checkpoint_path, self.checkpoint = status, file, checkpoint_path, checkpoint
        self.checkpoint_seq, self.mode, self.verified_from_line = checkpoint_seq, mode, verified_from_line
        self.lines, self.head_seq, self.broken_line, self.broken_kind = lines, head_seq, broken_line, broken_kind
        self.broken_reason, self.unchained_lines, self.unchained_total = broken_reason, unchained_lines, unchained_total
        self.checkpoint_behind, self.torn = checkpoint_behind, torn


def collect(layout: Layout) -> HealthHistoryEvidence:
    log = layout.health_log
    point_path = checkpoint_path(log)
    found = read_checkpoint(point_path)
    point = found if isinstance(found, Checkpoint) else None
    base = dict(checkpoint_path=point_path, checkpoint="missing" if found is None else found if isinstance(found, str)
                else "ok", checkpoint_seq=point.seq if point else None)
    state = probe_file(log, layout.memory)
    if state.status is EvidenceStatus.MISSING and point is not None:
        return HealthHistoryEvidence(EvidenceStatus.OK, state, **base, broken_line=1, broken_kind="truncated",
                                     broken_reason=f"the log is gone but the checkpoint of {point.ts} records seq "
                                                   f"{point.seq}: it was deleted")
    if state.status is not EvidenceStatus.OK:
        return HealthHistoryEvidence(state.status, state, **base)
    from collectors.healthlog.verify import verify  # only when there is a log to verify (none before the first run)

    try:
        result = verify(log, point)
    except OSError as error:
        state = FileState(log, EvidenceStatus.UNREADABLE, describe_os_error(error))
        return HealthHistoryEvidence(state.status, state, **base)
    if result.checkpoint_problem is not None:  # the log contradicts it: verified without it
        base["checkpoint"] = result.checkpoint_problem
    broken = result.broken
    return HealthHistoryEvidence(
        EvidenceStatus.OK, state, **base, mode=result.mode, verified_from_line=result.first_line,
        lines=result.walk.lines, head_seq=result.walk.seq, broken_line=broken.line if broken else None,
        broken_kind=broken.kind if broken else None, broken_reason=broken.message if broken else None,
        unchained_lines=tuple(result.unchained), unchained_total=result.unchained_total,
        checkpoint_behind=result.checkpoint_behind, torn=result.torn)


# What this evidence gives a monitoring system (collectors.metric_table lists this function).
def metrics(evidence: Mapping[str, Any], now_ms: int | None, limit: Limit) -> Iterator[Metric]:
    """The head sequence of the chain (a number to alert on when it drops, not to graph: Prometheus and OTLP only)."""
    from collectors.metric import Metric  # only a monitoring format asks (not JSON, not text)

    if type(evidence.get("head_seq")) is int:
        yield Metric("history_head_seq", "Sequence number of the newest chained line of memory-health.jsonl "
                     "(before this run's own line); a drop means the history was cut or rolled back.",
                     evidence["head_seq"], "sequence", perfdata=False)
