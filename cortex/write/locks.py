"""Write path: the exclusive `<file>.lock` every governed write holds; used by the hot writer, proposals and cortex-health.

The lock holds a JSON stamp {pid, host, ts, token} and is created whole with link(), so a
contender never finds an empty, unverifiable lock. Recovery is decided on evidence first,
age second:
- holder on this host and provably gone (no such pid, a zombie, or a process that started
  after the stamp — a reused pid) → broken at once;
- holder on this host and alive → respected: we wait a bounded time, then refuse (ELOCK_HELD);
- unverifiable holder (another host, unreadable stamp) → respected for 5 minutes, then broken.
Every unknown resolves toward "alive": the failure mode is a refused write, never two writers.
Breaking is race-safe: the lock is looked at again just before it is moved (a holder judged
gone may have released it and another taken it while we judged: a zombie that released is
still "gone"), then renamed aside and checked to be exactly the one judged stale; a lock taken
in that instant is put back. A holder whose lock vanished anyway releases with an event, never a
crash. Stamps use the physical clock because they are
compared with process start times; event rows get the core clock from the caller.
"""
from __future__ import annotations

import errno
import os
import stat
import time
from collections import namedtuple

from cortex.core.checkpoints import reached
from cortex.core.durable import temp_name_for
from cortex.core.hookjson import dumps_flat, loads
from cortex.errors import IntegrityError
from cortex.liferows import LOCK_CONTENDED, LOCK_LOST, STALE_LOCK_RECOVERED
from cortex.core.liveness import host_name, process_is_gone
from cortex.core.safeio import UnsafeFile, read_bounded
from cortex.core.timestamps import iso_from_ms, parse_timestamp_ms


TYPE_CHECKING = False  # typing costs every write's start-up milliseconds
if TYPE_CHECKING:
    from collections.abc import Callable

    EventSink = Callable[[dict], None]

LOCK_STALE_MS = 5 * 60 * 1000
MAX_STAMP_BYTES = 4096
MAX_RECOVERIES = 8  # stale locks broken per acquisition; more means something keeps planting them
MAX_BACKOFF_S = 0.02
_NO_HARDLINKS = {errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EMLINK, errno.EXDEV}


Seen = namedtuple("Seen", "raw inode mtime_ns stamp")  # bare, not subclassed: a second class costs start-up
Seen.__doc__ = """What a contender observed in an existing lock file. raw: bytes; inode, mtime_ns: int; stamp: dict | None."""


def _physical_now_ms() -> int:
    return int(time.time() * 1000)


def parse_stamp(raw: bytes) -> dict | None:
    try:
        stamp = loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return None
    if not isinstance(stamp, dict):
        return None
    pid, host, ts = stamp.get("pid"), stamp.get("host"), stamp.get("ts")
    if type(pid) is not int or pid <= 0 or not isinstance(host, str) or parse_timestamp_ms(ts) is None:
        return None
    return stamp


def stale_reason(seen: Seen, now_ms: int, host: str) -> str | None:
    """Why the lock may be broken, or None when it must be respected."""
    stamp = seen.stamp
    if stamp is not None and stamp["host"] == host:
        if process_is_gone(stamp["pid"], parse_timestamp_ms(stamp["ts"])):
            return "holder-process-gone"
        return None
    since = parse_timestamp_ms(stamp["ts"]) if stamp is not None else seen.mtime_ns // 1_000_000
    return "expired-unverifiable-holder" if now_ms - since > LOCK_STALE_MS else None


def _inspect(path: str) -> Seen | None:
    try:
        info = os.lstat(path)
        if not stat.S_ISREG(info.st_mode):
            raise IntegrityError(f"Lock path is not a regular file: {path}")
        raw = read_bounded(path, MAX_STAMP_BYTES)
    except FileNotFoundError:
        return None
    except UnsafeFile:
        raw = b""  # oversized or swapped under us: unverifiable, judged by age
    return Seen(raw, info.st_ino, info.st_mtime_ns, parse_stamp(raw))


def _write_new(path: str, stamp: bytes) -> None:
    """Create `path` holding `stamp`: never an existing file (FileExistsError), never through a symlink."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    try:
        os.write(fd, stamp)
    finally:
        os.close(fd)


def _try_create(path: str, stamp: bytes) -> bool:
    temp = temp_name_for(path)
    _write_new(temp, stamp)
    try:
        os.link(temp, path)  # atomic and never overwrites: the stamp is there from the first instant
        return True
    except FileExistsError:
        return False
    except OSError as error:
        if error.errno not in _NO_HARDLINKS:
            raise
        return _try_create_without_link(path, stamp)
    finally:
        os.unlink(temp)


def _try_create_without_link(path: str, stamp: bytes) -> bool:
    """Filesystems without hard links: O_EXCL create, then stamp (a tiny unstamped window)."""
    try:
        _write_new(path, stamp)
    except FileExistsError:
        return False
    return True


def _break(path: str, seen: Seen) -> bool:
    now = _inspect(path)
    if now is None or now[:3] != seen[:3]:  # released or replaced since we judged it: never move a live one
        return False
    aside = temp_name_for(path)  # a dot-named temp: cleaned up like any other if we die here
    try:
        os.rename(path, aside)
    except FileNotFoundError:
        return False
    try:
        info = os.lstat(aside)
        same = (info.st_ino, info.st_mtime_ns) == (seen.inode, seen.mtime_ns)
        same = same and read_bounded(aside, MAX_STAMP_BYTES) == seen.raw
        if not same:
            try:
                os.link(aside, path)  # we moved a lock taken after our judgement: put it back
            except FileExistsError:
                pass
        return same
    except (OSError, UnsafeFile):
        return False
    finally:
        try:
            os.unlink(aside)
        except FileNotFoundError:
            pass


class HeldLock:
    """A lock we hold; `release()` removes it only if it still carries our token."""

    def __init__(self, path: str, token: str, on_event: EventSink):
        self.path = path
        self.token = token
        self._on_event = on_event

    def release(self) -> None:
        try:
            stamp = parse_stamp(read_bounded(self.path, MAX_STAMP_BYTES))
        except (FileNotFoundError, UnsafeFile):
            stamp = None
        if stamp is None or stamp.get("token") != self.token:
            self._on_event({"event": LOCK_LOST, "reason": "replaced-while-held", "lock": self.path,
                            "detail": "our lock was broken or replaced while we held it; left in place"})
            return
        reached("lock-release-checked")
        try:
            os.unlink(self.path)
        except FileNotFoundError:  # a breaker moved it in the instant after we read it (it puts it back)
            self._on_event({"event": LOCK_LOST, "reason": "replaced-while-held", "lock": self.path,
                            "detail": "our lock was moved aside while we released it"})
            return
        reached("lock-released")

    def __enter__(self) -> "HeldLock":
        return self

    def __exit__(self, *exc) -> None:
        self.release()


def _contention_reason(seen: Seen | None, host: str) -> str:
    local = seen is not None and seen.stamp is not None and seen.stamp["host"] == host
    return "holder-alive" if local else "unverifiable-holder-within-ttl"


def _new_stamp(host: str, token: str) -> bytes:
    return dumps_flat({"pid": os.getpid(), "host": host, "ts": iso_from_ms(_physical_now_ms()), "token": token}).encode()


def acquire(path: str, *, on_event: EventSink, wait_ms: int) -> HeldLock:
    """Take `path` exclusively, recovering stale locks; Refusal(ELOCK_HELD) after `wait_ms`."""
    token = os.urandom(8).hex()  # what secrets.token_hex does, without importing secrets (hmac, hashlib, random)
    host = host_name()
    stamp = _new_stamp(host, token)
    deadline = time.monotonic() + wait_ms / 1000
    delay = 0.002
    recoveries = 0
    while True:
        if _try_create(path, stamp):
            reached("lock-acquired")
            return HeldLock(path, token, on_event)
        seen = _inspect(path)
        reason = stale_reason(seen, _physical_now_ms(), host) if seen is not None else None
        if reason is not None and recoveries < MAX_RECOVERIES and _break(path, seen):
            recoveries += 1
            holder = seen.stamp or {}
            on_event({"event": STALE_LOCK_RECOVERED, "reason": reason, "lock": path,
                      "detail": f"broke lock of pid {holder.get('pid')} on {holder.get('host')}"})
            continue
        if time.monotonic() >= deadline:
            why = _contention_reason(seen, host)
            on_event({"event": LOCK_CONTENDED, "reason": why, "lock": path, "detail": f"gave up after {wait_ms} ms"})
            from cortex.write.refusals import Refusal  # only a refused write needs the type

            raise Refusal("ELOCK_HELD", f"lock held by another writer ({why}): {path}")
        time.sleep(delay)  # bounded backoff while a live writer finishes
        delay = min(delay * 2, MAX_BACKOFF_S)


def break_if_holder_dead(path: str) -> dict | None:
    """Break `path` when its holder is on this host and provably gone; the broken stamp, else None.

    The only repair `cortex-health fix` applies: judged again here, at the moment of breaking,
    and broken race-safely like any stale lock a writer recovers.
    """
    seen = _inspect(path)
    host = host_name()
    if seen is None or seen.stamp is None or seen.stamp["host"] != host:
        return None
    if stale_reason(seen, _physical_now_ms(), host) != "holder-process-gone":
        return None
    return seen.stamp if _break(path, seen) else None
