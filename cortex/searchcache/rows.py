"""Search cache rows: the records of a corpus loaded from a summary's columns, as a sequence; made by cortex.searchcache.cached.

A warm recall at 1,500 one-note files made a FileFacts per file and a Row per record (about
3,000 instructions each) to rank them all and print five. Loaded from a summary whose every
file matched, the rows stay columns: a Row (and its file's FileFacts) is made only when the
sequence is iterated or indexed, and `active` (cortex.core.records.active_records) keeps every
row, without making one, when no record has a validity window.
"""
from __future__ import annotations

import os
from _bisect import bisect_right  # bisect.py re-exports it: 0.4M instructions less

from cortex.searchcache.entries import FileFacts, Owners, Row, summary_facts
from cortex.searchcache.ranking import flat_lengths

TYPE_CHECKING = False  # annotations only: array's own import loads collections (cortex.core.lightstdlib)
if TYPE_CHECKING:
    from array import array


class Rows:
    """corpus.rows of a CachedCorpus loaded from a summary's columns: entries.Row objects made on demand.
    `facts_of(file_no)`: a file's FileFacts (made once); `starts`: where each file's records start (and, last,
    how many there are); `bounds`: the columns' validity bounds (None when no record has a window)."""

    __slots__ = ("_facts_of", "_starts", "_bounds")

    def __init__(self, facts_of, starts: list[int], bounds) -> None:
        self._facts_of, self._starts, self._bounds = facts_of, starts, bounds

    def __len__(self) -> int:
        return self._starts[-1]

    def __iter__(self):
        starts = self._starts
        for file_no in range(len(starts) - 1):
            count = starts[file_no + 1] - starts[file_no]
            if count:
                facts = self._facts_of(file_no)
                for seq in range(count):
                    yield Row(facts, seq)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return list(self)[index]
        place = index + len(self) if index < 0 else index
        if not 0 <= place < len(self):
            raise IndexError("row index out of range")
        file_no = bisect_right(self._starts, place) - 1  # the last file starting at or before it (empty files share)
        return Row(self._facts_of(file_no), place - self._starts[file_no])

    def active(self, now_ms: int):
        """The rows valid at `now_ms`, in order: these very rows when no record has a validity window."""
        if self._bounds is None:
            return self
        return [row for row in self if row.is_valid_at(now_ms)]


class ColumnFacts:
    """The part of cortex.searchcache.cached.CachedCorpus that keeps a corpus in a summary's columns: `facts`
    holds None for a file whose FileFacts is not made yet; `_columns` is the summary (None once every file's
    FileFacts is made). Expects root, files, facts and _columns."""

    def _rel(self, path: str) -> str:
        """A file's path relative to the root (the files are joined onto the pinned, real root: no abspath)."""
        prefix = os.path.join(self.root, "")
        return path[len(prefix):] if path.startswith(prefix) else os.path.relpath(path, self.root)

    def facts_of(self, file_no: int) -> FileFacts:
        """A file's FileFacts (made from the columns, once, when first asked for)."""
        facts = self.facts[file_no]
        if facts is None:
            facts = self.facts[file_no] = summary_facts(self._columns, file_no, file_no, self._rel(self.files[file_no]))
        return facts

    def _materialize(self) -> None:
        """Every file's FileFacts made: the corpus leaves its columns (a repeated id, damage, a file read again)."""
        if self._columns is not None:
            for file_no in range(len(self.facts)):
                self.facts_of(file_no)
            self._columns = None

    def _flat(self) -> tuple[list[int], array]:
        """Where each file's records start, and every record's token count, in the corpus's order."""
        if self._columns is not None:
            return self._columns.starts, self._columns.lengths
        return flat_lengths(self.facts)

    def _column_rows(self) -> Rows:
        return Rows(self.facts_of, self._columns.starts, self._columns.bounds)


def column_owners(columns) -> Owners:
    """The owners (entries.Owners) of a summary's every file (cortex.searchcache.summary.Summary)."""
    return Owners(dict(zip(columns.entry_ids, range(columns.n))), columns.counts, columns.seeds)


def facts_owners(files: list, keys: list[str], found: list) -> Owners:
    """The owners of the stored entries among `files` (entries.FileFacts, every file of the corpus); the postings
    of `keys` that files read afresh counted themselves are added to `found` as (key, file numbers, seqs, tfs)."""
    owners = Owners({}, [len(facts.ids) for facts in files], [facts.seed for facts in files])
    for facts in files:
        if facts.postings is not None:
            for key in keys:
                pairs = facts.postings.get(key)
                if pairs:
                    found.append((key, [facts.file_no] * (len(pairs) // 2), pairs[0::2], pairs[1::2]))
        elif facts.entry_id is not None:
            owners.file_of[facts.entry_id] = facts.file_no
    return owners
