"""Evaluate stage rule: observability volume and age. Used by the evaluator via the check list (health.judge.checks).

An mtime later than the audit's now (a log written after an injected --now, or clock skew)
is age 0 for the retention check: it proves that file is not old, and the oldest file is a
minimum over all files, so a future mtime can never hide an older log. The skew is shown.
"""
from __future__ import annotations

from collectors.lifeos.observability import ObservabilityEvidence
from health.judge.catalogue.observability import (OBSERVABILITY_AGE_EXCEEDED, OBSERVABILITY_AGE_OK,
                                            OBSERVABILITY_BYTES_EXCEEDED, OBSERVABILITY_BYTES_OK,
                                            OBSERVABILITY_EVIDENCE_INCOMPLETE, OBSERVABILITY_EVIDENCE_MISSING,
                                            OBSERVABILITY_EVIDENCE_PRESENT)
from health.judge.findings import human_ms
from health.judge.model import EvidenceStatus, Finding
from health.judge.rules import Context

TYPE_CHECKING = False  # annotations only: collections.abc imports collections (~7M instructions)
if TYPE_CHECKING:
    from collections.abc import Iterator


def judge(ev: ObservabilityEvidence, ctx: Context) -> Iterator[Finding]:
    folder = ev.folder
    if folder.status is not EvidenceStatus.OK or ev.files == 0:
        reason = folder.reason or ("folder does not exist" if folder.status is EvidenceStatus.MISSING
                                   else "no *.jsonl or *.log file")
        yield OBSERVABILITY_EVIDENCE_MISSING.at(
            message=f"Observability evidence is absent: {reason}.",
            path=folder.path, reason=reason, unreadable_dirs=list(ev.unreadable_dirs) or None)
        return
    if ev.refused_total or ev.unreadable_dirs_total:
        yield OBSERVABILITY_EVIDENCE_INCOMPLETE.at(
            message=f"{ev.refused_total} log(s) refused (symlink or not a regular file) and "
            f"{ev.unreadable_dirs_total} folder(s) unreadable; bytes and age leave them out.",
            refused=list(ev.refused), refused_total=ev.refused_total,
            unreadable_dirs=list(ev.unreadable_dirs), unreadable_dirs_total=ev.unreadable_dirs_total)
    else:
        yield OBSERVABILITY_EVIDENCE_PRESENT.at(message=f"{ev.files} observability logs measured.", files=ev.files)
    yield from volume(ev, ctx)
    yield from age(ev, ctx)


def volume(ev: ObservabilityEvidence, ctx: Context) -> Iterator[Finding]:
    limit = ctx.thresholds["observability_max_bytes"]
    where = dict(path=ev.folder.path, files=ev.files, measured=ev.bytes, threshold=limit, unit="bytes")
    if ev.bytes > limit:
        yield OBSERVABILITY_BYTES_EXCEEDED.at(
            message=f"Observability logs use {ev.bytes} bytes, above {limit}.", **where)
    else:
        yield OBSERVABILITY_BYTES_OK.at(message=f"Observability logs use {ev.bytes} bytes (limit {limit}).", **where)


def age(ev: ObservabilityEvidence, ctx: Context) -> Iterator[Finding]:
    limit = ctx.thresholds["observability_max_age_ms"]
    measured = max(0, ctx.now_ms - ev.oldest_mtime_ms)
    skew = ev.newest_mtime_ms - ctx.now_ms if ev.newest_mtime_ms > ctx.now_ms else None
    where = dict(oldest=ev.oldest_path, measured=measured, threshold=limit, unit="ms", future_skew_ms=skew)
    if measured > limit:
        yield OBSERVABILITY_AGE_EXCEEDED.at(
            message=f"Oldest observability log is {human_ms(measured)} old, above {human_ms(limit)}.", **where)
    else:
        yield OBSERVABILITY_AGE_OK.at(message=f"Oldest observability log is {human_ms(measured)} old.", **where)

