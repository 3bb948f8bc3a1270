"""Core corpus loader: pins the canonical root, enumerates canonical files and parses records.

Called by every read command, by the benchmark and by the auditor's index collector; which
files are canonical and how their text is read lives in cortex.core.corpusfiles. Integrity
problems (symlinks below the root, escapes, non-regular files, limits, invalid UTF-8,
control characters, malformed JSONL, bad timestamps, duplicate IDs) raise IntegrityError.
Corpus limits are checked from metadata before any content is read.
"""
from __future__ import annotations

import os

from cortex.core import gcpause
from cortex.core.sha256 import sha256_hex
from cortex.core.corpusfiles import (canonical_files, canonical_text, check_limits, pin_canonical_root,
                                     read_canonical_bytes, read_canonical_utf8, regular_stats, require_utf8_name,
                                     within_limits)
from cortex.errors import IntegrityError
from cortex.core.frontmatter import frontmatter_fields, split_lines
from cortex.core.jscompat import js_trim
from cortex.core.records import CortexRecord
from cortex.core.timestamps import parse_timestamp_ms

# The parsers (cortex.core.jsonlrows, cortex.core.privacy) and the error paths (cortex.core.corpusfaults) are imported
# where they run: a warm read takes its records from the search cache and only walks the files (canonical_files_stats).
MAX_RECORDS = 50_000
EPOCH_ISO = "1970-01-01T00:00:00.000Z"


class Corpus:
    """The parsed corpus. `rows`, `full`, `rank` and `close` are the interface the read commands
    use, shared with cortex.searchcache.cached.CachedCorpus (whose rows are content-less heads).

    root: str; files: tuple[str, ...]; records: list[CortexRecord]. (Not a named tuple: nothing uses it as one,
    and every read command would pay ~0.4M instructions to define its class.)
    """

    __slots__ = ("root", "files", "records")

    def __init__(self, root: str, files: tuple[str, ...], records: list[CortexRecord]) -> None:
        self.root, self.files, self.records = root, files, records

    @property
    def rows(self) -> list[CortexRecord]:
        return self.records

    def full(self, rows: list) -> list[CortexRecord]:
        return list(rows)

    def rank(self, rows: list, query: str, extra: list[CortexRecord] = (), limit: int | None = None):
        """BM25 over `rows` plus `extra`, best first; with `limit`, only the head of that order."""
        from cortex.core.search import rank_bm25

        ranked = rank_bm25(list(rows) + list(extra), query)
        return ranked if limit is None else ranked[:limit]

    def rank_page(self, rows: list, query: str, limit: int) -> tuple[list, int]:
        """The best `limit` of rank's order and how many rows it ranks in all."""
        ranked = self.rank(rows, query)
        return ranked[:limit], len(ranked)

    def close(self) -> None:
        pass



_TIMES = (("created", 3), ("updated", 4), ("valid_from", 10), ("valid_until", 11))  # name, place in the fields
_new_record = tuple.__new__  # the fields are complete and in order: skip CortexRecord's keyword binding


def validated_record(fields: tuple) -> CortexRecord:
    """The record of CortexRecord's first 12 fields, in order, with its times parsed; IntegrityError if invalid.

    Built once, complete (a record is immutable): this runs for every canonical record of every call.
    """
    if not js_trim(fields[0]):
        raise IntegrityError(f"Canonical record has an empty ID at {fields[7]}").at(file=fields[7], field="id",
                                                                                   rule="empty-id")
    parsed = []
    for name, place in _TIMES:
        value = fields[place]
        if value is None and place > 4:
            parsed.append(None)
            continue
        ms = parse_timestamp_ms(value)
        if ms is None:
            # never the value: it may be (what is left of) private text
            raise IntegrityError(f"Invalid {name} timestamp for {fields[0]} in {fields[7]}").at(
                file=fields[7], field=name, rule="timestamp")
        parsed.append(ms)
    record = _new_record(CortexRecord, (*fields, *parsed))
    if record.updated_ms < record.created_ms:
        raise IntegrityError(f"Canonical record {record.id} is updated before it was created").at(
            file=record.path, field="updated", rule="updated-before-created")
    if (
        record.valid_from_ms is not None
        and record.valid_until_ms is not None
        and record.valid_from_ms >= record.valid_until_ms
    ):
        raise IntegrityError(f"Canonical record {record.id} has an incoherent validity window").at(
            file=record.path, field="valid_until", rule="validity-window")
    return record


def parse_markdown(path: str, root: str) -> CortexRecord:
    from cortex.core.privacy import strip_private_content

    rel = os.path.relpath(path, root)
    raw = read_canonical_utf8(path, rel)
    content = strip_private_content(raw)
    fields = frontmatter_fields(content)
    created = fields.get("created") or fields.get("date") or fields.get("ts") or EPOCH_ISO
    record_id = fields.get("id") or "path:" + sha256_hex(rel.encode("utf-8"))[:16]
    try:
        return validated_record((
            record_id,
            fields.get("type") or ("work" if "WORK/" in rel else "memory"),  # type
            fields.get("title") or fields.get("name") or rel,  # title
            created,
            fields.get("updated") or fields.get("last_updated") or created,  # updated
            fields.get("source_kind") or fields.get("source") or "canonical",  # source
            fields.get("source_session") or None,  # session
            rel,  # path
            content,
            _related_ids(content, fields.get("related"), f"{record_id} in {rel}"),  # related
            fields.get("valid_from") or None,
            fields.get("valid_until") or None,
        ))
    except IntegrityError as error:  # name the frontmatter line of the field at fault, never its value
        from cortex.core.corpusfaults import frontmatter_line, source_key

        raise error.at(line=frontmatter_line(raw, source_key(fields, error.field))) from None


def _related_ids(content: str, field: str | None, where: str) -> list[str]:
    """cortex.core.related.related_ids, imported (with its six patterns) when a record is first parsed: a warm
    read takes its records from the search cache."""
    from cortex.core.related import related_ids

    return related_ids(content, field, where)


def parse_jsonl(path: str, root: str) -> list[CortexRecord]:
    from cortex.core.jsonlrows import plain_records

    rel = os.path.relpath(path, root)
    data = read_canonical_bytes(path, rel)
    try:
        records = plain_records(data, rel)
        if records is not None:
            return records
    except (IntegrityError, ValueError, RecursionError, StopIteration):
        pass  # the exact reader says which error, where
    return exact_jsonl(data, rel)


def exact_jsonl(data: bytes, rel: str) -> list[CortexRecord]:
    """The records of a JSONL file's bytes: the text checked whole, then each line in turn (plain_records' model)."""
    from cortex.core.jsonlrows import jsonl_row as _jsonl_row

    text = canonical_text(data, rel)
    lines = split_lines(text) if "\r" in text else text.split("\n")
    return [_jsonl_record(_jsonl_row(line, rel, index + 1), rel, index + 1)
            for index, line in enumerate(lines) if js_trim(line)]


def _jsonl_record(row: dict, rel: str, number: int) -> CortexRecord:
    source = row.get("source_kind")
    if source is None:
        source = row.get("source")
    try:
        return validated_record((
            row["id"], row["type"], row["title"], row["created"], row["updated"],
            source if source is not None else "canonical",  # source
            row.get("source_session"),  # session
            rel,  # path
            row["content"],
            list(row.get("related") or []),  # related
            row.get("valid_from"), row.get("valid_until"),
        ))
    except IntegrityError as error:
        raise error.at(line=number) from None


def pinned_files(root: str) -> tuple[str, list[str]]:
    """Pin `root` and list its canonical files, every limit checked from metadata (no content read)."""
    root_real = pinned_root(root)
    return root_real, canonical_files_stats(root_real)[0]


def canonical_files_stats(root_real: str, remembered: list[str] | None = None,
                          folders: list | None = None) -> tuple[list[str], list[os.stat_result]]:
    """canonical_files and check_limits' lstat of each: walked by names when every file then proves regular
    (the lstat a file needs anyway stands for the careful walk's type of its entry), else carefully.
    `remembered`: the files of a walk whose every folder is unchanged since (cortex.searchcache.loader's
    listing memo), taken instead of walking when each still proves regular. `folders` receives the walk by
    names' folders (canonical_files), and nothing when the careful walk decides or `remembered` is taken."""
    infos = None if remembered is None else regular_stats(remembered)
    if infos is not None:
        return remembered, infos if within_limits(remembered, infos) else check_limits(remembered, root_real)
    files = canonical_files(root_real, quick=True, folders=folders)
    infos = None if files is None else regular_stats(files)
    if infos is not None:
        return files, infos if within_limits(files, infos) else check_limits(files, root_real)  # its error
    if folders is not None:
        folders.clear()  # the careful walk's folders are not recorded
    files = canonical_files(root_real)
    return files, check_limits(files, root_real)


def pinned_root(root: str) -> str:
    """The canonical root, resolved once (the trust boundary): a UTF-8 name, a folder."""
    require_utf8_name(root)
    return pin_canonical_root(root)


def parse_file(path: str, root_real: str) -> list[CortexRecord]:
    with gcpause.paused():
        return [parse_markdown(path, root_real)] if path.endswith(".md") else parse_jsonl(path, root_real)


def parsed_files(files: list[str], root_real: str):
    """(path, its records) of each file in order, parsed as the loader parses them, the record limit checked after
    each file (the same point, the same error, as appending them one file at a time); the collector held off
    throughout, the consumer's work included (cortex.core.gcpause.paused: no walk over the records per file)."""
    total = 0
    with gcpause.paused():
        for path in files:
            parsed = parse_file(path, root_real)
            check_record_count(total, len(parsed))
            total += len(parsed)
            yield path, parsed


def check_record_count(before: int, added: int) -> None:
    """The corpus limit, checked after each file as the records are appended (same point, same error)."""
    if before + added > MAX_RECORDS:
        raise IntegrityError(f"Canonical corpus exceeds record count limit ({MAX_RECORDS})").at(rule="record-limit")


def check_unique_ids(records: list, root: str | None = None) -> None:
    """The first repeated ID, in corpus order, names both paths (records or cached heads); with the pinned `root`
    the error also knows the repeat's line."""
    seen: dict[str, str] = {}
    for record in records:
        prior = seen.get(record.id)
        if prior is not None:
            from cortex.core.corpusfaults import id_line
            from cortex.core.jsonlrows import jsonl_row as _jsonl_row

            error = IntegrityError(f"Duplicate canonical ID {record.id}: {prior} and {record.path}")
            nth = 2 if prior == record.path else 1
            line = None if root is None else id_line(root, record.path, record.id, nth, _jsonl_row)
            raise error.at(file=record.path, line=line, field="id", rule="duplicate-id")
        seen[record.id] = record.path


def enumerate_canonical_corpus(root: str) -> Corpus:
    """Pin `root`, check every limit from metadata, then parse every canonical record."""
    root_real, files = pinned_files(root)
    records: list[CortexRecord] = []
    for _path, parsed in parsed_files(files, root_real):
        records.extend(parsed)
    check_unique_ids(records, root_real)
    return Corpus(root_real, tuple(files), records)


def count_canonical_records(root: str) -> tuple[str, int]:
    """enumerate_canonical_corpus's pinned root and number of records, with the same checks and errors, keeping
    only each record's id (`status`): every file's records are freed once counted, so a large corpus's text is
    never all in memory at once (fewer pages to fault in, no records to free at the end)."""
    root_real, files = pinned_files(root)
    ids: list[str] = []
    spans: list[tuple[str, int]] = []  # (path, records) of each file: the repeat's error names paths
    for _path, parsed in parsed_files(files, root_real):
        ids.extend([record.id for record in parsed])
        if parsed:
            spans.append((parsed[0].path, len(parsed)))
    if len(set(ids)) != len(ids):  # rare: the first repeat named exactly as check_unique_ids names it
        paths = [path for path, count in spans for _ in range(count)]
        check_unique_ids([_IdAt(record_id, path) for record_id, path in zip(ids, paths)], root_real)
    return root_real, len(ids)


class _IdAt:
    """A record's id and path: all check_unique_ids reads (a class, not a named tuple: ~0.4M instructions less)."""

    __slots__ = ("id", "path")

    def __init__(self, record_id: str, path: str) -> None:
        self.id, self.path = record_id, path


def load_canonical_records(root: str) -> list[CortexRecord]:
    return enumerate_canonical_corpus(root).records
