"""Search cache merged postings: one row per term for the whole root, made from the per-file rows; kept by cortex.searchcache.store, read by the loader.

A warm call ranks with the postings of its query's terms. Stored per file and term, a word in
every note costs a row fetched, checked and decoded per file (3,000 rows for a two-word prompt
at 1,500 notes, most of a warm recall's ranking). The `merged` table keeps, per term found in
at least MIN_FILES files, every (entry id, record, count) of it in one blob of three columns
(entry-id order), under a CRC-32 of itself and its term. It is derived state: the per-file rows stay the
source (one edited file stays one file's rows to write), and every write that changes a term's
per-file rows splices that term's merged row in the same transaction (splice_merged: the edited
files' triples cut and appended, what a full merge makes, at the edited files' cost); a term with
no row, or a damaged one, is listed as stale, and the builder (after the answer,
cortex.searchcache.builder) merges the stale terms from per-file rows whose own checksums hold.
So a snapshot never holds a merged row that
disagrees with its per-file rows, and a term without one is ranked from those rows. A merged
row that fails its checksum or names a record its file does not hold is damage (DamagedEntry):
the cache is dropped and the call answers from the files.
"""
from __future__ import annotations

import zlib
from _bisect import bisect_left, bisect_right  # bisect.py re-exports these: 0.4M instructions less
from _operator import lt  # operator's own: its Python module costs 2.5M instructions
from itertools import groupby

from cortex.core.lightstdlib import array_type
from cortex.searchcache.entries import DamagedEntry, Owners, decode_postings, identity

array = array_type()  # without collections (cortex.core.lightstdlib)
MIN_FILES = 2  # a term of one file is its one per-file row already
_TRIPLE = "I"  # entry ids, seqs, tfs: unsigned 32-bit integers, like the per-file pairs


def chunks(items: list, size: int = 500):
    """`items` in slices of at most `size`: bound parameters of one statement (older sqlite builds allow 999)."""
    for start in range(0, len(items), size):
        yield items[start:start + size]


def merged_crc(term: str, data) -> int:
    return zlib.crc32(data, zlib.crc32(b"M" + term.encode("utf-8", "surrogatepass") + b"\0"))


def merge_stale(db) -> None:
    """Inside the caller's write transaction: a merged row for every stale term held by at least MIN_FILES
    files whose per-file rows all pass their checksums (a term with a damaged row keeps none: its rows are
    read, and found damaged, by the call that needs them); the stale list emptied."""
    seeds = {file_id: identity(path, (dev, ino, size, mtime_ns, ctime_ns), read_ns) for
             file_id, path, dev, ino, size, mtime_ns, ctime_ns, read_ns in
             db.execute("SELECT id, path, dev, ino, size, mtime_ns, ctime_ns, read_ns FROM files")}
    rows = db.execute("SELECT p.term, p.file, p.data, p.crc FROM stale s JOIN postings p ON p.term = s.term"
                      " ORDER BY p.term, p.file")
    made = []
    for term, group in groupby(rows, key=lambda row: row[0]):
        group = list(group)
        if len(group) < MIN_FILES:
            continue
        data = _merged(term, group, seeds)
        if data is not None:
            made.append((term, data, merged_crc(term, data)))
    db.executemany("INSERT OR REPLACE INTO merged VALUES(?,?,?)", made)
    db.execute("DELETE FROM stale")


def _merged(term: str, group: list, seeds: dict) -> bytes | None:
    """Three columns of one length: entry ids, seqs, tfs (each pair's file, record and count, in file order)."""
    files, seqs, tfs = array(_TRIPLE), array(_TRIPLE), array(_TRIPLE)
    prefix = b"P" + term.encode("utf-8", "surrogatepass") + b"\0"  # posting_crc's, written out: a row per file
    crc32, size = zlib.crc32, 2 * files.itemsize
    try:
        for _term, file_id, data, crc in group:
            seed = seeds.get(file_id)
            if seed is None or type(data) is not bytes or crc32(data, crc32(prefix, seed)) != crc or len(data) % size:
                return None
            _append_file(files, seqs, tfs, file_id, data)
    except OverflowError:  # an entry id past 32 bits: this term stays per file
        return None
    return files.tobytes() + seqs.tobytes() + tfs.tobytes()


def _append_file(files: array, seqs: array, tfs: array, entry_id: int, data: bytes) -> None:
    """One file's per-file pairs (seq, tf) appended to the three columns (OverflowError: an id past 32 bits)."""
    pairs = array(_TRIPLE, data)
    files.extend(array(_TRIPLE, [entry_id]) * (len(pairs) // 2))
    seqs.extend(pairs[0::2])
    tfs.extend(pairs[1::2])


def _intact(term, data, crc, size: int = 3 * array(_TRIPLE).itemsize) -> bool:
    """A merged row as stored: text and a blob of whole triples under its own checksum."""
    return type(term) is str and type(data) is bytes and merged_crc(term, data) == crc and not len(data) % size


def splice_merged(db, touched: set[str], removed: list[int], added: dict[str, list[tuple[int, bytes]]]) -> list[str]:
    """Inside the caller's write transaction: each touched term's merged row made again from itself, the triples
    of the `removed` entries cut out and the `added` ones (term: [(entry id, its per-file pairs)], ids above every
    other, in order) appended: the row merge_stale would make from the per-file rows now, at the cost of the
    edited files rather than of every file holding the term. A term left in fewer than MIN_FILES files loses its
    row; the touched terms without a row (or with one that fails its checksum) are returned, to go stale."""
    stale, rows = set(touched), []
    for chunk in chunks(sorted(touched)):
        rows += db.execute(f"SELECT term, data, crc FROM merged WHERE term IN ({','.join('?' * len(chunk))})",
                           chunk).fetchall()
    cut = sorted(set(removed))
    made, dropped = [], []
    for term, data, crc in rows:
        data = _spliced(data, cut, added.get(term, ())) if _intact(term, data, crc) else None
        if data is None:
            dropped.append(term)  # damaged, or an entry id past 32 bits: merged again (or not) from per-file rows
            continue
        stale.discard(term)
        if data:
            made.append((term, data, merged_crc(term, data)))
        else:
            dropped.append(term)
    for chunk in chunks(dropped):
        db.execute(f"DELETE FROM merged WHERE term IN ({','.join('?' * len(chunk))})", chunk)
    db.executemany("INSERT OR REPLACE INTO merged VALUES(?,?,?)", made)
    return sorted(stale)


def _spliced(data: bytes, cut: list[int], added) -> bytes | None:
    """A checked merged row's three columns with the entries of `cut` (sorted ids) removed and `added` appended;
    b"" when fewer than MIN_FILES files hold the term then; None for an entry id past 32 bits."""
    columns = array(_TRIPLE, data)
    n = len(columns) // 3
    files, seqs, tfs = columns[:n], columns[n:2 * n], columns[2 * n:]
    for entry_id in reversed(cut):  # each entry's triples are one run (entry-id order): cut from the end
        low, high = bisect_left(files, entry_id), bisect_right(files, entry_id)
        if low < high:
            del files[low:high], seqs[low:high], tfs[low:high]
    try:
        for entry_id, data_of_file in added:
            _append_file(files, seqs, tfs, entry_id, data_of_file)
    except OverflowError:
        return None
    if not files or files[0] == files[-1]:  # (sorted: first and last the same entry means one file)
        return b""
    return files.tobytes() + seqs.tobytes() + tfs.tobytes()


def decode_merged(rows, owners: Owners) -> list[tuple[str, list, array, array]]:
    """Per merged row (term, data, crc): (term, file numbers, seqs, tfs) of the triples whose entry is one of
    `owners` (the entries this call trusts; the others' files are read afresh or gone), each checked;
    DamagedEntry otherwise."""
    found, file_of, counts = [], owners.file_of, owners.counts
    for term, data, crc in rows:
        if not _intact(term, data, crc):
            raise DamagedEntry("merged postings fail their checksum")
        columns = array(_TRIPLE, data)
        n = len(columns) // 3
        seqs, tfs = columns[n:2 * n], columns[2 * n:]
        try:  # at C speed, the usual case: every owner trusted, and no record past the smallest file's count
            file_nos = list(map(file_of.__getitem__, columns[:n]))
            usual = (not seqs or (owners.least > 0 and not any(seqs)) or max(seqs) < owners.least  # (files of one
                     or all(map(lt, seqs, map(counts.__getitem__, file_nos))))  # record: every seq 0, no compare)
        except KeyError:
            file_nos, usual = list(map(file_of.get, columns[:n])), False
        if not usual:
            kept = [(file_no, seq, tf) for file_no, seq, tf in zip(file_nos, seqs, tfs) if file_no is not None]
            if any(seq >= counts[file_no] for file_no, seq, _tf in kept):
                raise DamagedEntry("merged postings name a record the file does not hold")
            file_nos = [file_no for file_no, _seq, _tf in kept]
            seqs, tfs = array(_TRIPLE, [seq for _f, seq, _tf in kept]), array(_TRIPLE, [tf for _f, _s, tf in kept])
        found.append((term, file_nos, seqs, tfs))
    return found


def stored_postings(store, keys: list[str], owners: Owners) -> list[tuple[str, list, array, array]]:
    """The chunks of `keys` for the entries of `owners`: a key's merged row when it has one, else its per-file
    rows (entries.decode_postings)."""
    merged = store.merged(keys)
    found = decode_merged(merged, owners)
    merged_keys = {row[0] for row in merged}
    rest = [key for key in keys if key not in merged_keys]
    if rest:
        found += decode_postings(store.postings(rest), owners, rest)
    return found
