"""bench/bench_cache.py: its --help works and a tiny run prints off/cold/warm rows with the same answers.

The numbers themselves are measured by running the script on real sizes, never by timed tests.
"""
from __future__ import annotations

import json

from tests.bench_support import bench_help, run_bench


def test_help_describes_the_script():
    out = bench_help("bench_cache")
    assert "--sizes" in out and "off, cold" in out and "300 ms" in out


def test_a_tiny_run_reports_every_command_in_every_mode_with_the_same_answer(tmp_path):
    result = run_bench("bench_cache", "--sizes", "6", "--runs", "1", "--workdir", str(tmp_path), "--json",
                       str(tmp_path / "out.json"), timeout=300)
    assert result.returncode == 0, result.stderr
    rows = json.loads((tmp_path / "out.json").read_text())["6"]["commands"]
    assert [row["command"] for row in rows] == ["search", "recall", "status"]
    assert all(row["identical"] and row["warm"]["median_s"] > 0 for row in rows)
    assert "6 records" in result.stdout and "warm/off" in result.stdout
