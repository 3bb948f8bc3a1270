"""Search cache entries: one canonical file's parse as stored (heads, postings, contents); used by the loader and `cortex cache verify`.

What is stored already crossed the privacy boundary: it is built from the records the
corpus loader returns (stripped and validated). Every value carries a CRC-32 of itself,
its key (the term of a posting, the sequence of a content, the indexed flag of the facts)
and its file's identity (path, device, inode, size, mtime, ctime and the moment it was
read), so damage inside a value (which sqlite does not notice) and a value moved or
swapped to another key, file or root are caught before they are believed.
"""
from __future__ import annotations

import marshal
import os
import zlib

from cortex.core.lightstdlib import array_type, count_items
from cortex.core.records import CortexRecord, RecordHead
from cortex.core.search import tokenized_matches
from cortex.core.tokenize import cjk_characters, fold, terms

array = array_type()  # without collections (cortex.core.lightstdlib)
# The racy-file rule: an entry is trusted only when its file's mtime is at least this much
# older than the moment the file was read for it. A file rewritten within the same timestamp
# tick keeps size and mtime (and, on coarse clocks, ctime); 2 s covers 1-s filesystems
# (ext3, HFS+, many NFS/SMB mounts), FAT's 2-s mtime, and small clock steps. Files newer
# than that are simply re-read until they have aged.
RACY_MARGIN_NS = 2_000_000_000
LONE = "\x00"  # key prefix of a lone CJK character's count; canonical text cannot contain NUL
_PAIR = "I"  # postings are (seq, tf) pairs of unsigned 32-bit integers


class DamagedEntry(Exception):
    """A stored value fails its checksum or its shape: the cache is not to be believed."""


class NewEntry:
    """What the loader read for one file, ready to store; `postings`/`contents` are empty unless indexed.

    path: str; key: (dev, ino, size, mtime_ns, ctime_ns); read_ns: int; indexed: bool; facts: bytes; crc: int;
    postings: list[(term, data, crc)]; contents: list[(seq, content, crc)]. (Not a named tuple: nothing uses
    it as one, and its class cost every warm call ~0.4M instructions.)
    """

    __slots__ = ("path", "key", "read_ns", "indexed", "facts", "crc", "postings", "contents")

    def __init__(self, path: str, key: tuple, read_ns: int, indexed: bool, facts: bytes, crc: int,
                 postings: list = (), contents: list = ()) -> None:
        self.path, self.key, self.read_ns, self.indexed, self.facts, self.crc = path, key, read_ns, indexed, facts, crc
        self.postings, self.contents = postings, contents


def stat_key(info) -> tuple[int, int, int, int, int]:
    return (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns)


def file_key(files: tuple[str, ...], infos: list | None, file_no: int) -> tuple:
    """A file's stat key: from its lstat as the limits took it (`infos`, moments ago), else a fresh lstat."""
    return stat_key(infos[file_no] if infos is not None else os.lstat(files[file_no]))


def trusted(entry_key: tuple, read_ns: int, key: tuple) -> bool:
    """Every stat field matches and the file had aged past the racy margin when it was read."""
    return tuple(entry_key) == key and key[3] < read_ns - RACY_MARGIN_NS


def identity(path: str, key: tuple, read_ns: int) -> int:
    """The seed of every checksum of one file's entry: its path and stat key as read."""
    text = "\0".join((path, *map(str, key), str(read_ns)))
    return zlib.crc32(text.encode("utf-8", "surrogateescape"))


def facts_crc(facts: bytes, indexed: bool, seed: int) -> int:
    return zlib.crc32(facts, zlib.crc32(b"F1" if indexed else b"F0", seed))


def posting_crc(data, term: str, seed: int) -> int:
    return zlib.crc32(data, zlib.crc32(b"P" + term.encode("utf-8", "surrogatepass") + b"\0", seed))


def content_crc(content: str, seq: int, seed: int) -> int:
    return zlib.crc32(content.encode("utf-8", "surrogatepass"), zlib.crc32(b"C%d\0" % seq, seed))


def index_records(records: list[CortexRecord]) -> tuple[list[int], dict[str, array]]:
    """Per record its token count, and per term (and per lone CJK character, under LONE) its
    (seq, tf) pairs: exactly the statistics cortex.core.search.rank_bm25 computes per call."""
    lengths: list[int] = []
    pairs: dict[str, list[int]] = {}
    known = pairs.get
    for seq, record in enumerate(records):
        text = f"{record.title} {record.content}"
        words = terms(text)
        lengths.append(len(words))
        for term, count in count_items(words).items():  # the hot loop of a cold call: one lookup, one extend
            flat = known(term)
            if flat is None:
                pairs[term] = [seq, count]
            else:
                flat += (seq, count)
        if not text.isascii():
            for char, count in count_items(cjk_characters(fold(text))).items():
                pairs.setdefault(LONE + char, []).extend((seq, count))
    return lengths, {term: array(_PAIR, flat) for term, flat in pairs.items()}


def query_postings(records: list[CortexRecord], query_terms: list[str]) -> tuple[list[int], dict[str, array]]:
    """Every record's length and one query's postings, counted by the uncached ranking itself
    (cortex.core.search.tokenized_matches): for a file this call read but did not index. A lone
    CJK term's count is already final there, so no LONE key is needed."""
    lengths: list[int] = []
    matches, _total = tokenized_matches(records, query_terms, lengths=lengths)
    place = {id(record): seq for seq, record in enumerate(records)}
    pairs: dict[str, list[int]] = {}
    for record, _length, frequencies in matches:
        for term, count in frequencies.items():
            pairs.setdefault(term, []).extend((place[id(record)], count))
    return lengths, {term: array(_PAIR, flat) for term, flat in pairs.items()}


def head_tuple(record: CortexRecord, length: int) -> tuple:
    return (record.id, record.type, record.title, record.created, record.updated, record.source, record.session,
            list(record.related), record.valid_from, record.valid_until, record.created_ms, record.updated_ms,
            record.valid_from_ms, record.valid_until_ms, record.est_tokens, length)


class FileFacts:
    """One file's records as the read commands see them without content: the columns every call
    needs (ids, token counts, validity bounds) decoded at once, the other fields per file on demand."""

    __slots__ = ("file_no", "path", "ids", "lengths", "bounds", "_blob", "_heads", "records", "postings", "entry_id",
                 "indexed", "lazy", "seed")

    def __init__(self, file_no: int, path: str, ids: list[str], lengths: array, bounds, blob: bytes | None,
                 heads: list[RecordHead] | None = None) -> None:
        self.file_no, self.path, self.ids, self.lengths, self.bounds = file_no, path, ids, lengths, bounds
        self._blob, self._heads = blob, heads
        self.records: list[CortexRecord] | None = None  # set when read afresh in this call
        self.postings: dict[str, array] | None = None
        self.entry_id: int | None = None  # set when taken from a trusted entry
        self.seed = 0  # a trusted entry's identity (entries.identity): its postings and contents are checked with it
        self.indexed = heads is not None  # fresh reads: as asked; stored entries: set by the loader
        self.lazy = False  # read afresh past this call's indexing budget: counted per query instead

    def blob(self) -> bytes | None:
        """The heads as stored (a trusted entry's), for the summary."""
        return self._blob

    def head(self, seq: int) -> RecordHead:
        if self._heads is None:
            try:
                rows = marshal.loads(self._blob)
                self._heads = [RecordHead(*row[:7], self.path, *row[7:], self.file_no, index)
                               for index, row in enumerate(rows)]
            except (ValueError, EOFError, TypeError) as error:
                raise DamagedEntry(f"heads of {self.path} do not decode: {error}") from None
        return self._heads[seq]


def fresh_facts(records: list[CortexRecord], lengths: list[int] | None, path: str, file_no: int) -> FileFacts:
    heads = []
    for seq, record in enumerate(records):
        row = head_tuple(record, -1 if lengths is None else lengths[seq])
        heads.append(RecordHead(*row[:7], path, *row[7:], file_no, seq))
    facts = FileFacts(file_no, path, [r.id for r in records], array("i", lengths or [-1] * len(records)),
                      _bounds(records), None, heads)
    facts.records = records
    return facts


def _bounds(records: list[CortexRecord]):
    """(valid_from_ms list, valid_until_ms list), or None when no record has a validity window (the usual case)."""
    if all(r.valid_from_ms is None and r.valid_until_ms is None for r in records):
        return None
    return [r.valid_from_ms for r in records], [r.valid_until_ms for r in records]


def new_entry(path: str, key: tuple, read_ns: int, records: list[CortexRecord], lengths: list[int] | None,
              postings: dict[str, array] | None) -> NewEntry:
    indexed = postings is not None
    heads = marshal.dumps([head_tuple(r, -1 if lengths is None else lengths[seq]) for seq, r in enumerate(records)], 4)
    lengths_bytes = array("i", lengths or [-1] * len(records)).tobytes()
    facts = marshal.dumps(([r.id for r in records], lengths_bytes, _bounds(records), heads), 4)
    seed = identity(path, key, read_ns)
    if not indexed:
        return NewEntry(path, key, read_ns, indexed, facts, facts_crc(facts, indexed, seed))
    return NewEntry(path, key, read_ns, indexed, facts, facts_crc(facts, indexed, seed),
                    [(term, data.tobytes(), posting_crc(data, term, seed)) for term, data in postings.items()],
                    [(seq, r.content, content_crc(r.content, seq, seed)) for seq, r in enumerate(records)])


def decode_facts(blob: bytes, crc: int, path: str, file_no: int, indexed: bool, seed: int) -> FileFacts:
    """The facts of a stored entry; `path` (relative) names it in errors, `seed` is its identity."""
    if facts_crc(blob, indexed, seed) != crc:
        raise DamagedEntry(f"the entry of {path} fails its checksum")
    try:
        ids, lengths_bytes, bounds, heads = marshal.loads(blob)
        lengths = array("i")
        lengths.frombytes(lengths_bytes)
    except (ValueError, EOFError, TypeError) as error:
        raise DamagedEntry(f"the entry of {path} does not decode: {error}") from None
    if len(lengths) != len(ids) or (bounds is not None and not (len(bounds[0]) == len(bounds[1]) == len(ids))):
        raise DamagedEntry(f"the entry of {path} has columns of different lengths")
    facts = FileFacts(file_no, path, ids, lengths, bounds, heads)
    facts.seed = seed
    return facts


def summary_facts(summary, place: int, file_no: int, path: str) -> FileFacts:
    """The facts of the file at `place` of a believed summary (cortex.searchcache.summary: its columns were checked
    when it was read; the heads are decoded, and checked, on demand); `path` (relative) names it."""
    start, end = summary.starts[place], summary.starts[place + 1]
    bounds = summary.bounds
    if bounds is not None:
        bounds = (bounds[0][start:end], bounds[1][start:end])
    facts = FileFacts(file_no, path, summary.ids[start:end], summary.lengths[start:end], bounds, summary.heads[place])
    facts.seed, facts.entry_id = summary.seeds[place], summary.entry_ids[place]
    facts.indexed = bool(summary.indexed[place])
    return facts


class Owners:
    """The trusted entries a call ranks with: file_of, entry id -> file number; per file number, counts (its
    records) and seeds (its identity, entries.identity); least: the smallest count."""

    __slots__ = ("file_of", "counts", "seeds", "least")

    def __init__(self, file_of: dict, counts: list[int], seeds: list[int]) -> None:
        self.file_of, self.counts, self.seeds = file_of, counts, seeds
        self.least = min(counts, default=0)


def decode_postings(rows, owners: Owners, keys: list[str]) -> list[tuple[str, list, array, array]]:
    """Per stored posting row (entry id, key, data, crc) of an entry of `owners`, its key, file number (once per
    pair), seqs and tfs, each checked (posting_crc, written out: a warm recall decodes a row per query term per
    file, 3,000 at 1,500 files) and naming only records its file holds; DamagedEntry otherwise."""
    prefixes = {key: b"P" + key.encode("utf-8", "surrogatepass") + b"\0" for key in keys}  # posting_crc's
    crc32, size, found = zlib.crc32, 2 * array(_PAIR).itemsize, []
    file_of, counts, seeds = owners.file_of, owners.counts, owners.seeds
    for entry_id, key, data, crc in rows:
        file_no = file_of.get(entry_id)
        if file_no is None:
            continue
        if crc32(data, crc32(prefixes[key], seeds[file_no])) != crc or len(data) % size:
            raise DamagedEntry("postings fail their checksum")
        pairs = array(_PAIR, data)
        if pairs and max(pairs[0::2]) >= counts[file_no]:
            raise DamagedEntry("postings name a record the file does not hold")
        found.append((key, [file_no] * (len(pairs) // 2), pairs[0::2], pairs[1::2]))
    return found


def checked_content(content: str, crc: int, seq: int, seed: int) -> str:
    if content_crc(content, seq, seed) != crc:
        raise DamagedEntry("content fails its checksum")
    return content


class Row:
    """A record of the cached corpus, as the read commands see it: id, length and validity come from
    its file's columns; any other field (type, dates, provenance, est_tokens...) from its head."""

    __slots__ = ("facts", "seq")

    def __init__(self, facts: FileFacts, seq: int) -> None:
        self.facts, self.seq = facts, seq

    @property
    def id(self) -> str:
        return self.facts.ids[self.seq]

    @property
    def length(self) -> int:
        return self.facts.lengths[self.seq]

    @property
    def file_no(self) -> int:
        return self.facts.file_no

    def is_valid_at(self, now_ms: int) -> bool:
        bounds = self.facts.bounds
        if bounds is None:
            return True
        start, end = bounds[0][self.seq], bounds[1][self.seq]
        return (start is None or now_ms >= start) and (end is None or now_ms < end)

    def __getattr__(self, name: str):
        return getattr(self.facts.head(self.seq), name)


def full_record(head: RecordHead, content: str) -> CortexRecord:
    return CortexRecord(head.id, head.type, head.title, head.created, head.updated, head.source, head.session,
                        head.path, content, list(head.related), head.valid_from, head.valid_until,
                        head.created_ms, head.updated_ms, head.valid_from_ms, head.valid_until_ms)
