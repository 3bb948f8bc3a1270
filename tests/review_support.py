"""Test helpers for the evidence producers: transcripts, configs, the inference programs, hook commands and row polling."""
from __future__ import annotations

import json
import shlex
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from collectors.lifeos.reviewer_rows import RowClass, classify
from tests.write_support import REPO, Result, Tree, run_in_process

INFERENCE = REPO / "tests" / "inference"
POLL_DEADLINE_S = 30.0


def program(name: str, *args: str) -> str:
    """CORTEX_REVIEWER_COMMAND for one of the tests/inference programs (absolute paths)."""
    return shlex.join([sys.executable, str(INFERENCE / f"{name}.py"), *args])


def write_transcript(path: Path, exchanges: list[tuple[str, str]], *, prefix: list[dict] = ()) -> Path:
    """A Claude Code style transcript: user string content, assistant text blocks plus noise blocks."""
    rows = list(prefix)
    for user, assistant in exchanges:
        rows.append({"type": "user", "message": {"role": "user", "content": user}})
        rows.append({"type": "assistant", "message": {"role": "assistant", "content": [
            {"type": "thinking", "thinking": "internal monologue"},
            {"type": "text", "text": assistant},
            {"type": "tool_use", "id": "tool-1", "name": "Bash", "input": {"command": "echo TOOL_INPUT"}}]}})
        rows.append({"type": "user", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "tool-1", "content": "TOOL OUTPUT"}]}})
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


def chat(count: int = 3) -> list[tuple[str, str]]:
    return [(f"I drink green tea every morning, note {i}", f"Noted, tea fact {i}") for i in range(count)]


def write_config(tree: Tree, **fields) -> Path:
    path = tree.lifeos / "USER" / "CONFIG" / "memory-review.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"schema_version": 1, **fields}), encoding="utf-8")
    return path


def review(tree: Tree, *args: str, **env: str) -> Result:
    """`cortex review run ARGS` in-process (the inference command still runs as a real child)."""
    return run_in_process(tree, "review", "run", *args, **env)


@dataclass
class Hook:
    code: int
    stdout: str
    stderr: str
    seconds: float


def hook(tree: Tree, *args: str, stdin: str = "", **env: str) -> Hook:
    """A plain-text hook command as a real subprocess: `python -m cortex ARGS`."""
    started = time.monotonic()
    proc = subprocess.run([sys.executable, "-m", "cortex", *args], input=stdin.encode("utf-8"), capture_output=True,
                          env=tree.env(**env), cwd=str(REPO), timeout=60)
    stderr = proc.stderr.decode("utf-8")
    assert "Traceback" not in stderr, stderr
    return Hook(proc.returncode, proc.stdout.decode("utf-8"), stderr, time.monotonic() - started)


def runs(tree: Tree) -> list[dict]:
    return tree.rows("reviewer-runs.jsonl")


def run_dir(tree: Tree, row: dict) -> Path:
    return tree.obs / "reviewer-runs" / row["runId"]


def row_class(row: dict) -> RowClass:
    classification, problem = classify(row)
    assert problem is None, problem
    return classification


def wait_for_runs(tree: Tree, count: int) -> list[dict]:
    """Poll reviewer-runs.jsonl until it holds `count` rows (a detached reviewer is not our child)."""
    deadline = time.monotonic() + POLL_DEADLINE_S
    while time.monotonic() < deadline:
        rows = runs(tree)
        if len(rows) >= count:
            return rows
        time.sleep(0.02)
    raise AssertionError(f"no terminal row {count} within {POLL_DEADLINE_S} s; rows: {runs(tree)}")


def state(tree: Tree) -> dict:
    return json.loads((tree.obs / "review-state.json").read_text())
