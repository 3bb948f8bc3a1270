"""Collector records are named tuples or plain __slots__ classes (cheap to define at start-up): what a dataclass did
for free still holds where the code uses it."""
from __future__ import annotations

import hashlib
import json

import pytest

from collectors.lifeos import reviewer
from collectors.evidence import EvidenceStatus, FileState, MalformedLine, as_json
from collectors.healthlog.chain import Checkpoint, parse_checkpoint
from collectors.lifeos.layout import Layout
from collectors.readers.reviewer_rows import RowClass
from tests.health_support import copy_demo, jsonl, obs

TS = "2026-11-29T11:00:00Z"
RUN = "2026-11-29T11-00-00-000Z"


def test_records_hold_only_their_fields_and_compare_by_them():
    state = FileState("/x", EvidenceStatus.OK)
    with pytest.raises(AttributeError):
        state.stray = EvidenceStatus.MISSING  # type: ignore[attr-defined]
    assert state.reason is None and state.readable
    assert state == FileState("/x", EvidenceStatus.OK) and state != FileState("/x", EvidenceStatus.MISSING)
    assert state != MalformedLine("/x", EvidenceStatus.OK)  # another record class is never equal


def test_records_become_json_objects_nested_ones_included():
    scan = reviewer.RunDirectories(FileState("/o/runs", EvidenceStatus.OK), 1, 0,
                                   reviewer.RunDirectory(RUN, "/o/runs/" + RUN, 5, False))
    assert as_json(scan) == {"state": {"path": "/o/runs", "status": "ok", "reason": None}, "count": 1,
                             "unrecognised": 0, "latest": {"run_id": RUN, "path": "/o/runs/" + RUN, "at_ms": 5,
                                                           "has_parse_error": False}}
    assert as_json((MalformedLine(3, "bad"),)) == [{"line": 3, "reason": "bad"}]


def test_the_frozen_walk_is_the_read_only_form_of_the_plain_one(tmp_path):
    """as_json(value, frozen=True) is reports.report.frozen(as_json(value)): views for objects, tuples for arrays."""
    from types import MappingProxyType

    from collectors.runner import collect_all
    from health.judge.checks import collectors
    from reports.report import frozen

    scan = reviewer.RunDirectories(FileState("/o/runs", EvidenceStatus.OK), 1, 0, None)
    values = [scan, (MalformedLine(3, "bad"),), {1: [EvidenceStatus.OK, (2.5, None)]}, "text", 7, None, [], {}]
    values += list(collect_all(Layout.for_root(str(copy_demo(tmp_path))), collectors()).values())
    for value in values:
        walked = as_json(value, frozen=True)
        assert walked == frozen(as_json(value)) and type(walked) is type(frozen(as_json(value)))
    walked = as_json(values[2], frozen=True)
    assert type(walked) is MappingProxyType and walked["1"] == ("ok", (2.5, None))


def test_the_checkpoint_line_keeps_its_bytes():
    point = Checkpoint(7, "a" * 64, TS, 9, 100, 180)
    body = ('{"schema":"cortex-health-checkpoint/v1","seq":7,"head":"' + "a" * 64
            + '","ts":"2026-11-29T11:00:00Z","line":9,"start":100,"end":180}')
    assert point.text() == body[:-1] + ',"seal":"' + hashlib.sha256(body.encode()).hexdigest() + '"}\n'
    assert parse_checkpoint(point.text().encode()) == point and point.sealed
    assert parse_checkpoint(body.encode()) == point._replace(sealed=False)  # written before seals
    edited = point.text().replace('"line":9', '"line":8')
    assert parse_checkpoint(edited.encode()) == "its seal does not match its fields: it was edited or damaged"


def test_a_layout_leaves_its_environment_and_cursors_out_of_equality_hash_and_repr(tmp_path):
    layout = Layout.for_root(str(tmp_path), environ={"API_TOKEN": "s3cret-value"})
    remembered = layout._replace(cursors=str(tmp_path / "cursors"))
    assert remembered.cursors == str(tmp_path / "cursors") and remembered.environ == {"API_TOKEN": "s3cret-value"}
    assert remembered == layout and not remembered != layout and hash(remembered) == hash(layout)
    assert layout != Layout.for_root(str(tmp_path / "other"))
    assert "s3cret-value" not in repr(layout) and "cursors" not in repr(remembered)
    assert Layout(*layout[:6]).environ == {}  # the default is an empty read-only mapping, never a shared dict


def test_a_layout_reads_settings_once(tmp_path):
    (tmp_path / "settings.json").write_text("{}")
    layout = Layout.for_root(str(tmp_path))
    assert layout.settings is layout.settings and layout.settings.usable


def test_a_remembered_latest_row_is_handed_back_as_it_was(tmp_path):
    rows = reviewer.NewestRows()
    rows.rows(1, [{"ts": TS, "runId": RUN, "ok": True}])
    judged = rows.latest()
    assert isinstance(judged, reviewer.LatestRow) and judged.classification is not None
    state = json.loads(json.dumps(rows.state()))
    assert isinstance(state["latest"], dict) and all(isinstance(row, dict) for row in state["history"])
    restored = reviewer.NewestRows()
    restored.restore(state)
    assert restored.latest() == judged and restored.history() == rows.history()
    assert isinstance(restored.latest().classification, RowClass)


def test_reviewer_evidence_after_a_remembered_audit_matches_a_full_read(tmp_path):
    root = copy_demo(tmp_path)
    log = obs(root) / "reviewer-runs.jsonl"
    log.write_text(jsonl([{"ts": TS, "runId": RUN, "ok": True}]))
    layout = Layout.for_root(str(root))._replace(cursors=str(tmp_path / "cursors"))
    first = reviewer.collect(layout)
    with log.open("a") as handle:
        handle.write(jsonl([{"ts": TS, "runId": RUN, "ok": False, "error": "boom"}]))
    assert reviewer.collect(layout) == reviewer.collect(layout._replace(cursors=None)) != first


def test_the_hot_collectors_judge_one_reading_of_each_hot_file(tmp_path):
    """Layout.hot_texts reads each hot file once per audit: hot_memory and hot_content see the same text."""
    from collectors.lifeos import hot_content, hot_memory

    layout = Layout.for_root(str(copy_demo(tmp_path)))
    label, path = layout.hot_files[0]
    before = hot_memory.collect(layout).files[0]
    with open(path, "a", encoding="utf-8") as handle:  # written between the two collectors
        handle.write("PREFERENCE: an entry added after the first collector read the file\n")
    assert hot_content.collect(layout).files[0].entries == before.valid_entries
    assert hot_content.collect(Layout.for_root(layout.root)).files[0].entries == before.valid_entries + 1
