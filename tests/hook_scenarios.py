"""Scenarios of issue 22 (the hooks' truth), each one change to a copy of the healthy demo tree.

Shared by the finding table (tests/health/test_health_findings.py), the catalogue walk and the real-CLI
tests (tests/health/test_hooks_truth.py). Failure rows are built with the hooks' own row model.
"""
from __future__ import annotations

import json
from pathlib import Path

from cortex.hookrows import hook_failure_row
from tests.health_support import hot, memory, obs

DEMO_RECALL_BEAT = "2026-11-29T11:30:02.755Z"  # the demo's newest memory-retrievals.jsonl row


def write_note(root: Path, name: str, text: str) -> Path:
    path = memory(root) / "KNOWLEDGE" / name
    path.write_text(text)
    return path


def note_with_impossible_date(root):
    write_note(root, "seed-order.md", "---\nid: knowledge-seed-order\ntitle: Seed order\ncreated: 2026-02-30\n---\n"
               "Order the seeds by the end of January.\n")


def note_with_duplicate_id(root):
    write_note(root, "frost-dates-copy.md", "---\nid: knowledge-frost-dates\ntitle: Frost dates (copy)\n"
               "created: 2026-09-15T08:00:00Z\n---\nA copy of the frost dates note.\n")


def review_config_trailing_comma(root):
    folder = root / "LIFEOS" / "USER" / "CONFIG"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "memory-review.json").write_text('{\n  "schema_version": 1,\n  "turn_threshold": 8,\n}\n')


def review_config_wrong_type(root):
    folder = root / "LIFEOS" / "USER" / "CONFIG"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "memory-review.json").write_text(json.dumps({"schema_version": 1, "turn_threshold": "8"}))


HAND_EDITS = ("- PREFERENCE: likes dark mode", "PRERENCE: typo", "PREFERENCE:no space")


def hot_hand_edits(root):
    path = hot(root, "principal")
    text = path.read_text()
    path.write_text(text.replace("<!-- END ENTRIES -->", "\n".join(HAND_EDITS) + "\n<!-- END ENTRIES -->"))


def settings_trailing_comma(root):
    path = root / "settings.json"
    text = path.read_text()
    assert '"timeout": 30}' in text
    path.write_text(text.replace('"timeout": 30}', '"timeout": 30},', 1))


def failure_row(hook: str, ts: str, **where) -> dict:
    return hook_failure_row(ts, hook, where.pop("code", "integrity_error"), where.pop("reason", "Invalid created "
                            "timestamp for knowledge-seed-order in KNOWLEDGE/seed-order.md"), **where)


def append_failures(root: Path, *rows: dict) -> None:
    with open(obs(root) / "hook-failures.jsonl", "a") as handle:
        handle.writelines(json.dumps(row) + "\n" for row in rows)


def recall_failing(root):
    append_failures(root, failure_row("recall", "2026-11-29T11:45:00.000Z", file="LIFEOS/MEMORY/KNOWLEDGE/seed-order.md",
                                      line=4, field="created", rule="timestamp"))


def recall_recovered(root):
    append_failures(root, failure_row("recall", "2026-11-29T11:00:00.000Z"))  # before the demo's last recall


def failure_log_garbled(root):
    append_failures(root, {"hook": "recall", "what": "not a failure row"})


def reviewer_every_write_refused(root):
    skips = [{"index": i, "type": "memory", "code": "ESUSPECT_EROSION",
              "error": "ESUSPECT_EROSION: net removal of 2 entries"} for i in range(6)]
    row = {"ts": "2026-11-29T11:50:00.000Z", "ok": True, "runId": "2026-11-29T11-48-00-000Z",
           "transcript": "projects/garden-planner/2026-11-29-late.jsonl", "exchanges": 9, "inference_duration_ms": 20000,
           "parse_ok": True, "dispatch_summary": {"total": 6, "by_type": {"memory": 6}, "succeeded": 0, "failed": 0,
                                                  "failures": [], "skipped_guard": 6, "skips": skips,
                                                  "proposals_auto_applied": 0, "proposals_auto_apply_failed": 0}}
    with open(obs(root) / "reviewer-runs.jsonl", "a") as handle:
        handle.write(json.dumps(row) + "\n")
