"""Reviewer cadence checks and legacy rows through the real CLI on trees built in tmp_path (issue 12, part 3)."""
from __future__ import annotations

import json
import os
from pathlib import Path

from tests.health_support import NOW_MS, clean_env, copy_demo, obs, run_cli


def iso(ms: int) -> str:
    from cortex.core.timestamps import iso_from_ms

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


def dead_pid() -> int:
    import subprocess
    import sys

    proc = subprocess.Popen([sys.executable, "-c", "pass"])
    proc.wait()
    return proc.pid


def start_row(ms: int, *, host: str | None = None, pid: int | None = None) -> dict:
    import socket

    run_id = iso(ms).replace(":", "-").replace(".", "-")
    return {"ts": iso(ms), "runId": run_id, "started": True, "pid": pid or dead_pid(),
            "host": host or socket.gethostname()}


def write_log(root: Path, name: str, rows) -> None:
    (obs(root) / name).write_text("".join(json.dumps(row) + "\n" for row in rows))


def test_a_start_whose_holder_is_gone_is_interrupted_and_three_are_critical(tmp_path):
    root = copy_demo(tmp_path)
    finished = json.loads((obs(root) / "reviewer-runs.jsonl").read_text().splitlines()[-1])
    done = {"ts": finished["runId"][:10] + "T08:59:30.004Z", "runId": finished["runId"], "started": True,
            "pid": 1, "host": "elsewhere"}
    write_log(root, "reviewer-starts.jsonl", [done, start_row(NOW_MS - 60_000)])
    result = run_cli(root=root)
    assert result.code == 1 and [f["id"] for f in result.report["findings"]] == ["reviewer-interrupted"]
    [lost] = result.finding("reviewer-interrupted")["detail"]["runs"]
    assert lost["holder"] == "gone" and lost["started"] == iso(NOW_MS - 60_000)
    write_log(root, "reviewer-starts.jsonl", [done] + [start_row(NOW_MS - m * 60_000) for m in (3, 2, 1)])
    result = run_cli(root=root)
    assert result.code == 2 and result.finding("reviewer-interrupted-repeatedly")["detail"]["measured"] == 3


def test_an_unverifiable_start_is_running_within_the_deadline_and_interrupted_after(tmp_path):
    root = copy_demo(tmp_path)
    write_log(root, "reviewer-starts.jsonl", [start_row(NOW_MS - 60_000, host="another-host", pid=4242)])
    assert run_cli(root=root).code == 0  # running: 1 min of 3 min timeout + 10 min grace
    write_log(root, "reviewer-starts.jsonl", [start_row(NOW_MS - 14 * 60_000, host="another-host", pid=4242)])
    result = run_cli(root=root)
    assert result.code == 1 and result.finding("reviewer-interrupted")["detail"]["runs"][0]["holder"] == "unverifiable"


def test_a_spawn_without_a_started_row_never_started(tmp_path):
    root = copy_demo(tmp_path)
    fire = {"ts": iso(NOW_MS - 11 * 60_000), "session": "s", "turns": 8, "started": True,
            "reason": "threshold reached", "pid": 4242}
    write_log(root, "reviewer-fires.jsonl", [fire])
    result = run_cli(root=root)
    assert result.code == 2 and [f["id"] for f in result.report["findings"]] == ["reviewer-never-started"]
    assert result.finding("reviewer-never-started")["detail"]["pid"] == 4242
    write_log(root, "reviewer-starts.jsonl", [start_row(NOW_MS - 11 * 60_000 + 500, host="another-host", pid=4242)])
    result = run_cli(root=root)
    assert "reviewer-never-started" not in result.ids() and "reviewer-spawn-started" in result.report["ok_summary"]


def test_a_review_run_writes_its_started_row_before_the_terminal_row(tmp_path):
    from tests.review_support import chat, program, write_transcript
    from tests.write_support import make_tree

    tree = make_tree(tmp_path)
    transcript = write_transcript(tree.home / "sess.jsonl", chat(2))
    done = tree.cortex("review", "run", "--input", str(transcript), CORTEX_REVIEWER_COMMAND=program("curate"))
    assert done.code == 0
    [start] = tree.rows("reviewer-starts.jsonl")
    [terminal] = tree.rows("reviewer-runs.jsonl")
    assert start["runId"] == terminal["runId"] and start["started"] is True and start["ts"] == tree.now
    assert isinstance(start["pid"], int) and start["host"]


def test_failed_dispatch_items_are_kept_flagged_and_replayed(tmp_path):
    import socket
    import time

    from tests.review_support import chat, program, write_transcript
    from tests.write_support import make_tree

    tree = make_tree(tmp_path)
    lock = Path(str(tree.principal) + ".lock")
    stamp = {"pid": os.getpid(), "host": socket.gethostname(), "ts": iso(int(time.time() * 1000)), "token": "t"}
    lock.write_text(json.dumps(stamp))  # a live writer holds the principal file
    transcript = write_transcript(tree.home / "sess.jsonl", chat(2))
    done = tree.cortex("review", "run", "--input", str(transcript), CORTEX_REVIEWER_COMMAND=program("curate"),
                       CORTEX_LOCK_WAIT_MS="0")
    assert done.code == 6 and done.error["code"] == "review_failed" and "ELOCK_HELD" in done.error["message"]
    [row] = tree.rows("reviewer-runs.jsonl")
    kept = json.loads((tree.obs / "reviewer-runs" / row["runId"] / "failed-items.json").read_text())
    assert kept["runId"] == row["runId"] and [item["code"] for item in kept["items"]] == ["ELOCK_HELD"]
    assert kept["items"][0]["item"]["type"] == "memory"

    audit = run_cli(root=tree.root, now=tree.now)
    assert audit.finding("reviewer-dispatch-failed")["detail"]["measured"] == 1
    assert f"cortex review replay {row['runId']}" in audit.finding("reviewer-dispatch-failed")["message"]

    lock.unlink()
    replayed = tree.cortex("review", "replay", row["runId"])
    assert replayed.code == 0 and replayed.data["done"] is True and replayed.data["succeeded"] == 1
    assert "PREFERENCE: drinks green tea in the morning ~explicit" in tree.principal.read_text()
    assert "reviewer-dispatch-none-kept" in run_cli(root=tree.root, now=tree.now).report["ok_summary"]
    again = tree.cortex("review", "replay", row["runId"])
    assert again.code == 4 and "already replayed" in again.error["message"]


def test_every_collector_of_one_audit_judges_one_reading_of_memory_review_json(tmp_path):
    from collectors.lifeos import review_cadence, reviewer_lifecycle
    from collectors.lifeos.layout import Layout

    root = copy_demo(tmp_path)
    config = root / "LIFEOS" / "USER" / "CONFIG" / "memory-review.json"
    config.parent.mkdir(parents=True, exist_ok=True)
    config.write_text(json.dumps({"turn_threshold": 7, "inference_timeout_seconds": 100}))
    layout = Layout.for_root(str(root), environ=clean_env())
    assert review_cadence.collect(layout).turn_threshold == 7
    config.write_text(json.dumps({"turn_threshold": 9, "inference_timeout_seconds": 200}))  # mid-audit change
    assert reviewer_lifecycle.collect(layout).inference_timeout_ms == 100_000
    assert layout.review_config is layout.review_config
    fresh = Layout.for_root(str(root), environ=clean_env())  # the next audit reads the file again
    assert review_cadence.collect(fresh).turn_threshold == 9
    assert reviewer_lifecycle.collect(fresh).inference_timeout_ms == 200_000


def test_a_replay_marker_is_believed_only_beside_the_items_it_replayed(tmp_path):
    import hashlib

    from collectors.lifeos import dispatch_failures
    from collectors.lifeos.layout import Layout

    root = copy_demo(tmp_path)
    run = obs(root) / "reviewer-runs" / "2026-11-29T10-00-00-000Z"
    run.mkdir()
    kept = json.dumps({"runId": run.name, "items": [{"index": 0, "code": "ELOCK_HELD", "error": "held",
                                                     "item": {"type": "memory"}}]}).encode()
    (run / "failed-items.json").write_bytes(kept)

    def waiting(marker: dict | None) -> list:
        if marker is not None:
            (run / "replayed.json").write_text(json.dumps(marker))
        return [found.run_id for found in dispatch_failures.collect(Layout.for_root(str(root))).runs]

    assert waiting(None) == [run.name]
    assert waiting({"ts": "2026-11-29T11:00:00Z", "replayed": 1}) == []  # written before the digest: the count binds it
    assert waiting({"ts": "x", "replayed": 1, "items_sha256": hashlib.sha256(kept).hexdigest()}) == []
    assert waiting({"ts": "x", "replayed": 2, "items_sha256": hashlib.sha256(kept).hexdigest()}) == [run.name]
    assert waiting({"ts": "x", "replayed": 1, "items_sha256": hashlib.sha256(b"other").hexdigest()}) == [run.name]
    assert waiting({"ts": "x", "replayed": True}) == [run.name]
