"""`cortex-health statusline`: one line, exit 0, never stdin, the newest published report, stdlib only."""
from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys

import pytest

from cortex.core.timestamps import iso_from_ms
from tests import health_scenarios as s
from tests.health_support import NOW, NOW_MS, REPO, clean_env, copy_demo, obs
from tests.ops_support import CONSOLE_SCRIPT, audit_document, health, health_log, json_lines, publish_runs, run_command

MINUTE = 60_000


def statusline(*args: str, env: dict[str, str] | None = None, **kwargs) -> str:
    done = run_command([sys.executable, "-m", "health", "statusline", *args], env=env, **kwargs)
    assert done.returncode == 0 and done.stderr == ""
    assert done.stdout.count("\n") == 1 and done.stdout.endswith("\n"), repr(done.stdout)
    return done.stdout.rstrip("\n")


def at(minutes_after_now: int) -> str:
    return iso_from_ms(NOW_MS + minutes_after_now * MINUTE)


@pytest.fixture
def root(tmp_path):
    return copy_demo(tmp_path)


def test_no_health_run_yet(root):
    assert statusline("--root", str(root)) == "mem ? no health run"


def test_console_script_prints_the_same_line(root):
    assert CONSOLE_SCRIPT, "cortex-health is not installed next to this interpreter"
    publish_runs(root, [0])
    done = run_command([CONSOLE_SCRIPT, "statusline", "--root", str(root), "--now", at(4)])
    assert (done.returncode, done.stdout) == (0, "mem ✓ ok 4m\n")


def test_fresh_ok_warn_and_critical(root):
    publish_runs(root, [0])
    assert statusline("--root", str(root), "--now", at(4)) == "mem ✓ ok 4m"
    publish_runs(root, [0], proposal_backlog="1", cap_pressure="5")
    assert statusline("--root", str(root), "--now", at(0)) == "mem ▲ warn 3 · proposal-backlog-high"
    s.reviewer_failed(root)
    audit_document(root, write=True)
    assert statusline("--root", str(root), "--now", at(2), "--ascii") == "mem x crit · reviewer-latest-failed"


def test_the_newest_line_wins_whatever_came_before(root):
    publish_runs(root, [50, 40], proposal_backlog="1")
    publish_runs(root, [0])
    assert len(json_lines(health_log(root))) == 3
    assert statusline("--root", str(root), "--now", at(1)) == "mem ✓ ok 1m"


def test_stale_reports_never_show_a_check_mark(root):
    publish_runs(root, [0])
    assert statusline("--root", str(root), "--now", at(31)) == "mem ? stale 31m (last ok)"
    assert statusline("--root", str(root), "--now", at(31), "--max-age", "1h") == "mem ✓ ok 31m"
    assert statusline("--root", str(root), "--now", at(3 * 24 * 60), "--max-age=2d") == "mem ? stale 3d (last ok)"
    s.reviewer_failed(root)
    audit_document(root, write=True)
    assert statusline("--root", str(root), "--now", at(120)) == "mem ✖ crit · reviewer-latest-failed · stale 2h"


def test_a_report_from_the_future_is_clock_skew(root):
    publish_runs(root, [0])
    assert statusline("--root", str(root), "--now", at(-10)) == "mem ? clock skew: report is from the future (last ok)"


def test_root_and_clock_come_from_the_environment(root):
    publish_runs(root, [0])
    env = clean_env(CORTEX_HEALTH_ROOT=str(root), CORTEX_HEALTH_NOW=at(7))
    assert statusline(env=env) == "mem ✓ ok 7m"
    assert statusline(env=clean_env(CLAUDE_CONFIG_DIR=str(root), CORTEX_HEALTH_NOW="yesterday")) == \
        "mem ✖ crit · cortex-clock-invalid"


def test_a_bad_clock_is_the_clock_invalid_state_as_in_the_check(root):
    """The rule of every path: a bad clock is cortex-clock-invalid, here and in --format statusline."""
    publish_runs(root, [0])
    assert statusline("--root", str(root), "--now", "2026-02-30", "--ascii") == "mem x crit · cortex-clock-invalid"
    checked = health("--root", str(root), "--now", "2026-02-30", "--no-write", "--format", "statusline").stdout
    assert checked.startswith("mem ✖ crit ") and checked.rstrip("\n").endswith("· cortex-clock-invalid")
    refreshed = statusline("--root", str(root), "--now", "2026-02-30", "--refresh")  # the check reports it itself
    assert refreshed.startswith("mem ✖ crit ") and refreshed.endswith("· cortex-clock-invalid")


@pytest.mark.parametrize("args,expected", [
    (["--bogus"], "mem ? usage: unknown argument '--bogus'"),
    (["--max-age", "soon"], "mem ? usage: --max-age: expected a duration like 90s, 30m, 2h or 1d, got 'soon'"),
    (["--max-age", "-5m"], "mem ? usage: --max-age: must be greater than 0, got '-5m'"),
    (["--root"], "mem ? usage: --root needs a value"),
])
def test_usage_errors_still_print_one_line_and_exit_0(root, args, expected):
    assert statusline("--root", str(root), *args) == expected


def test_malformed_newest_line_is_reported_not_skipped(root):
    publish_runs(root, [0])
    with open(health_log(root), "a") as handle:
        handle.write('{"schema": "cortex-health/v1", "overall": "ok"\n')
    line = statusline("--root", str(root), "--now", at(1))
    assert line.startswith("mem ? bad newest report: invalid JSON")


def test_a_row_that_is_not_a_report_is_malformed(root):
    obs(root).joinpath("memory-health.jsonl").write_text(json.dumps({"schema": "cortex-health/v1", "overall": "ok",
                                                                       "ts": NOW, "counts": {}}) + "\n")
    assert statusline("--root", str(root)) == \
        "mem ? bad newest report: counts must hold integer critical, warn and ok"


@pytest.mark.parametrize("make", ["directory", "fifo", "dev-zero", "huge-line"])
def test_hostile_health_logs_end_in_one_line_quickly(root, make):
    log = health_log(root)
    if make == "directory":
        log.mkdir()
    elif make == "fifo":
        os.mkfifo(log)
    elif make == "dev-zero":
        os.symlink("/dev/zero", log)
    else:
        with open(log, "wb") as handle:
            handle.write(b'{"pad": "' + b"x" * (20 << 20) + b'"}\n')
    line = statusline("--root", str(root), timeout=10)
    assert line == {"directory": "mem ? health log unreadable: not a regular file",
                    "fifo": "mem ? health log unreadable: not a regular file",
                    "dev-zero": "mem ? health log unreadable: is a symlink",
                    "huge-line": "mem ? bad newest report: line longer than 1048576 bytes"}[make]


def test_never_waits_on_stdin(root):
    publish_runs(root, [0])
    proc = subprocess.Popen([sys.executable, "-m", "health", "statusline", "--root", str(root), "--now", at(4)],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=clean_env(),
                            cwd=REPO)
    try:
        assert proc.wait(timeout=20) == 0  # stdin still open: a reader would block here
        assert proc.stdout.read() == b"mem \xe2\x9c\x93 ok 4m\n"
    finally:
        proc.stdin.close()
        proc.stdout.close()
        proc.stderr.close()
        if proc.poll() is None:
            proc.kill()


def test_refresh_runs_and_publishes_the_check_first(root):
    publish_runs(root, [0], proposal_backlog="1")
    assert statusline("--root", str(root), "--now", NOW, "--refresh") == "mem ✓ ok <1m"
    rows = json_lines(health_log(root))
    assert [row["overall"] for row in rows] == ["warn", "ok"]


def test_refresh_past_its_timeout_says_so(root):
    assert statusline("--root", str(root), "--refresh", "--timeout", "0.001") == \
        "mem ? refresh timed out after 0.001 s"
    assert not health_log(root).exists()


STDLIB_ONLY = """
import sys
before = set(sys.modules)
from health.cli import dispatch
dispatch(sys.argv[1:])
ours = ("cortex", "collectors", "health", "reports", "thresholds")
loaded = set(sys.modules) - before
foreign = sorted(m for m in loaded if m.split(".")[0] not in sys.stdlib_module_names and m.split(".")[0] not in ours)
heavy = ("rich", "pydantic", "psutil", "argparse", "dataclasses", "typing", "health.run", "health.judge.model")
print(foreign, sorted(name for name in heavy if name in loaded), file=sys.stderr)
"""


def test_statusline_path_imports_only_the_standard_library(root):
    publish_runs(root, [0])
    done = run_command([sys.executable, "-c", STDLIB_ONLY, "statusline", "--root", str(root), "--now", at(4)])
    assert done.stdout == "mem ✓ ok 4m\n"
    assert done.stderr.strip() == "[] []"  # nothing outside the stdlib; not even argparse or dataclasses


def test_print_command_gives_a_site_free_launcher_with_the_same_answer(root):
    publish_runs(root, [0])
    command = statusline("--root", str(root), "--now", at(4), "--print-command")
    argv = shlex.split(command)
    assert argv[:3] == [sys.executable, "-I", "-S"] and argv[3].endswith(os.path.join("health", "statusline.py"))
    done = run_command(argv, env={"PATH": "/usr/bin:/bin"})
    assert (done.returncode, done.stdout, done.stderr) == (0, "mem ✓ ok 4m\n", "")
