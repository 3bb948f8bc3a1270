"""Where copies of the report may go: one writer, one set of checks, on every path (exit 3 included).

--report-path and --prometheus-textfile refuse a symlink (never replaced), a directory, a missing
folder and anything inside a LIFEOS/ tree: memory, hot files, the reviewer's config, lock files.
"""
from __future__ import annotations

import io
import json
import os

import pytest

from health.cli import fail
from health.run import Options
from tests.health_support import copy_demo, hot, memory, run_cli

EXIT_UNKNOWN = 3


def _victim(tmp_path, name="victim.txt"):
    victim = tmp_path / name
    victim.write_text("keep me\n")
    return victim


def _unusable_root(tmp_path):
    return str(tmp_path / "nowhere")  # no such directory: the auditor cannot run (exit 3)


def test_exit_3_does_not_replace_a_symlinked_textfile(tmp_path):
    victim = _victim(tmp_path)
    link = tmp_path / "cortex_health.prom"
    os.symlink(victim, link)
    result = run_cli("--root", _unusable_root(tmp_path), "--prometheus-textfile", str(link), now=None)
    assert result.code == EXIT_UNKNOWN and result.report["overall"] == "unknown"
    assert os.path.islink(link) and os.readlink(link) == str(victim) and victim.read_text() == "keep me\n"
    assert f"prometheus textfile not written: refused: {link} is a symlink" in result.stderr
    assert sorted(os.listdir(tmp_path)) == ["cortex_health.prom", "victim.txt"]  # no temp file left


def test_exit_3_does_not_write_into_a_lifeos_tree(tmp_path):
    tree = copy_demo(tmp_path)
    target = memory(tree) / "cortex_health.prom"
    target.write_text("cortex_health_overall 0\n")
    result = run_cli("--root", _unusable_root(tmp_path), "--prometheus-textfile", str(target), now=None)
    assert result.code == EXIT_UNKNOWN
    assert target.read_text() == "cortex_health_overall 0\n"
    assert "inside a LIFEOS folder" in result.stderr


def test_exit_3_of_a_real_root_checks_its_lifeos_tree(tmp_path):
    """The exit-3 function itself (a real root cannot be made to fail through the CLI on purpose)."""
    root = copy_demo(tmp_path)
    target = memory(root) / "OBSERVABILITY" / "cortex_health.prom"
    target.write_text("old\n")
    stdout, stderr = io.StringIO(), io.StringIO()
    options = Options(root=str(root), prometheus_textfile=str(target))
    assert fail("internal error: boom", stdout, stderr, options=options, environ={}) == EXIT_UNKNOWN
    assert target.read_text() == "old\n" and json.loads(stdout.getvalue())["overall"] == "unknown"
    assert f"inside the LifeOS tree {root / 'LIFEOS'}" in stderr.getvalue()
    outside = tmp_path / "metrics" / "cortex_health.prom"
    outside.parent.mkdir()
    fail("internal error: boom", io.StringIO(), io.StringIO(), options=Options(root=str(root),
                                                                             prometheus_textfile=str(outside)))
    assert "cortex_health_overall 3" in outside.read_text()  # monitoring still sees "unknown"


@pytest.mark.parametrize("where", ["reviewer-config", "hot-lock", "user-folder", "lifeos-top", "via-alias"])
@pytest.mark.parametrize("flag", ["--report-path", "--prometheus-textfile"])
def test_copies_refuse_the_whole_lifeos_tree(tmp_path, where, flag):
    root = copy_demo(tmp_path)
    lifeos = root / "LIFEOS"
    config = lifeos / "USER" / "CONFIG" / "memory-review.json"
    config.parent.mkdir(parents=True)
    config.write_text('{"enabled": true}\n')
    suffix = ".prom" if flag == "--prometheus-textfile" else ""
    target = {
        "reviewer-config": config.with_name(config.name + suffix),
        "hot-lock": hot(root, "principal").with_name("PRINCIPAL_MEMORY.md.lock" + suffix),
        "user-folder": lifeos / "USER" / f"report.json{suffix}",
        "lifeos-top": lifeos / f"report.json{suffix}",
        "via-alias": tmp_path / "alias" / f"report.json{suffix}",
    }[where]
    if where == "via-alias":
        os.symlink(lifeos / "USER", tmp_path / "alias")
    if where == "reviewer-config" and suffix:
        target.write_text("keep\n")
    before = {path: path.read_bytes() for path in lifeos.rglob("*") if path.is_file()}
    result = run_cli(flag, str(target), root=root)
    refusal = "report-path-refused" if flag == "--report-path" else "prometheus-textfile-refused"
    finding = result.finding(refusal)
    assert finding["severity"] == "critical" and "LifeOS tree" in finding["detail"]["reason"]
    assert result.code == 2
    assert {path: path.read_bytes() for path in lifeos.rglob("*") if path.is_file()} == before


def test_a_lock_file_written_by_a_report_would_block_hot_writes_so_it_is_refused(tmp_path):
    root = copy_demo(tmp_path)
    lock = hot(root, "principal").with_name("PRINCIPAL_MEMORY.md.lock")
    result = run_cli("--report-path", str(lock), root=root)
    assert "report-path-refused" in result.ids() and not lock.exists()


def test_copies_outside_the_tree_are_still_written(tmp_path):
    root = copy_demo(tmp_path)
    reports = tmp_path / "reports"
    reports.mkdir()
    result = run_cli("--report-path", str(reports / "h.json"), "--prometheus-textfile", str(reports / "h.prom"),
                     root=root)
    assert result.code == 0 and json.loads((reports / "h.json").read_text()) == result.report
    assert "cortex_health_overall 0" in (reports / "h.prom").read_text()


@pytest.mark.parametrize("how", ["report-path", "prometheus-textfile", "setup-write"])
def test_a_writer_leaves_temp_like_files_it_did_not_make(tmp_path, how):
    """Issue 21, defect 11: files named like a dead writer's temp (.X.<pid>.Y.tmp) in DEST's folder are not ours."""
    from cortex.core.durable import _check
    from tests.liveness_scenarios import dead_pid
    from tests.ops_support import health

    out = tmp_path / "out"
    out.mkdir()
    dest = out / {"report-path": "report.json", "prometheus-textfile": "cortex_health.prom",
                  "setup-write": "settings.json"}[how]
    pid = dead_pid()
    planted = [f".{dest.name}.{pid}.x.tmp", f".{dest.name}.{pid}.0123abcd.tmp", f".notes.md.{pid}.ffff0000.tmp",
               f".{dest.name}.{pid}.{'0' * 16}.tmp"]
    for name in planted:
        (out / name).write_text("mine, not the writer's\n")
    dead_writers = f".{dest.name}.{pid}.0badc0de{_check(dest.name, str(pid), '0badc0de')}.tmp"
    (out / dead_writers).write_text("left by a writer that was killed\n")  # provably ours: swept
    if how == "setup-write":
        assert health("setup", "claude-code", "--write", str(dest)).returncode == 0
    else:
        assert run_cli(f"--{how}", str(dest), root=copy_demo(tmp_path)).code == 0
    assert sorted(os.listdir(out)) == sorted(planted + [dest.name])
    assert all((out / name).read_text() == "mine, not the writer's\n" for name in planted)
