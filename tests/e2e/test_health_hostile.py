"""Hostile trees: FIFOs, links to /dev/zero, directories, one huge line, deep nesting, huge numbers.

Every one ends in precise findings and an exit code, never a hang or a traceback.
"""
from __future__ import annotations

import json
import os

import pytest

from tests.health_support import copy_demo, hot, memory, obs, run_cli


def test_everything_hostile_at_once(tmp_path):
    root = copy_demo(tmp_path)
    o = obs(root)
    (o / "review-state.json").unlink()
    os.mkfifo(o / "review-state.json")
    (o / "pending-proposals.jsonl").unlink()
    os.symlink("/dev/zero", o / "pending-proposals.jsonl")
    with open(o / "memory-retrievals.jsonl", "wb") as handle:
        handle.write(b'{"pad": "' + b"x" * (20 << 20) + b'"}\n')
        handle.write(b'{"ts": "2026-11-29T11:00:00Z", "query_hash": "q", "returned_count": 1' + b"0" * 400
                     + b', "duration_ms": 1}\n')
    with open(o / "reviewer-runs.jsonl", "ab") as handle:
        handle.write(b"[" * 200_000 + b"\n")
    hot(root, "da").unlink()
    os.symlink("/dev/zero", hot(root, "da"))
    policy = root / "LIFEOS" / "CORTEX_INDEX_POLICY.json"
    policy.unlink()
    policy.mkdir()
    result = run_cli(root=root, timeout=60)
    ids = set(result.ids())
    assert {"state-corrupt", "proposal-evidence-malformed", "retrieval-evidence-malformed",
            "reviewer-latest-parse-failed", "markers-unreadable:da", "index-manifest-invalid"} <= ids
    assert result.code == 2
    assert "FIFO" in result.finding("state-corrupt")["detail"]["reason"]
    assert result.finding("retrieval-evidence-malformed")["detail"]["lines"][0]["line"] == 1
    assert len(result.stdout) < 64 * 1024  # evidence stays small whatever the files hold


def test_manifest_fifo_and_index_directory(tmp_path):
    root = copy_demo(tmp_path)
    (memory(root) / "INDEX").mkdir()
    os.mkfifo(memory(root) / "INDEX" / "index-manifest.json")
    result = run_cli(root=root, timeout=60)
    assert "FIFO" in result.finding("index-manifest-invalid")["message"]


def test_huge_numbers_and_odd_values_are_reported_not_crashing(tmp_path):
    root = copy_demo(tmp_path)
    row = {"ts": "2026-11-29T11:50:00Z", "query_hash": "q", "returned_count": 10 ** 80, "duration_ms": 1}
    with open(obs(root) / "memory-retrievals.jsonl", "a") as handle:
        handle.write(json.dumps(row) + "\n")
    (obs(root) / "review-state.json").write_text(json.dumps({"last_review_at": ["2026-11-29"]}))
    result = run_cli(root=root)
    assert result.report["evidence"]["retrieval"]["latest"]["returned_count"] == 10 ** 80
    assert result.finding("state-corrupt")["detail"]["last_review_at"] == "<array>"
    assert result.code == 2


@pytest.mark.parametrize("config", [b"[" * 100_000, b"\xff\xfe", b'{"thresholds": {"cap_pressure": 1, "cap_pressure": 2}}'])
def test_hostile_config_files(tmp_path, config):
    path = tmp_path / "c.json"
    path.write_bytes(config)
    result = run_cli("--config", str(path), root=copy_demo(tmp_path))
    assert result.finding("cortex-config-invalid")["severity"] == "critical" and result.code == 2


def test_config_that_is_a_fifo_does_not_block(tmp_path):
    os.mkfifo(tmp_path / "fifo.json")
    result = run_cli("--config", str(tmp_path / "fifo.json"), root=copy_demo(tmp_path), timeout=30)
    assert "not a regular file" in result.finding("cortex-config-invalid")["detail"]["reason"]
