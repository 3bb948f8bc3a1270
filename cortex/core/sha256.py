"""Core: SHA-256 and BLAKE2b without hashlib's start-up; used by the corpus loader, recall, the cache folders and the audit's collectors.

`import hashlib` loads OpenSSL (~3 ms, a tenth of the recall hook's budget, a twentieth of the
audit's); CPython's own implementations of the same functions (`_sha256` in 3.11, `_sha2` from
3.12; `_blake2`, which hashlib itself serves BLAKE2 from) load in a tenth of that and give the
same digests. CPython's SHA-256 is slower on megabytes, so bulk hashing asks `sha256_for(size)`,
which answers OpenSSL's for inputs of BULK bytes or more: short strings (ids, query hashes,
folder names, one log line) never load it.
"""
from __future__ import annotations

try:
    from _sha256 import sha256
except ImportError:  # pragma: no cover - CPython 3.12+, or a build without its own hashes
    try:
        from _sha2 import sha256
    except ImportError:
        from hashlib import sha256

BULK = 1 << 20  # about where OpenSSL's speed repays its ~3 ms of loading


def sha256_hex(data: bytes) -> str:
    return sha256(data).hexdigest()


def sha256_for(size: int):
    """The SHA-256 constructor for about `size` bytes: CPython's below BULK, OpenSSL's (hashlib) from there."""
    if size < BULK:
        return sha256
    import hashlib

    return hashlib.sha256


def __getattr__(name: str):
    """`blake2b` loads on first import of it: the audit's readers use it, the recall hook must not pay for it."""
    if name != "blake2b":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    try:
        from _blake2 import blake2b
    except ImportError:  # pragma: no cover - a build without its own BLAKE2
        from hashlib import blake2b
    globals()["blake2b"] = blake2b
    return blake2b
