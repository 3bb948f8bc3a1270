"""Memory operations from the hook logs (collectors.lifeos.memory_operations) and the exporter's staged cursors
(collectors.readers.exportcursors): what a row becomes, what never leaves it, and when the position moves."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from collectors.readers.exportcursors import Staging
from collectors.lifeos.memory_operations import BOUNDS_S, OTHER, fire, operations_since, recall, review, write
from tests.health_support import jsonl

RECALL = {"ts": "2026-11-29T10:00:00.000Z", "query_hash": "ab12", "returned_count": 3, "duration_ms": 12.5}
WRITE = {"ts": "2026-11-29T10:00:01.000Z", "file": "LIFEOS/USER/DIGITAL_ASSISTANT/DA_MEMORY.md", "updated_by": "x",
         "prior_count": 4, "new_count": 5, "evictions": [], "additions": ["RULE: PRIVATE-ENTRY-TEXT ~explicit"],
         "dropped": [], "ok": True, "error": None}
RUN = {"ts": "2026-11-29T10:05:00.000Z", "ok": True, "runId": "2026-11-29T10-04-00-000Z", "transcript": "t.jsonl",
       "exchanges": 3, "inference_duration_ms": 900, "parse_ok": True, "dispatch_summary": {"total": 2}}
FIRE = {"ts": "2026-11-29T10:06:00.000Z", "session": "s", "turns": 5, "started": True, "reason": "r", "pid": 7}
NS = 1_000_000


def test_a_recall_is_search_memory_from_its_start_for_its_duration():
    operation, seconds = recall(RECALL)
    assert (operation.name, operation.records, operation.error, seconds) == ("search_memory", 3, None, 0.0125)
    assert operation.end_ns - operation.start_ns == 12_500_000 and operation.start_ns % NS == 0
    assert recall({**RECALL, "extra": 1}) is None and recall({**RECALL, "ts": "yesterday"}) is None


def test_a_write_is_create_or_update_memory_and_keeps_no_entry_text_and_only_a_code():
    operation, _ = write(WRITE)
    assert (operation.name, operation.records, operation.extra) == ("create_memory", 1, (("cortex.memory.file", "da"),))
    evicted, _ = write({**WRITE, "evictions": ["PREFERENCE: old ~explicit"]})
    assert (evicted.name, evicted.records) == ("update_memory", 2)
    refused, _ = write({**WRITE, "ok": False, "error": {"code": "ESUSPECT_SHRINK", "message": "PRIVATE-MESSAGE"}})
    assert refused.error == "ESUSPECT_SHRINK"
    for error in ({"code": "esuspect"}, {"code": "E " * 3}, "EWRITE <private>x</private>", None, {"code": "E" * 65}):
        assert write({**WRITE, "ok": False, "error": error})[0].error == OTHER
    legacy, _ = write({"ts": WRITE["ts"], "file": "PRINCIPAL_MEMORY.md", "prior_count": 11, "new_count": 12})
    assert (legacy.name, legacy.records, legacy.error, legacy.extra) == (
        "create_memory", 1, None, (("cortex.memory.file", "principal"),))
    assert write({**WRITE, "file": "elsewhere/NOTES.md"})[0].extra == ()
    assert write({**WRITE, "ok": "yes"}) is None and write({**WRITE, "additions": "x"}) is None
    assert "PRIVATE" not in repr([write(WRITE), refused])


def test_a_reviewer_run_starts_at_its_run_id_and_a_failure_is_an_error_type():
    operation, seconds = review(RUN)
    assert (operation.name, operation.records, seconds) == ("review_memory", 2, 60.0)
    failed, _ = review({**RUN, "ok": False, "parse_ok": False, "error": "PRIVATE"})
    assert failed.error == "parse_failed" and review({**RUN, "ok": False})[0].error == "review_failed"
    odd, seconds = review({**RUN, "runId": "not-a-time"})
    assert seconds == 0.9  # no start in the id: the inference time before its end
    assert review({**RUN, "skipped": True})[0].extra == (("cortex.review.skipped", True),)


def test_a_fire_is_an_instant_with_its_decision():
    operation, seconds = fire(FIRE)
    assert operation.start_ns == operation.end_ns and seconds is None
    assert operation.extra == (("cortex.review.started", True), ("cortex.review.turns", 5))
    assert fire({**FIRE, "started": 1}) is None


def logs(tmp_path: Path, rows: dict[str, list]) -> Path:
    obs = tmp_path / "M" / "OBSERVABILITY"
    obs.mkdir(parents=True)
    for name, items in rows.items():
        (obs / name).write_text(jsonl(items))
    return obs


def test_operations_since_reads_every_log_counts_invalid_rows_and_keeps_the_newest(tmp_path):
    obs = logs(tmp_path, {"memory-retrievals.jsonl": [RECALL, {**RECALL, "ts": "bad"}, "not json"],
                          "memory-writes.jsonl": [WRITE], "reviewer-runs.jsonl": [RUN],
                          "reviewer-fires.jsonl": [FIRE]})
    batch = operations_since(str(obs), str(obs.parent), None, "t")
    assert [item.name for item in batch.operations] == ["search_memory", "create_memory", "review_memory",
                                                        "fire_review"]
    assert (batch.read, batch.dropped, batch.invalid, batch.malformed) == (4, 0, 1, 1)
    two = operations_since(str(obs), str(obs.parent), None, "t", limit=2)
    assert [item.name for item in two.operations] == ["review_memory", "fire_review"] and two.dropped == 2
    points = {point.operation: point for point in batch.durations}
    assert set(points) == {"search_memory", "review_memory"} and points["search_memory"].bounds == BOUNDS_S
    assert points["search_memory"].buckets[1] == 1 and sum(points["review_memory"].buckets) == 1


def test_a_staged_position_moves_only_on_commit_and_one_export_at_a_time(tmp_path):
    obs = logs(tmp_path, {"memory-retrievals.jsonl": [RECALL]})
    folder = tmp_path / "cursors"
    folder.mkdir(mode=0o700)

    def export(commit: bool) -> int:
        staging = Staging(str(folder), str(obs), "t")
        assert staging.problem is None
        found = len(operations_since(str(obs), str(obs.parent), staging.path, "t").operations)
        staging.commit() if commit else staging.discard()
        return found

    assert export(commit=False) == 1 and export(commit=True) == 1 and export(commit=True) == 0
    (obs / "memory-retrievals.jsonl").write_text(jsonl([RECALL, RECALL]))
    held = Staging(str(folder), str(obs), "t")
    assert Staging(str(folder), str(obs), "t").problem == "another export of this tree is running"
    held.discard()
    assert export(commit=True) == 1
    assert sorted(path.name for path in folder.iterdir() if path.name.startswith(".")) == []
    assert all(path.stat().st_mode & 0o777 == 0o600 for path in folder.iterdir())
    assert Staging(None, str(obs), "t").problem.startswith("no private cursor folder")


@pytest.mark.parametrize("damage", ["truncated", "foreign histogram", "counts that do not add up"])
def test_a_damaged_cursor_is_a_full_read_with_the_same_histogram(tmp_path, damage):
    obs = logs(tmp_path, {"memory-retrievals.jsonl": [RECALL, {**RECALL, "duration_ms": 300}]})
    folder = tmp_path / "cursors"
    folder.mkdir(mode=0o700)
    staging = Staging(str(folder), str(obs), "t")
    before = operations_since(str(obs), str(obs.parent), staging.path, "t").durations
    staging.commit()
    cursor = Path(Staging(str(folder), str(obs), "t").cursor("memory-retrievals.jsonl"))
    text = cursor.read_text()
    data = json.loads(text)
    if damage == "truncated":
        cursor.write_text(text[:-9])
    else:
        point = data["state"]["durations"][0]
        point[-1] = ["x"] if damage == "foreign histogram" else [9] * len(point[-1])
        cursor.write_text(json.dumps(data))
    staging = Staging(str(folder), str(obs), "t")
    again = operations_since(str(obs), str(obs.parent), staging.path, "t")
    staging.discard()
    assert len(again.operations) == 2 and again.durations == before
