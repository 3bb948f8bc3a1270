"""The reviewer-runs.jsonl row model is shared: what the reviewer writes is what the auditor accepts."""
import pytest

from collectors.lifeos.reviewer_rows import RowClass, classify
from cortex.reviewrows import FailureRow, SkipRow, SuccessRow

TS, RUN = "2026-10-01T10:00:01.000Z", "2026-10-01T10-00-00-000Z"
SUMMARY = {"total": 1, "by_type": {"memory": 1}, "succeeded": 1, "failed": 0, "failures": [],
           "proposals_auto_applied": 0, "proposals_auto_apply_failed": 0}


def test_the_writer_rows_classify_as_their_shape():
    assert classify(SuccessRow(TS, RUN, "t.jsonl", 2, 12.5, SUMMARY).as_row()) == (RowClass.OK, None)
    assert classify(SkipRow(TS, RUN, None, "nothing new").as_row()) == (RowClass.SKIPPED, None)
    assert classify(FailureRow(TS, RUN, None, 0, 0, None, "inference timeout").as_row())[0] is RowClass.TIMED_OUT
    assert classify(FailureRow(TS, RUN, "t", 1, 3, False, "bad json").as_row())[0] is RowClass.PARSE_FAILED


def test_legacy_rows_without_the_guard_pair_are_valid_but_half_a_pair_is_not():
    guarded = {**SUMMARY, "skipped_guard": 0, "skips": []}
    assert classify(SuccessRow(TS, RUN, "t", 1, 1, guarded).as_row())[0] is RowClass.OK
    for half in ({**SUMMARY, "skipped_guard": 0}, {**SUMMARY, "skips": []}):
        row = {**SuccessRow(TS, RUN, "t", 1, 1, SUMMARY).as_row(), "dispatch_summary": half}
        cls, why = classify(row)
        assert cls is RowClass.INVALID and "only as a pair" in why
        with pytest.raises(ValueError, match="only as a pair"):
            SuccessRow(TS, RUN, "t", 1, 1, half).as_row()


def test_the_writer_refuses_a_row_the_auditor_would_call_invalid():
    with pytest.raises(ValueError, match="transcript"):
        SuccessRow(TS, RUN, "", 1, 1, SUMMARY).as_row()
    with pytest.raises(ValueError, match="exchanges"):
        FailureRow(TS, RUN, None, True, 0, None, "x").as_row()
    with pytest.raises(ValueError, match="ts"):
        SkipRow("yesterday", RUN, None, "x").as_row()


def test_lifecycle_and_lock_rows_written_are_the_rows_the_collectors_count():
    from cortex.liferows import (LOCK_CONTENDED, FireRow, LockEventRow, StartRow, contention_at_ms, spawn_at_ms,
                                 start_at_ms)

    ms = 1790848801000  # TS
    assert start_at_ms({"ts": TS, **StartRow(RUN, 42, "host").as_row()}) == ms
    assert spawn_at_ms({"ts": TS, **FireRow("s", 3, True, "threshold reached", 42).as_row()}) == ms
    assert spawn_at_ms({"ts": TS, **FireRow("s", 1, False, "1/3 turns").as_row()}) is None
    row = LockEventRow(42, LOCK_CONTENDED, "holder-alive", "LIFEOS/x.lock", "gave up after 0 ms").as_row()
    assert contention_at_ms({"ts": TS, **row}) == ms and list(row) == ["pid", "event", "reason", "lock", "detail"]
    with pytest.raises(ValueError, match="event must be one of"):
        LockEventRow(42, "lock_made_up", "r", "l", "d").as_row()
    with pytest.raises(ValueError, match="pid"):
        StartRow(RUN, 0, "host").as_row()
    with pytest.raises(ValueError, match="turns"):
        FireRow("s", -1, False, "x").as_row()
