"""Lock checks and `cortex-health fix` on trees built in tmp_path (issue 12, part 4)."""
from __future__ import annotations

import io
import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

from freezegun import freeze_time

from cortex.core.timestamps import iso_from_ms
from tests.health_support import NOW, NOW_MS, clean_env, copy_demo, hot, obs, run_cli
from tests.ops_support import audit_document


def dead_pid() -> int:
    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def plant(path: Path, *, pid: int, host: str | None = None, ts_ms: int = NOW_MS - 60_000) -> Path:
    path.write_text(json.dumps({"pid": pid, "host": host or socket.gethostname(), "ts": iso_from_ms(ts_ms),
                                "token": "abc"}))
    return path


def test_a_lock_whose_holder_is_gone_is_stale_and_fix_breaks_it_and_logs_it(tmp_path):
    root = copy_demo(tmp_path)
    pid = dead_pid()
    lock = plant(Path(str(hot(root, "principal")) + ".lock"), pid=pid)
    result = run_cli(root=root)
    assert result.code == 1 and [f["id"] for f in result.report["findings"]] == ["lock-stale:PRINCIPAL_MEMORY.md.lock"]
    detail = result.finding("lock-stale:PRINCIPAL_MEMORY.md.lock")["detail"]
    assert (detail["pid"], detail["liveness"], detail["measured"]) == (pid, "gone", 60_000)

    env = clean_env()
    dry = subprocess.run([sys.executable, "-m", "health", "fix", "--root", str(root), "--dry-run", "--now", NOW],
                         capture_output=True, text=True, env=env)
    assert dry.returncode == 0 and dry.stdout.startswith(f"would break {lock}: holder pid {pid} is gone")
    assert lock.exists() and not (obs(root) / "memory-locks.jsonl").exists()
    done = subprocess.run([sys.executable, "-m", "health", "fix", "--root", str(root), "--now", NOW],
                          capture_output=True, text=True, env=env)
    assert done.returncode == 0 and "done (logged to memory-locks.jsonl)" in done.stdout
    assert not lock.exists()
    [row] = [json.loads(line) for line in (obs(root) / "memory-locks.jsonl").read_text().splitlines()]
    assert row["event"] == "lock_broken_by_fix" and row["reason"] == "holder-process-gone" and row["ts"] == "2026-11-29T12:00:00.000Z"
    assert row["lock"] == "LIFEOS/USER/PRINCIPAL/PRINCIPAL_MEMORY.md.lock" and str(pid) in row["detail"]
    assert run_cli(root=root).code == 0


def test_fix_leaves_live_and_unverifiable_holders_alone(tmp_path):
    root = copy_demo(tmp_path)
    live = plant(Path(str(hot(root, "da")) + ".lock"), pid=os.getpid(), ts_ms=int(time.time() * 1000))
    other = plant(obs(root) / "review-state.json.lock", pid=4242, host="another-host")
    out = io.StringIO()
    from health.fix import main

    assert main(["--root", str(root)], environ=clean_env(), stdout=out) == 0
    assert f"leave {live}: pid {os.getpid()} on this host is alive" in out.getvalue()
    assert f"leave {other}: its holder cannot be verified (host another-host" in out.getvalue()
    assert live.exists() and other.exists()


def test_a_live_holder_past_lock_held_ms_warns_by_the_frozen_wall_clock(tmp_path):
    root = copy_demo(tmp_path)
    stamped = int(time.time() * 1000)  # after this process started, so the pid is not taken for reused
    plant(Path(str(hot(root, "da")) + ".lock"), pid=os.getpid(), ts_ms=stamped)
    env = {k: v for k, v in clean_env().items() if k != "CORTEX_HEALTH_NOW"}
    with freeze_time(iso_from_ms(stamped + 90_000)):  # no --now: the audit reads the (frozen) wall clock
        from health.options import parse
        from health.run import audit

        options, _ = parse(["--root", str(root), "--no-write"], env, tty=False)
        findings = {f.id: f for f in audit(options, env).assessment.findings}
    held = findings["lock-held-long:DA_MEMORY.md.lock"]
    assert held.severity.value == "warn" and held.detail["measured"] == 90_000 and held.detail["liveness"] == "alive"
    with freeze_time(iso_from_ms(stamped + 30_000)):
        options, _ = parse(["--root", str(root), "--no-write"], env, tty=False)
        ids = [f.id for f in audit(options, env).assessment.findings]
    assert "lock-held:DA_MEMORY.md.lock" in ids


def test_an_unverifiable_lock_is_stale_only_after_lock_stale_ms(tmp_path):
    root = copy_demo(tmp_path)
    lock = obs(root) / "pending-proposals.jsonl.lock"
    plant(lock, pid=4242, host="another-host", ts_ms=NOW_MS - 4 * 60_000)
    assert run_cli(root=root).code == 0
    plant(lock, pid=4242, host="another-host", ts_ms=NOW_MS - 6 * 60_000)
    result = run_cli(root=root)
    assert result.finding("lock-stale:pending-proposals.jsonl.lock")["detail"]["liveness"] == "unverifiable"
    lock.write_text("garbage")  # no stamp: judged by the file's age (mtime one hour before now)
    os.utime(lock, ns=((NOW_MS - 3_600_000) * 1_000_000,) * 2)
    assert run_cli(root=root).finding("lock-stale:pending-proposals.jsonl.lock")["severity"] == "warn"


def test_lock_contention_counts_the_last_24_hours(tmp_path):
    root = copy_demo(tmp_path)
    rows = [{"ts": iso_from_ms(NOW_MS - i * 3_600_000), "event": "lock_contended", "reason": "holder-alive",
             "lock": "x"} for i in range(1, 12)]
    rows.append({"ts": iso_from_ms(NOW_MS - 30 * 3_600_000), "event": "stale_lock_recovered", "lock": "x"})
    (obs(root) / "memory-locks.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = run_cli(root=root)
    assert result.code == 1 and result.finding("lock-contention")["detail"]["measured"] == 11
    assert run_cli(root=root, env=clean_env(CORTEX_LOCK_CONTENTION_PER_DAY="11")).code == 0
    assert audit_document(root)["overall"] == "warn"


def test_fix_refuses_a_bad_clock_and_a_misspelt_option_without_touching_a_lock(tmp_path):
    root = copy_demo(tmp_path)
    lock = plant(Path(str(hot(root, "principal")) + ".lock"), pid=dead_pid())
    env = clean_env()
    for extra in (["--now", "yesterday-ish"], ["--dry-rnu"]):
        done = subprocess.run([sys.executable, "-m", "health", "fix", "--root", str(root), *extra],
                              capture_output=True, text=True, env=env)
        assert done.returncode == 3 and done.stdout == "" and done.stderr.startswith("cortex-health fix: "), done
        assert "Traceback" not in done.stderr and lock.exists()
    assert "did you mean --dry-run?" in done.stderr
