"""Reviewer cadence checks and legacy rows through the real CLI on trees built in tmp_path (issue 12, part 3)."""
from __future__ import annotations

import json
from pathlib import Path

from tests.health_support import NOW_MS, clean_env, copy_demo, obs, run_cli


def iso(ms: int) -> str:
    from cortex.timestamps import iso_from_ms

    return iso_from_ms(ms)


def skip(ms: int) -> dict:
    run_id = iso(ms).replace(":", "-").replace(".", "-")
    return {"ts": iso(ms), "ok": True, "runId": run_id, "transcript": None, "exchanges": 0,
            "inference_duration_ms": 0, "parse_ok": True, "skipped": True, "error": "no transcript found"}


def append(root: Path, *rows: dict) -> None:
    with open(obs(root) / "reviewer-runs.jsonl", "a") as log:
        log.writelines(json.dumps(row) + "\n" for row in rows)


def test_five_skips_in_a_row_warn_and_four_do_not(tmp_path):
    root = copy_demo(tmp_path)
    append(root, *[skip(NOW_MS - (10 - i) * 60_000) for i in range(4)])
    assert run_cli(root=root).code == 0
    append(root, skip(NOW_MS - 60_000))
    result = run_cli(root=root)
    assert result.code == 1 and [f["id"] for f in result.report["findings"]] == ["reviewer-all-skips"]
    assert len(result.finding("reviewer-all-skips")["detail"]["runs"]) == 5
    fewer = run_cli(root=root, env=clean_env(CORTEX_REVIEWER_ALL_SKIPS="6"))
    assert fewer.code == 0 and "reviewer-not-all-skips" in fewer.report["ok_summary"]


def test_review_backlog_warns_past_four_times_the_turn_threshold(tmp_path):
    root = copy_demo(tmp_path)
    state_path = obs(root) / "review-state.json"
    state = json.loads(state_path.read_text())
    state["turn_count_since_last_review"] = 32  # 4 × 8: not yet
    state_path.write_text(json.dumps(state))
    assert run_cli(root=root).code == 0
    state["turn_count_since_last_review"] = 33
    state_path.write_text(json.dumps(state))
    result = run_cli(root=root)
    assert result.code == 1 and result.finding("review-backlog")["detail"]["threshold"] == 32
    config = root / "LIFEOS" / "USER" / "CONFIG"
    config.mkdir(parents=True)
    (config / "memory-review.json").write_text(json.dumps({"schema_version": 1, "turn_threshold": 10}))
    result = run_cli(root=root)
    assert result.code == 0 and "review-backlog-ok" in result.report["ok_summary"]


def test_legacy_rows_without_both_guard_fields_are_valid_and_one_alone_is_malformed(tmp_path):
    root = copy_demo(tmp_path)
    rows = (obs(root) / "reviewer-runs.jsonl").read_text().splitlines()
    latest = json.loads(rows[-1])
    assert "skipped_guard" not in latest["dispatch_summary"] and "skips" not in latest["dispatch_summary"]
    assert run_cli(root=root).code == 0  # the demo's latest row is such a legacy row
    latest["dispatch_summary"]["skips"] = []  # exactly one of the pair
    (obs(root) / "reviewer-runs.jsonl").write_text("\n".join(rows[:-1] + [json.dumps(latest)]) + "\n")
    result = run_cli(root=root)
    assert result.code == 2 and result.finding("reviewer-evidence-invalid")["severity"] == "critical"
    assert "skipped_guard and skips only as a pair" in result.finding("reviewer-evidence-invalid")["message"]
