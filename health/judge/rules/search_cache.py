"""Evaluate stage rule: the search cache, as evidence only. Used by the evaluator through health.judge.checks.

The cache is derived and rebuilt by the next read, so nothing about it is critical: no
cache, or caching switched off, is ok with a note; a cache sqlite cannot read, or whose
last `cortex cache verify` found entries that differ from the files, warns.
"""
from __future__ import annotations

from collectors.lifeos.search_cache import SearchCacheEvidence
from health.judge.catalogue.search_cache import (SEARCH_CACHE_ABSENT, SEARCH_CACHE_OFF, SEARCH_CACHE_PRESENT,
                                           SEARCH_CACHE_UNREADABLE, SEARCH_CACHE_VERIFY_FAILED)
from health.judge.model import Finding
from health.judge.rules import Context

TYPE_CHECKING = False  # annotations only: collections.abc imports collections (~7M instructions)
if TYPE_CHECKING:
    from collections.abc import Iterator


def judge(ev: SearchCacheEvidence, ctx: Context) -> Iterator[Finding]:
    where = dict(path=ev.path, measured=ev.bytes, unit="bytes")
    if ev.state == "off":
        yield SEARCH_CACHE_OFF.at(
            message="The search cache is off (CORTEX_CACHE=off or no cache folder): every read parses "
            "the canonical files.")
    elif ev.state == "absent":
        yield SEARCH_CACHE_ABSENT.at(
            message="No search cache yet for this memory root: the next read builds one.", **where)
    elif ev.state == "unreadable":
        yield SEARCH_CACHE_UNREADABLE.at(
            message=f"The search cache cannot be read ({ev.error}): the next read rebuilds "
            "it; it is never a source of truth.", **where)
    elif ev.verification is not None and not ev.verification.get("ok"):
        yield SEARCH_CACHE_VERIFY_FAILED.at(
            message=f"The last `cortex cache verify` ({ev.verification.get('at')}) found "
            f"{ev.verification.get('mismatched_count', 0)} entries that differ from the files (quick_check: "
            f"{ev.verification.get('quick_check')}); they were removed.", verification=ev.verification, **where)
    else:
        age = None if ev.written_ms is None else ctx.now_ms - ev.written_ms
        verified = ev.verification.get("at") if ev.verification else None
        yield SEARCH_CACHE_PRESENT.at(
            message=f"Search cache: {ev.entries} files cached ({ev.indexed} indexed), "
            f"{ev.bytes} bytes; last verified: {verified or 'never'}. Derived, never a canonical index.",
            entries=ev.entries, indexed=ev.indexed, written_at=ev.written_at, age_ms=age, last_verified=verified,
            schema=ev.schema, **where)
