"""Core corpus rows: a canonical JSONL line's row, checked; called by cortex.core.corpus for every JSONL file.

`jsonl_row` is the exact reader of one line (privacy-stripped, decoded, every field checked, the error naming
the line and the rule). `plain_rows` reads a whole file's bytes line by line and gives the same rows for less
work where a line is plain, as almost every line is: it starts with `{`, holds no character that may open a
private tag and no `\\u`, `\\b` or `\\f` escape (so there is nothing to strip, before or after decoding, and no
escape that decodes into a forbidden character). Such a line is decoded alone (an ASCII line stays a one-byte
string) and checked without building an error for each test. Any other line goes to `jsonl_row`. Whenever
plain_rows is unsure (any error, a blank or indented line, DEL or a C1 control, which a JSON string may hold raw)
it returns None and the caller reads the file the exact way: the text checked whole, then `jsonl_row` per line,
so the errors (which, where, in what order) are always the exact reader's.
"""
from __future__ import annotations

import functools

from cortex.core.corpusfiles import assert_canonical_text, forbidden_utf8, holds_del_or_c1
from cortex.core.jscompat import JS_WS, js_trim
from cortex.core.privacy import strip_private_content
from cortex.core.privatejson import strip_private_json
from cortex.core.privatetags import might_hold_tags
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


def _plain_row(row: object) -> bool:
    """Whether a decoded plain line's row passes every check of jsonl_row (False: let jsonl_row say why)."""
    if type(row) is not dict or not JSONL_KEYS.issuperset(row):
        return False
    get = row.get
    for key in _REQUIRED_JSONL:
        value = get(key)
        if type(value) is not str or not value.strip(JS_WS):
            return False
    for key in ("source_kind", "source"):
        if key in row and (type(row[key]) is not str or not row[key].strip(JS_WS)):
            return False
    for key in ("source_session", "valid_from", "valid_until"):
        value = get(key)
        if value is not None and type(value) is not str:
            return False
    if "related" in row:
        related = row["related"]
        if type(related) is not list:
            return False
        for item in related:
            if type(item) is not str or not item.strip(JS_WS):
                return False
    return True


def plain_rows(data: bytes, rel: str) -> list[tuple[dict, int]] | None:
    """(row, line number) of each non-blank line of a JSONL file's bytes, as the exact reader gives them
    (canonical_text, then jsonl_row per line), or None where this reader is unsure: the caller reads it that way.
    Errors raised here (a line's IntegrityError, a ValueError) also mean: read it the exact way."""
    if holds_del_or_c1(data):
        return None
    scan = _decoder().scan_once
    rows: list[tuple[dict, int]] = []
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
                rows.append((jsonl_row(line, rel, number), number))
            else:
                # The control characters JSON strings refuse raw fail the scan; DEL and C1 were checked above.
                row, stop = scan(line, 0)
                if stop != len(line) or not _plain_row(row):
                    return None
                rows.append((row, number))
        if last:
            return rows
        position = end + 1
