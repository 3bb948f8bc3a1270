"""The CLI contract: exit 3 with an overall-unknown JSON report for every way the auditor cannot run."""
from __future__ import annotations

import io

import pytest

from health.cli import run
from tests.health_support import DEMO, NOW_MS, clean_env, copy_demo, run_cli
from cortex.core.timestamps import iso_from_ms


@pytest.mark.parametrize("args,needle", [
    (["--bogus"], "unrecognized arguments"),
    (["--format", "yaml"], "invalid choice"),
    (["--threshold", "proposal_backlog"], "expected NAME=VALUE"),
    (["--json", "--format", "text"], "conflicts"),
    (["--now"], "expected one argument"),
])
def test_usage_errors_exit_3_with_unknown_report(tmp_path, args, needle):
    result = run_cli(*args, root=copy_demo(tmp_path))
    assert result.code == 3
    assert result.report["overall"] == "unknown" and needle in result.report["reason"]
    assert result.report["findings"] == [] and "usage:" in result.stderr


def test_unusable_root_exits_3(tmp_path):
    result = run_cli(root=tmp_path / "absent")
    assert result.code == 3 and "is not a directory" in result.report["reason"]
    assert result.report["root"] == str(tmp_path / "absent")


def test_the_unknown_report_keeps_the_injected_clock(tmp_path):
    # --now (or CORTEX_HEALTH_NOW) stamps every report, the one printed when the audit cannot run included
    assert run_cli(root=tmp_path / "absent").report["ts"] == iso_from_ms(NOW_MS)
    usage = run_cli("--bogus", root=copy_demo(tmp_path), now=None,
                    env=clean_env(CORTEX_HEALTH_NOW=iso_from_ms(NOW_MS - 60_000)))
    assert usage.code == 3 and usage.report["ts"] == iso_from_ms(NOW_MS - 60_000)


def test_invalid_no_write_value_is_a_usage_error(tmp_path):
    result = run_cli(root=copy_demo(tmp_path), env=clean_env(CORTEX_HEALTH_NO_WRITE="maybe"))
    assert result.code == 3 and "CORTEX_HEALTH_NO_WRITE" in result.report["reason"]


def test_root_from_environment_chain(tmp_path):
    root = copy_demo(tmp_path)
    assert run_cli(env=clean_env(CORTEX_HEALTH_ROOT=str(root))).report["root"] == str(root)
    assert run_cli(env=clean_env(CLAUDE_CONFIG_DIR=str(root))).report["root"] == str(root)
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    assert run_cli(env=clean_env(HOME=str(home))).report["root"] == str(home / ".claude")


def test_text_format_shows_measured_against_threshold(tmp_path):
    result = run_cli("--format", "text", "--threshold", "proposal_backlog=1", root=copy_demo(tmp_path))
    assert result.code == 1
    assert "cortex-health WARN" in result.stdout
    row = next(line for line in result.stdout.splitlines() if "proposal-backlog-high" in line)
    assert "WARN" in row and " 2 " in row and " 1 " in row


def test_help_exits_0():
    out = io.StringIO()
    assert run(["--help"], environ={}, stdout=out, stderr=io.StringIO()) == 0
    assert "--report-path" in out.getvalue()
    from health.commands import COMMANDS

    listed = out.getvalue().split("subcommands:", 1)[1]
    assert all(name in listed for name in COMMANDS), sorted(COMMANDS)  # every subcommand is in --help


def test_abbreviated_options_are_refused(tmp_path):
    result = run_cli("--no-wri", root=copy_demo(tmp_path))
    assert result.code == 3 and "unrecognized arguments" in result.report["reason"]


def test_in_process_run_returns_exit_code_and_writes_json(tmp_path):
    out, err = io.StringIO(), io.StringIO()
    # the demo's hook commands resolve on the PATH clean_env() gives (next to this interpreter)
    code = run(["--root", str(DEMO), "--now", "2026-11-29T12:00:00Z", "--no-write"], environ=clean_env(), stdout=out,
               stderr=err)
    assert code == 0 and out.getvalue().startswith('{"schema":"cortex-health/v1"')


def test_terminal_gets_the_table_and_a_pipe_gets_json(tmp_path):
    import os
    import pty
    import subprocess
    import sys

    from tests.health_support import NOW, REPO

    root = copy_demo(tmp_path)
    master, slave = pty.openpty()
    argv = [sys.executable, "-m", "health", "--root", str(root), "--now", NOW, "--no-write"]
    proc = subprocess.Popen(argv, stdout=slave, stderr=subprocess.DEVNULL, env=clean_env(TERM="dumb"), cwd=REPO)
    os.close(slave)
    chunks = []
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO once the child closed the terminal
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(master)
    assert proc.wait(timeout=60) == 0
    screen = b"".join(chunks).decode()
    assert "cortex-health" in screen and "No problems found." in screen and not screen.lstrip().startswith("{")
    assert run_cli(root=root).stdout.startswith('{"schema":"cortex-health/v1"')


def test_main_given_argv_returns_the_code_in_process(tmp_path, capsys):
    """The console script (no argv) ends the process at once; an in-process caller gets the code back instead."""
    from health.cli import main

    code = main(["--root", str(tmp_path / "absent"), "--now", "2026-11-29T12:00:00Z", "--no-write"])
    assert code == 3 and '"overall":"unknown"' in capsys.readouterr().out
