"""Core: SHA-256 for the hooks' small digests without hashlib's start-up; used by the corpus loader, recall and the cache folders.

`import hashlib` loads OpenSSL (~3 ms, a tenth of the recall hook's budget); CPython's own
implementation of the same function (`_sha256` in 3.11, `_sha2` from 3.12) loads in a tenth
of that and gives the same digests. It is slower on megabytes, so bulk hashing (the health
log's chain) keeps hashlib; this is for short strings: ids, query hashes, folder names.
"""
from __future__ import annotations

try:
    from _sha256 import sha256
except ImportError:  # pragma: no cover - CPython 3.12+, or a build without its own hashes
    try:
        from _sha2 import sha256
    except ImportError:
        from hashlib import sha256


def sha256_hex(data: bytes) -> str:
    return sha256(data).hexdigest()
