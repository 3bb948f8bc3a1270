"""Core corpus loader: pins the canonical root, enumerates canonical files and parses records.

Called by every read command, by the benchmark and by the auditor's index collector.
Integrity problems (symlinks below the root, escapes, non-regular files, limits, invalid
UTF-8, control characters, malformed JSONL, bad timestamps, duplicate IDs) raise
IntegrityError. Corpus limits are checked from metadata before any content is read.
"""
from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from dataclasses import dataclass

from cortex.errors import IntegrityError
from cortex.jscompat import JS_DOT, JS_LINE_TERMINATORS, JS_WS, JS_WS_CLASS, js_trim, utf16_key
from cortex.privacy import strip_private_content, strip_private_values
from cortex.privatetags import might_hold_tags
from cortex.records import CortexRecord
from cortex.safeio import UnsafeFile, read_bounded
from cortex.safepaths import is_within, pin_tree
from cortex.timestamps import parse_timestamp_ms

MAX_FILES = 10_000
MAX_FILE_BYTES = 8 * 1024 * 1024
MAX_TOTAL_BYTES = 128 * 1024 * 1024
MAX_RECORDS = 50_000
EPOCH_ISO = "1970-01-01T00:00:00.000Z"

JSONL_KEYS = frozenset(
    ["id", "type", "title", "created", "updated", "source_kind", "source", "source_session",
     "content", "related", "valid_from", "valid_until"]
)
_REQUIRED_JSONL = ("id", "type", "title", "created", "updated", "content")
_FORBIDDEN_TEXT = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
_FRONTMATTER = re.compile(r"---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|\Z)")
_FIELD = re.compile(rf"([A-Za-z0-9_]+):{JS_WS_CLASS}*({JS_DOT}*)\Z")
_QUOTE_ENDS = re.compile(r"\A[\"']|[\"']\Z")
_LT = re.escape(JS_LINE_TERMINATORS)
_RELATED = re.compile(
    rf"(?:\A|(?<=[{_LT}])){JS_WS_CLASS}*-?{JS_WS_CLASS}*slug:{JS_WS_CLASS}*([^{re.escape(JS_WS)}#]+){JS_DOT}*(?=[{_LT}]|\Z)"
)
_JSONL_SPLIT = re.compile(r"\r?\n")


@dataclass(frozen=True)
class Corpus:
    root: str
    files: tuple[str, ...]
    records: list[CortexRecord]


def _checked_realpath(path: str, root_real: str) -> str:
    if os.path.islink(path):
        raise IntegrityError(f"Canonical path is a symlink: {path}")
    real = os.path.realpath(path)
    if not is_within(root_real, real):
        raise IntegrityError(f"Canonical path escapes root: {path}")
    return real


def _require_utf8_name(path: str) -> None:
    # os.scandir decodes undecodable bytes to lone surrogates; IDs and digests need real text.
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        raise IntegrityError(f"Canonical path is not valid UTF-8: {path.encode('utf-8', 'backslashreplace').decode()}") from None


def pin_canonical_root(root: str) -> str:
    """Resolve the (possibly aliased) root once and require a directory: the trust boundary."""
    return pin_tree(root, what="Canonical root", hint="")


def _files_under(top: str, corpus_root: str) -> list[str]:
    if not os.path.exists(top):
        return []
    corpus_real = os.path.realpath(corpus_root)
    top_real = _checked_realpath(top, corpus_real)
    if not stat.S_ISDIR(os.lstat(top_real).st_mode):
        raise IntegrityError(f"Canonical corpus path is not a directory: {top}")
    files: list[str] = []

    def walk(directory: str) -> None:
        with os.scandir(directory) as entries:
            for entry in entries:
                name = entry.name
                if name.startswith("_") or name.startswith("."):
                    continue
                path = os.path.join(directory, name)
                _require_utf8_name(path)
                canonical = name.endswith(".md") or name.endswith(".jsonl")
                if entry.is_symlink():
                    raise IntegrityError(f"Canonical path is a symlink: {path}")
                is_dir = entry.is_dir(follow_symlinks=False)
                if canonical and not is_dir and not entry.is_file(follow_symlinks=False):
                    raise IntegrityError(f"Canonical path is not a regular file: {path}")
                # No realpath per entry: `directory` is real (top_real, then only non-symlink
                # folders), and this entry is no symlink, so `path` is already its own realpath.
                if is_dir:
                    walk(path)
                elif canonical:
                    if len(files) >= MAX_FILES:
                        raise IntegrityError(f"Canonical corpus exceeds file count limit ({MAX_FILES})")
                    files.append(path)

    walk(top_real)
    return sorted(files, key=utf16_key)


def canonical_files(root_real: str) -> list[str]:
    """KNOWLEDGE/ plus root-level *_MEMORY.md; else MEMORY/KNOWLEDGE/; else the whole root."""
    knowledge = os.path.join(root_real, "KNOWLEDGE")
    nested = os.path.join(root_real, "MEMORY", "KNOWLEDGE")
    if os.path.exists(knowledge):
        hot: list[str] = []
        with os.scandir(root_real) as entries:
            for entry in entries:
                if entry.name.endswith("_MEMORY.md"):
                    path = os.path.join(root_real, entry.name)
                    _require_utf8_name(path)
                    if entry.is_symlink() or not entry.is_file(follow_symlinks=False):
                        raise IntegrityError(f"Canonical path is not a regular file: {path}")
                    _checked_realpath(path, root_real)
                    hot.append(path)
        return sorted(_files_under(knowledge, root_real) + hot, key=utf16_key)
    if os.path.exists(nested):
        return _files_under(nested, root_real)
    return _files_under(root_real, root_real)


def _check_limits(files: list[str], root: str) -> None:
    if len(files) > MAX_FILES:
        raise IntegrityError(f"Canonical corpus exceeds file count limit ({MAX_FILES})")
    total = 0
    for path in files:
        info = os.lstat(path)
        if not stat.S_ISREG(info.st_mode):
            raise IntegrityError(f"Canonical path is not a regular file: {path}")
        if info.st_size > MAX_FILE_BYTES:
            raise IntegrityError(
                f"Canonical file exceeds per-file byte limit ({MAX_FILE_BYTES}): {os.path.relpath(path, root)}"
            )
        total += info.st_size
        if total > MAX_TOTAL_BYTES:
            raise IntegrityError(f"Canonical corpus exceeds total byte limit ({MAX_TOTAL_BYTES})")


def assert_canonical_text(text: str, where: str) -> None:
    if _FORBIDDEN_TEXT.search(text):
        raise IntegrityError(f"Canonical text contains forbidden control or malformed Unicode at {where}")


def read_canonical_utf8(path: str, label: str) -> str:
    try:
        data = read_bounded(path, MAX_FILE_BYTES)
    except UnsafeFile as error:
        raise IntegrityError(f"Canonical path is not a readable regular file: {label} ({error})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise IntegrityError(f"Canonical text is not valid UTF-8 at {label}") from None
    if text.startswith("\ufeff"):
        text = text[1:]  # a UTF-8 byte order mark is encoding, not content
    assert_canonical_text(text, label)
    return text


def _scalar(value: str) -> str:
    return _QUOTE_ENDS.sub("", js_trim(value))


def frontmatter_fields(content: str) -> dict[str, str]:
    match = _FRONTMATTER.match(content)
    fields: dict[str, str] = {}
    if match:
        for line in re.split(r"\r?\n", match.group(1)):
            field = _FIELD.match(line)
            if field:
                fields[field.group(1)] = _scalar(field.group(2))
    return fields


def validate_record(record: CortexRecord) -> CortexRecord:
    if not js_trim(record.id):
        raise IntegrityError(f"Canonical record has an empty ID at {record.path}")
    for name in ("created", "updated", "valid_from", "valid_until"):
        value = getattr(record, name)
        if value is None and name.startswith("valid"):
            continue
        ms = parse_timestamp_ms(value)
        if ms is None:
            # never the value: it may be (what is left of) private text
            raise IntegrityError(f"Invalid {name} timestamp for {record.id} in {record.path}")
        setattr(record, f"{name}_ms", ms)
    if record.updated_ms < record.created_ms:
        raise IntegrityError(f"Canonical record {record.id} is updated before it was created")
    if (
        record.valid_from_ms is not None
        and record.valid_until_ms is not None
        and record.valid_from_ms >= record.valid_until_ms
    ):
        raise IntegrityError(f"Canonical record {record.id} has an incoherent validity window")
    return record


def _related_slugs(content: str) -> list[str]:
    if "slug:" not in content:  # the common case; the full pattern is comparatively slow
        return []
    return [_scalar(m.group(1)) for m in _RELATED.finditer(content)]


def parse_markdown(path: str, root: str) -> CortexRecord:
    rel = os.path.relpath(path, root)
    raw = read_canonical_utf8(path, rel)
    content = strip_private_content(raw)
    fields = frontmatter_fields(content)
    created = fields.get("created") or fields.get("date") or fields.get("ts") or EPOCH_ISO
    path_id = "path:" + hashlib.sha256(rel.encode("utf-8")).hexdigest()[:16]
    return validate_record(
        CortexRecord(
            id=fields.get("id") or path_id,
            type=fields.get("type") or ("work" if "WORK/" in rel else "memory"),
            title=fields.get("title") or fields.get("name") or rel,
            created=created,
            updated=fields.get("updated") or fields.get("last_updated") or created,
            source=fields.get("source_kind") or fields.get("source") or "canonical",
            session=fields.get("source_session") or None,
            path=rel,
            content=content,
            related=_related_slugs(content),
            valid_from=fields.get("valid_from") or None,
            valid_until=fields.get("valid_until") or None,
        )
    )


def _reject_constant(name: str):
    raise ValueError(f"non-standard JSON constant {name}")


_DECODER = json.JSONDecoder(parse_constant=_reject_constant)  # json.loads would build one per row


def _jsonl_row(line: str, location: str) -> dict:
    """The row with every decoded string privacy-stripped: escapes (`\\u003cprivate>`) decode into tags."""
    try:
        stripped = strip_private_content(line)
        decoded = _DECODER.decode(stripped)
        # Only a \u escape can decode into a character the stripped line lacks: without one (and
        # with nothing tag-like left), every decoded string is already stripped.
        row = strip_private_values(decoded) if "\\u" in stripped or might_hold_tags(stripped) else decoded
    except (ValueError, RecursionError):
        raise IntegrityError(f"Malformed JSONL at {location}") from None
    if not isinstance(row, dict):
        raise IntegrityError(f"JSONL row must be an object at {location}")
    if not JSONL_KEYS.issuperset(row):
        raise IntegrityError(f"JSONL row has unknown fields at {location}")
    for key in _REQUIRED_JSONL:
        if not isinstance(row.get(key), str) or not js_trim(row[key]):
            raise IntegrityError(f"JSONL {key} must be a non-empty string at {location}")
    for key in ("source_kind", "source"):
        if key in row and (not isinstance(row[key], str) or not js_trim(row[key])):
            raise IntegrityError(f"JSONL {key} must be a non-empty string at {location}")
    if row.get("source_session") is not None and not isinstance(row["source_session"], str):
        raise IntegrityError(f"JSONL source_session must be a string or null at {location}")
    related = row.get("related", [])
    if "related" in row and (
        not isinstance(related, list) or any(not isinstance(i, str) or not js_trim(i) for i in related)
    ):
        raise IntegrityError(f"JSONL related must contain only non-empty string IDs at {location}")
    for key in ("valid_from", "valid_until"):
        if row.get(key) is not None and not isinstance(row[key], str):
            raise IntegrityError(f"JSONL {key} must be a string at {location}")
    # The raw line was already checked; only escapes can decode into forbidden characters.
    if "\\u" in line or "\\b" in line or "\\f" in line:
        for value in list(decoded.values()) + list(decoded.get("related") or []):
            if isinstance(value, str):
                assert_canonical_text(value, location)
    return row


def parse_jsonl(path: str, root: str) -> list[CortexRecord]:
    rel = os.path.relpath(path, root)
    records = []
    text = read_canonical_utf8(path, rel)
    lines = _JSONL_SPLIT.split(text) if "\r" in text else text.split("\n")
    for index, line in enumerate(lines):
        if not js_trim(line):
            continue
        row = _jsonl_row(line, f"{rel}:{index + 1}")
        source = row.get("source_kind")
        if source is None:
            source = row.get("source")
        records.append(
            validate_record(
                CortexRecord(
                    id=row["id"],
                    type=row["type"],
                    title=row["title"],
                    created=row["created"],
                    updated=row["updated"],
                    source=source if source is not None else "canonical",
                    session=row.get("source_session"),
                    path=rel,
                    content=row["content"],
                    related=list(row.get("related") or []),
                    valid_from=row.get("valid_from"),
                    valid_until=row.get("valid_until"),
                )
            )
        )
    return records


def enumerate_canonical_corpus(root: str) -> Corpus:
    """Pin `root`, check every limit from metadata, then parse every canonical record."""
    _require_utf8_name(root)
    root_real = pin_canonical_root(root)
    files = canonical_files(root_real)
    _check_limits(files, root_real)
    records: list[CortexRecord] = []
    for path in files:
        parsed = [parse_markdown(path, root_real)] if path.endswith(".md") else parse_jsonl(path, root_real)
        for record in parsed:
            if len(records) >= MAX_RECORDS:
                raise IntegrityError(f"Canonical corpus exceeds record count limit ({MAX_RECORDS})")
            records.append(record)
    seen: dict[str, str] = {}
    for record in records:
        prior = seen.get(record.id)
        if prior is not None:
            raise IntegrityError(f"Duplicate canonical ID {record.id}: {prior} and {record.path}")
        seen[record.id] = record.path
    return Corpus(root_real, tuple(files), records)


def load_canonical_records(root: str) -> list[CortexRecord]:
    return enumerate_canonical_corpus(root).records
