"""Core record model: one canonical memory record as the corpus loader produces it.

A plain slotted dataclass, not pydantic: the loader builds tens of thousands of these and
the status line must not import pydantic. `to_json()` gives the public field order.
"""
from __future__ import annotations

from dataclasses import dataclass, field


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
        """valid_from inclusive, valid_until exclusive, missing bounds open."""
        if self.valid_from_ms is not None and now_ms < self.valid_from_ms:
            return False
        if self.valid_until_ms is not None and now_ms >= self.valid_until_ms:
            return False
        return True


def active_records(records: list[CortexRecord], now_ms: int) -> list[CortexRecord]:
    return [record for record in records if record.is_valid_at(now_ms)]
