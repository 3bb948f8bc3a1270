"""Evaluate stage rule: index evidence. Used by the evaluator through the check list (health.judge.checks).

An explicit no-index-v1 marker is healthy; a verified manifest must also be fresh; an
invalid manifest or marker and any digest mismatch are critical; no evidence at all warns.
"""
from __future__ import annotations

from collectors.lifeos.index import ABSENT, INVALID, MISMATCH, NO_INDEX, IndexEvidence
from health.judge.catalogue.index import (INDEX_EVIDENCE_MISSING, INDEX_FRESH, INDEX_FRESHNESS_INVALID,
                                    INDEX_INTEGRITY_MISMATCH, INDEX_MANIFEST_INVALID, INDEX_NO_INDEX_V1, INDEX_STALE,
                                    INDEX_VERIFIED)
from health.judge.findings import human_ms
from health.judge.model import Finding
from health.judge.rules import Context

TYPE_CHECKING = False  # annotations only: collections.abc imports collections (~7M instructions)
if TYPE_CHECKING:
    from collections.abc import Iterator


def judge(ev: IndexEvidence, ctx: Context) -> Iterator[Finding]:
    paths = dict(manifest=ev.manifest, policy=ev.policy)
    if ev.verdict == ABSENT:
        yield INDEX_EVIDENCE_MISSING.at(
            message="Index state is ambiguous: neither an index manifest nor a policy marker.",
            **paths)
    elif ev.verdict == INVALID:
        yield INDEX_MANIFEST_INVALID.at(
            message=f"Index evidence is invalid: {ev.problem}.", reason=ev.problem,
            index_path=ev.index_path, **paths)
    elif ev.verdict == MISMATCH:
        yield INDEX_INTEGRITY_MISMATCH.at(
            message=f"Index integrity failed: {ev.problem}.", reason=ev.problem,
            canonical_sha256=ev.canonical_sha256, manifest_canonical_sha256=ev.manifest_canonical_sha256,
            index_sha256=ev.index_sha256, manifest_index_sha256=ev.manifest_index_sha256,
            index_path=ev.index_path, **paths)
    elif ev.verdict == NO_INDEX:
        yield INDEX_NO_INDEX_V1.at(
            message="Explicit no-index-v1 policy: search reads the canonical files directly.",
            **paths)
    else:
        yield INDEX_VERIFIED.at(
            message=f"Index manifest verified against {ev.records} canonical records.",
            records=ev.records, **paths)
        yield freshness(ev, ctx)


def freshness(ev: IndexEvidence, ctx: Context) -> Finding:
    stale = ctx.thresholds["index_stale_ms"]
    if ev.indexed_at_ms is None:
        return INDEX_FRESHNESS_INVALID.at(
            message="Index freshness is not measurable: indexed_at is not a valid timestamp.",
            indexed_at=ev.indexed_at, manifest=ev.manifest)
    age = ctx.now_ms - ev.indexed_at_ms
    where = dict(indexed_at=ev.indexed_at, manifest=ev.manifest, measured=age, threshold=stale, unit="ms")
    if age < 0:
        return INDEX_FRESHNESS_INVALID.at(
            message="Index freshness is not measurable: indexed_at is in the future.",
            **where)
    if age > stale:
        return INDEX_STALE.at(message=f"Index is {human_ms(age)} old (threshold {human_ms(stale)}).", **where)
    return INDEX_FRESH.at(message=f"Index is {human_ms(age)} old.", **where)

