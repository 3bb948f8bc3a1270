"""Core corpus rows: a canonical JSONL line's row and record, checked; called by cortex.core.corpus per JSONL file.

`jsonl_row` is the exact reader of one line (privacy-stripped, decoded, every field checked, the error naming
the line and the rule). `plain_records` reads a whole file's bytes line by line and gives the same records for
less work where a line is plain, as almost every line is: it starts with `{`, holds no character that may open
a private tag and no `\\u`, `\\b` or `\\f` escape (so there is nothing to strip, before or after decoding, and no
escape that decodes into a forbidden character). Such a line is decoded alone (an ASCII line stays a one-byte
string), checked and made a record in one pass, without an error built for each test. Any other line goes to
`jsonl_row`. Whenever plain_records is unsure (any error, a blank or indented line, DEL or a C1 control, which a
JSON string may hold raw) it returns None and the caller reads the file the exact way: the text checked whole,
then `jsonl_row` and validated_record per line, so the errors (which, where, in what order) are always the exact
reader's.
"""
from __future__ import annotations

import functools

from cortex.core.corpusfiles import assert_canonical_text, forbidden_utf8, holds_del_or_c1
from cortex.core.jscompat import JS_WS, js_trim
from cortex.core.privacy import strip_private_content
from cortex.core.privatejson import strip_private_json
from cortex.core.privatetags import might_hold_tags
from cortex.core.records import CortexRecord
from cortex.core.timestamps import parse_timestamp_ms
from cortex.errors import IntegrityError

JSONL_KEYS = frozenset(
    ["id", "type", "title", "created", "updated", "source_kind", "source", "source_session",
     "content", "related", "valid_from", "valid_until"]
)
_REQUIRED_JSONL = ("id", "type", "title", "created", "updated", "content")
# The openers might_hold_tags looks for beyond ASCII (＜ ﹤ ≮), as UTF-8: a line holding none has nothing to strip.
_WIDE_OPENERS = ("\uff1c".encode(), "\ufe64".encode(), "\u226e".encode())


def _reject_constant(name: str):
    raise ValueError(f"non-standard JSON constant {name}")


@functools.cache  # json.loads would build one per row; json and its six patterns load only when a row is read
def _decoder():
    import json

    return json.JSONDecoder(parse_constant=_reject_constant)


@functools.cache
def _scanner():
    """_decoder().scan_once without importing json (its package compiles patterns and loads `re`): json's C
    scanner made from the same settings the decoder gives it."""
    try:
        from _json import make_scanner
    except ImportError:  # pragma: no cover - a build without the C accelerator
        return _decoder().scan_once

    class Settings:  # the attributes JSONDecoder holds and the C scanner reads
        strict, object_hook, object_pairs_hook = True, None, None
        parse_float, parse_int, parse_constant = float, int, staticmethod(_reject_constant)

    return make_scanner(Settings())


def jsonl_row(line: str, rel: str, number: int) -> dict:
    """The row with every decoded string privacy-stripped: escapes (`\\u003cprivate>`) decode into tags."""
    location = f"{rel}:{number}"

    def broken(message: str, rule: str, field: str | None = None) -> IntegrityError:
        return IntegrityError(f"{message} at {location}").at(file=rel, line=number, field=field, rule=rule)

    escaped = "\\" in line  # one scan; most rows hold no escape, so the three scans below are skipped
    try:
        stripped = strip_private_content(line)
        decoded = _decoder().decode(stripped)
        # Only a \u escape can decode into a character the stripped line lacks: without one (and
        # with nothing tag-like left), every decoded string is already stripped.
        unicode_escape = escaped and "\\u" in stripped
        row = strip_private_json(decoded, keys=False) if unicode_escape or might_hold_tags(stripped) else decoded
    except (ValueError, RecursionError):
        raise broken("Malformed JSONL", "malformed-jsonl") from None
    if not isinstance(row, dict):
        raise broken("JSONL row must be an object", "not-an-object")
    if not JSONL_KEYS.issuperset(row):
        raise broken("JSONL row has unknown fields", "unknown-field")
    for key in _REQUIRED_JSONL:
        if not isinstance(row.get(key), str) or not js_trim(row[key]):
            raise broken(f"JSONL {key} must be a non-empty string", "required-string", key)
    for key in ("source_kind", "source"):
        if key in row and (not isinstance(row[key], str) or not js_trim(row[key])):
            raise broken(f"JSONL {key} must be a non-empty string", "required-string", key)
    if row.get("source_session") is not None and not isinstance(row["source_session"], str):
        raise broken("JSONL source_session must be a string or null", "type", "source_session")
    related = row.get("related", [])
    if "related" in row and (
        not isinstance(related, list) or any(not isinstance(i, str) or not js_trim(i) for i in related)
    ):
        raise broken("JSONL related must contain only non-empty string IDs", "related-ids", "related")
    for key in ("valid_from", "valid_until"):
        if row.get(key) is not None and not isinstance(row[key], str):
            raise broken(f"JSONL {key} must be a string", "type", key)
    # The raw line was already checked; only escapes can decode into forbidden characters.
    if escaped and ("\\u" in line or "\\b" in line or "\\f" in line):
        for value in list(decoded.values()) + list(decoded.get("related") or []):
            if isinstance(value, str):
                try:
                    assert_canonical_text(value, location)
                except IntegrityError as error:
                    raise error.at(file=rel, line=number) from None
    return row


_new_record = tuple.__new__  # the fields are complete and in order: skip CortexRecord's keyword binding


def _plain_record(row: object, rel: str) -> CortexRecord | None:
    """The record of a decoded row, as jsonl_row's checks and the loader's validated_record make it, or None where
    either would raise (the exact reader then says why): every check in one pass, no error built per test."""
    if type(row) is not dict or not JSONL_KEYS.issuperset(row):
        return None
    get = row.get
    ident, kind, title, created, updated, content = (get("id"), get("type"), get("title"), get("created"),
                                                     get("updated"), get("content"))
    if (type(ident) is not str or type(kind) is not str or type(title) is not str or type(created) is not str
            or type(updated) is not str or type(content) is not str):
        return None
    if not (ident.strip(JS_WS) and kind.strip(JS_WS) and title.strip(JS_WS) and created.strip(JS_WS)
            and updated.strip(JS_WS) and content.strip(JS_WS)):
        return None
    source_kind, source = get("source_kind"), get("source")
    for key, value in (("source_kind", source_kind), ("source", source)):
        if (value is None and key in row) or (value is not None and (type(value) is not str or not value.strip(JS_WS))):
            return None
    session, valid_from, valid_until = get("source_session"), get("valid_from"), get("valid_until")
    if ((session is not None and type(session) is not str) or (valid_from is not None and type(valid_from) is not str)
            or (valid_until is not None and type(valid_until) is not str)):
        return None
    related = get("related")
    if related is None:
        if "related" in row:
            return None
        related = []
    elif type(related) is not list:
        return None
    else:
        for item in related:
            if type(item) is not str or not item.strip(JS_WS):
                return None
        related = list(related)
    created_ms, updated_ms = parse_timestamp_ms(created), parse_timestamp_ms(updated)
    from_ms = None if valid_from is None else parse_timestamp_ms(valid_from)
    until_ms = None if valid_until is None else parse_timestamp_ms(valid_until)
    if (created_ms is None or updated_ms is None or (valid_from is not None and from_ms is None)
            or (valid_until is not None and until_ms is None) or updated_ms < created_ms
            or (from_ms is not None and until_ms is not None and from_ms >= until_ms)):
        return None
    chosen = source_kind if source_kind is not None else source if source is not None else "canonical"
    return _new_record(CortexRecord, (ident, kind, title, created, updated, chosen, session, rel, content, related,
                                      valid_from, valid_until, created_ms, updated_ms, from_ms, until_ms))


def plain_records(data: bytes, rel: str) -> list[CortexRecord] | None:
    """The records of a JSONL file's bytes, as the exact reader gives them (canonical_text, then jsonl_row and
    validated_record per line), or None where this reader is unsure: the caller reads it that way. Errors raised
    here (a line's IntegrityError, a ValueError) also mean: read it the exact way."""
    if holds_del_or_c1(data):
        return None
    scan = _scanner()
    records: list[CortexRecord] = []
    position = 3 if data.startswith(b"\xef\xbb\xbf") else 0  # a byte order mark is encoding, not content
    crlf = data.find(b"\r") >= 0  # then the exact reader splits at `\r?\n`
    number = 0
    while True:
        end = data.find(b"\n", position)
        last = end < 0
        raw = data[position:] if last else data[position:end]
        if crlf and not last and raw.endswith(b"\r"):
            raw = raw[:-1]
        number += 1
        if raw:
            if raw[0] != 0x7B:  # `{`: a blank line (perhaps holding a control character) or an indented one
                return None
            line = raw.decode("utf-8")
            # find, not `in`: bytes' `in` first tries its operand as an integer, raising and clearing an error
            if raw.find(b"<") >= 0 or (not raw.isascii() and any(raw.find(wide) >= 0 for wide in _WIDE_OPENERS)) or (
                    raw.find(b"\\") >= 0 and (raw.find(b"\\u") >= 0 or raw.find(b"\\b") >= 0 or raw.find(b"\\f") >= 0)):
                if forbidden_utf8(raw):  # what stripping would hide: the exact reader checks the text first
                    return None
                record = _plain_record(jsonl_row(line, rel, number), rel)
            else:
                # The control characters JSON strings refuse raw fail the scan; DEL and C1 were checked above.
                try:
                    row, stop = scan(line, 0)
                except SystemError:  # 3.11's scanner sets its error only once json.decoder is loaded: the exact
                    return None  # reader (which loads it) says what is wrong
                record = _plain_record(row, rel) if stop == len(line) else None
            if record is None:
                return None
            records.append(record)
        if last:
            return records
        position = end + 1
