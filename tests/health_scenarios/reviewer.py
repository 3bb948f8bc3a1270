"""Scenarios of the reviewer's evidence (reviewer-runs.jsonl, run folders)."""
import shutil

from cortex.core.timestamps import iso_from_ms
from tests.health_support import DAY_MS, HOUR_MS, NOW_MS, obs
from tests.health_scenarios.rows import MINUTE_MS, append, failure, run_dir, run_id, set_reviewer, success


def reviewer_missing(root):
    (obs(root) / "reviewer-runs.jsonl").unlink()
    shutil.rmtree(obs(root) / "reviewer-runs")


def reviewer_failed(root):
    append(obs(root) / "reviewer-runs.jsonl", failure(NOW_MS - HOUR_MS))


def reviewer_command_missing(root):
    append(obs(root) / "reviewer-runs.jsonl", failure(
        NOW_MS - HOUR_MS, "inference command not found: claude is not on PATH (/usr/bin:/bin): install Claude Code, "
        "or name another command in inference_command (memory-review.json) or CORTEX_REVIEWER_COMMAND",
        parse_ok=None))


def reviewer_malformed_line(root):
    log = obs(root) / "reviewer-runs.jsonl"
    lines = log.read_text().splitlines()
    lines.insert(2, '{"ts": "2026-11-26T10:00:00Z", "ok": tru')
    log.write_text("\n".join(lines) + "\n")


def reviewer_run_dir_parse_error(root):
    run_dir(root, NOW_MS - 30 * MINUTE_MS, parse_error=True)


def reviewer_row_parse_failed(root):
    append(obs(root) / "reviewer-runs.jsonl", failure(NOW_MS - HOUR_MS, "reviewer output was not JSON", parse_ok=False))


def reviewer_row_timeout(root):
    append(obs(root) / "reviewer-runs.jsonl", failure(NOW_MS - HOUR_MS, "Inference TIMEOUT after 300000ms"))


def reviewer_run_dir_stuck(root):
    run_dir(root, NOW_MS - 11 * MINUTE_MS)


def reviewer_extra_key(root):
    append(obs(root) / "reviewer-runs.jsonl", success(NOW_MS - HOUR_MS, note="hand-edited"))


def reviewer_bad_skip(root):
    append(obs(root) / "reviewer-runs.jsonl", {"ts": iso_from_ms(NOW_MS - HOUR_MS), "ok": True,
           "runId": run_id(NOW_MS - HOUR_MS - MINUTE_MS), "exchanges": 2, "inference_duration_ms": 0,
           "parse_ok": True, "skipped": True})


def reviewer_totals_wrong(root):
    row = success(NOW_MS - HOUR_MS)
    row["dispatch_summary"]["total"] = 2
    append(obs(root) / "reviewer-runs.jsonl", row)


def reviewer_impossible_date(root):
    append(obs(root) / "reviewer-runs.jsonl", success(NOW_MS - HOUR_MS, ts="2026-02-30T10:00:00Z"))


def reviewer_log_is_directory(root):
    (obs(root) / "reviewer-runs.jsonl").unlink()
    (obs(root) / "reviewer-runs.jsonl").mkdir()


def reviewer_future(root):
    set_reviewer(root, [success(NOW_MS + 2 * HOUR_MS)])


def reviewer_stale(root):
    set_reviewer(root, [success(NOW_MS - 8 * DAY_MS)])


def reviewer_failing(root):
    t = NOW_MS - 10 * HOUR_MS
    set_reviewer(root, [success(t), failure(t + HOUR_MS), failure(t + 2 * HOUR_MS), failure(t + 3 * HOUR_MS),
                        success(t + 4 * HOUR_MS)])


def reviewer_eat_cap(root):
    t = NOW_MS - 5 * HOUR_MS
    capped = failure(t, "1 dispatch failed")
    capped["dispatch_summary"] = {"total": 1, "by_type": {"memory": 1}, "succeeded": 0, "failed": 1,
                                  "failures": [{"type": "memory", "error": "EAT_CAP: DA_MEMORY.md is at 48/48"}],
                                  "proposals_auto_applied": 0, "proposals_auto_apply_failed": 0}
    set_reviewer(root, [success(t - HOUR_MS), capped, success(t + HOUR_MS)])
