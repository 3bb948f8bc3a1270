"""The hook heartbeats' remembered line instants (collectors.readers.tailstamps): the verdict equals decoding every line."""
from __future__ import annotations

import json
import os

import pytest

from collectors.readers.tailstamps import tail_stamps
from tests.health_support import copy_demo, obs
from tests.collectors.test_health_incremental import DAMAGES, assert_same, cached, verdict

HEALTH_LOG = "memory-health.jsonl"


def with_history(root, rows: int = 30):
    """A gate history: report-like rows with their instants, one of them out of order, one not a row."""
    lines = [json.dumps({"schema": "cortex-health/v1", "ts": f"2026-11-29T{10 + i // 60:02d}:{i % 60:02d}:00.000Z",
                         "overall": "ok", "findings": [{"id": f"x{k}", "detail": {"n": [k]}} for k in range(40)]},
                        separators=(",", ":")) for i in range(rows)]
    lines.insert(rows // 2, '{"ts": "2026-11-29T11:58:00Z", "late": true}')
    lines.insert(3, "{not a row")
    (obs(root) / HEALTH_LOG).write_text("\n".join(lines) + "\n")
    return root


def memo_files(tmp_path) -> list:
    return sorted((tmp_path / "cache" / "audit").rglob("*.stamps"))


def gate_beat(report: dict) -> dict:
    return next(hook for hook in report["evidence"]["heartbeats"]["hooks"] if hook["hook"] == "gate")


def test_the_gate_beat_is_the_newest_instant_in_the_tail_remembered_or_not(tmp_path):
    root = with_history(copy_demo(tmp_path))
    full = assert_same(root, tmp_path)
    assert gate_beat(full)["heartbeat"]["raw"] == "2026-11-29T11:58:00Z"
    assert memo_files(tmp_path)


@pytest.mark.parametrize("damage", [name for name in DAMAGES if name != "line-of-20-mb"], ids=str)
def test_every_damage_to_the_log_is_read_as_decoding_every_line_would(tmp_path, damage):
    root = with_history(copy_demo(tmp_path))
    assert_same(root, tmp_path)
    DAMAGES[damage](obs(root) / HEALTH_LOG)
    assert_same(root, tmp_path)


@pytest.mark.parametrize("memo", [b"", b"{not json", b'{"format": "other", "log": "x", "stamps": {}}', b"[]",
                                  "directory", "stamp-that-is-not-an-instant", "private-span"])
def test_a_damaged_or_foreign_memo_is_never_trusted(tmp_path, memo):
    root = with_history(copy_demo(tmp_path))
    assert_same(root, tmp_path)
    (path,) = [p for p in memo_files(tmp_path) if "health" in json.loads(p.read_text())["log"]]
    if memo == "directory":
        path.unlink()
        path.mkdir()
    elif memo in ("stamp-that-is-not-an-instant", "private-span"):
        saved = json.loads(path.read_text())
        newest = max(saved["stamps"], key=lambda key: saved["stamps"][key] or "")
        saved["stamps"][newest] = "yesterday" if memo == "stamp-that-is-not-an-instant" else "<private>s</private>"
        path.write_text(json.dumps(saved))
    else:
        path.write_bytes(memo)
    assert assert_same(root, tmp_path) == verdict(root, cached(tmp_path))


def test_the_memo_keeps_instants_only_and_is_private(tmp_path):
    lines = [b'{"ts": "2026-11-29T10:00:00Z", "note": "<private>secret</private>"}', b'{"ts": "soon"}', b"[1]",
             b'{"ts": 5}', b"\xff"]
    folder = tmp_path / "memo"
    folder.mkdir(mode=0o700)
    log = str(tmp_path / "log.jsonl")
    assert tail_stamps(lines, log, str(folder)) == ["2026-11-29T10:00:00Z", None, None, None, None]
    assert tail_stamps(lines, log, str(folder)) == tail_stamps(lines, log, None)  # from the memo, then without one
    (memo,) = folder.iterdir()
    assert os.stat(memo).st_mode & 0o777 == 0o600
    saved = json.loads(memo.read_text())
    assert sorted(saved["stamps"].values(), key=str) == ["2026-11-29T10:00:00Z", None, None, None, None]
    assert "secret" not in memo.read_text()


@pytest.mark.parametrize("flip", ["newest-one-minute-later", "newest-a-year-earlier", "older-made-newest"])
def test_a_memo_with_a_flipped_digit_changes_no_evidence(tmp_path, flip):
    """Issue 21, defect 6: a memo edited into other valid instants is not believed (through the real CLI)."""
    from tests.health_support import run_cli
    from tests.collectors.test_health_incremental import comparable, uncached

    root = with_history(copy_demo(tmp_path))
    before = run_cli("--json", root=root, env=cached(tmp_path))
    (path,) = [p for p in memo_files(tmp_path) if "health" in json.loads(p.read_text())["log"]]
    saved = json.loads(path.read_text())
    ordered = sorted((value, key) for key, value in saved["stamps"].items() if value)
    newest_value, newest = ordered[-1]
    saved["stamps"][newest] = {"newest-one-minute-later": newest_value.replace(":58:", ":59:"),
                               "newest-a-year-earlier": newest_value.replace("2026", "2025"),
                               "older-made-newest": newest_value}[flip]
    if flip == "older-made-newest":
        saved["stamps"][ordered[0][1]] = newest_value.replace("11:58", "11:59")
    path.write_text(json.dumps(saved))
    after = run_cli("--json", root=root, env=cached(tmp_path))
    assert gate_beat(after.report) == gate_beat(before.report)
    assert comparable(after.report) == comparable(before.report) == comparable(
        run_cli("--json", root=root, env=uncached()).report)
