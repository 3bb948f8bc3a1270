"""bench/bench_speed.py: its --help works and a tiny run prints the building, uncached and warm rows.

The numbers themselves are measured by running the script on real sizes in plain installs, never by timed tests.
"""
from __future__ import annotations

import json
import sys

from tests.bench_support import bench_help, run_bench


def test_help_describes_the_script():
    out = bench_help("bench_speed")
    assert "--old" in out and "python -c pass" in out and "interleaved" in out


def test_a_tiny_run_prints_the_building_uncached_and_warm_rows(tmp_path):
    result = run_bench("bench_speed", "--old", sys.executable, "--sizes", "6", "--rounds", "1", "--calls", "2",
                       "--runs", "1", "--skip", "hooks", "--workdir", str(tmp_path), "--json", str(tmp_path / "out.json"))
    assert result.returncode == 0, result.stderr
    row = json.loads((tmp_path / "out.json").read_text())["6"]
    assert row["building"]["identical"] and row["building"]["complete_after_calls"] == 1
    assert len(row["building"]["calls"]) == 2
    assert all(row[f"uncached {name}"]["identical"] for name in ("status", "search", "rebuild"))
    assert row["warm search"]["new"]["median_s"] > 0
    assert "worst" in result.stdout and "warm search" in result.stdout
