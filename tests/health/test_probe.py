"""The synthetic probe through the real CLI: the registered hooks run as the agent runs them, in a throw-away copy.

Each test wires a tree as a user does (`cortex init`, `cortex-health setup claude-code`), breaks
one thing the way users report it breaking, and checks the step that fails, its exit status
and its first stderr line; the real tree is never written and no temporary folder is left,
even when the probe is stopped by a signal.
"""
from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time

import pytest

from tests.health_support import NOW, REPO, clean_env
from tests.probe_support import (SCRIPTS, edit_hook, leftovers, probe_env, registered, run_probe, snapshot,
                                 wired_tree)

HOOK_STEPS = ("render", "recall", "fire", "gate")
ROUND_TRIP = ("remember", "search", "get", "review")


def test_the_probe_passes_on_a_tree_wired_by_setup_without_writing_to_it_or_leaving_a_folder(tmp_path):
    root = wired_tree(tmp_path)
    marker = tmp_path / "real-model-called"
    model = tmp_path / "model.py"  # the configured inference command: the probe must never call it
    model.write_text(f"import pathlib, sys\npathlib.Path({str(marker)!r}).write_text('called')\nprint('{{}}')\n")
    config = root / "LIFEOS" / "USER" / "CONFIG" / "memory-review.json"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"schema_version": 1, "inference_command": [sys.executable, str(model)]}))
    stale = tmp_path / "tmp" / "cortex-probe-999999999-left"  # a probe killed outright, its pid long gone
    (stale / "claude").mkdir(parents=True)
    before = snapshot(root)
    probe = run_probe(root, tmp_path)
    assert probe.code == 0, probe.report["findings"]
    assert list(probe.steps) == [*HOOK_STEPS, *ROUND_TRIP]
    assert all(step["status"] == "passed" and step["duration_ms"] > 0 for step in probe.steps.values())
    assert probe.steps["recall"]["timeout_ms"] == 10_000 and probe.steps["gate"]["timeout_ms"] == 30_000
    assert probe.steps["render"]["command"] == f"{SCRIPTS / 'cortex'} hot render"
    assert {f"probe-passed:{step}" for step in probe.steps} | {"probe-complete", "probe-cleaned"} <= set(
        probe.report["ok_summary"])
    assert snapshot(root) == before  # not one byte, mode or mtime changed; no file added
    assert leftovers(tmp_path) == []  # its own folder and the stale one are gone
    assert not marker.exists()


def _script(path, text: str, mode: int = 0o755):
    path.write_text(text)
    path.chmod(mode)
    return str(path)


def test_hooks_that_resolve_but_cannot_start_fail_their_own_step(tmp_path):
    root = wired_tree(tmp_path)
    cortex = (SCRIPTS / "cortex").read_text().split("\n", 1)[1]  # the console script without its #! line

    def installed(folder: str, name: str, text: str, mode: int = 0o755) -> str:
        (tmp_path / folder).mkdir()
        return _script(tmp_path / folder / name, text, mode)

    upgraded = installed("old-venv", "cortex", "#!/nonexistent/venv/bin/python3.9\n" + cortex)  # Python went away
    not_executable = installed("no-x", "cortex", f"#!{sys.executable}\n" + cortex, mode=0o644)
    missing_module = installed("missing", "cortex", f"#!{sys.executable}\nimport cortex_memory_plugin\n")
    failing = installed("noisy", "cortex-health",
                        "#!/bin/sh\necho '<private>SECRET-CANARY</private> gate exploded' >&2\nexit 3\n")
    edit_hook(root, "hot render", command=f"{upgraded} hot render")
    edit_hook(root, "recall", command=f"{not_executable} recall --limit 5")
    edit_hook(root, "review fire", command=f"{missing_module} review fire")
    edit_hook(root, "gate", command=f"{failing} gate --timeout 20")
    before = snapshot(root)
    probe = run_probe(root, tmp_path)
    assert probe.code == 2
    render = probe.finding("probe-failed:render")
    assert render["detail"]["exit_status"] == 127 and "not found" in render["detail"]["stderr"]
    assert render["detail"]["command"] == f"{upgraded} hot render" and "(command or interpreter not found)" in \
        render["message"]
    recall = probe.finding("probe-failed:recall")
    assert recall["detail"]["exit_status"] == 126 and "Permission denied" in recall["detail"]["stderr"]
    fire = probe.finding("probe-failed:fire")
    assert fire["detail"]["exit_status"] == 1
    assert fire["detail"]["stderr"] == "ModuleNotFoundError: No module named 'cortex_memory_plugin'"
    gate = probe.finding("probe-failed:gate")
    assert gate["detail"]["stderr"] == "gate exploded" and "SECRET-CANARY" not in probe.stdout + probe.stderr
    # The round trip runs the cortex the hooks run: here render's, as broken as render.
    assert probe.steps["remember"]["status"] == "failed" and probe.steps["remember"]["exit_status"] == 127
    assert probe.steps["search"]["status"] == probe.steps["get"]["status"] == "skipped"
    assert snapshot(root) == before and leftovers(tmp_path) == []


def test_a_path_in_the_settings_env_that_lacks_cortex_fails_every_hook(tmp_path):
    root = wired_tree(tmp_path)
    for name in ("hot render", "recall", "review fire", "gate"):
        command = registered(root, name)
        edit_hook(root, name, command=command.replace(str(SCRIPTS) + os.sep, ""))  # bare cortex, cortex-health
    edit_hook(root, "recall", env={"PATH": "/usr/bin:/bin"})
    probe = run_probe(root, tmp_path)
    for step in HOOK_STEPS:
        finding = probe.finding(f"probe-failed:{step}")
        assert finding["detail"]["exit_status"] == 127 and "not found" in finding["detail"]["stderr"], finding


def test_a_recall_slower_than_its_timeout_is_killed_and_fails(tmp_path):
    root = wired_tree(tmp_path)
    pid_file = tmp_path / "slow.pid"
    edit_hook(root, "recall", command=f"echo $$ > {pid_file}; sleep 60; {registered(root, 'recall')}", timeout=1)
    probe = run_probe(root, tmp_path)
    finding = probe.finding("probe-failed:recall")
    assert "killed at its timeout" in finding["message"] and finding["detail"]["timeout_ms"] == 1000
    assert 1000 <= finding["detail"]["measured"] < 30_000
    _gone(int(pid_file.read_text()))
    assert probe.steps["render"]["status"] == "passed" and leftovers(tmp_path) == []


def test_a_render_that_prints_nothing_fails(tmp_path):
    root = wired_tree(tmp_path)
    edit_hook(root, "hot render", env={"CORTEX_SUBAGENT": "1"})  # every hook now thinks it runs in a subagent
    probe = run_probe(root, tmp_path)
    render = probe.finding("probe-failed:render")
    assert "printed nothing" in render["message"] and render["detail"]["exit_status"] == 0
    assert "printed nothing for the probe prompt" in probe.finding("probe-failed:recall")["message"]


def test_a_step_slower_than_half_its_timeout_warns(tmp_path):
    root = wired_tree(tmp_path)
    edit_hook(root, "hot render", command=f"sleep 3; {registered(root, 'hot render')}", timeout=5)
    probe = run_probe(root, tmp_path)
    assert probe.code == 1, probe.report["findings"]
    slow = probe.finding("probe-slow:render")
    assert slow["severity"] == "warn" and slow["detail"]["threshold"] == 2500 and slow["detail"]["measured"] >= 3000


def test_the_total_budget_stops_the_probe_and_says_what_did_not_run(tmp_path):
    root = wired_tree(tmp_path)
    edit_hook(root, "hot render", command=f"sleep 60; {registered(root, 'hot render')}", timeout=60)
    probe = run_probe(root, tmp_path, "--threshold", "probe_timeout_ms=2s")
    assert "probe's time budget" in probe.finding("probe-failed:render")["message"]
    incomplete = probe.finding("probe-incomplete")
    assert incomplete["detail"]["steps"] == ["recall", "fire", "gate", "remember", "search", "get", "review"]
    assert probe.report["evidence"]["probe"]["total_ms"] < 30_000 and leftovers(tmp_path) == []


def _gone(pid: int) -> None:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return
    raise AssertionError(f"process {pid} is still running")


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_stopped_probe_kills_its_hook_and_removes_its_folder(tmp_path, signum):
    root = wired_tree(tmp_path)
    pid_file = tmp_path / "hook.pid"
    edit_hook(root, "hot render", command=f"echo $$ > {pid_file}; sleep 60; {registered(root, 'hot render')}",
              timeout=60)
    env = probe_env(tmp_path)
    child = subprocess.Popen([sys.executable, "-m", "health", "probe", "--root", str(root), "--format", "json"],
                             env=env, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while not (pid_file.exists() and pid_file.read_text().strip()):  # wait for the hook to be running
            assert time.monotonic() < deadline and child.poll() is None, child.communicate()
            time.sleep(0.05)
        assert [name for name in leftovers(tmp_path) if name.startswith("cortex-probe-")]
        child.send_signal(signum)
        _, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
    assert child.returncode == -signum, err
    assert leftovers(tmp_path) == []
    _gone(int(pid_file.read_text()))


def test_the_check_runs_the_probe_only_when_asked(tmp_path):
    root = wired_tree(tmp_path)
    env = probe_env(tmp_path)
    base = [sys.executable, "-m", "health", "--root", str(root), "--now", NOW, "--no-write", "--format", "json"]
    plain = json.loads(subprocess.run(base, capture_output=True, text=True, env=env, cwd=REPO, timeout=120).stdout)
    assert "probe" not in plain["evidence"] and not [i for i in plain["ok_summary"] if i.startswith("probe-")]
    full = json.loads(subprocess.run(base + ["--probe"], capture_output=True, text=True, env=env, cwd=REPO,
                                     timeout=300).stdout)
    assert "probe-passed:recall" in full["ok_summary"] and "hot_content" in full["evidence"]
    assert full["evidence"]["probe"]["cleaned"] is True


def test_the_plain_audit_never_loads_the_probe():
    code = ("import sys; from health.cli import run; "
            f"run(['--root', {str(REPO / 'fixtures' / 'demo')!r}, '--now', {NOW!r}, '--no-write', '--json']); "
            "print(sorted(m for m in sys.modules if m.split('.')[-1] == 'probe'), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, timeout=120,
                          env=clean_env())
    assert done.stderr.strip().splitlines()[-1] == "[]"  # not even its catalogue entries (health.judge.checks.PROBE)


def test_the_probe_subcommand_refuses_what_does_not_apply_and_has_help(tmp_path):
    done = subprocess.run([sys.executable, "-m", "health", "probe", "--only", "install"], capture_output=True,
                          text=True, cwd=REPO, timeout=60)
    assert done.returncode == 3 and "--only does not apply to the probe" in done.stderr
    helped = subprocess.run([sys.executable, "-m", "health", "probe", "--help"], capture_output=True, text=True,
                            cwd=REPO, timeout=60)
    assert helped.returncode == 0 and "throw-away copy" in helped.stdout


def test_a_missing_settings_file_is_a_failed_setup_step(tmp_path):
    root = wired_tree(tmp_path)
    (root / "settings.json").unlink()
    probe = run_probe(root, tmp_path)
    assert probe.code == 2 and "gives no hooks to run: missing" in probe.finding("probe-failed:settings")["message"]
    assert stat.S_ISDIR(os.lstat(root).st_mode) and leftovers(tmp_path) == []


def test_explain_and_list_checks_know_the_probe_and_latency_ids():
    from tests.ops_support import health

    done = health("explain", "probe-failed:recall", "probe-slow:render-2", "probe-incomplete", "hook-slow:recall",
                  "probe-passed:get", env=clean_env())
    assert done.returncode == 0, done.stderr
    assert "probe-failed:recall (critical)" in done.stdout and "collector:  probe" in done.stdout
    assert "threshold:  probe_timeout_ms = 2m (120000 ms) (default)" in done.stdout
    assert "hook-slow:recall (warn)" in done.stdout and "collector:  hook_latency" in done.stdout
    listed = {row["id"]: row for row in json.loads(health("--list-checks", "--json", env=clean_env()).stdout)}
    assert listed["probe-failed:{step}"]["severity"] == "critical" and listed["hook-slow:{hook}"]["severity"] == "warn"
    assert listed["probe-incomplete"]["threshold"]["name"] == "probe_timeout_ms"


def test_a_review_the_fire_hook_starts_in_the_copy_does_not_outlive_the_probe(tmp_path):
    root = wired_tree(tmp_path)
    config = root / "LIFEOS" / "USER" / "CONFIG" / "memory-review.json"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"schema_version": 1, "turn_threshold": 1, "min_minutes_between": 0}))
    probe = run_probe(root, tmp_path)  # the probe's single Stop turn is enough to start a review
    assert probe.steps["fire"]["status"] == "passed" and probe.code == 0, probe.report["findings"]
    assert leftovers(tmp_path) == []
    found = subprocess.run(["pgrep", "-f", str(tmp_path / "tmp")], capture_output=True, text=True)
    assert found.stdout.strip() == ""


def test_the_root_is_redirected_in_command_lines_also_through_a_symlink(tmp_path):
    root = wired_tree(tmp_path)
    alias = tmp_path / "alias"
    alias.symlink_to(root)
    edit_hook(root, "recall", command=f"{registered(root, 'recall')} --root {root}")
    edit_hook(root, "review fire", command=f"{registered(root, 'review fire')} --root {alias}")
    before = snapshot(root)
    probe = run_probe(alias, tmp_path)  # audited through the alias; one hook names the real path, one the alias
    assert probe.code == 0, probe.report["findings"]
    assert snapshot(root) == before and leftovers(tmp_path) == []


def test_a_stop_while_a_hook_is_being_started_waits_until_the_hook_is_known(tmp_path):
    from collectors.lifeos.probe import runner

    runner.SPAWNING.update(now=True, deferred=None)
    try:
        runner.stop(signal.SIGTERM)  # noted, not raised: the child being started is not in RUNNING yet
        assert runner.SPAWNING["deferred"] == signal.SIGTERM
        runner.SPAWNING["now"] = False
        with pytest.raises(runner.ProbeStopped) as stopped:
            runner.run("echo started", os.environ, b"", 10, str(tmp_path))  # raised once the child is known
        assert stopped.value.signum == signal.SIGTERM and not runner.RUNNING
    finally:
        runner.SPAWNING.update(now=False, deferred=None)
    with pytest.raises(runner.ProbeStopped):
        runner.stop(signal.SIGINT)  # otherwise at once
