"""Evaluate stage rule: index evidence. Used by health.evaluate through the check list (health.checks).

An explicit no-index-v1 marker is healthy; a verified manifest must also be fresh; an
invalid manifest or marker and any digest mismatch are critical; no evidence at all warns.
"""
from __future__ import annotations

from collections.abc import Iterator

from collectors.index import ABSENT, INVALID, MISMATCH, NO_INDEX, IndexEvidence
from health.findings import critical, human_ms, ok, warn
from health.model import Finding
from health.rules import Context


def judge(ev: IndexEvidence, ctx: Context) -> Iterator[Finding]:
    paths = dict(manifest=ev.manifest, policy=ev.policy)
    if ev.verdict == ABSENT:
        yield warn("index-evidence-missing", "Index state is ambiguous: neither an index manifest nor a policy marker.",
                   **paths)
    elif ev.verdict == INVALID:
        yield critical("index-manifest-invalid", f"Index evidence is invalid: {ev.problem}.", reason=ev.problem,
                       index_path=ev.index_path, **paths)
    elif ev.verdict == MISMATCH:
        yield critical("index-integrity-mismatch", f"Index integrity failed: {ev.problem}.", reason=ev.problem,
                       canonical_sha256=ev.canonical_sha256, manifest_canonical_sha256=ev.manifest_canonical_sha256,
                       index_sha256=ev.index_sha256, manifest_index_sha256=ev.manifest_index_sha256,
                       index_path=ev.index_path, **paths)
    elif ev.verdict == NO_INDEX:
        yield ok("index-no-index-v1", "Explicit no-index-v1 policy: search reads the canonical files directly.",
                 **paths)
    else:
        yield ok("index-verified", f"Index manifest verified against {ev.records} canonical records.",
                 records=ev.records, **paths)
        yield freshness(ev, ctx)


def freshness(ev: IndexEvidence, ctx: Context) -> Finding:
    stale = ctx.thresholds["index_stale_ms"]
    if ev.indexed_at_ms is None:
        return warn("index-freshness-invalid", "Index freshness is not measurable: indexed_at is not a valid timestamp.",
                    indexed_at=ev.indexed_at, manifest=ev.manifest)
    age = ctx.now_ms - ev.indexed_at_ms
    where = dict(indexed_at=ev.indexed_at, manifest=ev.manifest, measured=age, threshold=stale, unit="ms")
    if age < 0:
        return warn("index-freshness-invalid", "Index freshness is not measurable: indexed_at is in the future.",
                    **where)
    if age > stale:
        return warn("index-stale", f"Index is {human_ms(age)} old (threshold {human_ms(stale)}).", **where)
    return ok("index-fresh", f"Index is {human_ms(age)} old.", **where)

