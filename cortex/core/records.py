"""Core record model: one canonical memory record as the corpus loader produces it.

Named tuples, not pydantic models: the loader builds tens of thousands of these (a
tuple builds faster), defining one costs no start-up, and the status line must not import
pydantic. `to_json()` gives the public field order; nothing serialises a record as a tuple.
"""
from __future__ import annotations

import math

from cortex.core.jscompat import js_len
from cortex.core.namedtuples import namedtuple

_tuple_new = tuple.__new__  # the name each written-out __new__ below calls, as namedtuple's own does

_RECORD = ("id", "type", "title", "created", "updated", "source", "session", "path", "content", "related",
           "valid_from", "valid_until", "created_ms", "updated_ms", "valid_from_ms", "valid_until_ms")


def _new_record(_cls, id, type, title, created, updated, source, session, path, content, related, valid_from,  # noqa: A002
                valid_until, created_ms, updated_ms, valid_from_ms, valid_until_ms):
    return _tuple_new(_cls, (id, type, title, created, updated, source, session, path, content, related, valid_from,
                             valid_until, created_ms, updated_ms, valid_from_ms, valid_until_ms))


class CortexRecord(namedtuple("CortexRecord", _RECORD, new=_new_record, defaults=(None, None, 0, 0, None, None))):
    """One canonical record; the `*_ms` fields are the parsed times, set by validation (never serialised).

    id, type, title, created, updated, source, path, content: str; session, valid_from, valid_until: str | None;
    related: list[str]; created_ms, updated_ms: int; valid_from_ms, valid_until_ms: int | None.
    """

    __slots__ = ()

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


_HEAD = ("id", "type", "title", "created", "updated", "source", "session", "path", "related", "valid_from",
         "valid_until", "created_ms", "updated_ms", "valid_from_ms", "valid_until_ms", "est_tokens", "length",
         "file_no", "seq")


def _new_head(_cls, id, type, title, created, updated, source, session, path, related, valid_from,  # noqa: A002
              valid_until, created_ms, updated_ms, valid_from_ms, valid_until_ms, est_tokens, length, file_no, seq):
    return _tuple_new(_cls, (id, type, title, created, updated, source, session, path, related, valid_from,
                             valid_until, created_ms, updated_ms, valid_from_ms, valid_until_ms, est_tokens, length,
                             file_no, seq))


class RecordHead(namedtuple("RecordHead", _HEAD, new=_new_head)):
    """A record without its content, as the search cache keeps it: everything a card, a filter,
    a validity test or a ranking needs. `file_no`/`seq` locate it (its file in the corpus, its
    place in that file); `length` is its token count (-1 until the file is indexed).

    Fields as CortexRecord's (no content); est_tokens, length, file_no, seq: int.
    """

    __slots__ = ()

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
    active = getattr(records, "active", None)  # the search cache's rows test their validity columns at once
    if active is not None:  # (cortex.searchcache.rows.Rows)
        return active(now_ms)
    return [record for record in records if record.is_valid_at(now_ms)]
