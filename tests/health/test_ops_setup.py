"""`cortex-health setup`: --merge into a real settings.json, --write before `cortex init`, the next-step hints (issue 23)."""
from __future__ import annotations

import json
import os
import stat
import subprocess
import sys

import pytest

from tests.health_support import clean_env
from tests.ops_support import health

BIN = os.path.dirname(sys.executable)
# A settings.json as people have them: a model, permissions, env with a secret, their own hooks (one a cortex
# hook from an older install at another path), a matcher group and a status line of their own.
THEIRS = {
    "model": "opus",
    "env": {"ANTHROPIC_API_KEY": "sk-ant-users-own", "BASH_DEFAULT_TIMEOUT_MS": "60000"},
    "permissions": {"allow": ["Bash(git status:*)", "Read(~/notes/**)"], "deny": ["Read(.env)"]},
    "hooks": {
        "PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "~/bin/guard --strict"}]}],
        "Stop": [{"matcher": "", "hooks": [{"type": "command", "command": "notify-send 'Claude is done'"}]}],
        "UserPromptSubmit": [{"hooks": [{"type": "command", "command": "/opt/old-venv/bin/cortex recall --limit 3",
                                         "timeout": 5}]}],
    },
    "statusLine": {"type": "command", "command": "~/.claude/my-statusline.sh"},
    "includeCoAuthoredBy": False,
}


def merge(path, home, *extra: str):
    return health("setup", "claude-code", "--merge", str(path), *extra, env=clean_env(HOME=str(home)))


def commands(settings: dict, event: str) -> list[str]:
    return [hook["command"] for group in settings["hooks"].get(event, []) for hook in group["hooks"]]


def test_merge_adds_the_cortex_hooks_keeps_everything_else_and_a_second_run_changes_nothing(tmp_path):
    home = tmp_path / "home"
    claude = home / ".claude"
    claude.mkdir(parents=True)
    path = claude / "settings.json"
    original = json.dumps(THEIRS, indent=4).encode()
    path.write_bytes(original)
    path.chmod(0o600)  # it holds a key: the merge and the backup keep it private
    done = merge(path, home)
    assert done.returncode == 0, done.stderr
    merged = json.loads(path.read_text())
    assert {key: value for key, value in merged.items() if key != "hooks"} == \
           {key: value for key, value in THEIRS.items() if key != "hooks"}  # statusLine: theirs is kept
    assert merged["hooks"]["PreToolUse"] == THEIRS["hooks"]["PreToolUse"]
    assert merged["hooks"]["Stop"][0] == THEIRS["hooks"]["Stop"][0]  # their groups first, untouched
    assert commands(merged, "Stop")[1:] == [f"{BIN}/cortex review fire", f"{BIN}/cortex-health gate --timeout 20"]
    assert commands(merged, "UserPromptSubmit") == ["/opt/old-venv/bin/cortex recall --limit 3",
                                                    f"{BIN}/cortex hot render"]  # recall was already registered
    backup = claude / "settings.json.bak"
    assert backup.read_bytes() == original
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and stat.S_IMODE(backup.stat().st_mode) == 0o600
    out = done.stdout
    assert f"merged into {path} (the old file is kept as {backup})" in out
    assert f"  + UserPromptSubmit: {BIN}/cortex hot render" in out and f"  + Stop: {BIN}/cortex review fire" in out
    assert "  = UserPromptSubmit: cortex recall (already registered, kept as it is)" in out
    assert f"statusLine: yours is kept; to show memory health there instead, set its command to {BIN}/cortex-health " \
           "statusline" in out
    assert "sk-ant-users-own" not in out + done.stderr
    assert "next: `cortex init --root" in done.stderr  # no memory tree yet: what to run now
    after_first = path.read_bytes()
    again = merge(path, home)
    assert again.returncode == 0 and again.stdout.startswith(f"nothing to change in {path}")
    assert "+" not in again.stdout.replace("--", "") and path.read_bytes() == after_first
    assert sorted(p.name for p in claude.iterdir()) == ["settings.json", "settings.json.bak"]  # no second backup


def test_merge_into_a_settings_json_without_hooks_adds_the_status_line_and_the_audit_sees_a_cortex_install(tmp_path):
    home = tmp_path / "home"
    claude = home / ".claude"
    done = health("setup", "claude-code", "--write", str(claude / "settings.json"), env=clean_env(HOME=str(home)))
    assert done.returncode == 3 and f"run `cortex init --root {claude}` first" in done.stderr  # before cortex init
    os.makedirs(claude)
    path = claude / "settings.json"
    path.write_text('{"model": "sonnet", "env": {"CORTEX_MEMORY_ROOT": "%s"}}\n' % (claude / "LIFEOS" / "MEMORY"))
    assert merge(path, home).returncode == 0
    merged = json.loads(path.read_text())
    assert merged["model"] == "sonnet" and merged["statusLine"]["command"] == f"{BIN}/cortex-health statusline"
    assert len(commands(merged, "Stop")) == 2 and len(commands(merged, "UserPromptSubmit")) == 2
    env = clean_env(HOME=str(home))
    assert subprocess.run([os.path.join(BIN, "cortex"), "init", "--root", str(claude)], env=env,
                          capture_output=True, timeout=60).returncode == 0
    audit = health("--root", str(claude), "--format", "json", "--no-write", env=clean_env(HOME=str(home)))
    report = json.loads(audit.stdout)
    assert not [f["id"] for f in report["findings"] if f["id"].startswith(("hook-command-", "settings-"))]
    oks = report["ok_summary"]
    assert {f"settings-hook-present:{hook}" for hook in ("cortex hot render", "cortex recall", "cortex review fire",
                                                          "cortex-health gate")} <= set(oks), oks
    assert f"hook-command-resolved:Stop:{BIN}/cortex-health" in oks


@pytest.mark.parametrize("text, where", [
    ('{\n  "model": "opus",\n  // my favourite model\n  "env": {}\n}\n', "line 3 column 3 (comments are not JSON"),
    ('{\n  "model": "opus", /* block */\n  "env": {}\n}\n', "line 2 column 20 (comments are not JSON"),
    ('{\n  "hooks": {},\n}\n', "line 3 column 1"),
    ('{"model": "opus"', "line 1 column 17"),
])
def test_merge_refuses_invalid_json_naming_line_and_column_and_writes_nothing(tmp_path, text, where):
    path = tmp_path / "settings.json"
    path.write_text(text)
    done = merge(path, tmp_path)
    assert done.returncode == 3 and f"{path} is not valid JSON:" in done.stderr and where in done.stderr
    assert "nothing was changed" in done.stderr and path.read_text() == text
    assert [p.name for p in tmp_path.iterdir()] == ["settings.json"]


@pytest.mark.parametrize("text, problem", [
    ('{"model": "a", "model": "b"}', "duplicate key 'model'"),
    ("[]", "holds JSON but not an object"),
    ('{"hooks": []}', "its `hooks` is not an object"),
    ('{"hooks": {"Stop": {"hooks": []}}}', "its hooks.Stop is not a list"),
])
def test_merge_refuses_what_it_cannot_merge_safely(tmp_path, text, problem):
    path = tmp_path / "settings.json"
    path.write_text(text)
    done = merge(path, tmp_path)
    assert done.returncode == 3 and problem in done.stderr and path.read_text() == text


def test_merge_follows_a_symlinked_settings_json_and_keeps_the_link(tmp_path):
    dotfiles = tmp_path / "dotfiles"
    dotfiles.mkdir()
    (dotfiles / "claude-settings.json").write_text('{"model": "opus"}')
    link = tmp_path / "settings.json"
    link.symlink_to(dotfiles / "claude-settings.json")
    done = merge(link, tmp_path)
    assert done.returncode == 0, done.stderr
    assert link.is_symlink() and json.loads(link.read_text())["model"] == "opus"
    assert (dotfiles / "claude-settings.json.bak").read_text() == '{"model": "opus"}'
    missing = merge(tmp_path / "none.json", tmp_path)
    assert missing.returncode == 3 and "does not exist: create it with `cortex-health setup claude-code --write" \
        in missing.stderr


def test_setup_usage_lists_targets_and_merge_is_claude_code_only():
    bare = health("setup", env=clean_env())
    assert bare.returncode == 3 and "None" not in bare.stderr
    assert "name a target: claude-code, systemd, cron, prometheus" in bare.stderr
    wrong = health("setup", "systemd", "--merge", "x", env=clean_env())
    assert wrong.returncode == 3 and "--merge FILE is for claude-code" in wrong.stderr
    both = health("setup", "claude-code", "--write", "a", "--merge", "b", env=clean_env())
    assert both.returncode == 3


def test_systemd_write_creates_a_missing_folder(tmp_path):
    units = tmp_path / "config" / "systemd" / "user"
    done = health("setup", "systemd", "--write", str(units), env=clean_env(XDG_CONFIG_HOME=str(tmp_path / "config")))
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in units.iterdir()) == ["cortex-health-failure@.service", "cortex-health-probe.service",
                                                        "cortex-health-probe.timer", "cortex-health.service",
                                                        "cortex-health.timer"]
    assert "next: systemctl --user daemon-reload" in done.stderr


@pytest.mark.parametrize("target", ["claude-code", "systemd", "cron", "prometheus"])
def test_the_next_hint_never_repeats_the_command_just_run(tmp_path, target):
    printed = health("setup", target, env=clean_env(HOME=str(tmp_path)))
    dest = tmp_path / ("units" if target == "systemd" else "snippet")
    written = health("setup", target, "--write", str(dest), env=clean_env(HOME=str(tmp_path)))
    assert written.returncode == 0, written.stderr
    for done, ran in ((printed, f"setup {target}`"), (written, f"setup {target} --write")):
        hint = next(line for line in done.stderr.splitlines() if line.startswith("next: "))
        assert ran not in hint and hint.rstrip() != f"next: cortex-health setup {target}", hint
