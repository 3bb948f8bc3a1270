"""bench/bench_edit.py: its --help works and a tiny run edits, waits for the builder and compares the answers.

The numbers themselves are measured by running the script on real sizes in plain installs, never by timed tests.
"""
from __future__ import annotations

import sys

from tests.bench_support import bench_help, run_bench


def test_help_describes_the_script():
    out = bench_help("bench_edit")
    assert "--old" in out and "builder" in out and "interleaved" in out


def test_a_tiny_run_prints_each_side_and_same_answers(tmp_path):
    result = run_bench("bench_edit", "--old", sys.executable, "--size", "6", "--edits", "1", "--workdir", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert "edit 1: same answers on both sides and before/after the builder: True" in result.stdout
    assert "  new: search after the edit" in result.stdout and "  old: search after the edit" in result.stdout
