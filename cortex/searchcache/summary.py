"""Search cache summary: one sealed snapshot of a root's decoded file facts beside search.sqlite; read and written by cortex.searchcache.cached.

A warm call otherwise fetches one row per canonical file and checks and decodes each (a
checksum, a marshal load, a checksum seed: two thirds of a warm recall's own work at 1,500
files). The summary is the `files` table of one database generation (cortex.searchcache.store
draws a new one on every write), already checked and decoded, in columns: the paths (one
string), the stat keys (one bytes string, compared whole with the keys of the walk's lstat
results), and per file its entry id, checksum seed, indexed flag, record count and heads blob,
and per record its id, token count and validity bounds (flat across files), so a call where no
file changed makes no object per file (cortex.searchcache.rows). It is believed only when its
seal matches, its columns agree in length and type, and it names this schema, this root and the
generation of the snapshot the call reads; a file's facts only when the file's stat key equals
the stored one (each entry was stored under the racy-file rule). Missing, cut, edited, another
root's or generation's, columns that disagree, or not a regular file: as if absent, the loader
decodes the database's rows and writes a new summary. A heads blob is decoded (and checked) when
a row first needs it; one that does not decode is damage (entries.DamagedEntry). Postings and
contents stay in the database, checked value by value.

The seal is a CRC-32 (zlib's, in C): it is there against damage (a cut, a flipped bit, a file of
another kind), not an adversary, whom no unkeyed digest stops (one who can write the cache folder
recomputes any seal, BLAKE2b's as well); the binding to this schema, root and generation is in the
sealed head. A BLAKE2b over the summary's 445 KB at 1,500 files cost a warm recall 6M instructions.
"""
from __future__ import annotations

import marshal
import os
from itertools import accumulate
from _operator import attrgetter, itemgetter  # operator's own: its Python module costs 2.5M instructions
from zlib import crc32

from cortex.core.lightstdlib import array_type
from cortex.core.safeio import read_bounded
from cortex.searchcache.entries import RACY_MARGIN_NS, stat_key, trusted

array = array_type()  # without collections (cortex.core.lightstdlib)
SUFFIX = "-summary"  # search.sqlite-summary: a side file of the database (location.SIDE_FILES)
MAGIC = b"cortex-search-summary/3\n"  # 3: columns (2: a tuple per file; 1: a BLAKE2b seal)
SEAL_BYTES = 4
MAX_SUMMARY_BYTES = 256 * 1024 * 1024
# The stat key's fields (entries.stat_key: device, inode, size, mtime_ns, ctime_ns), one C call per file and
# field: the first three by place (os.stat_result's documented tuple order, read faster than by name).
KEY_FIELDS = (itemgetter(2), itemgetter(1), itemgetter(6), attrgetter("st_mtime_ns"), attrgetter("st_ctime_ns"))
KEY_MARSHAL = 2  # the key columns' encoding: version 2 has no back-references, so equal keys give equal bytes
# What reading and decoding a damaged or foreign summary may raise: it is then not used.
_DAMAGED = (OSError, ValueError, EOFError, TypeError, IndexError, KeyError, RecursionError, MemoryError, OverflowError)


class Summary:
    """A checked summary, in columns over its n files (in order). paths: the absolute paths joined by NUL;
    keys: their stat keys, packed (packed_keys); entry_ids, seeds, counts (each file's records): arrays; indexed:
    bytes (one flag a file); starts: each file's first record (n + 1: the last is the record count); then per
    record, across files: ids (list), lengths (array "i"), bounds (None, or valid_from_ms and valid_until_ms lists);
    heads: per file, its heads blob (decoded on demand, entries.FileFacts.head)."""

    __slots__ = ("n", "paths", "keys", "entry_ids", "seeds", "indexed", "counts", "starts", "ids", "lengths",
                 "bounds", "heads")

    def __init__(self, paths: str, keys: bytes, columns: tuple) -> None:
        entry_ids, seeds, indexed, counts, ids, lengths, bounds, heads = columns
        self.paths, self.keys, self.ids, self.bounds, self.heads = paths, keys, ids, bounds, heads
        self.entry_ids, self.seeds = array("q", entry_ids), array("I", seeds)  # indexed a few times: no list
        self.indexed, self.lengths = indexed, array("i", lengths)
        self.counts = array("I", counts)  # each file's record count (entries.Owners)
        self.starts = list(accumulate(self.counts, initial=0))
        self.n = n = len(self.entry_ids)
        if not (type(paths) is str and type(keys) is bytes and type(indexed) is bytes and type(ids) is list
                and type(heads) is list and n == len(self.seeds) == len(indexed) == len(heads) == len(self.starts) - 1
                and len(ids) == len(self.lengths) == self.starts[-1]):
            raise ValueError("the summary's columns do not agree")
        # TypeError unless every id is a str and every heads blob bytes (marshal makes no other buffer): joined at
        # C speed, cheaper than taking each item's type
        "".join(ids)
        b"".join(heads)
        if bounds is not None and not (type(bounds) is tuple and len(bounds) == 2 and type(bounds[0]) is list
                                       and type(bounds[1]) is list and len(bounds[0]) == len(bounds[1]) == len(ids)):
            raise ValueError("the summary's validity bounds do not agree")


def summary_path(db_path: str) -> str:
    return db_path + SUFFIX


def seal(payload: bytes, magic: bytes = MAGIC) -> bytes:
    return crc32(payload, crc32(magic)).to_bytes(SEAL_BYTES, "big")


def packed_keys(columns: list[list[int]]) -> bytes:
    """Stat keys as the summary stores them: their five columns (KEY_FIELDS' order), marshalled as one string,
    compared whole."""
    return marshal.dumps(columns, KEY_MARSHAL)


def _unpacked_keys(summary: Summary) -> list[tuple] | None:
    """The stored stat keys as entries.stat_key gives them (a tuple per file); None when they do not decode."""
    try:
        columns = marshal.loads(summary.keys)
    except _DAMAGED:
        return None
    if type(columns) is not list or len(columns) != len(KEY_FIELDS) or any(
            type(column) is not list or len(column) != summary.n for column in columns):
        return None
    return list(zip(*columns))


def read_summary(db_path: str, schema: str, root: str, generation: str | None) -> Summary | None:
    """The summary of `root` at database `generation`, or None when there is none that may be believed."""
    if generation is None:
        return None
    try:
        data = read_bounded(summary_path(db_path), MAX_SUMMARY_BYTES)
        start = len(MAGIC) + SEAL_BYTES
        payload = memoryview(data)[start:]  # no copy of the whole file for the seal and the load
        if not data.startswith(MAGIC) or seal(payload) != data[len(MAGIC):start]:
            return None
        head, paths, keys, columns = marshal.loads(payload)
        if head != (schema, root, generation):
            return None
        return Summary(paths, keys, columns)
    except _DAMAGED:
        return None


def summary_places(summary: Summary, files: tuple, infos: list | None, key_of) -> tuple[list, list[str]] | None:
    """Per file (in order) its place in the summary, None when it is not there or its stat key (`infos`, the
    lstat of each, else `key_of(file_no)`) differs; and the summary's paths no longer listed. None when its paths
    are not n (damage: not used). One compare of paths and one of keys when no file changed."""
    if summary.n == len(files) and summary.paths == "\0".join(files) and infos is not None \
            and summary.keys == packed_keys([list(map(field, infos)) for field in KEY_FIELDS]):
        return range(len(files)), []
    keys = _unpacked_keys(summary)
    paths = summary.paths.split("\0") if summary.n else []
    if keys is None or len(paths) != summary.n:
        return None
    where = {path: place for place, path in enumerate(paths)}
    places = [where.get(path) for path in files]
    places = [place if place is not None and keys[place] == key_of(file_no) else None
              for file_no, place in enumerate(places)]
    listed = set(files)
    return places, [path for path in paths if path not in listed]


def write_summary(db_path: str, schema: str, root: str, generation: str, paths: tuple, keys: list,
                  facts: list) -> None:
    """Seal and store the summary of these files' trusted entries (`facts`: entries.FileFacts) atomically (not
    durably: a lost one costs one slower call); never fails the call."""
    from cortex.core.cachedir import FILE_MODE
    from cortex.core.durable import replace_file

    windowed = any(one.bounds is not None for one in facts)
    bounds = None if not windowed else tuple(
        [bound for one in facts for bound in (one.bounds[side] if one.bounds is not None else [None] * len(one.ids))]
        for side in (0, 1))
    try:
        columns = (array("q", [one.entry_id for one in facts]).tobytes(),
                   array("I", [one.seed for one in facts]).tobytes(), bytes(1 if one.indexed else 0 for one in facts),
                   array("I", [len(one.ids) for one in facts]).tobytes(),
                   [record_id for one in facts for record_id in one.ids],
                   b"".join(one.lengths.tobytes() for one in facts), bounds, [one.blob() for one in facts])
        payload = marshal.dumps(((schema, root, generation), "\0".join(paths), packed_keys([list(column) for column in zip(*keys)] if keys else [[]] * len(KEY_FIELDS)), columns), 4)
        replace_file(summary_path(db_path), MAGIC + seal(payload) + payload, mode=FILE_MODE, sync=False)
    except (OSError, ValueError, OverflowError):
        pass


# -- the listing memo: the canonical files of a walk, bound to the stat keys of the folders it listed ---------------
# A warm call lists every folder and sorts the paths (~3.5M instructions at 1,500 notes). A folder's mtime and ctime
# move with every name added to, removed from or renamed in it (never with a file's content: the files are still
# stat'ed one by one, their keys compared with the summary's), so while every folder the walk listed keeps its stat
# key, and had aged past the racy margin when listed (a change in the same timestamp tick moves the mtime away
# from a time that old), its listing, and so the walk's files, are what they were. Only the walk by names of
# the KNOWLEDGE layout is remembered (cortex.core.corpusfiles.canonical_files: the others follow a symlink's
# target). Sealed as the summary is, against damage; bound to the root; missing or not believed: the call walks.
LISTING_SUFFIX = "-listing"  # search.sqlite-listing (location.OWNED_FILES)
LISTING_MAGIC = b"cortex-search-listing/1\n"


def remembered_files(db_path: str, root: str) -> list[str] | None:
    """The canonical files of `root` the listing memo beside `db_path` holds, when every folder it names has the
    stat key it had, aged, when listed; else None."""
    try:
        data = read_bounded(db_path + LISTING_SUFFIX, MAX_SUMMARY_BYTES)
        start = len(LISTING_MAGIC) + SEAL_BYTES
        payload = memoryview(data)[start:]
        if not data.startswith(LISTING_MAGIC) or seal(payload, LISTING_MAGIC) != data[len(LISTING_MAGIC):start]:
            return None
        head, read_ns, folders, keys, files = marshal.loads(payload)
        if head != root or type(files) is not str or type(folders) is not list or type(keys) is not list \
                or not folders or len(folders) != len(keys) or set(map(type, folders)) != {str}:
            return None
        for folder, key in zip(folders, keys):
            if not trusted(key, read_ns, stat_key(os.lstat(folder))):
                return None
    except _DAMAGED:
        return None
    return files.split("\0") if files else []


def remember_files(db_path: str, root: str, read_ns: int, folders: list, files: list[str]) -> None:
    """Store the listing memo of a walk by names: its `files` and its `folders` ((folder, its lstat taken before
    its listing), each listing taken after `read_ns`), when every folder had aged past the racy margin; else
    nothing (a memo there names a folder that changed since: it is not believed). Never fails the call."""
    if not folders or any(info.st_mtime_ns >= read_ns - RACY_MARGIN_NS for _folder, info in folders):
        return
    from cortex.core.cachedir import FILE_MODE
    from cortex.core.durable import replace_file

    try:
        payload = marshal.dumps((root, read_ns, [folder for folder, _info in folders],
                                 [stat_key(info) for _folder, info in folders], "\0".join(files)), 4)
        replace_file(db_path + LISTING_SUFFIX, LISTING_MAGIC + seal(payload, LISTING_MAGIC) + payload,
                     mode=FILE_MODE, sync=False)
    except (OSError, ValueError):
        pass
