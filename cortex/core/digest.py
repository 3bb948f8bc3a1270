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
# Every byte a JSON string writes as itself stays; a quote, a backslash and each control character (escaped) change.
_WRITTEN_AS_IS = bytes(b ^ 1 if b < 0x20 or b in (0x22, 0x5C) else b for b in range(256))
_PLACEHOLDER, _PLACEHOLDER_JSON = "\x00", b'"\\u0000"'


def view_bytes(view: dict) -> bytes:
    """dumps_plain_utf8(view) (a view holds no float), its content written without json's string encoder where
    it needs no escape (as almost every content does): the content's UTF-8 bytes between quotes, spliced where
    the rest of the view, written with a placeholder content, holds that placeholder exactly once. json's
    encoder reads a string twice, a character at a time; this reads the content's bytes once in a translate.
    The view is left as it was."""
    content = view["content"]
    try:
        raw = content.encode("utf-8")
    except (UnicodeEncodeError, AttributeError):  # a lone surrogate (escaped as JavaScript does), not a string
        return dumps_plain_utf8(view)
    if raw.translate(_WRITTEN_AS_IS) is not raw:  # something to escape
        return dumps_plain_utf8(view)
    view["content"] = _PLACEHOLDER
    try:
        rest = dumps_plain_utf8(view)
    finally:
        view["content"] = content
    if rest.count(_PLACEHOLDER_JSON) != 1:  # another string writes as the placeholder does
        return dumps_plain_utf8(view)
    return rest.replace(_PLACEHOLDER_JSON, b'"' + raw + b'"')


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
        data = view_bytes(view)
        if rebuild is not None:
            rebuilt = rebuild(view).to_json()
            other = data if rebuilt == view else view_bytes(rebuilt)
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
