"""Search cache loader: the corpus of the read commands and `cortex recall`, from trusted entries or fresh reads.

Called through cortex.invocation.Invocation.read_corpus and cortex.core.retrieval. The
files, the metadata limits and their order are cortex.core.corpus's; each file is then
either a trusted entry (every stat field equal, aged past the racy margin) or read,
validated and stripped again exactly as without a cache (so its errors are the same
errors). The rules that span files (record count, duplicate IDs) run on every call. A
damaged cache is dropped with one note and this call answers from the files.
"""
from __future__ import annotations

import os
import sqlite3
import time
from array import array
from collections.abc import Callable, Mapping

from cortex.core.corpus import (check_record_count, check_unique_ids, enumerate_canonical_corpus, parse_file,
                                pinned_files_stats)
from cortex.core.records import CortexRecord
from cortex.core.timestamps import iso_from_ms
from cortex.core.tokenize import terms
from cortex.searchcache.entries import (DamagedEntry, FileFacts, Row, checked_content, decode_facts, decode_pairs,
                                        fresh_facts, full_record, index_records, new_entry, query_postings, stat_key,
                                        trusted)
from cortex.searchcache.ranking import rank_postings
from cortex.searchcache.location import db_path, remove_files
from cortex.searchcache.store import CacheUnusable, Store

_DAMAGE = (DamagedEntry, sqlite3.DatabaseError)
FLUSH_EVERY_S = 1.0  # a cold call stores what it has read at least this often
# Indexing a file (every term's postings) and storing it costs about as much again as reading it,
# so a cold call over a large corpus would take twice an uncached one and a recall hook could
# outlive its time limit. A call therefore indexes at most this much canonical text; the files past
# it are ranked as the uncached path ranks them (the query's terms counted afresh) and are indexed
# by the calls after it: the cache warms over a few calls, and no call costs much more than uncached.
INDEX_BUDGET_BYTES = 24 << 20


def load_corpus(root: str, environ: Mapping[str, str], clock: Callable[[], int], *, index: bool, notes: list[str]):
    """The corpus of `root`: a CachedCorpus, or a plain Corpus when there is no usable cache.
    `index` asks for entries that can rank and give content (search, recall, get, export)."""
    root_real, files, infos = pinned_files_stats(root)
    path = db_path(environ, root_real)
    if path is None:
        return enumerate_canonical_corpus(root_real)
    try:
        store = Store.open(path, notes)
    except CacheUnusable:
        return enumerate_canonical_corpus(root_real)
    corpus = CachedCorpus(root_real, tuple(files), store, clock, notes, infos)
    try:
        corpus.load(index)
    except _DAMAGE as error:
        corpus.drop(error)
        return enumerate_canonical_corpus(root_real)
    except BaseException:
        store.close()
        raise
    return corpus


class CachedCorpus:
    """The Corpus interface (rows, records, full, rank, close) over cached file facts and fresh reads."""

    def __init__(self, root: str, files: tuple[str, ...], store: Store, clock: Callable[[], int], notes: list[str],
                 infos: list[os.stat_result] | None = None) -> None:
        self.root, self.files, self.store, self.clock, self.notes = root, files, store, clock, notes
        self._infos = infos  # each file's lstat as the limits took it, moments ago: no second call per file
        self.facts: list[FileFacts] = []
        self.rows: list[Row] = []
        self._pending: list = []
        self._gone: list[str] = []
        self._writer: Store | None = None  # a second connection: stores batches while the snapshot stays
        self._flushed_at = time.monotonic()
        self._budget = INDEX_BUDGET_BYTES

    def load(self, index: bool) -> None:
        self.store.begin_read()
        stored = self.store.entries()
        count = 0
        prefix = os.path.join(self.root, "")  # the files are joined onto the pinned, real root
        for file_no, path in enumerate(self.files):
            # os.path.relpath's answer without its two abspath calls per file (a third of a warm recall's file work)
            rel = path[len(prefix):] if path.startswith(prefix) else os.path.relpath(path, self.root)
            entry = stored.get(path)
            key = stat_key(self._infos[file_no] if self._infos is not None else os.lstat(path))
            if entry is not None and trusted(entry.key, entry.read_ns, key) and (entry.indexed or not index):
                facts = decode_facts(entry.facts, entry.crc, rel, file_no)
                facts.entry_id, facts.indexed = entry.id, entry.indexed
            else:
                facts = self._read(file_no, path, rel, index)
            check_record_count(count, len(facts.ids))
            count += len(facts.ids)
            self.facts.append(facts)
        ids = [record_id for facts in self.facts for record_id in facts.ids]
        if len(set(ids)) != len(ids):  # rare: name the first repeat exactly as the uncached loader does
            check_unique_ids([facts.head(seq) for facts in self.facts for seq in range(len(facts.ids))], self.root)
        self.rows = [Row(facts, seq) for facts in self.facts for seq in range(len(facts.ids))]
        listed = set(self.files)
        self._gone = [path for path in stored if path not in listed]

    def _read(self, file_no: int, path: str, rel: str, index: bool) -> FileFacts:
        """Read, validate and strip the file as the uncached loader does; keep an entry when it has aged."""
        read_ns = time.time_ns()
        key = stat_key(os.lstat(path))  # taken before the read: a change during it leaves a mismatch
        records = parse_file(path, self.root)
        if index and key[2] > self._budget:  # past this call's budget: ranked per query, indexed by a later call
            facts = fresh_facts(records, None, rel, file_no)
            facts.lazy = True
            return facts
        if index:
            self._budget -= key[2]
        lengths, postings = index_records(records) if index else (None, None)
        if trusted(key, read_ns, key):
            self._pending.append(new_entry(path, key, read_ns, records, lengths, postings))
            if time.monotonic() - self._flushed_at > FLUSH_EVERY_S:
                self._flush()
        facts = fresh_facts(records, lengths, rel, file_no)
        facts.postings = postings
        return facts

    @property
    def records(self) -> list[CortexRecord]:
        return self.full(self.rows)

    def full(self, rows: list) -> list[CortexRecord]:
        """The full records of `rows` (cached rows get their content back), in the same order."""
        wanted: dict[int, list[int]] = {}
        for row in rows:
            if isinstance(row, Row) and row.facts.records is None:
                if row.facts.postings is None and row.facts.entry_id is not None and not row.facts.indexed:
                    self._refill(row.facts)  # an entry stored without content: read its file (not damage)
                    continue
                wanted.setdefault(row.facts.file_no, []).append(row.seq)
        contents: dict[tuple[int, int], str] = {}
        try:
            for file_no, seqs in wanted.items():
                found = self.store.contents(self.facts[file_no].entry_id, seqs)
                for seq in seqs:
                    if seq not in found:
                        raise DamagedEntry(f"content {seq} of {self.files[file_no]} is missing")
                    contents[file_no, seq] = checked_content(*found[seq])
            return [row if not isinstance(row, Row) else row.facts.records[row.seq] if row.facts.records is not None
                    else full_record(row.facts.head(row.seq), contents[row.facts.file_no, row.seq]) for row in rows]
        except _DAMAGE as error:
            self._recover(error)
            return self.full(rows)

    def rank(self, rows: list, query: str, extra: list[CortexRecord] = (), limit: int | None = None):
        self._count_query(query)
        everything = len(rows) == len(self.rows)
        try:
            return rank_postings(rows, query, self.facts, self._postings, list(extra), everything, limit)
        except _DAMAGE as error:
            self._recover(error)
            self._count_query(query)  # the files read again may be past the budget too
            return rank_postings(rows, query, self.facts, self._postings, list(extra), everything, limit)

    def _count_query(self, query: str) -> None:
        """Token counts and this query's postings for the files read past the indexing budget."""
        query_terms = list(dict.fromkeys(terms(query)))
        for facts in self.facts:
            if facts.lazy:
                lengths, facts.postings = query_postings(facts.records, query_terms)
                facts.lengths = array("i", lengths)

    def _postings(self, keys: list[str]):
        stored: dict[int, FileFacts] = {}
        for facts in self.facts:
            if facts.postings is not None:
                for key in keys:
                    pairs = facts.postings.get(key)
                    if pairs:
                        yield facts.file_no, key, pairs
            elif facts.entry_id is not None:
                stored[facts.entry_id] = facts
        if not stored:
            return
        for entry_id, key, data, crc in self.store.postings(keys):
            facts = stored.get(entry_id)
            if facts is not None:
                yield facts.file_no, key, decode_pairs(data, crc, len(facts.ids))

    def _recover(self, error: Exception) -> None:
        """A damaged value met after loading: drop the cache and read every file it gave us again, as a
        cold call would (the validation, and so the errors, are the uncached loader's). Rows keep
        their places: each one's facts object is refilled in place."""
        self.drop(error)
        for facts in self.facts:
            if facts.records is None:
                self._refill(facts)
        self._pending = []

    def _refill(self, facts: FileFacts) -> None:
        """Read the file of `facts` afresh and put the result in place (rows keep pointing at it)."""
        fresh = self._read(facts.file_no, self.files[facts.file_no], facts.path, True)
        for name in FileFacts.__slots__:
            setattr(facts, name, getattr(fresh, name))

    def drop(self, error: Exception) -> None:
        self.notes.append(f"the search cache was damaged ({error}); it was removed and will be rebuilt")
        if self._writer is not None:
            self._writer.close()
            self._writer = None
        self.store.close()
        remove_files(self.store.path)
        self.store = None

    def _flush(self) -> None:
        """Store the entries read so far, through the second connection (the read snapshot stays as
        it is): a first call over a large corpus that is killed (a hook's time limit) keeps most
        of its work, so the calls after it do get warm."""
        batch, self._pending = self._pending, []
        self._flushed_at = time.monotonic()
        if self.store is None:
            return  # the cache was dropped as damaged during this call
        try:
            if self._writer is None:
                self._writer = Store.connect(self.store.path)
            self._writer.write(batch, {"written_at": iso_from_ms(self.clock()), "root": self.root})
        except (sqlite3.Error, CacheUnusable, OSError):
            pass  # locked, read-only or full: this batch is simply not stored

    def close(self) -> None:
        """End the read snapshot, then store what was read afresh; any failure only costs the cache."""
        store, self.store = self.store, None
        writer, self._writer = self._writer, None
        if writer is not None:
            writer.close()
        if store is None:
            return
        try:
            store.end_read()
            if self._pending or self._gone:
                store.write(self._pending, {"written_at": iso_from_ms(self.clock()), "root": self.root}, self._gone)
        except sqlite3.DatabaseError as error:
            if isinstance(error, sqlite3.OperationalError) and "malformed" not in str(error).lower():
                pass  # read-only, full or locked: this call simply does not refresh the cache
            else:
                self.notes.append(f"the search cache could not be updated ({error}); it was removed")
                store.close()
                remove_files(store.path)
                return
        except OSError:
            pass
        store.close()

