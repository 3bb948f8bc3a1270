"""`cortex-health history` and the reverse reader under it: rows, trend, streaks, flapping, malformed lines, bounded reads."""
from __future__ import annotations

import json
import os

import pytest

from collectors.healthlog.read import ReverseLines, newest_report
from tests.health_support import copy_demo
from tests.ops_support import health, health_log, publish_runs


@pytest.fixture(scope="module")
def history_root(tmp_path_factory):
    """Eight runs: ok, warn, ok, warn, ok, warn, a malformed line, warn (+ cap pressure)."""
    root = copy_demo(tmp_path_factory.mktemp("history"))
    publish_runs(root, [7])
    publish_runs(root, [6], proposal_backlog="1")
    publish_runs(root, [5])
    publish_runs(root, [4], proposal_backlog="1")
    publish_runs(root, [3])
    publish_runs(root, [2], proposal_backlog="1")
    with open(health_log(root), "a") as handle:
        handle.write("not json at all\n")
    publish_runs(root, [1], proposal_backlog="1", cap_pressure="5")
    return root


def test_history_text_rows_trend_streaks_flapping_and_malformed(history_root):
    done = health("history", "--root", str(history_root))
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert lines[0].startswith("cortex-health history: 8 run(s) from ") and lines[0].endswith("(oldest first)")
    assert lines[2].startswith("2026-11-29T11:53:00.000Z  ok            0    0   64")
    assert "line 2 from the end: invalid JSON" in done.stdout
    assert "trend: ▁▄▁▄▁▄·▄   (oldest → newest" in done.stdout
    assert "failing: proposal-backlog-high (warn) for 2 run(s), since 2026-11-29T11:58:00.000Z" in done.stdout
    assert "failing: cap-pressure:da (warn) for 1 run(s), since 2026-11-29T11:59:00.000Z" in done.stdout
    assert "flapping: proposal-backlog-high changed state 5 times in 8 runs" in done.stdout
    assert "malformed: 1 line(s) are not cortex-health reports" in done.stdout


def test_history_last_n_and_json(history_root):
    done = health("history", "--root", str(history_root), "--last", "3", "--json")
    body = json.loads(done.stdout)
    assert done.returncode == 0 and body["trend"] == "▄·▄" and body["truncated"] is False
    assert [row.get("overall") for row in body["runs"]] == ["warn", None, "warn"]
    assert body["runs"][1] == {"position": 2, "malformed": "invalid JSON: Expecting value at column 1"}
    assert body["failing"][0]["id"] == "proposal-backlog-high" and body["failing"][0]["whole_window"] is True
    assert body["flapping"] == []


def test_history_without_a_log_and_with_an_unreadable_one(tmp_path):
    root = copy_demo(tmp_path)
    empty = health("history", "--root", str(root))
    assert empty.returncode == 0 and "no run recorded yet" in empty.stdout
    health_log(root).mkdir()
    broken = health("history", "--root", str(root))
    assert broken.returncode == 3 and "cannot read" in broken.stderr and "not a regular file" in broken.stderr
    assert health("history", "--last", "0").returncode == 3


def write_lines(path, lines: list[bytes], trailing_newline: bool = True) -> None:
    path.write_bytes(b"\n".join(lines) + (b"\n" if trailing_newline else b""))


def test_reverse_lines_newest_first_across_blocks(tmp_path):
    path = tmp_path / "log"
    lines = [f"row {i} ".encode() + b"x" * (i * 37 % 500) for i in range(300)]
    write_lines(path, lines[:150] + [b"", b"   "] + lines[150:], trailing_newline=False)
    with ReverseLines(str(path), block=64) as reader:
        assert list(reader) == list(reversed(lines))


def test_an_overlong_line_is_reported_once_and_never_buffered(tmp_path):
    path = tmp_path / "log"
    write_lines(path, [b"first", b"y" * 5000, b"last"])
    with ReverseLines(str(path), max_line_bytes=1000, block=256) as reader:
        assert list(reader) == [b"last", None, b"first"]


def test_the_newest_report_costs_the_same_whatever_the_log_size(tmp_path):
    root = copy_demo(tmp_path)
    publish_runs(root, [0])
    log = health_log(root)
    newest = log.read_bytes()
    with open(log, "wb") as handle:  # 10 GiB of sparse history before the newest line
        handle.truncate(10 << 30)
        handle.seek(10 << 30)
        handle.write(b"\n" + newest)
    assert os.path.getsize(log) > 10 << 30
    with ReverseLines(str(log)) as reader:
        assert next(iter(reader)) == newest.rstrip(b"\n")
        assert reader.bytes_read <= 64 * 1024
    document, problem = newest_report(str(log))
    assert problem is None and document["overall"] == "ok"


def test_a_scan_budget_stops_early_and_says_so(tmp_path):
    path = tmp_path / "log"
    write_lines(path, [b"a" * 100] * 50)
    with ReverseLines(str(path), max_bytes=1000, block=256) as reader:
        rows = list(reader)
        assert reader.exhausted and 0 < len(rows) < 50 and reader.bytes_read <= 1024
