"""The reviewer's model command: `claude -p` by default, and every failure says its cause (issue 23, points 2 and 3)."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from collectors.lifeos.reviewer_rows import RowClass
from cortex.review.failurecause import stderr_line
from cortex.review.reviewconfig import DEFAULTS
from cortex.reviewrows import COMMAND_NOT_FOUND
from tests.health_support import clean_env, run_cli
from tests.ops_support import health
from tests.review_support import (chat, hook, program, review, row_class, run_dir, runs, wait_for_runs, write_config,
                                  write_transcript)
from tests.write_support import tree  # noqa: F401 - fixture

SYSTEM_PATH = "/usr/bin:/bin"
PROSE_AND_ONE_BLOCK = ("Here is what I would keep:\n\n```json\n"
                       '{"items": [{"type": "idea", "title": "Tea ritual", "content": "Green tea every morning."}]}'
                       "\n```\n\nLet me know if you want changes.\n")


def stub(folder: Path, name: str, body: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text("#!/bin/sh\n" + body)
    path.chmod(0o755)
    return path


def transcript(tree) -> str:
    return str(write_transcript(tree.home / "session-1.jsonl", chat(2)))


def test_without_a_configured_command_the_reviewer_runs_claude_p_from_path(tree, tmp_path):
    assert DEFAULTS.inference_command == ["claude", "-p"]
    bin_dir = tmp_path / "bin"
    args = tmp_path / "args.txt"
    stub(bin_dir, "claude", f"printf '%s\\n' \"$@\" > {args}\ncat >/dev/null\ncat <<'EOF'\n{PROSE_AND_ONE_BLOCK}EOF\n")
    result = review(tree, "--input", transcript(tree), PATH=f"{bin_dir}:{SYSTEM_PATH}")
    assert result.code == 0, result.envelope
    assert args.read_text() == "-p\n"  # the documented default, found on PATH
    [row] = runs(tree)
    assert row_class(row) is RowClass.OK and row["dispatch_summary"]["by_type"]["idea"] == 1  # prose around one block


def test_a_missing_claude_is_a_clear_error_row_and_finding(tree):
    if shutil.which("claude", path=SYSTEM_PATH):
        pytest.skip("claude is installed in /usr/bin or /bin")
    result = review(tree, "--input", transcript(tree), PATH=SYSTEM_PATH)
    assert result.code == 6 and result.error["code"] == "review_failed"
    message = result.error["message"]
    assert f"{COMMAND_NOT_FOUND}: claude is not on PATH ({SYSTEM_PATH}): install Claude Code, or name another " \
           "command in inference_command (memory-review.json) or CORTEX_REVIEWER_COMMAND" in message
    [row] = runs(tree)
    assert row["error"].startswith(COMMAND_NOT_FOUND) and row["parse_ok"] is None
    audit = run_cli(root=tree.root, now=tree.now, env=clean_env())
    finding = audit.finding("reviewer-command-missing")
    assert finding["severity"] == "critical" and "claude is not on PATH" in finding["message"]
    assert "reviewer-latest-failed" not in audit.ids()
    explained = health("explain", "reviewer-command-missing", env=clean_env())
    assert explained.returncode == 0 and "Install Claude Code" in explained.stdout


def test_a_missing_program_at_an_absolute_path_and_a_missing_interpreter_are_told_apart(tree, tmp_path):
    gone = review(tree, "--input", transcript(tree), CORTEX_REVIEWER_COMMAND=str(tmp_path / "nowhere" / "model"))
    assert f"{COMMAND_NOT_FOUND}: {tmp_path / 'nowhere' / 'model'} does not exist" in gone.error["message"]
    broken = tmp_path / "broken-shebang"
    broken.write_text("#!/nonexistent/interpreter\n")
    broken.chmod(0o755)
    result = review(tree, "--input", transcript(tree), CORTEX_REVIEWER_COMMAND=str(broken))
    assert result.code == 6 and "could not start" in result.error["message"] and "#! line" in result.error["message"]
    assert not runs(tree)[-1]["error"].startswith(COMMAND_NOT_FOUND)


def test_a_failing_command_s_first_stderr_line_is_in_the_error_row_and_finding(tree):
    crash = review(tree, "--input", transcript(tree), CORTEX_REVIEWER_COMMAND=program("garbage", "crash"))
    assert crash.code == 6
    assert "inference command exited with status 3: model backend unavailable" in crash.error["message"]
    assert "api key abc" not in crash.error["message"]  # past the privacy boundary
    [row] = runs(tree)
    assert row["error"].startswith("inference command exited with status 3: model backend unavailable")
    for _ in range(2):  # three failures: reviewer-failing names the newest error, cause included
        review(tree, "--input", transcript(tree), CORTEX_REVIEWER_COMMAND=program("garbage", "crash"))
    audit = run_cli(root=tree.root, now=tree.now, env=clean_env())
    assert "newest error: inference command exited with status 3: model backend unavailable" in \
           audit.finding("reviewer-failing")["message"]
    assert "model backend unavailable" in audit.finding("reviewer-latest-failed")["message"]
    assert "api key abc" not in audit.stdout


@pytest.mark.parametrize("stderr, expected", [
    (b"\n  \nError: Invalid API key \xc2\xb7 Please run /login\nsecond line\n", "Error: Invalid API key · Please run /login"),
    (b"\x1b[31mError:\x1b[0m\tnot logged in\r\n", "Error: not logged in"),
    (b"denied <private>sk-ant-123\nstill private</private> for this key\n", "denied for this key"),
    (b"<private>sk-ant-123</private>\nnext line\n", "next line"),
    (b"Traceback (most recent call last):\n  File \"x\", line 1\nRuntimeError: quota exceeded\n",
     "RuntimeError: quota exceeded"),
    (b"token \\u003cprivate>sk\\u003c/private> refused\n", "token refused"),
    (b"x" * 500 + b"\n", "x" * 199 + "…"),
    (b"\n\n", None),
])
def test_the_stderr_line_is_the_first_printable_public_line_bounded(stderr, expected):
    assert stderr_line(stderr) == expected


def test_a_withheld_credential_is_named_with_the_pass_env_hint(tree):
    env = {"CORTEX_REVIEWER_COMMAND": program("garbage", "crash"), "ANTHROPIC_API_KEY": "sk-ant-secret-1",
           "CLAUDE_CODE_ENTRYPOINT": "cli", "AWS_CA_BUNDLE": "/etc/ssl/ca.pem"}
    crash = review(tree, "--input", transcript(tree), **env)
    message = crash.error["message"]
    assert "ANTHROPIC_API_KEY is set but withheld from the command: name it in pass_env in memory-review.json" \
           in message
    assert "sk-ant-secret-1" not in message and "CLAUDE_CODE_ENTRYPOINT" not in message and "AWS_CA" not in message
    write_config(tree, pass_env=["ANTHROPIC_API_KEY"])
    passed = review(tree, "--input", transcript(tree), **env)
    assert passed.code == 6 and "withheld" not in passed.error["message"]


def test_the_hint_survives_review_fire_which_strips_the_credential_first(tree):
    write_config(tree, turn_threshold=1, min_minutes_between=0)
    path = write_transcript(tree.home / ".claude" / "projects" / "p" / "sess-1.jsonl", chat(1))
    payload = json.dumps({"session_id": "sess-1", "transcript_path": str(path), "hook_event_name": "Stop"})
    fired = hook(tree, "review", "fire", stdin=payload, CORTEX_REVIEWER_COMMAND=program("garbage", "crash"),
                 OPENAI_API_KEY="sk-openai-2")
    assert fired.code == 0
    [row] = wait_for_runs(tree, 1)
    assert "OPENAI_API_KEY is set but withheld from the command" in row["error"], row
    assert "sk-openai-2" not in json.dumps(row)
    assert "OPENAI_API_KEY" not in (run_dir(tree, row) / "output-stderr.txt").read_text()


def test_a_timeout_is_still_classed_as_one_with_the_stderr_line_after_it(tree, tmp_path):
    write_config(tree, inference_timeout_seconds=0.5)
    slow = stub(tmp_path / "bin", "slow", "echo 'warming up' >&2\nexec sleep 30\n")
    result = review(tree, "--input", transcript(tree), CORTEX_REVIEWER_COMMAND=str(slow))
    assert "inference timeout after 0.5 s: warming up" in result.error["message"]
    assert row_class(runs(tree)[0]) is RowClass.TIMED_OUT
