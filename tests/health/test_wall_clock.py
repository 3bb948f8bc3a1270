"""Where code must read the wall clock (no --now, no CORTEX_NOW), the clock is frozen with freezegun.

The status line's age, the audit's default clock and the 5-minute expiry of an unverifiable
lock holder all read real time; each is checked at exact frozen instants, never by sleeping.
"""
from __future__ import annotations

import io
import json

import pytest
from freezegun import freeze_time

from cortex.write.locks import LOCK_STALE_MS, acquire
from cortex.write.refusals import Refusal
from cortex.core.timestamps import iso_from_ms
from health.statusline import main as statusline_main
from tests.health_support import NOW_MS, copy_demo
from tests.ops_support import publish_runs
from thresholds.clock import resolve_clock

MINUTE = 60_000


def frozen_at(ms: int):
    return freeze_time(iso_from_ms(ms))


def status_line(root) -> str:
    out = io.StringIO()
    assert statusline_main(["--root", str(root)], environ={}, stdout=out) == 0
    return out.getvalue().rstrip("\n")


def test_the_status_line_ages_a_report_by_the_real_clock(tmp_path):
    root = copy_demo(tmp_path)
    publish_runs(root, [0])  # a report published at NOW
    with frozen_at(NOW_MS + 4 * MINUTE):
        assert status_line(root) == "mem ✓ ok 4m"
    with frozen_at(NOW_MS + 120 * MINUTE):
        assert status_line(root) == "mem ? stale 2h (last ok)"


def test_without_now_the_audit_uses_the_real_clock():
    with frozen_at(NOW_MS):
        clock = resolve_clock(None, {})
    assert (clock.now_ms, clock.source, clock.problem) == (NOW_MS, "system", None)
    with frozen_at(NOW_MS):
        bad = resolve_clock("tomorrow", {})
    assert bad.now_ms == NOW_MS and bad.problem  # a bad clock falls back to real time, flagged


@pytest.mark.parametrize(("minutes_later", "broken"), [(LOCK_STALE_MS // MINUTE - 1, False),
                                                         (LOCK_STALE_MS // MINUTE + 1, True)])
def test_an_unverifiable_lock_holder_expires_after_five_minutes_of_real_time(tmp_path, minutes_later, broken):
    lock = tmp_path / "x.lock"
    lock.write_bytes(json.dumps({"pid": 4242, "host": "another-host", "ts": iso_from_ms(NOW_MS),
                                 "token": "theirs"}).encode())
    events: list[dict] = []
    with frozen_at(NOW_MS + minutes_later * MINUTE):
        if broken:
            acquire(str(lock), on_event=events.append, wait_ms=0).release()
        else:
            with pytest.raises(Refusal, match="ELOCK_HELD"):
                acquire(str(lock), on_event=events.append, wait_ms=0)
    assert [e["event"] for e in events] == (["stale_lock_recovered"] if broken else ["lock_contended"])
    assert lock.exists() is not broken  # ours was released; theirs is still there
