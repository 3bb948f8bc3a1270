"""Search cache, cached corpus: a memory root's corpus from its search cache's trusted entries and fresh reads; opened by cortex.searchcache.loader when the cache has a database.

Each file is either a trusted entry (every stat field equal, aged past the racy margin) or read,
validated and stripped again exactly as without a cache (so its errors are the same
errors) and ranked as the uncached path ranks it (the query's terms counted afresh). The
files read afresh are indexed and stored by cortex.searchcache.builder, never within the
answer: no call costs more than an uncached one. The rules that span files (record count,
duplicate IDs) run on every call. A damaged cache is dropped with one note and this call
answers from the files. When every file matches the summary, the corpus stays in its columns
(cortex.searchcache.rows): objects are made only for the rows an answer shows.
"""
from __future__ import annotations

import os
import time
from _functools import partial  # functools' own: its Python module loads collections (cortex.core.lightstdlib)

from cortex.core.lightstdlib import array_type, sqlite3_module
from cortex.core.corpus import check_record_count, check_unique_ids, enumerate_canonical_corpus, parse_file
from cortex.core.records import CortexRecord
from cortex.core.timestamps import iso_from_ms
from cortex.core.tokenize import terms
from cortex.searchcache.entries import (DamagedEntry, FileFacts, Row, checked_content, decode_facts, file_key,
                                        fresh_facts, full_record, identity, query_postings, stat_key, summary_facts,
                                        trusted)
from cortex.searchcache.merged import stored_postings
from cortex.searchcache.ranking import rank_postings
from cortex.searchcache.location import remove_files
from cortex.searchcache.rows import ColumnFacts, Rows, column_owners, facts_owners
from cortex.searchcache.store import SCHEMA_VERSION, CacheUnusable, Store
from cortex.searchcache.summary import Summary, read_summary, summary_places, write_summary

array = array_type()  # these two without collections and functools (cortex.core.lightstdlib)
sqlite3 = sqlite3_module()
_DAMAGE = (DamagedEntry, sqlite3.DatabaseError)
TYPE_CHECKING = False  # annotations only: a warm call with nothing to build or read cold loads neither module
if TYPE_CHECKING:
    from collections.abc import Callable

    from cortex.searchcache.builder import BuildJob
    from cortex.searchcache.coldcorpus import ColdCorpus


def load_cached(root_real: str, files: tuple[str, ...], infos: list, path: str, clock: Callable[[], int],
                notes: list[str], builds: list | None, index: bool):
    """cortex.searchcache.loader.load_corpus with a database at `path`: a CachedCorpus, a ColdCorpus (no trusted
    entry, or damage) or a plain Corpus (no usable cache)."""
    try:
        store = Store.open(path, notes)
    except CacheUnusable:
        return enumerate_canonical_corpus(root_real)
    corpus = CachedCorpus(root_real, files, store, clock, notes, infos)
    corpus.builds = builds
    try:
        if corpus.load(index):
            return corpus
    except _DAMAGE as error:
        corpus.drop(error)
    except BaseException:
        corpus.close()
        raise
    return corpus.cold()


class CachedCorpus(ColumnFacts):
    """The Corpus interface (rows, records, full, rank, close) over cached file facts and fresh reads."""

    def __init__(self, root: str, files: tuple[str, ...], store: Store, clock: Callable[[], int], notes: list[str],
                 infos: list[os.stat_result] | None = None) -> None:
        self.root, self.files, self.store, self.clock, self.notes = root, files, store, clock, notes
        self.path = store.path
        self._infos = infos  # each file's lstat as the limits took it, moments ago: no second call per file
        self.facts: list[FileFacts | None] = []  # None: a file of _columns whose FileFacts is not made yet (facts_of)
        self.rows: list[Row] | Rows = []
        self._columns = None  # the summary every file matched: the corpus kept in its columns (ColumnFacts)
        self._fresh: list = []  # (path, key, read_ns, records) of the files read afresh: the builder's work
        self._gone: list[str] = []
        self.builds: list | None = None  # builder.submit's `deferred`
        self._generation, self._summarise = None, False  # the snapshot's; every file from the rows: summarise on close

    def _key(self, file_no: int) -> tuple:
        return file_key(self.files, self._infos, file_no)

    def load(self, index: bool) -> bool:
        """Take every file from its trusted entry (from the summary of this snapshot's generation when one may
        be believed, else the database's rows) or a fresh read; False (nothing read) when no entry is trusted:
        the caller reads the files the uncached way (cold)."""
        self.store.begin_read()
        self._generation = self.store.generation()
        summary = read_summary(self.path, SCHEMA_VERSION, self.root, self._generation)
        found = None if summary is None else summary_places(summary, self.files, self._infos, self._key)
        if found is not None:
            return self._load_summary(summary, *found, index)
        stored = self.store.entries()
        usable = [entry is not None and trusted(entry.key, entry.read_ns, self._key(file_no))
                  and (entry.indexed or not index) for file_no, entry in enumerate(map(stored.get, self.files))]
        listed = set(self.files)
        self._gone = [path for path in stored if path not in listed]
        if not any(usable):
            return False
        prefix = os.path.join(self.root, "")  # the files are joined onto the pinned, real root (ColumnFacts._rel)
        for file_no, path in enumerate(self.files):
            rel = path[len(prefix):] if path.startswith(prefix) else os.path.relpath(path, self.root)  # no abspath
            if usable[file_no]:
                entry = stored[path]
                facts = decode_facts(entry.facts, entry.crc, rel, file_no, entry.indexed,
                                     identity(path, entry.key, entry.read_ns))
                facts.entry_id, facts.indexed = entry.id, entry.indexed
            else:
                facts = self._read(file_no, path, rel, index)
            self.facts.append(facts)
        self._check_and_row([record_id for facts in self.facts for record_id in facts.ids])
        self._summarise = index and all(usable) and not self._gone  # the audit (no index) leaves the folder as it is
        return True

    def _load_summary(self, summary: Summary, places, gone: list[str], index: bool) -> bool:
        """load() from a believed summary: its columns as they are when every file matched (one compare), else a
        lookup per file."""
        self._gone = gone
        if index and b"\0" in summary.indexed:  # an entry without postings serves only the calls that do not rank
            places = [place if place is not None and summary.indexed[place] else None for place in places]
        if places.count(None) == len(places):  # none there (a range, when every file is, holds no None)
            return False
        if type(places) is range:  # every file, as summarised: no FileFacts or Row until one is asked for
            self._columns, self.facts = summary, [None] * summary.n
            self._check_and_row(summary.ids)
            return True
        for file_no, place in enumerate(places):
            path = self.files[file_no]
            self.facts.append(summary_facts(summary, place, file_no, self._rel(path)) if place is not None else
                              self._read(file_no, path, os.path.relpath(path, self.root), index))
        self._check_and_row([record_id for facts in self.facts for record_id in facts.ids])
        return True

    def _check_and_row(self, ids: list[str]) -> None:
        """The rules that span files (record count, unique ids) on the loaded `ids`, and the rows."""
        check_record_count(0, len(ids))  # the running total's check after each file fails exactly when this does
        if len(set(ids)) != len(ids):  # rare: name the first repeat exactly as the uncached loader does
            self._materialize()
            check_unique_ids([facts.head(seq) for facts in self.facts for seq in range(len(facts.ids))], self.root)
        self.rows = self._column_rows() if self._columns is not None else [
            Row(facts, seq) for facts in self.facts for seq in range(len(facts.ids))]

    def _write_summary(self) -> None:
        """Every file came from a trusted entry of this generation: keep their decoded facts in one sealed file."""
        if not self._summarise or len(self.facts) != len(self.files) or any(
                facts.entry_id is None or facts.records is not None for facts in self.facts):
            return  # a file read again meanwhile (an entry without content, damage): no summary of this load
        self.store.end_read()
        if self._generation is None:  # a database written before generations: claim one, unless a write came first
            self._generation = self.store.claim_generation()
            if self._generation is None:
                return
        write_summary(self.path, SCHEMA_VERSION, self.root, self._generation, self.files,
                      [self._key(file_no) for file_no in range(len(self.files))], self.facts)

    def cold(self) -> ColdCorpus:
        """No trusted entry (or a damaged cache): every file read as the uncached loader reads it, in its
        order, with its errors; the snapshot ends and the files go to the builder on close."""
        from cortex.searchcache.coldcorpus import ColdCorpus, read_cold

        self._end()
        # A load stopped by damage may have read some already: each file is read (and stored) once.
        records, self._fresh = read_cold(self.root, self.files, self._infos)
        return ColdCorpus(self.root, self.files, records, self._job(), self.builds)

    def _read(self, file_no: int, path: str, rel: str, index: bool) -> FileFacts:
        """Read, validate and strip the file as the uncached loader does (ranked per query, as the uncached
        path ranks it); the builder stores it when it has aged."""
        read_ns = time.time_ns()
        key = stat_key(os.lstat(path))  # taken before the read: a change during it leaves a mismatch
        records = parse_file(path, self.root)
        if trusted(key, read_ns, key):
            self._fresh.append((path, key, read_ns, records))
        facts = fresh_facts(records, None, rel, file_no)
        facts.lazy = index
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
                facts = self.facts_of(file_no)
                found = self.store.contents(facts.entry_id, seqs)
                for seq in seqs:
                    if seq not in found:
                        raise DamagedEntry(f"content {seq} of {self.files[file_no]} is missing")
                    contents[file_no, seq] = checked_content(*found[seq], seq, facts.seed)
            return [row if not isinstance(row, Row) else row.facts.records[row.seq] if row.facts.records is not None
                    else full_record(row.facts.head(row.seq), contents[row.facts.file_no, row.seq]) for row in rows]
        except _DAMAGE as error:
            self._recover(error)
            return self.full(rows)

    def rank(self, rows: list, query: str, extra: list[CortexRecord] = (), limit: int | None = None,
             counted: bool = False):
        self._count_query(query)
        ranking = partial(rank_postings, rows, query, self.facts_of, self._flat, self._postings, list(extra),
                          len(rows) == len(self.rows), limit, counted)  # everything: no membership test
        try:
            return ranking()
        except _DAMAGE as error:
            self._recover(error)
            self._count_query(query)  # the files read again are counted per query too
            return ranking()

    def rank_page(self, rows: list, query: str, limit: int) -> tuple[list, int]:
        """The best `limit` of rank's order and how many rows it ranks in all."""
        return self.rank(rows, query, limit=limit, counted=True)

    def _count_query(self, query: str) -> None:
        """Token counts and this query's postings for the files read afresh (as the uncached path counts them)."""
        query_terms = list(dict.fromkeys(terms(query)))
        for facts in self.facts:
            if facts is not None and facts.lazy:
                lengths, facts.postings = query_postings(facts.records, query_terms)
                facts.lengths = array("i", lengths)

    def _postings(self, keys: list[str]) -> list[tuple[str, list, array, array]]:
        """(key, file numbers, seqs, tfs) chunks of the postings of `keys`: counted afresh, or stored (a term's
        merged row when it has one, else its per-file rows)."""
        found = []  # every file a summarised entry, or the files' own postings and the entries they hold
        owners = column_owners(self._columns) if self._columns is not None else facts_owners(self.facts, keys, found)
        if owners.file_of:
            found += stored_postings(self.store, keys, owners)
        return found

    def _recover(self, error: Exception) -> None:
        """A damaged value met after loading: drop the cache and read every file it gave us again, as a
        cold call would (the validation, and so the errors, are the uncached loader's). Rows keep
        their places: each one's facts object is refilled in place."""
        self.drop(error)
        self._materialize()
        for facts in self.facts:
            if facts.records is None:
                self._refill(facts)

    def _refill(self, facts: FileFacts) -> None:
        """Read the file of `facts` afresh and put the result in place (rows keep pointing at it)."""
        self._materialize()  # its token counts change: the columns' no longer hold
        fresh = self._read(facts.file_no, self.files[facts.file_no], facts.path, True)
        for name in FileFacts.__slots__:
            setattr(facts, name, getattr(fresh, name))

    def drop(self, error: Exception) -> None:
        """The cache is damaged: one note, its files removed; what this call reads is stored anew (builder)."""
        self.notes.append(f"the search cache was damaged ({error}); it was removed and will be rebuilt")
        self._summarise = False
        self._end()
        remove_files(self.path)
        self._gone = []  # the files read afresh stay the builder's work: it stores them in a new cache

    def _end(self) -> None:
        store, self.store = self.store, None
        if store is not None:
            try:
                store.end_read()
            except sqlite3.Error:
                pass  # a snapshot of a damaged file: nothing to keep
            store.close()

    def _job(self) -> BuildJob | None:
        if not self._fresh and not self._gone:
            return None
        from cortex.searchcache.builder import BuildJob

        return BuildJob(self.path, self.root, iso_from_ms(self.clock()), self._fresh, self._gone)

    def close(self) -> None:
        """End the read snapshot; the files read afresh go to the builder (stored now, or after the answer).
        A load from the database's rows alone leaves a summary of them for the next call."""
        if self.store is not None and self._summarise:
            try:
                self._write_summary()
            except sqlite3.Error:  # no summary this time: the next call decodes the rows again
                pass
        self._end()
        job, self._fresh, self._gone = self._job(), [], []
        if job is not None:
            from cortex.searchcache.builder import submit

            submit(job, self.builds)
