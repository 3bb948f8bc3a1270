"""Search cache summary: one sealed snapshot of a root's decoded file facts beside search.sqlite; read and written by cortex.searchcache.loader.

A warm call otherwise fetches one row per canonical file and checks and decodes each (a
checksum, a marshal load, a checksum seed: two thirds of a warm recall's own work at 1,500
files). The summary is the `files` table of one database generation (cortex.searchcache.store
draws a new one on every write), already checked and decoded: per file its path, stat key,
entry id, checksum seed and facts (ids, token counts, validity bounds, heads). It is believed
only when its seal matches and it names this schema, this root and the generation of
the snapshot the call reads; a file's facts only when the file's stat key equals the stored
one (each entry was stored under the racy-file rule). Missing, cut, edited, another root's or
generation's, or not a regular file: as if absent, the loader decodes the database's rows and
writes a new summary. Postings and contents stay in the database, checked value by value.

The seal is a CRC-32 (zlib's, in C): it is there against damage (a cut, a flipped bit, a file of
another kind), not an adversary, whom no unkeyed digest stops (one who can write the cache folder
recomputes any seal, BLAKE2b's as well); the binding to this schema, root and generation is in the
sealed head. A BLAKE2b over the summary's 445 KB at 1,500 files cost a warm recall 6M instructions.
"""
from __future__ import annotations

import marshal
import os
from zlib import crc32

from cortex.core.safeio import read_bounded

SUFFIX = "-summary"  # search.sqlite-summary: a side file of the database (location.SIDE_FILES)
MAGIC = b"cortex-search-summary/2\n"  # 2: a CRC-32 seal (1: BLAKE2b)
SEAL_BYTES = 4
MAX_SUMMARY_BYTES = 256 * 1024 * 1024
# What reading and decoding a damaged or foreign summary may raise: it is then not used.
_DAMAGED = (OSError, ValueError, EOFError, TypeError, IndexError, KeyError, RecursionError, MemoryError)


class Summary:
    """A checked summary. paths: tuple of absolute file paths; keys: list of stat keys (tuples), in that order;
    files: per path (rel, entry_id, seed, indexed, ids, lengths bytes, bounds, heads blob)."""

    __slots__ = ("paths", "keys", "files")

    def __init__(self, paths: tuple, keys: list, files: list) -> None:
        self.paths, self.keys, self.files = paths, keys, files


def summary_path(db_path: str) -> str:
    return db_path + SUFFIX


def seal(payload: bytes) -> bytes:
    return crc32(payload, crc32(MAGIC)).to_bytes(SEAL_BYTES, "big")


def read_summary(db_path: str, schema: str, root: str, generation: str | None) -> Summary | None:
    """The summary of `root` at database `generation`, or None when there is none that may be believed."""
    if generation is None:
        return None
    try:
        data = read_bounded(summary_path(db_path), MAX_SUMMARY_BYTES)
        start = len(MAGIC) + SEAL_BYTES
        if not data.startswith(MAGIC) or seal(data[start:]) != data[len(MAGIC):start]:
            return None
        head, paths, keys, files = marshal.loads(data[start:])
        if head != (schema, root, generation) or not (len(paths) == len(keys) == len(files)):
            return None
        if type(paths) is not tuple or type(keys) is not list or type(files) is not list:
            return None
        return Summary(paths, keys, files)
    except _DAMAGED:
        return None


def summary_places(summary: Summary, files: tuple, infos: list | None, key_of) -> tuple[list, list[str]]:
    """Per file (in order) its place in the summary, None when it is not there or its stat key (`infos`, the
    lstat of each, else `key_of(file_no)`) differs; and the summary's paths no longer listed. One compare when
    no file changed."""
    keys = None if infos is None else [  # entries.stat_key written out: one fewer call per file
        (info.st_dev, info.st_ino, info.st_size, info.st_mtime_ns, info.st_ctime_ns) for info in infos]
    if summary.paths == files and summary.keys == keys:
        return range(len(files)), []
    where = {path: place for place, path in enumerate(summary.paths)}
    places = [where.get(path) for path in files]
    places = [place if place is not None and summary.keys[place] == key_of(file_no) else None
              for file_no, place in enumerate(places)]
    listed = set(files)
    return places, [path for path in summary.paths if path not in listed]


def write_summary(db_path: str, schema: str, root: str, generation: str, paths: tuple, keys: list,
                  facts: list) -> None:
    """Seal and store the summary of these files' trusted entries (`facts`: entries.FileFacts) atomically (not
    durably: a lost one costs one slower call); never fails the call."""
    from cortex.core.cachedir import FILE_MODE
    from cortex.core.durable import replace_file

    files = [(one.path, one.entry_id, one.seed, one.indexed, one.ids, one.lengths.tobytes(), one.bounds, one.blob())
             for one in facts]
    try:
        payload = marshal.dumps(((schema, root, generation), tuple(paths), list(keys), files), 4)
        replace_file(summary_path(db_path), MAGIC + seal(payload) + payload, mode=FILE_MODE, sync=False)
    except (OSError, ValueError):
        pass


def remove_summary(db_path: str) -> None:
    try:
        os.unlink(summary_path(db_path))
    except OSError:
        pass
