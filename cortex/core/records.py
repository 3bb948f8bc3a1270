"""Core record model: one canonical memory record as the corpus loader produces it.

Named tuples, not pydantic models: the loader builds tens of thousands of these (a
tuple builds faster), defining one costs no start-up, and the status line must not import
pydantic. `to_json()` gives the public field order; nothing serialises a record as a tuple.
"""
from __future__ import annotations

import math
import sys

from cortex.core.jscompat import js_len

try:
    from _collections import _tuplegetter  # the field accessor collections.namedtuple uses
except ImportError:  # pragma: no cover - another interpreter: namedtuple's own fallback
    from operator import itemgetter

    def _tuplegetter(index: int, doc: str):
        return property(itemgetter(index), doc=doc)

_tuple_new = tuple.__new__


def tuple_type(typename: str, field_names: tuple[str, ...], new, defaults: tuple | None = None) -> type:
    """collections.namedtuple(typename, field_names, defaults=defaults) with its `__new__` written out as `new`
    (its very lambda, `_tuple_new(_cls, (fields...))`, in source) instead of compiled at import: namedtuple's
    compile is ~0.7M instructions for 16 fields, and every command that loads records pays it. Valid names are
    the caller's to give; tests/cortex/test_tuple_type.py proves each class made here equal to namedtuple's."""
    num_fields = len(field_names)
    arg_list = ", ".join(field_names)
    repr_fmt = "(" + ", ".join(f"{name}=%r" for name in field_names) + ")"
    field_defaults = {} if defaults is None else dict(zip(field_names[num_fields - len(defaults):], defaults))
    new.__name__ = "__new__"
    new.__doc__ = f"Create new instance of {typename}({arg_list})"
    if defaults is not None:
        new.__defaults__ = defaults

    @classmethod
    def _make(cls, iterable):
        result = _tuple_new(cls, iterable)
        if len(result) != num_fields:
            raise TypeError(f"Expected {num_fields} arguments, got {len(result)}")
        return result

    _make.__func__.__doc__ = f"Make a new {typename} object from a sequence or iterable"

    def _replace(self, /, **kwds):
        result = self._make(map(kwds.pop, field_names, self))
        if kwds:
            raise ValueError(f"Got unexpected field names: {list(kwds)!r}")
        return result

    _replace.__doc__ = f"Return a new {typename} object replacing specified fields with new values"

    def __repr__(self):
        "Return a nicely formatted representation string"
        return self.__class__.__name__ + repr_fmt % self

    def _asdict(self):
        "Return a new dict which maps field names to their values."
        return dict(zip(self._fields, self))

    def __getnewargs__(self):
        "Return self as a plain tuple.  Used by copy and pickle."
        return tuple(self)

    for method in (new, _make.__func__, _replace, __repr__, _asdict, __getnewargs__):
        method.__qualname__ = f"{typename}.{method.__name__}"
    namespace = {"__doc__": f"{typename}({arg_list})", "__slots__": (), "_fields": field_names,
                 "_field_defaults": field_defaults, "__new__": new, "_make": _make, "_replace": _replace,
                 "__repr__": __repr__, "_asdict": _asdict, "__getnewargs__": __getnewargs__,
                 "__match_args__": field_names}
    for index, name in enumerate(field_names):
        namespace[name] = _tuplegetter(index, sys.intern(f"Alias for field number {index}"))
    result = type(typename, (tuple,), namespace)
    result.__module__ = sys._getframe(1).f_globals.get("__name__", "__main__")
    return result

_RECORD = ("id", "type", "title", "created", "updated", "source", "session", "path", "content", "related",
           "valid_from", "valid_until", "created_ms", "updated_ms", "valid_from_ms", "valid_until_ms")


def _new_record(_cls, id, type, title, created, updated, source, session, path, content, related, valid_from,  # noqa: A002
                valid_until, created_ms, updated_ms, valid_from_ms, valid_until_ms):
    return _tuple_new(_cls, (id, type, title, created, updated, source, session, path, content, related, valid_from,
                             valid_until, created_ms, updated_ms, valid_from_ms, valid_until_ms))


class CortexRecord(tuple_type("CortexRecord", _RECORD, _new_record, defaults=(None, None, 0, 0, None, None))):
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


class RecordHead(tuple_type("RecordHead", _HEAD, _new_head)):
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
