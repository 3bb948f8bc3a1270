"""contrib/: systemd units pass systemd-analyze verify, the cron line behaves with flock and chronic, and the
Claude Code snippets run the commands they name."""
from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests import health_scenarios as s
from tests.health_support import NOW, REPO, clean_env, copy_demo, wait_for_gate
from tests.ops_support import CONSOLE_SCRIPT, health_log, json_lines, publish_runs, run_command, tool

CONTRIB = REPO / "contrib"
UNITS = ["cortex-health.service", "cortex-health.timer", "cortex-health-failure@.service",
         "cortex-health-probe.service", "cortex-health-probe.timer"]


def verify(folder: Path, names: list[str], tmp_path: Path) -> subprocess.CompletedProcess:
    analyze = tool("systemd-analyze", "systemd")
    # A short runtime folder: systemd refuses socket paths over 108 bytes, which pytest's
    # numbered (and, under xdist, per-worker) tmp_path can exceed.
    with tempfile.TemporaryDirectory(prefix="sd", dir="/tmp") as runtime:
        os.chmod(runtime, 0o700)
        env = dict(clean_env(), XDG_RUNTIME_DIR=runtime)
        return run_command([analyze, "--user", "verify", "--man=no", *[str(folder / n) for n in names]], env=env)


def test_systemd_units_verify_cleanly(tmp_path):
    done = verify(CONTRIB / "systemd", UNITS, tmp_path)
    assert done.returncode == 0 and done.stderr == "" and done.stdout == "", done.stderr


def test_systemd_verify_would_catch_a_broken_unit(tmp_path):
    broken = tmp_path / "units"
    broken.mkdir()
    for name in UNITS:
        shutil.copy(CONTRIB / "systemd" / name, broken / name)
    timer = broken / "cortex-health.timer"
    timer.write_text(timer.read_text().replace("OnCalendar=*:0/15", "OnCalendar=every quarter hour"))
    assert verify(broken, UNITS, tmp_path).returncode != 0


def test_service_runs_oneshot_and_keeps_warn_a_success():
    text = (CONTRIB / "systemd" / "cortex-health.service").read_text()
    settings = [line for line in text.splitlines() if line and not line.startswith("#")]
    assert "Type=oneshot" in settings and "SuccessExitStatus=1" in settings
    assert "OnFailure=cortex-health-failure@%n.service" in settings
    timer = (CONTRIB / "systemd" / "cortex-health.timer").read_text()
    assert "Persistent=true" in timer and "RandomizedDelaySec=" in timer and "OnCalendar=" in timer


def cron_command(probe: bool = False) -> str:
    """The quarter-hourly audit's command, or the daily probe's."""
    lines = [line for line in (CONTRIB / "cron" / "cortex-health.crontab").read_text().splitlines()
             if line.strip() and not line.startswith("#")]
    assert len(lines) == 2 and lines[0].startswith("*/15 ") and "--probe" in lines[1]
    return lines[1 if probe else 0].split(None, 5)[5]


@pytest.fixture
def cron_home(tmp_path):
    tool("flock", "util-linux")
    tool("chronic", "moreutils")
    assert CONSOLE_SCRIPT, "cortex-health is not installed next to this interpreter"
    home = tmp_path / "home"
    (home / ".local" / "bin").mkdir(parents=True)
    (home / ".cache").mkdir()
    os.symlink(CONSOLE_SCRIPT, home / ".local" / "bin" / "cortex-health")
    # `pip install --user` puts both console scripts there; the demo's hook commands name `cortex`
    os.symlink(os.path.join(os.path.dirname(CONSOLE_SCRIPT), "cortex"), home / ".local" / "bin" / "cortex")
    return home


def run_cron(home: Path, root: Path, probe: bool = False) -> subprocess.CompletedProcess:
    env = {"HOME": str(home), "PATH": "/usr/bin:/bin", "SHELL": "/bin/sh", "CORTEX_HEALTH_ROOT": str(root),
           "CORTEX_HEALTH_NOW": NOW, "TMPDIR": str(home / "tmp")}
    (home / "tmp").mkdir(exist_ok=True)
    return run_command(["/bin/sh", "-c", cron_command(probe)], env=env, timeout=300)


def test_the_daily_cron_line_runs_the_probe_and_publishes_it(cron_home, tmp_path):
    root = copy_demo(tmp_path)
    done = run_cron(cron_home, root, probe=True)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    report = json_lines(health_log(root))[-1]
    assert "probe-passed:recall" in report["ok_summary"] and "probe-passed:review" in report["ok_summary"]
    assert list((cron_home / "tmp").iterdir()) == []


def test_cron_line_is_silent_when_ok_and_speaks_on_warn(cron_home, tmp_path):
    root = copy_demo(tmp_path)
    ok = run_cron(cron_home, root)
    assert (ok.returncode, ok.stdout, ok.stderr) == (0, "", "")
    s.proposals_backlog(root)
    warned = run_cron(cron_home, root)
    assert warned.returncode == 1 and "cortex-health WARN" in warned.stdout and "fix:" in warned.stdout
    assert [row["overall"] for row in json_lines(health_log(root))] == ["ok", "warn"]


def test_cron_line_skips_silently_while_a_run_holds_the_lock(cron_home, tmp_path):
    root = copy_demo(tmp_path)
    with open(cron_home / ".cache" / "cortex-health.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        busy = run_cron(cron_home, root)
    assert (busy.returncode, busy.stdout, busy.stderr) == (75, "", "")
    assert not health_log(root).exists()


def snippet_commands() -> dict[str, list[str]]:
    commands: dict[str, list[str]] = {}
    for path in sorted((CONTRIB / "claude-code").glob("*.json")):
        settings = json.loads(path.read_text())
        found = []
        if "statusLine" in settings:
            assert settings["statusLine"]["type"] == "command"
            found.append(settings["statusLine"]["command"])
        for groups in settings.get("hooks", {}).values():
            for group in groups:
                for hook in group["hooks"]:
                    assert hook["type"] == "command"
                    if " gate --timeout " in hook["command"]:  # the hook must outlive the gate's own deadline
                        assert hook["timeout"] > float(hook["command"].split("--timeout ")[1].split()[0])
                    found.append(hook["command"])
        commands[path.name] = found
    return commands


def test_claude_code_snippets_are_valid_and_name_our_surfaces():
    commands = snippet_commands()
    assert set(commands) == {"settings.json", "statusline.json", "stop-gate.json"}
    every = [command for found in commands.values() for command in found]
    assert "cortex-health statusline" in every and "cortex-health gate --timeout 20" in every
    # the cortex hooks the README documents, not LifeOS's bun .ts files
    assert commands["settings.json"] == ["cortex-health statusline", "cortex hot render", "cortex recall --limit 5",
                                         "cortex review fire", "cortex-health gate --timeout 20"]


def test_the_snippet_commands_run_as_claude_code_runs_them(tmp_path):
    assert CONSOLE_SCRIPT
    root = copy_demo(tmp_path)
    publish_runs(root, [0])
    env = clean_env(CORTEX_HEALTH_ROOT=str(root), CORTEX_HEALTH_NOW=NOW,
                    PATH=os.path.dirname(CONSOLE_SCRIPT) + ":/usr/bin:/bin")
    hook_input = json.dumps({"session_id": "s", "hook_event_name": "Stop", "stop_hook_active": False})
    for command in snippet_commands()["settings.json"]:
        if not command.startswith("cortex-health"):
            continue
        done = subprocess.run(["/bin/sh", "-c", command], input=hook_input, capture_output=True, text=True, env=env,
                              timeout=60, cwd=tmp_path)
        assert done.returncode == 0, (command, done.stderr)
        if "statusline" in command:
            assert done.stdout == "mem ✓ ok <1m\n"
        else:
            assert (done.stdout, done.stderr) == ("", "")
    wait_for_gate(root)  # the gate returned at once; its check runs detached
    assert len(json_lines(health_log(root))) == 2  # the gate published one more run


def test_fast_statusline_command_runs_from_any_directory(tmp_path):
    root = copy_demo(tmp_path)
    publish_runs(root, [0])
    command = subprocess.run([sys.executable, "-m", "health", "statusline", "--print-command", "--root", str(root)],
                             capture_output=True, text=True, cwd=REPO, env=clean_env()).stdout.strip()
    done = subprocess.run(["/bin/sh", "-c", command], capture_output=True, text=True, cwd=tmp_path, timeout=30,
                          env={"PATH": "/usr/bin:/bin", "CORTEX_HEALTH_NOW": NOW})
    assert (done.returncode, done.stdout, done.stderr) == (0, "mem ✓ ok <1m\n", "")


def test_setup_prints_each_snippet_with_the_installed_scripts_absolute_paths(tmp_path):
    from tests.ops_support import health

    bin_dir = os.path.dirname(CONSOLE_SCRIPT)
    done = health("setup", "claude-code", env=clean_env())
    assert done.returncode == 0 and "next:" in done.stderr
    settings = json.loads(done.stdout)
    commands = [settings["statusLine"]["command"]] + [hook["command"] for groups in settings["hooks"].values()
                                                      for group in groups for hook in group["hooks"]]
    assert commands == [f"{bin_dir}/cortex-health statusline", f"{bin_dir}/cortex hot render",
                        f"{bin_dir}/cortex recall --limit 5", f"{bin_dir}/cortex review fire",
                        f"{bin_dir}/cortex-health gate --timeout 20"]
    systemd = health("setup", "systemd", env=clean_env()).stdout
    assert f"ExecStart={bin_dir}/cortex-health --format text --quiet" in systemd
    assert systemd.count("# ==> ") == 5 and "OnCalendar=" in systemd
    assert f"ExecStart={bin_dir}/cortex-health --probe --format text --quiet" in systemd
    assert f"chronic {bin_dir}/cortex-health --format text -v" in health("setup", "cron", env=clean_env()).stdout
    assert "CortexHealthCritical" in health("setup", "prometheus", env=clean_env()).stdout
    wrong = health("setup", "clode", env=clean_env())
    assert wrong.returncode == 3 and "did you mean claude-code?" in wrong.stderr


def test_setup_write_never_overwrites(tmp_path):
    from tests.ops_support import health

    target = tmp_path / "settings.json"
    assert health("setup", "claude-code", "--write", str(target), env=clean_env()).returncode == 0
    assert json.loads(target.read_text())["hooks"]["Stop"]
    target.write_text("{}")
    again = health("setup", "claude-code", "--write", str(target), env=clean_env())
    assert again.returncode == 3 and "already exists" in again.stderr and target.read_text() == "{}"
    units = tmp_path / "units"
    units.mkdir()
    (units / "cortex-health.timer").write_text("mine")
    refused = health("setup", "systemd", "--write", str(units), env=clean_env())
    assert refused.returncode == 3 and sorted(p.name for p in units.iterdir()) == ["cortex-health.timer"]
    (units / "cortex-health.timer").unlink()
    assert health("setup", "systemd", "--write", str(units), env=clean_env()).returncode == 0
    assert len(list(units.iterdir())) == 5


def test_the_snippets_ship_inside_the_package():
    import health

    shipped = Path(health.__file__).parent / "contrib"
    assert (shipped / "claude-code" / "settings.json").is_file() and (REPO / "contrib").resolve() == shipped
    pyproject = (REPO / "pyproject.toml").read_text()
    assert 'health = ["contrib/*/*"]' in pyproject
