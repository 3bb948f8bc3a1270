"""Core rebuild digest: SHA-256 over the normalised record view.

Used by `cortex rebuild --from-canonical` and by the auditor to verify index manifests.
The digest is over the compact JSON array of records sorted by id in code-point order.
"""
from __future__ import annotations

import hashlib

from cortex.jsjson import dumps
from cortex.records import CortexRecord


def normalized_records(records: list[CortexRecord]) -> list[dict]:
    return [record.to_json() for record in sorted(records, key=lambda r: r.id)]


def canonical_corpus_digest(records: list[CortexRecord]) -> str:
    return hashlib.sha256(dumps(normalized_records(records)).encode("utf-8")).hexdigest()
