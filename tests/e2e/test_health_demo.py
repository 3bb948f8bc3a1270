"""The bundled demo tree is healthy through the real CLI, whatever its files' mtimes."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import jsonschema

from tests.health_support import DAY_MS, DEMO, NOW, NOW_MS, REPO, SCHEMA_FILE, clean_env, copy_demo, run_cli, set_mtimes


def test_demo_tree_is_healthy_with_the_fixed_clock(tmp_path):
    result = run_cli(root=copy_demo(tmp_path))
    assert result.code == 0, result.stdout
    report = result.report
    assert report["overall"] == "ok"
    assert report["findings"] == []
    assert report["counts"] == {"critical": 0, "warn": 0, "ok": len(report["ok_summary"])}
    assert report["ts"] == "2026-11-29T12:00:00.000Z"
    assert set(report["evidence"]) == {"reviewer", "retrieval", "proposals", "observability", "index",
                                       "hot_memory", "hot_content", "hook_latency", "review_state", "memory_root", "install", "heartbeats", "review_cadence", "reviewer_lifecycle", "dispatch_failures", "locks",
                                       "health_history", "search_cache", "hook_failures", "reviewer_config", "corpus"}
    assert {"reviewer-fresh", "index-no-index-v1", "markers-ok:principal", "cap-ok:da", "install-cortex-native",
            "hook-command-resolved:Stop:cortex-health", "delta-surface-alive", "agent-idle"} <= set(report["ok_summary"])


def test_readme_command_on_the_checked_out_tree_exits_0():
    # The fixture as checked out: mtimes are "checkout time", i.e. after --now.
    completed = subprocess.run(
        [sys.executable, "-m", "health", "--root", str(DEMO), "--now", NOW, "--no-write", "--format", "text"],
        capture_output=True, text=True, env=clean_env(), cwd=REPO)
    assert completed.returncode == 0, completed.stdout
    assert "cortex-health OK" in completed.stdout
    assert not (DEMO / "LIFEOS" / "MEMORY" / "OBSERVABILITY" / "memory-health.jsonl").exists()


def test_auditing_the_demo_without_no_write_leaves_no_untracked_file_in_a_clone(tmp_path):
    """What an audit publishes into the demo (health log, its checkpoint, locks) is ignored by git."""
    clone = tmp_path / "clone"
    shutil.copytree(DEMO, clone / "fixtures" / "demo")
    shutil.copy(REPO / ".gitignore", clone / ".gitignore")

    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(clone), *args], capture_output=True, text=True, check=True,
                              env={**clean_env(), "GIT_CONFIG_GLOBAL": os.devnull}).stdout

    git("init", "-q")
    git("add", "-A")
    git("-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "demo")
    for _ in range(2):  # the second run extends the chain (the checkpoint is rewritten)
        subprocess.run([sys.executable, "-m", "health", "--root", str(clone / "fixtures" / "demo"), "--now", NOW],
                       capture_output=True, env=clean_env(), cwd=REPO, timeout=60)
    observability = clone / "fixtures" / "demo" / "LIFEOS" / "MEMORY" / "OBSERVABILITY"
    assert (observability / "memory-health.jsonl").exists() and (observability / "memory-health.checkpoint").exists()
    assert git("status", "--porcelain", "--untracked-files=all") == ""


def test_future_mtimes_are_age_zero_and_reported(tmp_path):
    root = copy_demo(tmp_path)
    set_mtimes(root, NOW_MS + 400 * DAY_MS)
    result = run_cli(root=root)
    assert result.code == 0
    assert "observability-age-ok" in result.report["ok_summary"]


def test_old_checkout_mtimes_would_be_caught(tmp_path):
    root = copy_demo(tmp_path)
    set_mtimes(root, NOW_MS - 31 * DAY_MS)
    result = run_cli(root=root)
    assert result.code == 1
    assert result.finding("observability-age-exceeded")["severity"] == "warn"


def test_console_script_and_module_print_identical_reports(tmp_path):
    root = copy_demo(tmp_path)
    script = shutil.which("cortex-health", path=os.path.dirname(sys.executable)) or shutil.which("cortex-health")
    assert script, "cortex-health console script is not installed next to this interpreter"
    completed = subprocess.run([script, "--root", str(root), "--now", NOW, "--no-write", "--json"],
                               capture_output=True, text=True, env=clean_env())
    module = run_cli("--json", root=root)
    assert completed.returncode == module.code == 0
    first, second = json.loads(completed.stdout), module.report
    first.pop("duration_ms"), second.pop("duration_ms")
    assert first == second


def test_demo_report_validates_against_the_published_schema(tmp_path):
    schema = json.loads(SCHEMA_FILE.read_text())
    jsonschema.Draft202012Validator(schema).validate(run_cli(root=copy_demo(tmp_path)).report)
