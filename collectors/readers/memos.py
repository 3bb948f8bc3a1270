"""Collect stage: the sealed files of the cursors' folder, the log cursors and every memo beside them. Used by
collectors.readers.cursors, collectors.readers.tailstamps, collectors.readers.exportcursors and the memos of the
corpus, reviewer_config and hot_content collectors.

Each is one compact JSON object whose last key is a seal, a BLAKE2b digest over the rest of it
(so what it remembers is bound to what it summarises), named by a digest of the log or source it
belongs to, written atomically but not durably, 0600, in the private folder that
cortex.core.cachedir gives the audit. Derived data: a file whose seal does not match (an edit,
even into other valid JSON), damaged or foreign, or no folder, means the caller works its answer
out again; one that cannot be written is simply not remembered.
"""
from __future__ import annotations

import os

from cortex.core.cachedir import FILE_MODE
from cortex.core.safeio import read_bounded
from cortex.core.sha256 import blake2b
from cortex.core.hookjson import loads

FORMAT = "cortex-health-cursor/1"  # the cursors' format, and part of every file's name in the folder
SEAL = b',"seal":"'  # the last key of a saved cursor or memo: BLAKE2b-128 of the object without it
MAX_CURSOR_BYTES = 8 << 20  # an aggregate bigger than this is not remembered (the next read is full)


def cursor_path(folder: str, log: str, key: str, max_line_bytes: int, suffix: str = ".json") -> str:
    """The file in `folder` remembering (log, key) ("*.json" cursors; collectors.readers.tailstamps keeps "*.stamps").

    Named by the absolute path as given, not resolved (a realpath costs an lstat per name of it): every memo checks
    the path it was written for and what it summarises (inode, digests, listing, text), and `folder` is already the
    real memory root's, so a path reached through another alias only keeps a memo of its own.
    """
    name = blake2b(f"{FORMAT}\0{os.path.abspath(log)}\0{key}\0{max_line_bytes}".encode(
        "utf-8", "surrogateescape"), digest_size=16).hexdigest()
    return os.path.join(folder, name + suffix)


def _seal_of(body: bytes) -> bytes:
    return blake2b(body, digest_size=16, person=b"cortex-health").hexdigest().encode()


def sealed(body: bytes) -> bytes:
    """`body` (one compact JSON object) with its seal as the last key."""
    return body[:-1] + SEAL + _seal_of(body) + b'"}'


# What reading and checking a sealed file may raise (UnsafeFile is an OSError): damage, never a crash; each
# caller works its answer out again.
DAMAGED = (OSError, ValueError, KeyError, TypeError, IndexError, RecursionError)


def load_sealed(path: str) -> dict:
    """The object saved by save_cursor at `path`; ValueError when its seal does not match (OSError when unreadable)."""
    data = read_bounded(path, MAX_CURSOR_BYTES)
    cut = len(data) - len(SEAL) - 34
    body = data[:cut] + b"}"
    if cut < 1 or data[cut:cut + len(SEAL)] != SEAL or data[-2:] != b'"}' or _seal_of(body) != data[-34:-2]:
        raise ValueError("not sealed, or the seal does not match")
    found = loads(body)
    if type(found) is not dict:
        raise ValueError("not an object")
    return found


def save_cursor(path: str, body: bytes) -> None:
    """Seal `body` (compact JSON) and write it atomically but not durably (a cursor lost to a crash costs one full
    read), 0600. One that cannot be written is simply not remembered.
    """
    from cortex.core.durable import replace_file

    data = sealed(body)
    if len(data) <= MAX_CURSOR_BYTES:
        try:
            replace_file(path, data, mode=FILE_MODE, sync=False)  # derived: a torn cursor is rejected, never trusted
        except OSError:
            pass
