"""Core record model: one canonical memory record as the corpus loader produces it.

A plain slotted dataclass, not pydantic: the loader builds tens of thousands of these and
the status line must not import pydantic. `to_json()` gives the public field order.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from cortex.core.jscompat import js_len


@dataclass(slots=True)
class CortexRecord:
    id: str
    type: str
    title: str
    created: str
    updated: str
    source: str
    session: str | None
    path: str
    content: str
    related: list[str]
    valid_from: str | None = None
    valid_until: str | None = None
    # Parsed milliseconds, filled in by validation (never serialised).
    created_ms: int = field(default=0, repr=False)
    updated_ms: int = field(default=0, repr=False)
    valid_from_ms: int | None = field(default=None, repr=False)
    valid_until_ms: int | None = field(default=None, repr=False)

    @property
    def provenance(self) -> dict:
        return {"source": self.source, "session": self.session, "path": self.path}

    @property
    def est_tokens(self) -> int:
        """The card's token estimate: a quarter of the content's UTF-16 length, rounded up."""
        return math.ceil(js_len(self.content) / 4)

    def to_json(self) -> dict:
        return {
            "id": self.id,
            "type": self.type,
            "title": self.title,
            "created": self.created,
            "updated": self.updated,
            "provenance": self.provenance,
            "content": self.content,
            "related": list(self.related),
            "valid_from": self.valid_from,
            "valid_until": self.valid_until,
        }

    def is_valid_at(self, now_ms: int) -> bool:
        return valid_at(self, now_ms)


@dataclass(slots=True)
class RecordHead:
    """A record without its content, as the search cache keeps it: everything a card, a filter,
    a validity test or a ranking needs. `file_no`/`seq` locate it (its file in the corpus, its
    place in that file); `length` is its token count (-1 until the file is indexed)."""

    id: str
    type: str
    title: str
    created: str
    updated: str
    source: str
    session: str | None
    path: str
    related: list[str]
    valid_from: str | None
    valid_until: str | None
    created_ms: int
    updated_ms: int
    valid_from_ms: int | None
    valid_until_ms: int | None
    est_tokens: int
    length: int
    file_no: int
    seq: int

    @property
    def provenance(self) -> dict:
        return {"source": self.source, "session": self.session, "path": self.path}

    def is_valid_at(self, now_ms: int) -> bool:
        return valid_at(self, now_ms)


def valid_at(record: CortexRecord | RecordHead, now_ms: int) -> bool:
    """valid_from inclusive, valid_until exclusive, missing bounds open."""
    if record.valid_from_ms is not None and now_ms < record.valid_from_ms:
        return False
    if record.valid_until_ms is not None and now_ms >= record.valid_until_ms:
        return False
    return True


def active_records(records: list, now_ms: int) -> list:
    return [record for record in records if record.is_valid_at(now_ms)]
