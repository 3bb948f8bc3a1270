"""Collect stage helper: did a probe step do what its command documents? Used by collectors.lifeos.probe.steps.

Each verdict takes the step's Outcome (collectors.lifeos.probe.runner) and the sandbox, and returns
None when the step passed or why it failed, in words an operator can act on:
- `cortex hot render` exits 0 and prints exactly one <lifeos-memory> block;
- `cortex recall` exits 0 and its <lifeos-recall> block names the probe note's token;
- `cortex review fire` exits 0, prints nothing and logs the probe session's turn;
- `cortex-health gate` exits 0, prints nothing on stdout and its check (detached: it runs after
  the hook returns, holding an flock on the folder it publishes to) publishes a report;
- `cortex remember` / `search` / `get` / `review run` answer an ok envelope, and the write is
  found, read back and the review leaves its terminal row.
"""
from __future__ import annotations

import json
import os

from collectors.lifeos.probe.runner import Outcome
from collectors.lifeos.probe.sandbox import Sandbox
from cortex import layout as contract
from cortex.core.flocks import wait_free
from cortex.core.safeio import UnsafeFile, read_bounded

MAX_LOG_BYTES = 1 << 20


def exit_problem(outcome: Outcome) -> str | None:
    """Why the command did not run to a zero exit: not started, killed at its timeout, a signal or a status."""
    if outcome.start_error:
        return outcome.start_error
    if outcome.timed_out:
        return f"killed at its timeout after {outcome.duration_ms / 1000:.1f} s"
    if outcome.exit_status is not None and outcome.exit_status < 0:
        return f"killed by signal {-outcome.exit_status}"
    if outcome.exit_status != 0:
        meaning = {126: " (found but cannot be run: not executable, or a bad interpreter)",
                   127: " (command or interpreter not found)"}.get(outcome.exit_status, "")
        return f"exited with {outcome.exit_status}{meaning}"
    return None


def _text(outcome: Outcome) -> str:
    return outcome.stdout.decode("utf-8", "replace")


def render(outcome: Outcome, sandbox: Sandbox) -> str | None:
    text = _text(outcome).strip()
    if not text:
        return "printed nothing: the prompt would go on without memory"
    opened, closed = text.count("<lifeos-memory>"), text.count("</lifeos-memory>")
    if opened != 1 or closed != 1 or text.index("<lifeos-memory>") > text.index("</lifeos-memory>"):
        return f"printed {opened} <lifeos-memory> and {closed} </lifeos-memory> markers, not one block"
    return None


def recall(outcome: Outcome, sandbox: Sandbox) -> str | None:
    text = _text(outcome)
    if not text.strip():
        return "printed nothing for the probe prompt: the probe note was not recalled"
    if "<lifeos-recall>" not in text or "</lifeos-recall>" not in text:
        return "printed something other than a <lifeos-recall> block"
    if sandbox.token not in text:
        return "its <lifeos-recall> block does not name the probe note"
    return None


def log_rows(path: str) -> list[dict]:
    try:
        data = read_bounded(path, MAX_LOG_BYTES)
    except (OSError, UnsafeFile):
        return []
    rows = []
    for line in data.splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue
        if isinstance(row, dict):
            rows.append(row)
    return rows


def fire(outcome: Outcome, sandbox: Sandbox) -> str | None:
    if _text(outcome).strip():
        return "printed on stdout (a Stop hook must print nothing)"
    rows = log_rows(sandbox.layout.evidence(contract.REVIEWER_FIRES_LOG))
    if not any(row.get("session") == sandbox.session for row in rows):
        return "exited 0 but logged no turn for the probe session in reviewer-fires.jsonl"
    return None


def gate(outcome: Outcome, sandbox: Sandbox, settle_by: float | None = None) -> str | None:
    """settle_by: the monotonic time by which the gate's detached check must have ended (None: do not wait)."""
    if _text(outcome).strip():
        return "printed on stdout (the gate prints nothing there)"
    log = sandbox.layout.evidence(contract.HEALTH_LOG)
    if settle_by is not None and not wait_free(os.path.dirname(log), os.O_RDONLY | os.O_DIRECTORY, settle_by):
        return "its detached check was still running when the probe's time budget (probe_timeout_ms) ran out"
    if not log_rows(log):
        return "exited 0 but published no report in memory-health.jsonl"
    return None


def envelope(outcome: Outcome) -> tuple[dict | None, str | None]:
    """The command's ok envelope's data, or why there is none."""
    try:
        answer = json.loads(_text(outcome))
    except ValueError:
        return None, "did not print a JSON envelope"
    if not isinstance(answer, dict) or answer.get("ok") is not True:
        error = answer.get("error") if isinstance(answer, dict) else None
        code = error.get("code") if isinstance(error, dict) else None
        return None, f"answered an error envelope ({code or 'no code'})"
    data = answer.get("data")
    return (data if isinstance(data, dict) else {}), None


def written_id(data: dict) -> str | None:
    result = data.get("result")
    detail = result.get("detail") if isinstance(result, dict) else None
    value = detail.get("id") if isinstance(detail, dict) else None
    return value if isinstance(value, str) else None


def search_finds(data: dict, record: str) -> str | None:
    items = data.get("items")
    if not isinstance(items, list) or not any(isinstance(i, dict) and i.get("id") == record for i in items):
        return "did not find the record the probe had just written"
    return None


def get_returns(data: dict, sandbox: Sandbox) -> str | None:
    if sandbox.token not in json.dumps(data, ensure_ascii=False):
        return "did not return the record the probe had just written"
    return None


def review_left_row(sandbox: Sandbox) -> str | None:
    rows = log_rows(sandbox.layout.evidence(contract.REVIEWER_RUNS_LOG))
    if not rows or rows[-1].get("ok") is not True:
        return "left no successful terminal row in reviewer-runs.jsonl"
    return None
