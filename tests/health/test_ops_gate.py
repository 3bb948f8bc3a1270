"""`cortex-health gate`: the check within a deadline for a Stop hook; publishes, speaks only when not ok, exits 0.

By default the gate returns at once and its check runs detached (it holds an flock on the folder it
publishes to until it is done: tests.health_support.wait_for_gate); `--wait` judges within the gate."""
from __future__ import annotations

import subprocess
import sys

from tests import health_scenarios as s
from tests.health_support import NOW, REPO, clean_env, copy_demo, obs, wait_for_gate
from tests.ops_support import health, health_log, json_lines, run_command


def gate(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    done = run_command([sys.executable, "-m", "health", "gate", *args], env=env)
    assert done.returncode == 0 and done.stdout == ""
    return done


def test_healthy_gate_is_silent_and_publishes(tmp_path):
    root = copy_demo(tmp_path)
    done = gate("--timeout", "30", "--root", str(root), "--now", NOW)
    assert done.stderr == ""
    wait_for_gate(root)
    assert [row["overall"] for row in json_lines(health_log(root))] == ["ok"]


def test_problems_are_one_line_on_stderr(tmp_path):
    root = copy_demo(tmp_path)
    s.reviewer_failed(root)
    done = gate("--timeout=30", "--wait", "--root", str(root), "--now", NOW, "--threshold", "proposal_backlog=1")
    assert done.stderr.count("\n") == 1
    assert done.stderr.startswith("cortex-health: CRITICAL · reviewer-latest-failed, proposal-backlog-high")
    assert json_lines(health_log(root))[-1]["overall"] == "critical"


def test_the_detached_gate_speaks_of_the_newest_published_report(tmp_path):
    """The hook returns before its check: its line is the previous Stop's verdict, its own is published after."""
    root = copy_demo(tmp_path)
    s.reviewer_failed(root)
    assert gate("--root", str(root), "--now", NOW).stderr == ""  # nothing published yet: nothing to say
    wait_for_gate(root)
    assert json_lines(health_log(root))[-1]["overall"] == "critical"
    done = gate("--root", str(root), "--now", NOW)
    assert done.stderr.startswith("cortex-health: CRITICAL · reviewer-latest-failed") and done.stderr.count("\n") == 1
    wait_for_gate(root)
    assert [row["overall"] for row in json_lines(health_log(root))] == ["critical", "critical"]


def test_one_check_per_tree_at_a_time(tmp_path):
    """A gate that finds a check of its tree running (the folder's flock held) starts none of its own."""
    import fcntl
    import os

    root = copy_demo(tmp_path)
    fd = os.open(obs(root), os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        assert gate("--root", str(root), "--now", NOW).stderr == ""
    finally:
        os.close(fd)
    wait_for_gate(root)
    assert not health_log(root).exists()
    gate("--root", str(root), "--now", NOW)
    wait_for_gate(root)
    assert len(json_lines(health_log(root))) == 1


def test_deadline_overrun_is_published_as_a_finding(tmp_path):
    root = copy_demo(tmp_path)
    done = gate("--timeout", "0.01", "--wait", "--root", str(root), "--now", NOW)
    assert done.stderr.startswith("cortex-health: WARN · health-check-deadline-exceeded")
    row = json_lines(health_log(root))[-1]
    assert row["overall"] == "warn" and [f["id"] for f in row["findings"]] == ["health-check-deadline-exceeded"]
    assert row["findings"][0]["detail"]["threshold"] == 10 and row["ts"] == "2026-11-29T12:00:00.000Z"
    line = health("statusline", "--root", str(root), "--now", NOW).stdout
    assert line == "mem ▲ warn · health-check-deadline-exceeded\n"


def test_the_detached_check_keeps_the_deadline_and_records_the_overrun(tmp_path):
    root = copy_demo(tmp_path)
    assert gate("--timeout", "0.01", "--root", str(root), "--now", NOW).stderr == ""
    wait_for_gate(root)
    row = json_lines(health_log(root))[-1]
    assert [f["id"] for f in row["findings"]] == ["health-check-deadline-exceeded"]
    failures = json_lines(obs(root) / "hook-failures.jsonl")
    assert [(f["hook"], f["code"]) for f in failures] == [("gate", "deadline_exceeded")]


def test_usage_errors_never_block_the_agent(tmp_path):
    assert gate("--timeout", "soon").stderr.startswith("cortex-health gate: usage: argument --timeout")
    assert gate("--timeout", "-1").stderr.startswith("cortex-health gate: usage: --timeout must be")
    assert gate("--format", "text").stderr.startswith("cortex-health gate: usage: unrecognized arguments")
    assert "unknown collector(s) nope" in gate("--only", "nope").stderr


def test_an_auditor_failure_is_reported_and_still_exits_0(tmp_path):
    done = gate("--root", str(tmp_path / "nowhere"))
    assert done.stderr.startswith("cortex-health: UNKNOWN · root ") and "is not a directory" in done.stderr


def test_no_write_is_respected_and_stdin_is_never_read(tmp_path):
    root = copy_demo(tmp_path)
    s.proposals_backlog(root)
    proc = subprocess.Popen([sys.executable, "-m", "health", "gate", "--root", str(root), "--now", NOW],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=clean_env(CORTEX_HEALTH_NO_WRITE="1"), cwd=REPO)
    try:
        assert proc.wait(timeout=30) == 0  # the hook's JSON on stdin is never awaited
        assert proc.stdout.read() == b"" and b"proposal-backlog-high" in proc.stderr.read()
    finally:
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            stream.close()
    assert not health_log(root).exists()


def test_the_gate_runs_with_its_stdout_closed(tmp_path):
    """A hook runner may close the gate's stdout: the forked check still reports and publishes."""
    root = copy_demo(tmp_path)
    s.proposals_backlog(root)
    proc = subprocess.run(f'exec "{sys.executable}" -m health gate --wait --root "{root}" --now {NOW} >&-', shell=True,
                          capture_output=True, text=True, env=clean_env(), cwd=REPO, timeout=60)
    assert proc.returncode == 0 and "proposal-backlog-high" in proc.stderr
    assert json_lines(health_log(root))[-1]["overall"] != "ok"


def test_the_childs_output_is_read_whole_bounded_and_within_the_deadline():
    import os
    import time

    from health.gatechild import _read_until

    read_end, write_end = os.pipe()
    os.write(write_end, b'{"overall": "ok"}')
    os.close(write_end)
    assert _read_until(read_end, time.monotonic() + 30) == (b'{"overall": "ok"}', True)
    os.close(read_end)
    read_end, write_end = os.pipe()
    os.write(write_end, b"x" * 100)
    assert _read_until(read_end, time.monotonic() - 1) == (b"", False)  # deadline passed: nothing is awaited
    assert _read_until(read_end, time.monotonic() + 30, limit=10) == (b"", True)  # far past any report: not one
    os.close(write_end)
    os.close(read_end)
