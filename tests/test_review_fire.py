"""`cortex review fire`: per-session turn counting, the global gap, the state files, and a detached reviewer."""
from __future__ import annotations

import json

from collectors.lifeos.reviewer_rows import RowClass
from cortex.review.cadence import Cadence, record_turn
from cortex.layout import Layout
from cortex.core.timestamps import parse_timestamp_ms
from cortex.write.writecontext import WriteContext
from tests.review_support import (
    chat, hook, program, row_class, runs, state, wait_for_runs, write_config, write_transcript,
)
from tests.write_support import tree  # noqa: F401 - fixture

MINUTE = 60_000


class Starts:
    """Stands in for the detached start: counts calls, returns a pid."""

    def __init__(self):
        self.calls = 0

    def __call__(self) -> int:
        self.calls += 1
        return 4242


def turn(tree, session, cadence, starts, at_ms):
    ctx = WriteContext(Layout.from_memory_root(str(tree.memory)), at_ms)
    return record_turn(ctx, session, cadence, starts)


def session_file(tree, session) -> dict:
    return json.loads((tree.memory / "STATE" / "memory-review" / f"{session}.json").read_text())


def test_turns_count_per_session_and_the_gap_is_global(tree):
    cadence, starts, t0 = Cadence(turn_threshold=3, min_minutes_between=30), Starts(), parse_timestamp_ms(tree.now)
    for _ in range(2):
        assert not turn(tree, "a", cadence, starts, t0).started
        assert not turn(tree, "b", cadence, starts, t0).started
    assert state(tree) == {"last_review_at": None, "turn_count_since_last_review": 4, "pending_review": False}
    fired = turn(tree, "a", cadence, starts, t0)
    assert fired.started and fired.turns == 3 and fired.pid == 4242 and starts.calls == 1
    assert session_file(tree, "a")["turn_count_since_last_review"] == 0
    assert session_file(tree, "b")["turn_count_since_last_review"] == 2  # another session's count survives
    assert state(tree) == {"last_review_at": tree.now, "turn_count_since_last_review": 0, "pending_review": True}
    held = turn(tree, "b", cadence, starts, t0 + 29 * MINUTE)  # b is due, but the global gap holds it
    assert not held.started and held.reason == "last review less than 30 min ago" and starts.calls == 1
    assert turn(tree, "b", cadence, starts, t0 + 30 * MINUTE).started and starts.calls == 2
    fires = tree.rows("reviewer-fires.jsonl")
    assert len(fires) == 7  # one row per Stop turn: the fire hook's heartbeat
    assert [row for row in fires if row["started"]][0] == {"ts": tree.now, "session": "a", "turns": 3, "started": True,
                                                           "reason": "threshold reached", "pid": 4242}
    assert fires[0] == {"ts": tree.now, "session": "a", "turns": 1, "started": False, "reason": "1/3 turns", "pid": None}


def test_a_failed_start_leaves_the_turns_counted(tree):
    def broken():
        raise OSError("cannot fork")

    cadence, t0 = Cadence(1, 0), parse_timestamp_ms(tree.now)
    try:
        turn(tree, "a", cadence, broken, t0)
    except OSError:
        pass
    assert not (tree.obs / "review-state.json").exists()
    assert not (tree.memory / "STATE" / "memory-review" / "a.json").exists()


def test_fire_prints_nothing_and_writes_exact_state_files(tree):
    result = hook(tree, "review", "fire", "--session", "3f2a-Session_1.x")
    assert (result.code, result.stdout, result.stderr) == (0, "", "")
    assert session_file(tree, "3f2a-Session_1.x") == {"schema_version": 1, "session_id": "3f2a-Session_1.x",
                                                      "turn_count_since_last_review": 1, "last_message_at": tree.now}
    assert set(state(tree)) == {"last_review_at", "turn_count_since_last_review", "pending_review"}


def test_unsafe_session_ids_and_broken_configs_are_clear_errors(tree):
    for bad in ("../escape", ".hidden", "a/b", "x" * 129):
        result = hook(tree, "review", "fire", "--session", bad)
        assert (result.code, result.stdout) == (1, "") and "session id must be" in result.stderr
    assert not (tree.memory / "STATE" / "memory-review").exists()
    write_config(tree, turn_threshold=0)
    result = hook(tree, "review", "fire", "--session", "s1")
    assert result.code == 1 and result.stdout == ""
    assert "memory-review.json is invalid: turn_threshold: Input should be greater than or equal to 1" in result.stderr
    assert not (tree.obs / "review-state.json").exists()
    (tree.lifeos / "USER" / "CONFIG" / "memory-review.json").write_text("{not json")
    assert "memory-review.json must be valid JSON" in hook(tree, "review", "fire", "--session", "s1").stderr


def test_a_corrupt_state_file_is_refused_not_reset(tree):
    (tree.obs / "review-state.json").write_text('{"last_review_at": "yesterday"}')
    result = hook(tree, "review", "fire", "--session", "s1")
    assert result.code == 1 and "last_review_at must be a timestamp" in result.stderr
    assert (tree.obs / "review-state.json").read_text() == '{"last_review_at": "yesterday"}'


def test_subagent_sessions_are_skipped(tree):
    assert hook(tree, "review", "fire", "--session", "s1", CORTEX_SUBAGENT="1").code == 0
    assert hook(tree, "review", "fire", "--session", "s1", "--adapter", "subagent").code == 0
    assert not (tree.obs / "review-state.json").exists()


def test_the_hook_payload_starts_a_detached_reviewer_on_its_transcript(tree):
    write_config(tree, turn_threshold=2, min_minutes_between=0)
    transcript = write_transcript(tree.home / ".claude" / "projects" / "p" / "sess-9.jsonl", chat(2))
    payload = json.dumps({"session_id": "sess-9", "transcript_path": str(transcript), "hook_event_name": "Stop"})
    env = {"CORTEX_REVIEWER_COMMAND": program("curate")}
    assert hook(tree, "review", "fire", stdin=payload, **env).code == 0
    assert runs(tree) == [] and state(tree)["pending_review"] is False
    assert hook(tree, "review", "fire", stdin=payload, **env).code == 0  # second turn: due
    [row] = wait_for_runs(tree, 1)
    assert row_class(row) is RowClass.OK and row["transcript"] == str(transcript)
    assert "PREFERENCE: drinks green tea in the morning ~explicit" in tree.principal.read_text()
    assert tree.rows("reviewer-fires.jsonl")[0]["session"] == "sess-9"


def test_fire_needs_a_session(tree):
    result = hook(tree, "review", "fire", stdin="")
    assert result.code == 1 and "needs --session ID or a hook payload" in result.stderr
    assert "not valid JSON" in hook(tree, "review", "fire", stdin="{oops").stderr
