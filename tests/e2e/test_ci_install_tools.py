""".ci/install-tools leaves no daemon enabled or running: service starts are denied while apt-get installs, and what the
install enabled is disabled again (issue 23). Real bash, the script's own functions; apt-get and the service tools
are stubs that act like a package's maintainer scripts, the system paths point into tmp_path."""
from __future__ import annotations

import os
import subprocess

import pytest

from tests.health_support import REPO

SCRIPT = REPO / ".ci" / "install-tools"
STUBS = {
    # A fake install: the maintainer scripts ask policy-rc.d before starting, then enable their units.
    "apt-get": '''if [ -x "$POLICY_RC_D" ]; then "$POLICY_RC_D" prometheus start; echo "policy said $?" >>"$LOG"
else echo "no policy" >>"$LOG"; fi
for s in $FAKE_ENABLES; do touch "$STATE/$s.enabled"; done
exit "${FAKE_APT_STATUS:-0}"''',
    "deb-systemd-helper": '''[ "$1" = --quiet ] && shift
case "$1" in
  is-enabled) [ -e "$STATE/${2%.service}.enabled" ];;
  disable) rm -f "$STATE/${2%.service}.enabled"; echo "disable $2" >>"$LOG";;
esac''',
    "systemctl": 'echo "systemctl $*" >>"$LOG"; exit 3',
    "update-rc.d": 'echo "update-rc.d $*" >>"$LOG"',
}


@pytest.fixture
def system(tmp_path):
    stubs, state = tmp_path / "bin", tmp_path / "state"
    for folder in (stubs, state, tmp_path / "etc"):
        folder.mkdir()
    for name, body in STUBS.items():
        (stubs / name).write_text("#!/bin/sh\n" + body + "\n")
        (stubs / name).chmod(0o755)
    env = {"PATH": f"{stubs}:/usr/bin:/bin", "POLICY_RC_D": str(tmp_path / "policy-rc.d"),
           "SYSV_ETC": str(tmp_path / "etc"), "SYSTEMD_RUNTIME": str(tmp_path / "no-systemd"),
           "LOG": str(tmp_path / "log"), "STATE": str(state), "FAKE_ENABLES": "prometheus prometheus-node-exporter"}
    return tmp_path, env


def install(env: dict, **extra: str) -> subprocess.CompletedProcess:
    # Sourced with $0 = "bash", not the script: its main (which installs what this machine lacks) must not run.
    return subprocess.run(["bash", "-c", '. "$1"; without_services apt-get install -y prometheus', "bash", str(SCRIPT)],
                          capture_output=True, text=True, env={**env, **extra}, timeout=60)


def log(tmp_path) -> list[str]:
    return (tmp_path / "log").read_text().splitlines()


def test_starts_are_denied_during_the_install_and_what_it_enabled_is_disabled(system):
    tmp_path, env = system
    done = install(env)
    assert done.returncode == 0, done.stderr
    assert log(tmp_path) == ["policy said 101", "disable prometheus.service", "disable prometheus-node-exporter.service"]
    assert not list((tmp_path / "state").iterdir())  # nothing left enabled
    assert not (tmp_path / "policy-rc.d").exists()  # the temporary policy is gone
    assert "prometheus-node-exporter installed, left disabled and stopped" in done.stdout


def test_an_existing_policy_is_put_back_and_a_service_enabled_before_is_left_alone(system):
    tmp_path, env = system
    policy = tmp_path / "policy-rc.d"
    policy.write_text("#!/bin/sh\nexit 0\n")  # an administrator's own: allows everything
    policy.chmod(0o750)
    (tmp_path / "state" / "prometheus.enabled").touch()  # the administrator runs prometheus on purpose
    done = install(env)
    assert done.returncode == 0, done.stderr
    assert log(tmp_path) == ["policy said 101", "disable prometheus-node-exporter.service"]
    assert (tmp_path / "state" / "prometheus.enabled").exists()
    assert policy.read_text() == "#!/bin/sh\nexit 0\n" and (policy.stat().st_mode & 0o777) == 0o750
    assert sorted(path.name for path in tmp_path.iterdir()) == ["bin", "etc", "log", "policy-rc.d", "state"]


def test_a_failed_install_still_restores_the_policy_and_quiets_what_it_enabled(system):
    tmp_path, env = system
    done = install(env, FAKE_APT_STATUS="100", FAKE_ENABLES="prometheus")
    assert done.returncode == 100
    assert log(tmp_path) == ["policy said 101", "disable prometheus.service"]
    assert not (tmp_path / "policy-rc.d").exists()


def test_the_script_still_runs_as_a_command_and_does_nothing_when_every_tool_is_there(tmp_path):
    tools = tmp_path / "bin"
    tools.mkdir()
    for name in ("promtool", "prometheus-node-exporter", "chronic", "flock", "systemd-analyze", "chromium"):
        (tools / name).write_text("#!/bin/sh\n")
        (tools / name).chmod(0o755)
    done = subprocess.run(["bash", str(SCRIPT)], capture_output=True, text=True, timeout=60,
                          env={"PATH": f"{tools}:/usr/bin:/bin", "HOME": os.environ.get("HOME", "/")})
    assert (done.returncode, done.stdout) == (0, "install-tools: every tool is installed\n")
