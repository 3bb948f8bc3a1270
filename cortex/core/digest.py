"""Core rebuild digest: SHA-256 over the normalised record view.

Used by `cortex rebuild --from-canonical` and by the auditor to verify index manifests.
The digest is over the compact JSON array of records sorted by id in code-point order. It is
hashed record by record, so memory does not double with a second copy of the whole corpus text.
"""
from __future__ import annotations

import hashlib
from operator import attrgetter

from cortex.core.jsjson import dumps_plain_utf8

TYPE_CHECKING = False  # annotations only: typing costs every importer ~5 ms
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    from cortex.core.records import CortexRecord


_BY_ID = attrgetter("id")


def canonical_corpus_digest(records: Iterable[CortexRecord]) -> str:
    return _digests(records, None)[0]


def rebuild_digests(records: Iterable[CortexRecord], rebuild: Callable[[dict], CortexRecord]) -> tuple[str, str]:
    """(the digest of `records`, the digest of the records `rebuild` makes from their views alone).

    A rebuilt record whose view equals the original's (the same strings, lists and nulls) serialises to the same
    bytes, so each record is written and hashed once; only a view that differs is written again, and from the
    first such view on the two digests are hashed apart.
    """
    return _digests(records, rebuild)


def _digests(records: Iterable[CortexRecord], rebuild: Callable[[dict], CortexRecord] | None) -> tuple[str, str]:
    """SHA-256 of the records' views (and of their rebuilt views): one hash while the two streams agree, forked
    (hashlib's copy) at the first rebuilt view that writes other bytes."""
    digest, again = hashlib.sha256(b"["), None
    for index, record in enumerate(sorted(records, key=_BY_ID)):  # a stable sort: the rebuilt ones sort alike
        view = record.to_json()
        data = dumps_plain_utf8(view)  # a view holds no float
        if rebuild is not None:
            rebuilt = rebuild(view).to_json()
            other = data if rebuilt == view else dumps_plain_utf8(rebuilt)
            if again is None and other != data:
                again = digest.copy()  # every record before this one, written alike
            if again is not None:
                again.update(b"," + other if index else other)
        digest.update(b"," + data if index else data)
    digest.update(b"]")
    canonical = digest.hexdigest()
    if again is None:
        return canonical, canonical if rebuild is not None else ""
    again.update(b"]")
    return canonical, again.hexdigest()
