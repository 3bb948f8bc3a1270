"""Publication: the memory-health.jsonl line (= stdout, locked, never interleaved) and --report-path."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from collectors.lifeos.layout import Layout
from health.publish import destination_problem, write_atomically
from tests import health_scenarios as s
from tests.health_support import NOW, REPO, clean_env, copy_demo, hot, memory, obs, run_cli


def test_appended_line_equals_stdout(tmp_path):
    root = copy_demo(tmp_path)
    result = run_cli("--json", root=root, write=True)
    lines = (obs(root) / "memory-health.jsonl").read_text().splitlines()
    assert len(lines) == 1 and lines[0].startswith(result.stdout.rstrip("\n")[:-1] + ',"chain":{"seq":1,')
    assert result.code == 0


def test_no_write_flag_and_env_prevent_the_append(tmp_path):
    root = copy_demo(tmp_path)
    run_cli(root=root)
    run_cli(root=root, write=True, env=clean_env(CORTEX_HEALTH_NO_WRITE="1"))
    assert not (obs(root) / "memory-health.jsonl").exists()
    run_cli(root=root, write=True, env=clean_env(CORTEX_HEALTH_NO_WRITE="0"))
    assert len((obs(root) / "memory-health.jsonl").read_text().splitlines()) == 1


def test_concurrent_runs_never_interleave(tmp_path):
    root = copy_demo(tmp_path)
    argv = [sys.executable, "-m", "health", "--root", str(root), "--now", NOW, "--json"]
    procs = [subprocess.Popen(argv, stdout=subprocess.PIPE, env=clean_env(), cwd=REPO) for _ in range(8)]
    outputs = [proc.communicate(timeout=60)[0].decode().rstrip("\n") for proc in procs]
    lines = [json.loads(line) for line in (obs(root) / "memory-health.jsonl").read_text().splitlines()]
    assert sorted(line.pop("chain")["seq"] for line in lines) == list(range(1, 9))
    assert sorted(map(json.dumps, lines)) == sorted(json.dumps(json.loads(output)) for output in outputs)
    assert all(line["schema"] == "cortex-health/v1" for line in lines)


def test_append_failure_is_a_warning_in_the_printed_report(tmp_path):
    root = copy_demo(tmp_path)
    s.health_log_directory(root)
    result = run_cli(root=root, write=True)
    assert result.finding("health-log-append-failed")["severity"] == "warn"
    assert result.code == 1


def test_report_path_is_written_atomically(tmp_path):
    root = copy_demo(tmp_path)
    target = tmp_path / "out" / "health.json"
    target.parent.mkdir()
    target.write_text("previous report\n")
    result = run_cli("--report-path", str(target), root=root)
    assert json.loads(target.read_text()) == result.report
    assert sorted(os.listdir(target.parent)) == ["health.json"]  # no temp file left behind


def test_report_path_from_environment(tmp_path):
    target = tmp_path / "env-report.json"
    result = run_cli(root=copy_demo(tmp_path), env=clean_env(CORTEX_HEALTH_REPORT_PATH=str(target)))
    assert json.loads(target.read_text())["overall"] == result.report["overall"] == "ok"


def _symlink(tmp_path, root):
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me\n")
    link = tmp_path / "link.json"
    os.symlink(victim, link)
    return link, victim


@pytest.mark.parametrize("target", ["symlink", "directory", "knowledge", "observability", "hot", "missing-folder"])
def test_report_path_refusals_overwrite_nothing(tmp_path, target):
    root = copy_demo(tmp_path)
    protected = None
    if target == "symlink":
        path, protected = _symlink(tmp_path, root)
    elif target == "directory":
        path = tmp_path / "a-dir"
        path.mkdir()
    elif target == "knowledge":
        path = protected = memory(root) / "KNOWLEDGE" / "frost-dates.md"
    elif target == "observability":
        path = protected = obs(root) / "review-state.json"
    elif target == "hot":
        path = protected = hot(root, "da")
    else:
        path = tmp_path / "no-such-folder" / "r.json"
    before = protected.read_bytes() if protected else None
    result = run_cli("--report-path", str(path), root=root)
    assert result.finding("report-path-refused")["severity"] == "critical"
    assert result.code == 2
    if protected:
        assert protected.read_bytes() == before
    if target == "directory":
        assert os.listdir(path) == []


def test_hot_file_reached_through_a_symlinked_folder_is_refused(tmp_path):
    root = copy_demo(tmp_path)
    alias = tmp_path / "alias"
    os.symlink(hot(root, "principal").parent, alias)
    assert "inside the LifeOS tree" in destination_problem(str(alias / "PRINCIPAL_MEMORY.md"), Layout.for_root(str(root)))


def test_write_atomically_reports_instead_of_raising(tmp_path):
    assert "cannot create a temporary file" in write_atomically(str(tmp_path / "none" / "r.json"), "{}")
