"""Core rebuild digest: SHA-256 over the normalised record view.

Used by `cortex rebuild --from-canonical` and by the auditor to verify index manifests.
The digest is over the compact JSON array of records sorted by id in code-point order. It is
hashed record by record, so memory does not double with a second copy of the whole corpus text.
"""
from __future__ import annotations

import hashlib
from typing import Iterable

from cortex.core.jsjson import dumps_plain_utf8
from cortex.core.records import CortexRecord


def canonical_corpus_digest(records: Iterable[CortexRecord]) -> str:
    digest = hashlib.sha256(b"[")
    for index, record in enumerate(sorted(records, key=lambda r: r.id)):
        if index:
            digest.update(b",")
        digest.update(dumps_plain_utf8(record.to_json()))  # a view holds no float
    digest.update(b"]")
    return digest.hexdigest()
