"""Incremental audits (issue 13): the verdict with log cursors equals a full read, after any append or damage.

Each test audits a real tree in-process with its cursors in tmp_path, changes the tree, and
compares the whole report (minus its duration) with a run that has caching off.
"""
from __future__ import annotations

import json
import os
import shutil
import stat
import subprocess
import sys

import pytest

from collectors.lifeos import proposals, retrieval, reviewer
from collectors.lifeos.layout import Layout
from collectors.readers.cursors import checked_ranges
from health.run import Options, audit
from tests import health_scenarios as scenarios, liveness_scenarios as live
from tests.health_support import NOW, NOW_MS, REPO, clean_env, copy_demo, obs, run_cli, wait_for_gate
from tests.liveness_scenarios import MINUTE_MS
from tests.health.test_health_findings import SCENARIOS

LOGS = ("reviewer-runs.jsonl", "memory-retrievals.jsonl", "pending-proposals.jsonl")


def verdict(root, env) -> dict:
    return comparable(audit(Options(root=str(root), now=NOW, no_write=True), env).document())


def comparable(document: dict) -> dict:
    """The report minus its duration and the search cache's check: CORTEX_CACHE=off turns that cache
    off too, which its check rightly reports (search-cache-off vs -absent); the verdict on the logs stays."""
    document.pop("duration_ms", None)
    document["evidence"].pop("search_cache", None)
    document["ok_summary"] = [name for name in document["ok_summary"] if not name.startswith("search-cache-")]
    assert not [f for f in document["findings"] if f["id"].startswith("search-cache-")]
    return document


def cached(tmp_path) -> dict:
    return clean_env(CORTEX_CACHE_DIR=str(tmp_path / "cache"))


def uncached() -> dict:
    return clean_env(CORTEX_CACHE="off")


def cursor_files(tmp_path) -> list:
    folder = tmp_path / "cache" / "audit"
    return sorted(folder.rglob("*.json")) if folder.exists() else []


def padded(root, rows: int = 600):
    """The demo tree with each parsed log grown to hundreds of KiB (its own first row repeated, its last rows kept)."""
    for name in LOGS:
        path = obs(root) / name
        lines = path.read_bytes().splitlines(keepends=True)
        path.write_bytes(lines[0] * rows + b"".join(lines))
    return root


def assert_same(root, tmp_path) -> dict:
    full = verdict(root, uncached())
    assert verdict(root, cached(tmp_path)) == full  # from the cursors left by the previous audit
    assert verdict(root, cached(tmp_path)) == full  # from the cursors this audit left
    return full


@pytest.mark.parametrize("mutate,env", [(row[3], row[4]) for row in SCENARIOS],
                         ids=[f"{row[0]}/{row[3].__name__}" for row in SCENARIOS])
def test_every_scenario_after_a_remembered_healthy_audit(tmp_path, mutate, env):
    root = copy_demo(tmp_path)
    assert verdict(root, cached(tmp_path)) == verdict(root, uncached())
    extra = mutate(root) or []
    if extra:  # command-line options: through the real CLI
        reports = [comparable(run_cli(*extra, root=root, env={**base, **env}).report)
                   for base in (uncached(), cached(tmp_path))]
        assert reports[0] == reports[1]
        return
    full = verdict(root, {**uncached(), **env})
    assert verdict(root, {**cached(tmp_path), **env}) == full


def append(path, data: bytes) -> None:
    with open(path, "ab") as handle:
        handle.write(data)


def rewrite_at(path, offset: int, data: bytes) -> None:
    with open(path, "r+b") as handle:
        handle.seek(offset)
        handle.write(data)


def rotate(path) -> None:
    fresh = path.with_name(path.name + ".new")
    fresh.write_bytes(path.read_bytes()[-400:].split(b"\n", 1)[1])
    os.replace(fresh, path)


DAMAGES = {
    "append-rows": lambda p: append(p, p.read_bytes().splitlines(keepends=True)[-1] * 3),
    "append-malformed": lambda p: append(p, b"{not json\n"),
    "half-written-last-line": lambda p: append(p, b'{"ts": "2026-11-29T11:59:00Z", "ok": tr'),
    "truncate": lambda p: os.truncate(p, p.stat().st_size // 2),
    "truncate-to-nothing": lambda p: os.truncate(p, 0),
    "rewrite-same-size-head": lambda p: rewrite_at(p, 2, b"#"),
    "rewrite-same-size-tail": lambda p: rewrite_at(p, p.stat().st_size - 5, b"#"),
    "rotate": rotate,
    "invalid-utf8": lambda p: append(p, b'{"a": "\xff\xfe"}\n'),
    "nan-and-duplicate-keys": lambda p: append(p, b'{"a": NaN}\n{"a": 1, "a": 2}\n'),
    "deep-nesting": lambda p: append(p, b'{"a":' + b"[" * 70 + b"]" * 70 + b"}\n"),
    "line-of-20-mb": lambda p: append(p, b'{"pad": "' + b"x" * (20 << 20) + b'"}\n'),
    "blank-and-crlf-lines": lambda p: append(p, b"\n\r\n" + p.read_bytes().splitlines()[-1] + b"\r\n"),
    "symlink-to-dev-zero": lambda p: (p.unlink(), os.symlink("/dev/zero", p)),
    "directory": lambda p: (p.unlink(), p.mkdir()),
    "fifo": lambda p: (p.unlink(), os.mkfifo(p)),
    "deleted": lambda p: p.unlink(),
}


@pytest.mark.parametrize("damage", DAMAGES, ids=list(DAMAGES))
def test_every_damage_is_read_as_a_full_read_would(tmp_path, damage):
    root = padded(copy_demo(tmp_path))
    assert_same(root, tmp_path)
    assert len(cursor_files(tmp_path)) == len(LOGS)
    for name in LOGS:
        DAMAGES[damage](obs(root) / name)
    assert_same(root, tmp_path)


def test_a_half_written_line_completed_later(tmp_path):
    root = padded(copy_demo(tmp_path))
    path = obs(root) / "memory-retrievals.jsonl"
    last = path.read_bytes().splitlines(keepends=True)[-1]
    append(path, last[:20])
    assert_same(root, tmp_path)
    append(path, last[20:])
    full = assert_same(root, tmp_path)
    assert full["evidence"]["retrieval"]["malformed_total"] == 0


def test_truncated_then_grown_past_the_cursor_is_noticed(tmp_path):
    root = padded(copy_demo(tmp_path))
    path = obs(root) / "pending-proposals.jsonl"
    assert_same(root, tmp_path)
    size = path.stat().st_size
    os.truncate(path, 0)
    append(path, b'{"id": "p", "status": "pending"}\n' * (size // 30))
    assert_same(root, tmp_path)


def unsampled_line(path) -> int:
    """The start of a line that no digest range of the cursor covers."""
    data = path.read_bytes()
    ranges = checked_ranges(len(data))
    position = 0
    for line in data.splitlines(keepends=True):
        if all(position + len(line) <= start or position >= start + length for start, length in ranges):
            return position
        position += len(line)
    raise AssertionError("every line is sampled")


def test_repeat_audit_reads_only_the_appended_bytes(tmp_path):
    # The documented limit, used here as proof: a same-size edit that no sampled range covers is
    # not seen through a cursor, because the remembered prefix is not read again.
    root = padded(copy_demo(tmp_path), rows=3000)
    path = obs(root) / "reviewer-runs.jsonl"
    assert_same(root, tmp_path)
    rewrite_at(path, unsampled_line(path), b"#")
    assert verdict(root, uncached())["evidence"]["reviewer"]["malformed_total"] == 1
    assert verdict(root, cached(tmp_path))["evidence"]["reviewer"]["malformed_total"] == 0


def test_the_gate_reads_only_what_was_appended(tmp_path):
    root = padded(copy_demo(tmp_path), rows=3000)
    path = obs(root) / "reviewer-runs.jsonl"
    gate = [sys.executable, "-m", "health", "gate", "--timeout", "30", "--root", str(root), "--now", NOW]
    subprocess.run(gate, env=cached(tmp_path), check=True, capture_output=True, timeout=60)
    wait_for_gate(root)  # its check runs detached
    rewrite_at(path, unsampled_line(path), b"#")
    subprocess.run(gate, env=cached(tmp_path), check=True, capture_output=True, timeout=60)
    wait_for_gate(root)
    lines = (obs(root) / "memory-health.jsonl").read_text().splitlines()
    assert [json.loads(line)["evidence"]["reviewer"]["malformed_total"] for line in lines] == [0, 0]
    assert run_cli(root=root, env=uncached()).report["evidence"]["reviewer"]["malformed_total"] == 1


def test_cursor_files_are_private_and_bad_ones_are_ignored(tmp_path):
    root = padded(copy_demo(tmp_path))
    full = assert_same(root, tmp_path)
    files = cursor_files(tmp_path)
    assert {stat.S_IMODE(f.stat().st_mode) for f in files} == {0o600}
    assert stat.S_IMODE(files[0].parent.stat().st_mode) == 0o700
    text = b"".join(f.read_bytes() for f in files)
    assert b"transcript" not in text and b"projects/" not in text  # derived evidence only, never a row's text
    for index, path in enumerate(files):
        path.write_bytes([b"", b"{", b"[]", b'{"format": "other"}', b"\xff"][index % 5])
    assert verdict(root, cached(tmp_path)) == full


def test_an_unwritable_cursor_folder_means_full_reads(tmp_path):
    root = padded(copy_demo(tmp_path))
    (tmp_path / "cache").write_text("not a folder")
    assert verdict(root, cached(tmp_path)) == verdict(root, uncached())


def test_caching_off_leaves_no_cursor(tmp_path):
    root = copy_demo(tmp_path)
    verdict(root, clean_env(CORTEX_CACHE_DIR=str(tmp_path / "cache"), CORTEX_CACHE="off"))
    assert cursor_files(tmp_path) == []


def test_collectors_resume_to_the_same_evidence(tmp_path):
    root = padded(copy_demo(tmp_path))
    layout = Layout.for_root(str(root))
    remembered = layout._replace(cursors=str(tmp_path))
    for module in (reviewer, retrieval, proposals):
        assert module.collect(remembered) == module.collect(layout)
        assert module.collect(remembered) == module.collect(layout)  # resumed from its cursor


def test_dense_context_access_logs_resume_to_the_full_read(tmp_path):
    root = tmp_path / "cortex"
    shutil.copytree(REPO / "fixtures" / "dense-context", root, symlinks=True)
    log = root / "context" / "projects" / "alpha" / "_meta" / "access-log.jsonl"
    log.write_bytes(log.read_bytes() * 2000)  # past 128 KiB: the sampled digests are in play
    assert_same(root, tmp_path)
    assert cursor_files(tmp_path)
    append(log, b'{"file":"K-001.md","tool":"Read","ts":"2026-11-28T08:00:00.000Z"}\n{"file":"x","tool":"Read"}\n')
    assert_same(root, tmp_path)
    for damage in ("rewrite-same-size-tail", "truncate", "rotate", "half-written-last-line"):
        DAMAGES[damage](log)
        assert_same(root, tmp_path)


def test_without_orjson_every_line_takes_the_strict_decoder_with_the_same_verdict(tmp_path):
    root = padded(copy_demo(tmp_path))
    for name in LOGS:
        append(obs(root) / name, b'{"a": 1, "a": 2}\n{"b": "\\ud800"}\n')
    args = ["--root", str(root), "--now", NOW, "--no-write", "--json"]
    code = ("import runpy, sys; sys.modules['orjson'] = None; sys.argv = ['health', *sys.argv[1:]]; "
            "runpy.run_module('health', run_name='__main__')")
    without = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=uncached(),
                             timeout=60)
    report = comparable(json.loads(without.stdout))
    assert report == verdict(root, uncached())
    assert report["evidence"]["reviewer"]["malformed_total"] == 2


@pytest.mark.parametrize("now", ["2026-11-01T00:00:00Z", "2027-06-01T00:00:00Z"])
def test_one_cursor_serves_any_clock_and_thresholds(tmp_path, now):
    root = padded(copy_demo(tmp_path))
    assert_same(root, tmp_path)  # cursors written at NOW
    options = Options(root=str(root), now=now, no_write=True, thresholds=(("proposal_backlog", "1"),))
    full = comparable(audit(options, uncached()).document())
    assert comparable(audit(options, cached(tmp_path)).document()) == full


@pytest.mark.parametrize("mutate", [live.reviewer_interrupted, live.reviewer_interrupted_thrice,
                                    live.reviewer_only_skips, live.reviewer_spawn_lost])
def test_reviewer_lifecycle_after_the_runs_log_was_remembered(tmp_path, mutate):
    root = padded(copy_demo(tmp_path), rows=2000)
    assert_same(root, tmp_path)
    mutate(root)
    assert_same(root, tmp_path)
    live.reviewer_interrupted(root)  # a new start after the cursor: its terminal row is looked up again
    with open(obs(root) / "reviewer-runs.jsonl", "a") as log:
        log.write(json.dumps({"runId": live.run_id(NOW_MS - MINUTE_MS), "ok": False, "error": "x"}) + "\n")
    assert_same(root, tmp_path)


def test_a_run_id_older_than_the_remembered_ones_is_looked_up_in_full(tmp_path):
    root = copy_demo(tmp_path)
    early = NOW_MS - 20_000 * MINUTE_MS
    rows = [{"runId": live.run_id(early + n * MINUTE_MS), "ok": False, "error": "x"} for n in range(9000)]
    with open(obs(root) / "reviewer-runs.jsonl", "a") as log:
        log.writelines(json.dumps(row) + "\n" for row in rows)
    live.write_log(root, "reviewer-starts.jsonl", [live.start_row(early, live.dead_pid())])
    full = assert_same(root, tmp_path)
    assert full["evidence"]["reviewer_lifecycle"]["starts"][0]["terminal"] is True


def test_private_spans_in_malformed_lines_reach_neither_report_nor_cursor(tmp_path):
    root = padded(copy_demo(tmp_path))
    for name in LOGS:
        append(obs(root) / name, b'{"k<private>SECRET</private>": 1, "k<private>SECRET</private>": 2}\n')
    full = assert_same(root, tmp_path)
    assert "SECRET" not in json.dumps(full)
    assert full["evidence"]["reviewer"]["malformed"][0]["reason"] == "duplicate key 'k'"
    assert not any(b"SECRET" in path.read_bytes() for path in cursor_files(tmp_path))


def cursor_of(tmp_path, aggregate: str):
    (path,) = [p for p in cursor_files(tmp_path) if json.loads(p.read_bytes())["aggregate"] == aggregate]
    return path


@pytest.mark.parametrize("edit", [
    lambda cursor: cursor["state"].update(pending=0),
    lambda cursor: cursor["state"].update(pending=cursor["state"]["pending"] - 1),
    lambda cursor: cursor["scan"].update(rows=cursor["scan"]["rows"] + 5),
    lambda cursor: cursor.update(lines=cursor["lines"] + 1),
], ids=["pending-zero", "pending-one-lower", "more-rows", "more-lines"])
def test_a_cursor_edited_into_other_valid_json_is_not_believed(tmp_path, edit):
    """Issue 21, defect 6: a lowered pending count in a backlog tree's cursor must not turn it green."""
    root = copy_demo(tmp_path)
    scenarios.proposals_backlog(root)
    first = run_cli("--json", root=root, env=cached(tmp_path))
    assert first.code == 1 and first.finding("proposal-backlog-high")["severity"] == "warn"
    path = cursor_of(tmp_path, proposals.PendingCount.key)
    cursor = json.loads(path.read_bytes())
    edit(cursor)
    path.write_text(json.dumps(cursor, separators=(",", ":")))
    again = run_cli("--json", root=root, env=cached(tmp_path))
    assert again.code == 1 and again.finding("proposal-backlog-high")["severity"] == "warn"
    assert comparable(again.report) == comparable(run_cli("--json", root=root, env=uncached()).report)


def test_a_root_reached_through_a_symlink_keeps_memos_of_its_own_and_the_same_verdict(tmp_path):
    """Memos are named by the path as given: the alias and the real root each resume their own, both correctly."""
    root = copy_demo(tmp_path)
    alias = tmp_path / "alias"
    os.symlink(root, alias)
    log = obs(root) / "memory-retrievals.jsonl"
    last = log.read_bytes().splitlines(keepends=True)[-1]
    for path in (root, alias, root, alias):
        append(log, last)
        assert verdict(path, cached(tmp_path)) == verdict(path, uncached())
    names = {json.loads(cursor.read_bytes())["log"] for cursor in cursor_files(tmp_path)}
    assert str(log) in names and str(alias / log.relative_to(root)) in names
