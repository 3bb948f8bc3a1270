"""Collector behaviour beyond single findings: streaming memory, bounded evidence, healthy variants."""
from __future__ import annotations

import json
import tracemalloc

from collectors.lifeos import hot_memory, reviewer
from collectors.lifeos.layout import Layout
from health.judge.model import EvidenceStatus
from tests import health_scenarios as s
from tests.health_support import HOUR_MS, NOW_MS, copy_demo, hot, jsonl, obs, run_cli


def test_verified_manifest_is_healthy_and_fresh(tmp_path):
    root = copy_demo(tmp_path)
    s.write_manifest(root)
    result = run_cli(root=root)
    assert result.code == 0, result.ids()
    assert {"index-verified", "index-fresh"} <= set(result.report["ok_summary"])
    evidence = result.report["evidence"]["index"]
    assert evidence["verdict"] == "verified" and evidence["records"] == 4
    assert evidence["canonical_sha256"] == evidence["manifest_canonical_sha256"]


def test_run_directory_within_grace_is_still_in_progress(tmp_path):
    root = copy_demo(tmp_path)
    s.run_dir(root, NOW_MS - 5 * 60_000)
    result = run_cli(root=root)
    assert result.code == 0 and "reviewer-fresh" in result.report["ok_summary"]


def test_latest_row_wins_over_older_success(tmp_path):
    root = copy_demo(tmp_path)
    s.append(obs(root) / "reviewer-runs.jsonl", s.failure(NOW_MS - HOUR_MS), s.success(NOW_MS - HOUR_MS // 2))
    assert run_cli(root=root).code == 0
    s.append(obs(root) / "reviewer-runs.jsonl", s.failure(NOW_MS - HOUR_MS // 4))
    assert run_cli(root=root).finding("reviewer-latest-failed")["detail"]["line"] == 8


def test_dropped_entries_are_bounded_with_exact_total(tmp_path):
    root = copy_demo(tmp_path)
    long_entries = "".join(f"RULE: {i} " + "x" * 300 + "\n" for i in range(15))
    hot(root, "da").write_text(s.entries_file(3, long_entries))
    evidence = hot_memory.collect(Layout.for_root(str(root)))
    da = next(f for f in evidence.files if f.label == "da")
    assert (len(da.dropped), da.dropped_total, da.valid_entries) == (hot_memory.MAX_DROPPED_LISTED, 15, 3)
    assert all(len(item.entry) <= 301 for item in da.dropped)
    detail = run_cli(root=root).finding("pending-silent-loss:da")["detail"]
    assert detail["total"] == 15 and len(detail["dropped"]) == 10 and detail["dropped"][0]["reason"] == "overlength"


def test_hot_file_with_invalid_utf8_is_unreadable_not_a_traceback(tmp_path):
    root = copy_demo(tmp_path)
    hot(root, "da").write_bytes(b"<!-- BEGIN ENTRIES -->\nNAME: \xff\n<!-- END ENTRIES -->\n")
    finding = run_cli(root=root).finding("markers-unreadable:da")
    assert finding["severity"] == "critical" and "invalid UTF-8" in finding["detail"]["reason"]


def _peak_reviewer_scan(root, size_bytes: int) -> int:
    row = json.dumps(s.success(NOW_MS - 2 * HOUR_MS))
    log = obs(root) / "reviewer-runs.jsonl"
    with open(log, "w") as handle:
        handle.write((row + "\n") * (size_bytes // (len(row) + 1)))
        handle.write(json.dumps(s.success(NOW_MS - HOUR_MS)) + "\n")
    layout = Layout.for_root(str(root))
    tracemalloc.start()
    try:
        evidence = reviewer.collect(layout)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert evidence.status is EvidenceStatus.OK and evidence.latest.line == evidence.rows
    return peak


def test_reviewer_memory_does_not_grow_with_log_size(tmp_path):
    small = _peak_reviewer_scan(copy_demo(tmp_path / "a"), 256 * 1024)
    large = _peak_reviewer_scan(copy_demo(tmp_path / "b"), 8 * 1024 * 1024)
    assert large < small * 1.5 + 64 * 1024, (small, large)
    assert large < 2 * 1024 * 1024


def test_retrieval_last_row_is_the_evidence(tmp_path):
    root = copy_demo(tmp_path)
    (obs(root) / "memory-retrievals.jsonl").write_text(jsonl([s.retrieval_row(NOW_MS - 30 * HOUR_MS),
                                                              s.retrieval_row(NOW_MS - HOUR_MS, top_score=0)]))
    result = run_cli(root=root)
    assert result.code == 0 and result.report["evidence"]["retrieval"]["latest"]["line"] == 2
