"""`<file>.lock`: evidence-first stale-lock recovery, bounded waits, lock events in O/memory-locks.jsonl."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time

import pytest

from tests.write_support import tree  # noqa: F401 (fixture)

from cortex.write.locks import LOCK_STALE_MS, Seen, _break, _inspect, acquire, parse_stamp, stale_reason
from cortex.core import checkpoints
from cortex.core.timestamps import iso_from_ms

HOST = socket.gethostname()


def now_ms() -> int:
    return int(time.time() * 1000)


def stamp(pid: int, host: str = HOST, age_ms: int = 0) -> bytes:
    return json.dumps({"pid": pid, "host": host, "ts": iso_from_ms(now_ms() - age_ms), "token": "t"}).encode()


def seen(raw: bytes, mtime_age_ms: int = 0) -> Seen:
    return Seen(raw, 1, (now_ms() - mtime_age_ms) * 1_000_000, parse_stamp(raw))


def dead_pid() -> int:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_decision_matrix():
    assert stale_reason(seen(stamp(os.getpid())), now_ms(), HOST) is None  # provably alive: respected
    assert stale_reason(seen(stamp(dead_pid())), now_ms(), HOST) == "holder-process-gone"
    assert stale_reason(seen(stamp(4242, "elsewhere", LOCK_STALE_MS - 60_000)), now_ms(), HOST) is None
    assert stale_reason(seen(stamp(4242, "elsewhere", LOCK_STALE_MS + 60_000)), now_ms(), HOST) == "expired-unverifiable-holder"
    assert stale_reason(seen(b"garbage", mtime_age_ms=1_000), now_ms(), HOST) is None
    assert stale_reason(seen(b"", mtime_age_ms=LOCK_STALE_MS + 1), now_ms(), HOST) == "expired-unverifiable-holder"
    assert stale_reason(seen(stamp(4242, "elsewhere", -60_000)), now_ms(), HOST) is None  # future stamp: assume alive


def test_a_reused_pid_does_not_keep_a_lock_alive():
    # Our own process is alive, but it started long after this stamp: the holder was another process.
    old = json.dumps({"pid": os.getpid(), "host": HOST, "ts": "2001-01-01T00:00:00Z", "token": "t"}).encode()
    assert stale_reason(seen(old), now_ms(), HOST) == "holder-process-gone"


def test_a_zombie_holder_is_gone():
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    os.waitid(os.P_PID, child.pid, os.WEXITED | os.WNOWAIT)  # exited, not reaped: a zombie
    try:
        assert stale_reason(seen(stamp(child.pid)), now_ms(), HOST) == "holder-process-gone"
    finally:
        child.wait()


def test_a_lock_released_and_taken_again_while_judged_is_never_moved(tmp_path):
    # a holder judged gone (a zombie that released properly) and a new holder since: the breaker's view is stale
    path = str(tmp_path / "x.lock")
    events = []
    first = acquire(path, on_event=events.append, wait_ms=100)
    judged = _inspect(path)
    first.release()
    second = acquire(path, on_event=events.append, wait_ms=100)
    before = os.lstat(path)
    assert _break(path, judged) is False
    after = os.lstat(path)  # not renamed aside and linked back: a third writer never saw the path free
    assert (after.st_ino, after.st_ctime_ns, after.st_nlink) == (before.st_ino, before.st_ctime_ns, before.st_nlink)
    second.release()
    assert not os.path.exists(path) and events == []


def test_a_holder_whose_lock_vanished_releases_with_an_event_not_a_crash(tmp_path):
    path = str(tmp_path / "x.lock")
    events = []
    held = acquire(path, on_event=events.append, wait_ms=100)

    def breaker_moves_it(point):  # a breaker renames it aside between our stamp check and our unlink
        if point == "lock-release-checked":
            os.rename(path, path + ".aside")

    checkpoints.install(breaker_moves_it)
    try:
        held.release()
    finally:
        checkpoints.install(None)
    assert [event["reason"] for event in events] == ["replaced-while-held"]


def _lock(tree):
    return tree.principal.parent / "PRINCIPAL_MEMORY.md.lock"


def test_a_dead_holders_lock_is_broken_at_once_and_logged(tree):
    _lock(tree).write_bytes(stamp(dead_pid()))
    result = tree.hot_set("principal", ["NAME: after crash"])
    assert result.code == 0, result.envelope
    assert not _lock(tree).exists()
    (event,) = tree.rows("memory-locks.jsonl")
    assert event["event"] == "stale_lock_recovered" and event["reason"] == "holder-process-gone"
    assert event["lock"] == "LIFEOS/USER/PRINCIPAL/PRINCIPAL_MEMORY.md.lock" and event["ts"] == tree.now


def test_a_live_holder_is_respected_then_the_write_is_refused(tree):
    _lock(tree).write_bytes(stamp(os.getpid()))
    before = tree.principal.read_bytes()
    result = tree.hot_set("principal", ["NAME: blocked"], CORTEX_LOCK_WAIT_MS="50")
    assert result.code == 5 and result.error["message"].startswith("ELOCK_HELD:")
    assert tree.principal.read_bytes() == before and _lock(tree).exists()
    (event,) = tree.rows("memory-locks.jsonl")
    assert event["event"] == "lock_contended" and event["reason"] == "holder-alive"
    (attempt,) = tree.rows("memory-writes.jsonl")
    assert attempt["ok"] is False and attempt["error"]["code"] == "ELOCK_HELD" and attempt["additions"] == []


@pytest.mark.parametrize(("age_ms", "code"), [(LOCK_STALE_MS - 60_000, 5), (LOCK_STALE_MS + 60_000, 0)])
def test_an_unverifiable_holder_is_respected_for_five_minutes(tree, age_ms, code):
    _lock(tree).write_bytes(stamp(4242, "another-host", age_ms))
    result = tree.hot_set("principal", ["NAME: x"], CORTEX_LOCK_WAIT_MS="20")
    assert result.code == code
    if code == 0:
        assert tree.rows("memory-locks.jsonl")[0]["reason"] == "expired-unverifiable-holder"


def test_an_unreadable_stamp_is_judged_by_age(tree):
    lock = _lock(tree)
    lock.write_bytes(b"\x00not a stamp")
    assert tree.hot_set("principal", ["NAME: x"], CORTEX_LOCK_WAIT_MS="20").code == 5
    old = time.time() - (LOCK_STALE_MS / 1000 + 60)
    os.utime(lock, (old, old))
    assert tree.hot_set("principal", ["NAME: x"], CORTEX_LOCK_WAIT_MS="20").code == 0


def test_a_lock_path_that_is_not_a_regular_file_is_an_integrity_error(tree):
    _lock(tree).mkdir()
    result = tree.hot_set("principal", ["NAME: x"], CORTEX_LOCK_WAIT_MS="20")
    assert result.code == 4 and result.error["code"] == "integrity_error"


def test_lock_wait_budget_must_be_a_bounded_integer(tree):
    for bad in ("-1", "soon", "600001"):
        assert tree.hot_set("principal", ["NAME: x"], CORTEX_LOCK_WAIT_MS=bad).code == 4


def test_a_successful_write_leaves_no_lock_and_no_temp_files(tree):
    assert tree.hot_set("principal", ["NAME: clean"]).code == 0
    leftovers = [p.name for p in tree.principal.parent.iterdir() if p.name != "PRINCIPAL_MEMORY.md"]
    assert leftovers == []
