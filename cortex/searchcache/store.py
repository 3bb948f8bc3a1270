"""Search cache storage: the sqlite file of one memory root; opened by cortex.searchcache.cached and `cortex cache`.

The file lives in cortex.core.cachedir's private folder (0700) and is created 0600. A file
that sqlite cannot read, or that carries another schema version, is removed and created
anew (one note for the caller to print); a location we cannot write, a full disk or a
lock held too long means no cache for this call, never a failure. Readers see one
snapshot (WAL, an explicit read transaction); writers take the write lock up front.
"""
from __future__ import annotations

import os
import stat
import sys

from cortex.core.cachedir import FILE_MODE
from cortex.core.lightstdlib import sqlite3_module
from cortex.searchcache.location import probe_files, remove_files
from cortex.searchcache.merged import chunks, merge_stale, splice_merged

# Bump when the stored shape or checksums change, or what the loader makes of a file; byte order and marshal
# version are part of the blobs' meaning. 2: every checksum binds its value to its key and its file's identity
# (issue 21), and frontmatter `related` lists are read. 3: postings merged per term (cortex.searchcache.merged).
sqlite3 = sqlite3_module()  # without functools (cortex.core.lightstdlib)
SCHEMA_VERSION = f"cortex-search-cache/3;{sys.byteorder};marshal4"
PAGE_SIZE = 16384
BUSY_TIMEOUT_MS = 1000  # a hook waits at most this long for another caller's write

_SCHEMA = (
    "CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE files(id INTEGER PRIMARY KEY AUTOINCREMENT, path TEXT NOT NULL UNIQUE, dev INTEGER NOT NULL,"
    " ino INTEGER NOT NULL, size INTEGER NOT NULL, mtime_ns INTEGER NOT NULL, ctime_ns INTEGER NOT NULL,"
    " read_ns INTEGER NOT NULL, indexed INTEGER NOT NULL, facts BLOB NOT NULL, crc INTEGER NOT NULL)",
    "CREATE TABLE postings(term TEXT NOT NULL, file INTEGER NOT NULL, data BLOB NOT NULL, crc INTEGER NOT NULL,"
    " PRIMARY KEY(term, file)) WITHOUT ROWID",
    "CREATE TABLE contents(file INTEGER NOT NULL, seq INTEGER NOT NULL, content TEXT NOT NULL, crc INTEGER NOT NULL,"
    " PRIMARY KEY(file, seq))",
    # derived from the postings (cortex.searchcache.merged): dropped by every write that changes a term, remade after
    "CREATE TABLE merged(term TEXT PRIMARY KEY, data BLOB NOT NULL, crc INTEGER NOT NULL) WITHOUT ROWID",
    "CREATE TABLE stale(term TEXT PRIMARY KEY) WITHOUT ROWID",
)
_TABLES = {"meta", "files", "postings", "contents", "merged", "stale"}


class CacheUnusable(Exception):
    """This call runs without the cache (read-only or full location, lock held, damaged file)."""


class FileEntry:
    """One stored file's row. id: int; path: str; key: (dev, ino, size, mtime_ns, ctime_ns); read_ns: int;
    indexed: bool; facts: bytes; crc: int. (Not a named tuple: nothing uses it as one, and its class cost
    every warm call ~0.4M instructions.)"""

    __slots__ = ("id", "path", "key", "read_ns", "indexed", "facts", "crc")

    def __init__(self, id: int, path: str, key: tuple, read_ns: int, indexed: bool, facts: bytes, crc: int) -> None:
        self.id, self.path, self.key, self.read_ns, self.indexed, self.facts, self.crc = (
            id, path, key, read_ns, indexed, facts, crc)


class Store:
    """One open cache database. Every sqlite error surfaces as CacheUnusable or sqlite3.DatabaseError."""

    def __init__(self, path: str, connection: sqlite3.Connection) -> None:
        self.path = path
        self.db = connection

    # -- opening -------------------------------------------------------------------------

    @classmethod
    def open(cls, path: str, notes: list[str]) -> "Store":
        """Open (creating or rebuilding as needed); a damaged or foreign file is replaced with one note."""
        try:
            return cls._open_checked(path)
        except _Foreign:
            pass  # another version's cache: replaced silently, it is not damage
        except sqlite3.DatabaseError as error:
            if isinstance(error, sqlite3.OperationalError) and not _is_damage(error):
                raise CacheUnusable(str(error)) from None
            notes.append(f"the search cache was unreadable ({error}); it was rebuilt")
        remove_files(path)
        try:
            return cls._open_checked(path)
        except (sqlite3.DatabaseError, _Foreign) as error:
            raise CacheUnusable(str(error)) from None

    @classmethod
    def connect(cls, path: str) -> "Store":
        """Another connection to a cache already opened (no rebuild: a damaged file is the opener's to handle)."""
        try:
            return cls._open_checked(path)
        except _Foreign:
            raise CacheUnusable("the cache changed version meanwhile") from None

    @classmethod
    def _open_checked(cls, path: str) -> "Store":
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK, FILE_MODE)
        except OSError as error:
            raise CacheUnusable(f"cannot open {path}: {error.strerror}") from None
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise CacheUnusable(f"{path} is not a regular file")
            if info.st_uid != os.geteuid():
                raise CacheUnusable(f"{path} is not ours")
            if info.st_mode & 0o077:
                os.fchmod(fd, FILE_MODE)
        except OSError as error:
            raise CacheUnusable(f"cannot secure {path}: {error.strerror}") from None
        finally:
            os.close(fd)
        try:
            probe_files(path)  # its -wal, -shm, -journal: sqlite opens them by name (a FIFO would block it)
        except OSError as error:
            raise CacheUnusable(str(error)) from None
        db = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None, check_same_thread=False)
        store = cls(path, db)
        try:
            store._prepare()
        except BaseException:
            db.close()
            raise
        return store

    def _prepare(self) -> None:
        self.db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        # Only a new, empty file takes it: rows of kilobytes (contents, postings) pack into 16 KiB
        # pages with little waste and mostly without overflow pages (4 KiB pages: half empty).
        self.db.execute(f"PRAGMA page_size={PAGE_SIZE}")
        if self.db.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
            self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")  # a lost tail after a power cut is a cold cache, not damage
        tables = {row[0] for row in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not tables:
            self._create()
            return
        if "meta" not in tables:
            raise _Foreign()
        row = self.db.execute("SELECT value FROM meta WHERE key='schema'").fetchone()
        if row is None or row[0] != SCHEMA_VERSION or not _TABLES <= tables:
            raise _Foreign()

    def _create(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            if self.db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                self.db.execute("ROLLBACK")  # a concurrent caller created it first
                return self._prepare()
            for statement in _SCHEMA:
                self.db.execute(statement)
            self.db.execute("INSERT INTO meta VALUES('schema', ?)", (SCHEMA_VERSION,))
            self.db.execute("COMMIT")
        except BaseException:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
            raise

    def close(self) -> None:
        try:
            if self.db.in_transaction:
                self.db.execute("ROLLBACK")
        except sqlite3.Error:
            pass
        self.db.close()

    # -- reading (inside one snapshot) -----------------------------------------------------

    def begin_read(self) -> None:
        self.db.execute("BEGIN")
        self.db.execute("SELECT 1 FROM meta LIMIT 1").fetchone()  # take the snapshot now

    def end_read(self) -> None:
        if self.db.in_transaction:
            self.db.execute("COMMIT")

    def entries(self) -> dict[str, FileEntry]:
        rows = self.db.execute(
            "SELECT id, path, dev, ino, size, mtime_ns, ctime_ns, read_ns, indexed, facts, crc FROM files")
        return {row[1]: FileEntry(row[0], row[1], tuple(row[2:7]), row[7], bool(row[8]), row[9], row[10])
                for row in rows}

    def postings(self, terms: list[str]) -> list[tuple[int, str, bytes, int]]:
        marks = ",".join("?" * len(terms))
        return self.db.execute(f"SELECT file, term, data, crc FROM postings WHERE term IN ({marks})", terms).fetchall()

    def merged(self, terms: list[str]) -> list[tuple[str, bytes, int]]:
        """The merged rows (term, data, crc) of those of `terms` that have one (cortex.searchcache.merged)."""
        marks = ",".join("?" * len(terms))
        return self.db.execute(f"SELECT term, data, crc FROM merged WHERE term IN ({marks})", terms).fetchall()

    def contents(self, file_id: int, seqs: list[int]) -> dict[int, tuple[str, int]]:
        marks = ",".join("?" * len(seqs))
        rows = self.db.execute(f"SELECT seq, content, crc FROM contents WHERE file=? AND seq IN ({marks})",
                               [file_id, *seqs])
        return {seq: (content, crc) for seq, content, crc in rows}

    def generation(self) -> str | None:
        """The token the last write drew (None before any): what a summary of the files table is bound to."""
        row = self.db.execute("SELECT value FROM meta WHERE key='generation'").fetchone()
        return None if row is None else row[0]

    def claim_generation(self) -> str | None:
        """Draw a generation for a database written before they existed (outside a read snapshot); None when
        a write came first (the snapshot read is no longer the latest)."""
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            if db.execute("SELECT value FROM meta WHERE key='generation'").fetchone() is not None:
                return None
            token = os.urandom(16).hex()
            db.execute("INSERT INTO meta VALUES('generation', ?)", (token,))
            db.execute("COMMIT")
            return token
        finally:
            if db.in_transaction:
                db.execute("ROLLBACK")

    def meta(self) -> dict[str, str]:
        return dict(self.db.execute("SELECT key, value FROM meta"))

    def counts(self) -> dict[str, int]:
        files, indexed = self.db.execute("SELECT count(*), coalesce(sum(indexed), 0) FROM files").fetchone()
        return {"entries": files, "indexed": indexed}

    def quick_check(self) -> str:
        rows = [row[0] for row in self.db.execute("PRAGMA quick_check")]
        return "ok" if rows == ["ok"] else "; ".join(rows[:5])

    # -- writing ---------------------------------------------------------------------------

    def write(self, entries: list, meta: dict[str, str], gone: list[str] = ()) -> None:
        """Replace the entries of these paths (each an entries.NewEntry), drop those of `gone` paths and
        set `meta`, all or nothing. Each write draws a new generation: a summary of the files table made
        before it (cortex.searchcache.summary) is no longer believed. The merged rows of the terms it changes
        are spliced (merged.splice_merged); those terms without one are listed as stale for merge()."""
        meta = {**meta, "generation": os.urandom(16).hex()}
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            paths = [entry.path for entry in entries] + list(gone)
            old = [row[0] for chunk in chunks(paths) for row in
                   db.execute(f"SELECT id FROM files WHERE path IN ({','.join('?' * len(chunk))})", chunk)]
            touched, added = {term for entry in entries for term, _data, _crc in entry.postings}, {}
            for chunk in chunks(old):
                marks = ",".join("?" * len(chunk))
                touched.update(row[0] for row in db.execute(  # one scan per 500 files
                    f"DELETE FROM postings WHERE file IN ({marks}) RETURNING term", chunk))
                db.execute(f"DELETE FROM contents WHERE file IN ({marks})", chunk)
                db.execute(f"DELETE FROM files WHERE id IN ({marks})", chunk)
            for entry in entries:
                file_id = db.execute(
                    "INSERT INTO files(path, dev, ino, size, mtime_ns, ctime_ns, read_ns, indexed, facts, crc)"
                    " VALUES(?,?,?,?,?,?,?,?,?,?)",
                    (entry.path, *entry.key, entry.read_ns, int(entry.indexed), entry.facts, entry.crc)).lastrowid
                db.executemany("INSERT INTO postings VALUES(?,?,?,?)",
                               ((term, file_id, data, crc) for term, data, crc in entry.postings))
                for term, data, _crc in entry.postings:
                    added.setdefault(term, []).append((file_id, data))
                db.executemany("INSERT INTO contents VALUES(?,?,?,?)",
                               ((file_id, seq, content, crc) for seq, content, crc in entry.contents))
            stale = splice_merged(db, touched, old, added)
            db.executemany("INSERT OR IGNORE INTO stale VALUES(?)", ((term,) for term in stale))
            db.executemany("INSERT OR REPLACE INTO meta VALUES(?,?)", meta.items())
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    def merge(self, everything: bool = False) -> None:
        """Merge the stale terms' postings (cortex.searchcache.merged), or with `everything` every term again;
        the builder's last step, after its writes (no new generation: the files table is unchanged)."""
        db = self.db
        db.execute("BEGIN IMMEDIATE")
        try:
            if everything:
                db.execute("DELETE FROM merged")
                db.execute("INSERT OR IGNORE INTO stale SELECT DISTINCT term FROM postings")
            merge_stale(db)
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise


class _Foreign(Exception):
    """The file is a sqlite database of another shape or version."""


def _is_damage(error: sqlite3.OperationalError) -> bool:
    """An OperationalError that means the bytes are wrong (rebuild), not that the place is (degrade)."""
    text = str(error).lower()
    return "malformed" in text or "not a database" in text or "no such table" in text or "no such column" in text
