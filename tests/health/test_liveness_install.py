"""Install, registration and heartbeat checks through the real CLI on trees built in tmp_path (issue 12, parts 1-2)."""
from __future__ import annotations

import json
import os
from pathlib import Path

from collectors.lifeos.install import HOOK_FILES, TOOL_FILES
from tests.health_support import NOW, NOW_MS, clean_env, copy_demo, memory, obs, run_cli

MINUTE_MS = 60_000


def iso(ms: int) -> str:
    from cortex.core.timestamps import iso_from_ms

    return iso_from_ms(ms)


def lifeos_native(root: Path, *, hooks=HOOK_FILES, tools=TOOL_FILES, live=None, system=None) -> Path:
    """The demo tree made LifeOS-native: .ts files on disk, settings registering the hook files."""
    (root / "settings.json").unlink()
    for folder, names in ((root / "hooks", hooks), (root / "LIFEOS" / "TOOLS", tools)):
        folder.mkdir(parents=True, exist_ok=True)
        for name in names:
            (folder / name).write_text("// stub\n")
    registered = ("MemoryTurnStart.hook.ts", "MemoryReviewFire.hook.ts", "MemoryHealthGate.hook.ts")
    live = registered if live is None else live
    if live is not False:
        commands = [{"type": "command", "command": f"bun $HOME/.claude/hooks/{name}"} for name in live]
        (root / "settings.json").write_text(json.dumps({"hooks": {"Stop": [{"hooks": commands}]}}))
    if system is not None:
        (root / "settings.system.json").write_text(json.dumps({"hooks": list(system)}))
    return root


def severities(result) -> dict[str, str]:
    return {f["id"]: f["severity"] for f in result.report["findings"]}


def test_a_tree_without_hooks_tools_or_settings_is_critical_like_the_reference(tmp_path):
    root = tmp_path / "bare"
    (root / "LIFEOS" / "MEMORY").mkdir(parents=True)  # the memory tree is there; the install is gone
    result = run_cli(root=root)
    assert result.code == 2
    found = severities(result)
    for name in HOOK_FILES:
        assert found[f"hook-file-missing:{name}"] == "critical"
    for name in TOOL_FILES:
        assert found[f"tool-file-missing:{name}"] == "critical"
    assert found["settings-missing:settings.json"] == "critical"
    for name in ("MemoryTurnStart.hook.ts", "MemoryReviewFire.hook.ts", "MemoryHealthGate.hook.ts"):
        assert found[f"settings-hook-absent:{name}"] == "warn"
    assert "install-lifeos-native" in result.report["ok_summary"]


def test_installed_lifeos_tree_reports_every_file_and_registration_present(tmp_path):
    result = run_cli(root=lifeos_native(copy_demo(tmp_path)))
    assert result.code == 0, result.ids()
    ok = set(result.report["ok_summary"])
    assert {f"hook-file-present:{n}" for n in HOOK_FILES} | {f"tool-file-present:{n}" for n in TOOL_FILES} <= ok
    assert "settings-hook-present:MemoryTurnStart.hook.ts" in ok


def test_missing_hook_and_tool_files_are_critical_with_their_paths(tmp_path):
    root = lifeos_native(copy_demo(tmp_path), hooks=HOOK_FILES[1:], tools=TOOL_FILES[:-1])
    (root / "hooks" / "LoadMemory.hook.ts").unlink()
    (root / "hooks" / "LoadMemory.hook.ts").mkdir()  # a directory is not a hook file
    result = run_cli(root=root)
    assert result.code == 2
    assert severities(result) == {"hook-file-missing:MemoryTurnStart.hook.ts": "critical",
                                  "hook-file-missing:LoadMemory.hook.ts": "critical",
                                  "tool-file-missing:MutationTier.ts": "critical"}
    assert result.finding("hook-file-missing:LoadMemory.hook.ts")["detail"]["reason"] == "not a regular file (directory)"
    assert result.finding("tool-file-missing:MutationTier.ts")["detail"]["path"] == str(root / "LIFEOS/TOOLS/MutationTier.ts")


def test_clobbered_registration_is_critical_and_absent_one_warns(tmp_path):
    root = lifeos_native(copy_demo(tmp_path), live=("MemoryHealthGate.hook.ts",),
                         system=("MemoryTurnStart.hook.ts", "MemoryHealthGate.hook.ts"))
    result = run_cli(root=root)
    assert result.code == 2
    assert severities(result) == {"settings-hook-missing:MemoryTurnStart.hook.ts": "critical",
                                  "settings-hook-absent:MemoryReviewFire.hook.ts": "warn"}
    detail = result.finding("settings-hook-missing:MemoryTurnStart.hook.ts")["detail"]
    assert detail == {"system": str(root / "settings.system.json"), "live": str(root / "settings.json"),
                      "hook": "MemoryTurnStart.hook.ts"}


def test_settings_that_is_not_json_is_one_settings_invalid_finding_and_no_guesses(tmp_path):
    root = lifeos_native(copy_demo(tmp_path))
    (root / "settings.json").write_text("{not json")
    result = run_cli(root=root)
    assert result.code == 2
    found = result.finding("settings-invalid")
    assert found["severity"] == "critical" and (found["detail"]["line"], found["detail"]["column"]) == (1, 2)
    assert not [i for i in result.ids() if i.startswith(("hook-file-", "tool-file-", "settings-hook-", "settings-missing"))]
    assert not [i for i in result.report["ok_summary"] if i.startswith("install-")]


def test_settings_that_cannot_be_read_is_settings_missing_without_guesses(tmp_path):
    root = lifeos_native(copy_demo(tmp_path))
    (root / "settings.json").unlink()
    (root / "settings.json").mkdir()
    result = run_cli(root=root)
    assert result.finding("settings-missing:settings.json")["severity"] == "critical"
    assert [i for i in result.ids() if i.startswith(("hook-file-", "tool-file-", "settings-hook-"))] == []


def test_cortex_native_command_that_does_not_resolve_is_critical(tmp_path):
    root = copy_demo(tmp_path)
    settings = json.loads((root / "settings.json").read_text())
    settings["hooks"]["Stop"][0]["hooks"][0]["command"] = "/nowhere/bin/cortex review fire"
    del settings["hooks"]["UserPromptSubmit"][0]["hooks"][1]  # cortex recall no longer registered
    (root / "settings.json").write_text(json.dumps(settings))
    result = run_cli(root=root)
    assert result.code == 2
    assert severities(result) == {"hook-command-missing:Stop:/nowhere/bin/cortex": "critical",
                                  "settings-hook-absent:cortex recall": "warn"}
    assert "/nowhere/bin/cortex is not an executable file" in result.finding(
        "hook-command-missing:Stop:/nowhere/bin/cortex")["message"]


def test_cortex_native_commands_resolve_on_the_settings_env_path(tmp_path):
    root = copy_demo(tmp_path)
    settings = json.loads((root / "settings.json").read_text())
    settings["env"] = {"PATH": str(tmp_path / "empty-bin")}
    (root / "settings.json").write_text(json.dumps(settings))
    result = run_cli(root=root)
    assert result.code == 2
    assert set(severities(result)) == {"hook-command-missing:UserPromptSubmit:cortex", "hook-command-missing:Stop:cortex",
                                       "hook-command-missing:Stop:cortex-health"}


def test_subagent_flag_in_settings_env_or_hook_environment_is_critical(tmp_path):
    root = copy_demo(tmp_path)
    settings = json.loads((root / "settings.json").read_text())
    settings["env"] = {"CORTEX_SUBAGENT": "1"}
    (root / "settings.json").write_text(json.dumps(settings))
    result = run_cli(root=root)
    assert result.code == 2 and severities(result) == {"subagent-flag-in-main-session": "critical"}
    assert result.finding("subagent-flag-in-main-session")["detail"]["flags"] == [
        {"variable": "CORTEX_SUBAGENT", "value": "1", "where": "settings.json env"}]
    clean = copy_demo(tmp_path / "env")
    flagged = run_cli(root=clean, env=clean_env(CLAUDE_CODE_FORK_SUBAGENT="1"))
    assert severities(flagged) == {"subagent-flag-in-main-session": "critical"}


def write_writes(root: Path, ms: int) -> None:
    row = {"ts": iso(ms), "updated_by": "MemorySystem.add", "file": "DA_MEMORY.md", "prior_count": 1, "new_count": 2}
    (obs(root) / "memory-writes.jsonl").write_text(json.dumps(row) + "\n")


def test_delta_surface_dead_when_the_heartbeat_is_absent_or_a_day_behind(tmp_path):
    root = copy_demo(tmp_path)
    beat = memory(root) / "STATE" / "delta-surface-heartbeat"
    beat.unlink()
    result = run_cli(root=root)
    assert result.code == 2 and severities(result) == {"delta-surface-dead": "critical"}
    assert result.finding("delta-surface-dead")["detail"]["heartbeat"] == "never"
    beat.write_text(iso(NOW_MS - 30 * 60 * MINUTE_MS))
    write_writes(root, NOW_MS - 60 * MINUTE_MS)  # 29 h after the heartbeat
    result = run_cli(root=root)
    assert severities(result) == {"delta-surface-dead": "critical"}
    assert result.finding("delta-surface-dead")["detail"]["measured"] == 29 * 60 * MINUTE_MS
    alive = run_cli(root=root, env=clean_env(CORTEX_DELTA_SURFACE_LAG_MS=str(30 * 60 * MINUTE_MS)))
    assert alive.code == 0 and "delta-surface-alive" in alive.report["ok_summary"]


def transcript(root: Path, *turn_ms: int) -> None:
    folder = root / "projects" / "-home-ana-garden"
    folder.mkdir(parents=True, exist_ok=True)
    rows = []
    for ms in turn_ms:
        rows.append({"type": "user", "timestamp": iso(ms), "message": {"role": "user", "content": "hello"}})
        rows.append({"type": "user", "timestamp": iso(ms + 1000),
                     "message": {"content": [{"type": "tool_result", "content": "x"}]}})  # not a turn
        rows.append({"type": "assistant", "timestamp": iso(ms + 2000), "message": {"content": "hi"}})
    (folder / "session-1.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))


def test_silent_hooks_with_agent_activity_are_critical(tmp_path):
    root = copy_demo(tmp_path)
    transcript(root, NOW_MS - 50 * MINUTE_MS, NOW_MS - 10 * MINUTE_MS)
    result = run_cli(root=root)
    assert result.code == 2
    found = severities(result)
    # render's heartbeat is 11:41 (after both turns minus 30 min), recall's newest row 11:30; fire and gate never ran
    assert found == {"hook-silent:fire": "critical", "hook-silent:gate": "critical"}
    detail = result.finding("hook-silent:fire")["detail"]
    assert detail["turns_since"] == 2 and detail["last_heartbeat"] == "never"
    assert detail["newest_turn"] == iso(NOW_MS - 10 * MINUTE_MS)
    assert {"agent-active", "hook-alive:render", "hook-alive:recall"} <= set(result.report["ok_summary"])


def test_hooks_are_not_silent_when_the_agent_was_idle(tmp_path):
    root = copy_demo(tmp_path)
    transcript(root, NOW_MS - 8 * 24 * 60 * MINUTE_MS)  # older than the 7-day activity window
    result = run_cli(root=root)
    assert result.code == 0
    assert "agent-idle" in result.report["ok_summary"] and "hook-agent-idle:fire" in result.report["ok_summary"]
    fires = [{"ts": iso(NOW_MS - 5 * MINUTE_MS), "session": "s", "turns": 1, "started": False, "reason": "1/8 turns",
              "pid": None}]
    (obs(root) / "reviewer-fires.jsonl").write_text("".join(json.dumps(r) + "\n" for r in fires))
    transcript(root, NOW_MS - 10 * MINUTE_MS)
    result = run_cli(root=root, env=clean_env(CORTEX_HOOK_SILENCE_MS="600000"))
    # recall's newest row (11:30) is 20 min before the 11:50 turn: silent under a 10-min threshold
    assert severities(result) == {"hook-silent:gate": "critical", "hook-silent:recall": "critical"}
    assert result.finding("hook-silent:recall")["detail"]["threshold"] == 600000
    assert 19 * MINUTE_MS < result.finding("hook-silent:recall")["detail"]["measured"] < 20 * MINUTE_MS


def test_render_writes_the_surface_heartbeat(tmp_path):
    import subprocess
    import sys

    root = copy_demo(tmp_path)
    beat = memory(root) / "STATE" / "delta-surface-heartbeat"
    beat.unlink()
    env = clean_env(CORTEX_MEMORY_ROOT=str(memory(root)), CORTEX_NOW="2026-11-29T11:59:00Z")
    done = subprocess.run([sys.executable, "-m", "cortex", "hot", "render"], env=env, capture_output=True, text=True,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0 and done.stdout.startswith("<lifeos-memory>")
    assert beat.read_text() == "2026-11-29T11:59:00.000Z\n"
    assert run_cli(root=root).code == 0


def test_the_surface_heartbeat_is_swapped_in_whole_never_rewritten_in_place(tmp_path):
    from cortex.hot.surfacebeat import beat
    from cortex.layout import Layout

    root = copy_demo(tmp_path)
    state = memory(root) / "STATE"
    with open(state / "delta-surface-heartbeat") as held:  # a reader that opened the previous beat
        before = held.read()
        beat(Layout.from_memory_root(str(memory(root))), NOW_MS)  # written without fsync, still by rename
        held.seek(0)
        assert held.read() == before  # the reader's file was never touched: no torn mix of old and new
    assert (state / "delta-surface-heartbeat").read_text() == iso(NOW_MS) + "\n" != before
    assert not [path.name for path in state.iterdir() if path.name.endswith(".tmp")]


def test_new_ids_are_listed_and_explained(tmp_path):
    import subprocess
    import sys

    listed = subprocess.run([sys.executable, "-m", "health", "--list-checks"], env=clean_env(), capture_output=True,
                            text=True).stdout
    for template in ("hook-file-missing:{file}", "settings-hook-missing:{hook}", "hook-command-missing:{event}:{program}",
                     "delta-surface-dead", "hook-silent:{hook}", "subagent-flag-in-main-session"):
        assert template in listed
    explained = subprocess.run([sys.executable, "-m", "health", "explain", "hook-silent:fire",
                                "settings-hook-absent:cortex recall", "hook-command-missing:Stop:cortex"],
                               env=clean_env(), capture_output=True, text=True)
    assert explained.returncode == 0
    assert "hook-silent:fire (critical)" in explained.stdout and "hook_silence_ms = 30m (1800000 ms) (default)" in explained.stdout
    assert "settings-hook-absent:cortex recall (warn)" in explained.stdout


def test_every_format_renders_the_new_ids(tmp_path):
    import io

    from reports.formats import load, names
    from health.judge.catalogue.find import lookup
    from reports.report import from_document
    from tests.ops_support import audit_document

    root = copy_demo(tmp_path)
    settings = json.loads((root / "settings.json").read_text())
    del settings["hooks"]["UserPromptSubmit"][0]["hooks"][1]
    settings["hooks"]["Stop"][0]["hooks"][0]["command"] = "/nowhere/cortex review fire"
    (root / "settings.json").write_text(json.dumps(settings))
    (memory(root) / "STATE" / "delta-surface-heartbeat").unlink()
    document = audit_document(root)
    ids = {f["id"] for f in document["findings"]}
    assert {"settings-hook-absent:cortex recall", "hook-command-missing:Stop:/nowhere/cortex", "delta-surface-dead"} <= ids
    for name in names():
        out = io.StringIO()
        load(name).render(from_document(document, lookup=lookup), out, tty=False, verbose=True, environ={})
        text = out.getvalue()
        assert text.strip(), name
        if name not in ("statusline", "prometheus", "nagios"):  # those summarise: worst id or counts only
            assert "delta-surface-dead" in text, name


def test_install_and_heartbeats_judge_one_reading_of_settings_per_audit(tmp_path):
    from collectors.lifeos import heartbeats, install
    from collectors.lifeos.layout import Layout

    root = copy_demo(tmp_path)
    layout = Layout.for_root(str(root), environ=clean_env())
    assert install.collect(layout).kind == "cortex-native"
    (root / "settings.json").write_text("{}")  # changed between the two collectors of one audit
    registered = {beat.hook: beat.registered for beat in heartbeats.collect(layout).hooks}
    assert registered == {"render": True, "recall": True, "fire": True, "gate": True}
    assert layout.settings is layout.settings
    fresh = Layout.for_root(str(root), environ=clean_env())  # the next audit reads the file again
    assert not any(beat.registered for beat in heartbeats.collect(fresh).hooks)
