"""End to end: init → Stop hooks fire the reviewer → it curates memory → a prompt recalls it → cortex-health judges the loop."""
from __future__ import annotations

import json
import subprocess
import sys
import time

from collectors.lifeos.reviewer_rows import RowClass
from cortex.core.timestamps import iso_from_ms, now_ms
from tests.review_support import (
    POLL_DEADLINE_S, chat, hook, program, row_class, runs, state, wait_for_runs, write_config, write_transcript,
)
from tests.write_support import REPO, make_tree, register_cortex_hooks

TURNS = 8  # the default turn_threshold: no config file is needed for the loop to run


def fresh_tree(tmp_path):
    """A `cortex init` tree (subprocess) whose injected clock is close to real time, as the audit's mtimes are,
    wired as a cortex-native install (settings.json registers the four cortex hooks by absolute path)."""
    tree = make_tree(tmp_path, now=iso_from_ms(now_ms() // 1000 * 1000))
    register_cortex_hooks(tree.root)
    return tree


def stop_hooks(tree, session: str, transcript, **env) -> list:
    payload = json.dumps({"session_id": session, "transcript_path": str(transcript), "hook_event_name": "Stop"})
    return [hook(tree, "review", "fire", stdin=payload, **env) for _ in range(TURNS)]


def wait_until_settled(tree) -> dict:
    """The reviewer clears pending_review just after its terminal row: wait for that too."""
    deadline = time.monotonic() + POLL_DEADLINE_S
    while state(tree)["pending_review"] and time.monotonic() < deadline:
        time.sleep(0.02)
    return state(tree)


def audit(tree) -> tuple[int, dict]:
    later = iso_from_ms(now_ms() + 60_000)
    proc = subprocess.run([sys.executable, "-m", "health", "--root", str(tree.root), "--no-write", "--json",
                           "--now", later], capture_output=True, env=tree.env(), cwd=str(REPO), timeout=60)
    return proc.returncode, json.loads(proc.stdout)


def test_the_whole_loop_is_alive_and_the_auditor_says_so(tmp_path):
    tree = fresh_tree(tmp_path)
    transcript = write_transcript(tree.root / "projects" / "-work" / "sess-e2e.jsonl", chat(4))
    fired = stop_hooks(tree, "sess-e2e", transcript, CORTEX_REVIEWER_COMMAND=program("curate"))
    assert [(f.code, f.stdout, f.stderr) for f in fired] == [(0, "", "")] * TURNS
    [row] = wait_for_runs(tree, 1)
    assert row_class(row) is RowClass.OK and row["transcript"] == str(transcript) and row["exchanges"] == 4
    assert wait_until_settled(tree) == {"last_review_at": tree.now, "turn_count_since_last_review": 0,
                                        "pending_review": False}

    recalled = hook(tree, "recall", "what does the user drink in the morning")
    assert "PREFERENCE: drinks green tea in the morning ~explicit" in recalled.stdout
    assert "PREFERENCE: drinks green tea" in hook(tree, "hot", "render").stdout

    code, report = audit(tree)
    assert (code, report["overall"], report["findings"]) == (0, "ok", [])
    for check in ("reviewer-fresh", "reviewer-healthy", "retrieval-fresh", "review-fresh", "state-readable",
                  "index-no-index-v1", "proposal-evidence-ok", "proposal-backlog-ok", "observability-evidence-present",
                  "markers-ok:principal", "markers-ok:da", "entries-valid:principal", "entries-valid:da"):
        assert check in report["ok_summary"], check


def test_a_timed_out_reviewer_is_critical(tmp_path):
    tree = fresh_tree(tmp_path)
    write_config(tree, inference_timeout_seconds=0.5)
    transcript = write_transcript(tree.home / "sess-slow.jsonl", chat(2))
    fired = stop_hooks(tree, "sess-slow", transcript, CORTEX_REVIEWER_COMMAND=program("slow"))
    assert all(f.code == 0 for f in fired)
    assert runs(tree) == []  # the Stop hook returned while its reviewer was still waiting on the model
    assert hook(tree, "recall", "green tea").code == 0
    [row] = wait_for_runs(tree, 1)
    assert row_class(row) is RowClass.TIMED_OUT and "timeout" in row["error"]
    assert state(tree)["pending_review"] is True  # set by the fire, kept by the failed run: the review is still owed

    code, report = audit(tree)
    assert code == 2 and report["overall"] == "critical"
    critical = [f["id"] for f in report["findings"] if f["severity"] == "critical"]
    assert critical == ["reviewer-latest-timed-out"], report["findings"]
