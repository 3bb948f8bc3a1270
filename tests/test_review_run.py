"""`cortex review run`: the evidence of every outcome, in exactly the shapes the auditor accepts."""
from __future__ import annotations

import json
import os

import pytest

from collectors.lifeos.reviewer_rows import RowClass, carries_eat_cap
from cortex.reviewrows import SUCCESS_KEYS
from tests.review_support import chat, program, review, row_class, run_dir, runs, state, write_config, write_transcript
from tests.write_support import all_bytes_under, run_in_process, tree  # noqa: F401 - fixture

PRIVATE = "<private>the vault code is 4711</private>"


def transcript(tree, name="session-1.jsonl", exchanges=None):
    return str(write_transcript(tree.home / name, exchanges if exchanges is not None else chat()))


def test_a_valid_answer_curates_memory_and_leaves_a_success_row(tree):
    path = write_transcript(tree.home / "session-1.jsonl", [("I drink green tea " + PRIVATE, "Noted")] + chat(2))
    result = review(tree, "--input", str(path), CORTEX_REVIEWER_COMMAND=program("curate"))
    assert result.code == 0, result.envelope
    [row] = runs(tree)
    assert set(row) == SUCCESS_KEYS and row_class(row) is RowClass.OK
    assert row["runId"] == "2026-01-02T03-04-05-678Z" and row["ts"] == tree.now
    assert row["transcript"] == str(path) and row["exchanges"] == 3 and row["parse_ok"] is True
    assert row["dispatch_summary"] == {
        "total": 5, "by_type": {"memory": 2, "idea": 1, "knowledge": 0, "proposal": 2}, "succeeded": 5, "failed": 0,
        "failures": [], "skipped_guard": 0, "skips": [], "proposals_auto_applied": 1, "proposals_auto_apply_failed": 0}
    assert result.data["row"] == row
    assert "PREFERENCE: drinks green tea in the morning ~explicit" in tree.principal.read_text()
    assert "ROLE: research assistant for memory tooling ~explicit" in tree.da.read_text()
    assert "- cortex-health: auditor" in (tree.lifeos / "USER" / "PROJECTS.md").read_text()  # auto-approved
    queue = tree.rows("pending-proposals.jsonl")
    assert [p["status"] for p in queue] == ["approved", "pending"]  # 0.9 ≥ 0.70 applied, 0.4 waits
    assert all(p["source_session"] == "session-1" for p in queue)
    folder = run_dir(tree, row)
    assert sorted(os.listdir(folder)) == ["dispatch.json", "output.txt", "prompt.txt"]
    prompt = (folder / "prompt.txt").read_text()
    assert "I drink green tea" in prompt and "4711" not in prompt and "TOOL OUTPUT" not in prompt
    assert "TOOL_INPUT" not in prompt and "internal monologue" not in prompt  # tool_use and thinking dropped
    assert state(tree) == {"last_review_at": tree.now, "turn_count_since_last_review": 0, "pending_review": False}
    assert all(b"4711" not in data for _path, data in all_bytes_under(tree.root))


def test_invalid_json_then_valid_after_the_corrective_retry(tree):
    result = review(tree, "--input", transcript(tree), CORTEX_REVIEWER_COMMAND=program("retry"))
    assert result.code == 0, result.envelope
    [row] = runs(tree)
    assert row_class(row) is RowClass.OK and row["dispatch_summary"]["by_type"]["memory"] == 1
    folder = run_dir(tree, row)
    assert (folder / "attempt-1-errors.txt").read_text().startswith("the answer must be valid JSON")
    retry_prompt = (folder / "prompt-retry.txt").read_text()
    assert "YOUR PREVIOUS ANSWER WAS REJECTED" in retry_prompt and "the answer must be valid JSON" in retry_prompt
    assert not (folder / "parse-error.txt").exists()
    assert "answers after a corrective retry" in tree.da.read_text()


def test_garbage_twice_is_a_parse_failure_with_parse_error_txt(tree):
    result = review(tree, "--input", transcript(tree), CORTEX_REVIEWER_COMMAND=program("garbage"))
    assert result.code == 6 and result.error["code"] == "review_failed"
    assert "rejected twice" in result.error["message"]
    [row] = runs(tree)
    assert row_class(row) is RowClass.PARSE_FAILED
    assert row["ok"] is False and row["parse_ok"] is False and row["exchanges"] == 3
    parse_error = (run_dir(tree, row) / "parse-error.txt").read_text()
    assert "attempt 1:" in parse_error and "attempt 2" in parse_error
    assert "ROLE:" not in tree.principal.read_text()  # nothing was written
    assert state(tree)["pending_review"] is True


def test_a_flooding_or_crashing_command_is_a_failure_with_its_stderr_kept(tree):
    path = transcript(tree)
    flood = review(tree, "--input", path, CORTEX_REVIEWER_COMMAND=program("garbage", "flood"))
    assert flood.code == 6 and "inference failed: output exceeds 1048576 bytes" in flood.error["message"]
    crash = review(tree, "--input", path, CORTEX_REVIEWER_COMMAND=program("garbage", "crash"))
    assert crash.code == 6 and "inference command exited with status 3" in crash.error["message"]
    first, second = runs(tree)
    assert row_class(first) is RowClass.FAILED and row_class(second) is RowClass.FAILED
    stderr = (run_dir(tree, second) / "output-stderr.txt").read_text()
    assert stderr == "model backend unavailable \n"  # the private span never reaches the run directory


def test_a_timeout_kills_the_child_and_says_timeout(tree, tmp_path):
    write_config(tree, inference_timeout_seconds=0.5)
    pid_file = tmp_path / "slow.pid"
    result = review(tree, "--input", transcript(tree), CORTEX_REVIEWER_COMMAND=program("slow", str(pid_file)))
    assert result.code == 6 and "inference timeout after 0.5 s" in result.error["message"]
    with pytest.raises(ProcessLookupError):
        os.kill(int(pid_file.read_text()), 0)  # killed and reaped, not left sleeping
    [row] = runs(tree)
    assert row_class(row) is RowClass.TIMED_OUT and row["parse_ok"] is None
    assert 450 <= row["inference_duration_ms"] < 10_000
    assert (run_dir(tree, row) / "prompt.txt").exists()


def test_an_empty_transcript_is_a_skip_row(tree):
    path = write_transcript(tree.home / "empty.jsonl", [])
    result = review(tree, "--input", str(path), CORTEX_REVIEWER_COMMAND=program("curate"))
    assert result.code == 0
    [row] = runs(tree)
    assert row_class(row) is RowClass.SKIPPED
    assert row == {"ts": tree.now, "ok": True, "runId": row["runId"], "transcript": str(path), "exchanges": 0,
                   "inference_duration_ms": 0, "parse_ok": True, "skipped": True,
                   "error": "the transcript holds no complete user→assistant text exchange"}
    assert os.listdir(run_dir(tree, row)) == []


def test_no_transcript_anywhere_is_a_skip_row_with_null_transcript(tree):
    assert review(tree, CORTEX_REVIEWER_COMMAND=program("curate")).code == 0
    [row] = runs(tree)
    assert row_class(row) is RowClass.SKIPPED and row["transcript"] is None
    assert row["error"] == f"no transcript found under {tree.root / 'projects'}"


def test_the_newest_transcript_is_reviewed_by_default(tree):
    projects = tree.root / "projects"
    old = write_transcript(projects / "-work-a" / "old.jsonl", chat(1))
    new = write_transcript(projects / "-work-b" / "new.jsonl", chat(2))
    mine = write_transcript(projects / "-x-MEMORY-OBSERVABILITY-reviewer-runs-2026" / "own.jsonl", chat(4))
    os.utime(old, (1, 1))
    os.utime(new, (2, 2))  # the reviewer's own inference transcript is newer still, and never chosen
    assert mine.exists()
    result = review(tree, "--dry-run")
    assert result.code == 0 and result.data["transcript"] == str(new) and result.data["exchanges"] == 2


def test_dry_run_builds_the_prompt_and_writes_nothing(tree):
    before = all_bytes_under(tree.root)
    result = review(tree, "--input", transcript(tree), "--dry-run", "--turns", "2")
    assert result.code == 0 and result.data["dry_run"] is True and result.data["exchanges"] == 2
    prompt = result.data["prompt"]
    for rule in ("Whatever you omit is forgotten", "CONSOLIDATE before adding", "Supersede, don't stack", "Do not guess between",
                 "Merge duplicates", "Never save", "Declarative facts, not instructions"):
        assert rule in prompt
    assert "note 1" in prompt and "note 0" not in prompt  # only the last 2 exchanges
    assert all_bytes_under(tree.root) == before


def test_a_broken_config_is_a_clear_error_and_a_failure_row(tree):
    write_config(tree, turn_threshold="8")
    result = review(tree, "--input", transcript(tree), CORTEX_REVIEWER_COMMAND=program("curate"))
    assert result.code == 4 and result.error["code"] == "invalid_input"
    assert "memory-review.json is invalid: turn_threshold" in result.error["message"]
    [row] = runs(tree)
    assert row_class(row) is RowClass.FAILED and "turn_threshold" in row["error"]


def test_a_null_inference_command_is_a_config_error_not_a_silent_default(tree):
    write_config(tree, inference_command=None)  # absent means claude -p (tests/test_review_failures.py); null is no list
    result = review(tree, "--input", transcript(tree), PATH="/nonexistent")
    assert result.code == 4 and "memory-review.json is invalid: inference_command" in result.error["message"]
    assert row_class(runs(tree)[0]) is RowClass.FAILED


def test_a_missing_input_file_is_a_failure_row(tree):
    result = review(tree, "--input", str(tree.home / "nope.jsonl"), CORTEX_REVIEWER_COMMAND=program("curate"))
    assert result.code == 4 and "transcript not readable" in result.error["message"]
    assert row_class(runs(tree)[0]) is RowClass.FAILED


def test_two_runs_in_the_same_millisecond_get_distinct_run_ids(tree):
    path = transcript(tree)
    for _ in range(2):
        assert review(tree, "--input", path, CORTEX_REVIEWER_COMMAND=program("curate")).code == 0
    first, second = runs(tree)
    assert first["runId"] == "2026-01-02T03-04-05-678Z" and second["runId"] == "2026-01-02T03-04-05-679Z"
    assert second["ts"] == "2026-01-02T03:04:05.679Z"  # never earlier than its own run directory
    assert row_class(second) is RowClass.OK  # the curate program kept the entries: no erosion


def test_a_guard_refusal_is_a_skip_not_a_failure(tree):
    facts = "".join(f"PREFERENCE: durable fact {i} ~explicit\n" for i in range(5))
    assert run_in_process(tree, "hot", "set", "principal", stdin=facts).code == 0
    before = tree.principal.read_bytes()
    result = review(tree, "--input", transcript(tree), CORTEX_REVIEWER_COMMAND=program("curate"), CURATE_MODE="erode")
    assert result.code == 0, result.envelope
    row = runs(tree)[-1]
    assert row_class(row) is RowClass.OK
    summary = row["dispatch_summary"]
    assert (summary["total"], summary["succeeded"], summary["skipped_guard"], summary["failed"]) == (1, 0, 1, 0)
    assert summary["skips"][0]["code"] == "ESUSPECT_EROSION" and "ESUSPECT_EROSION" in summary["skips"][0]["error"]
    assert tree.principal.read_bytes() == before


def test_a_list_over_the_cap_is_retried_then_refused_as_eat_cap(tree):
    result = review(tree, "--input", transcript(tree), CORTEX_REVIEWER_COMMAND=program("curate"), CURATE_MODE="cap")
    assert result.code == 6 and "EAT_CAP" in result.error["message"]
    [row] = runs(tree)
    assert row_class(row) is RowClass.FAILED and row["parse_ok"] is True and carries_eat_cap(row)
    assert row["dispatch_summary"]["failures"][0]["code"] == "EAT_CAP"
    assert "EAT_CAP" in (run_dir(tree, row) / "attempt-1-errors.txt").read_text()
    assert "distinct fact" not in tree.principal.read_text()


def test_an_overlong_entry_is_cut_keeping_its_tag(tree):
    result = review(tree, "--input", transcript(tree), CORTEX_REVIEWER_COMMAND=program("curate"),
                    CURATE_MODE="overlong")
    assert result.code == 0 and result.data["truncated_entries"] == 1
    [entry] = [line for line in tree.principal.read_text().splitlines() if "verbose" in line]
    assert entry.endswith("verbose ~inferred") and len(entry) - len("PREFERENCE: ") <= 256


def test_the_envelope_is_valid_and_names_the_run(tree):
    result = review(tree, "--input", transcript(tree), CORTEX_REVIEWER_COMMAND=program("curate"))
    assert result.envelope["command"] == "review run"
    assert result.data["run_dir"] == f"LIFEOS/MEMORY/OBSERVABILITY/reviewer-runs/{result.data['runId']}"
    assert json.loads((run_dir(tree, result.data["row"]) / "dispatch.json").read_text())["results"][0]["ok"] is True


def test_without_input_the_transcripts_are_found_below_the_root_not_in_home(tree):
    """`cortex review run --root DIR` reads DIR/projects, the folder the auditor's activity check reads too."""
    from collectors.agent_activity import transcript_folder

    decoy = write_transcript(tree.home / ".claude" / "projects" / "-home" / "other-tree.jsonl", chat(3))
    ours = write_transcript(tree.root / "projects" / "-work" / "ours.jsonl", chat(2))
    os.utime(ours, (1, 1))  # older than the decoy: only the root decides
    assert decoy.exists()
    result = tree.cortex("review", "run", "--dry-run", "--root", str(tree.root), CORTEX_MEMORY_ROOT="")
    assert result.code == 0, result.envelope
    assert result.data["transcript"] == str(ours) and result.data["exchanges"] == 2
    assert transcript_folder(str(tree.root), {}, {"HOME": str(tree.home)}) == str(tree.root / "projects")
