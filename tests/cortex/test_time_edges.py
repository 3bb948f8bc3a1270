"""Instants at the edges of the timestamp range: out of range after the offset is invalid input, never a crash.

The range is 0100-01-01T00:00:00.000Z … 9999-12-31T23:59:59.999Z *after* the offset is applied,
so `9999-12-31T23:30:00-01:00` (year 10000 in UTC) and `0100-01-01T00:30:00+01:00` (year 99)
are refused by every reader: the corpus, CORTEX_NOW, --now, lock stamps, evidence rows, items.
"""
from __future__ import annotations

import json
import os
import re
import socket
import time
from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, settings, strategies as st

from cortex.core.timestamps import MAX_MS, MIN_MS, iso_from_ms, parse_timestamp_ms
from tests.cortex_helpers import base_env, cortex, md
from tests.health_support import NOW, clean_env, copy_demo, obs, run_cli
from tests.write_support import tree  # noqa: F401 (fixture)

PAST_END = "9999-12-31T23:30:00-01:00"
BEFORE_START = "0100-01-01T00:30:00+01:00"
EDGES = [PAST_END, BEFORE_START]
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def _expected_ms(year, month, day, hour, minute, second, sign, oh, om):
    """An independent computation: Python datetimes, with overflow meaning out of range."""
    try:
        local = datetime(year, month, day, hour, minute, second, tzinfo=timezone.utc)
        utc = local - sign * timedelta(hours=oh, minutes=om)
    except (ValueError, OverflowError):
        return None
    if year < 100 or not datetime(100, 1, 1, tzinfo=timezone.utc) <= utc:
        return None
    return (utc - _EPOCH) // timedelta(milliseconds=1)


@given(year=st.sampled_from([1, 99, 100, 101, 1969, 1970, 9998, 9999]), month=st.sampled_from([1, 2, 12]),
       day=st.sampled_from([1, 28, 29, 31]), hour=st.sampled_from([0, 1, 22, 23]), minute=st.sampled_from([0, 30, 59]),
       second=st.sampled_from([0, 59]), sign=st.sampled_from([1, -1]), oh=st.integers(0, 23), om=st.integers(0, 59))
def test_timestamps_near_the_edges_parse_or_are_refused_never_raise(year, month, day, hour, minute, second, sign,
                                                                      oh, om):
    text = f"{year:04d}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}{'+' if sign > 0 else '-'}{oh:02d}:{om:02d}"
    parsed = parse_timestamp_ms(text)
    assert parsed == _expected_ms(year, month, day, hour, minute, second, sign, oh, om)
    if parsed is not None:
        assert MIN_MS <= parsed <= MAX_MS
        assert parse_timestamp_ms(iso_from_ms(parsed)) == parsed


@given(st.integers(-8_640_000_000_000_000, 8_640_000_000_000_000))
def test_iso_text_is_total_like_date_to_iso_string(ms):
    text = iso_from_ms(ms)
    assert re.fullmatch(r"(\d{4}|[+-]\d{6})-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", text)
    in_range = MIN_MS <= ms <= MAX_MS
    assert (parse_timestamp_ms(text) == ms) if in_range else parse_timestamp_ms(text) is None


def test_the_range_ends_exactly():
    assert iso_from_ms(MAX_MS) == "9999-12-31T23:59:59.999Z" and parse_timestamp_ms("9999-12-31T23:59:59.999Z") == MAX_MS
    assert parse_timestamp_ms("9999-12-31T23:59:59.9999Z") == MAX_MS  # fractions beyond ms are truncated
    assert iso_from_ms(MIN_MS) == "0100-01-01T00:00:00.000Z" and parse_timestamp_ms("0100-01-01") == MIN_MS
    assert iso_from_ms(MAX_MS + 1) == "+010000-01-01T00:00:00.000Z"
    assert parse_timestamp_ms("9999-12-31T22:59:59.999-01:00") == MAX_MS
    assert parse_timestamp_ms("0100-01-01T01:00:00+01:00") == MIN_MS
    for value in EDGES:
        assert parse_timestamp_ms(value) is None


# --- the core CLI -------------------------------------------------------------------------------

@pytest.mark.parametrize("value", EDGES)
@pytest.mark.parametrize("field", ["created", "updated", "valid_until"])
def test_status_on_a_corpus_holding_an_out_of_range_instant_is_an_integrity_error(tmp_path, value, field):
    fields = {"id": "a1", "type": "memory", "title": "T", "created": "2026-01-01T00:00:00Z",
              "updated": "2026-01-01T00:00:00Z", field: value}
    md(tmp_path / "MEMORY" / "KNOWLEDGE" / "edge.md", **fields)
    code, envelope = cortex("status", "--memory-root", str(tmp_path / "MEMORY"))
    assert code == 4 and envelope["error"]["code"] == "integrity_error"
    assert "edge.md" in envelope["error"]["message"] and field in envelope["error"]["message"]


@pytest.mark.parametrize("value", EDGES)
def test_cortex_now_out_of_range_is_invalid_input(tmp_path, value):
    md(tmp_path / "MEMORY" / "KNOWLEDGE" / "ok.md", id="a1", type="memory", title="T",
       created="2026-01-01T00:00:00Z", updated="2026-01-01T00:00:00Z")
    code, envelope = cortex("search", "body", "--memory-root", str(tmp_path / "MEMORY"), env=base_env(CORTEX_NOW=value))
    assert code == 4 and envelope["error"] == {"code": "invalid_input",
                                               "message": f"CORTEX_NOW is not a valid timestamp: {value}"}


@pytest.mark.parametrize(("args", "code", "error"), [
    (("search", "body", "--from", PAST_END), 4, "invalid_input"),
    (("search", "body", "--to", BEFORE_START), 4, "invalid_input"),
    (("timeline", "--anchor", PAST_END), 3, "not_found"),  # not a date, so an ID that does not exist
])
def test_out_of_range_bounds_and_anchors_are_refused(tmp_path, args, code, error):
    md(tmp_path / "MEMORY" / "KNOWLEDGE" / "ok.md", id="a1", type="memory", title="T",
       created="2026-01-01T00:00:00Z", updated="2026-01-01T00:00:00Z")
    exit_code, envelope = cortex(*args, "--memory-root", str(tmp_path / "MEMORY"))
    assert (exit_code, envelope["error"]["code"]) == (code, error)


def test_an_item_with_an_out_of_range_validity_is_refused(tree):
    item = {"type": "idea", "title": "t", "content": "c", "valid_from": "2026-01-01", "valid_until": PAST_END}
    result = tree.cortex("remember", json.dumps(item), "--adapter", "claude", "--allow-write")
    assert result.code == 5 and result.error["message"].startswith("EINVAL_ITEM:")
    assert "valid_until" in result.error["message"]


def _lock(tree):
    return tree.principal.parent / "PRINCIPAL_MEMORY.md.lock"


@pytest.mark.parametrize("value", EDGES)
def test_a_lock_stamp_out_of_range_is_unverifiable_and_recovered_by_age(tree, value):
    lock = _lock(tree)
    lock.write_text(json.dumps({"pid": os.getpid(), "host": socket.gethostname(), "ts": value, "token": "t"}))
    held = tree.hot_set("principal", ["NAME: blocked"], CORTEX_LOCK_WAIT_MS="20")
    assert held.code == 5 and held.error["message"].startswith("ELOCK_HELD:")
    assert "unverifiable" in held.error["message"] and str(lock) in held.error["message"]
    old = time.time() - 3600
    os.utime(lock, (old, old))
    result = tree.hot_set("principal", ["NAME: after"], CORTEX_LOCK_WAIT_MS="20")
    assert result.code == 0, result.envelope
    assert tree.rows("memory-locks.jsonl")[-1]["reason"] == "expired-unverifiable-holder"


# --- the auditor --------------------------------------------------------------------------------

@pytest.mark.parametrize("value", EDGES)
def test_health_now_out_of_range_is_the_clock_finding_and_every_check_still_runs(tmp_path, value):
    result = run_cli(root=copy_demo(tmp_path), now=value)
    finding = result.finding("cortex-clock-invalid")
    assert finding["severity"] == "critical" and finding["detail"]["value"] == value
    assert result.report["overall"] == "critical" and result.code == 2
    assert "retrieval" in result.report["evidence"] and "index-no-index-v1" in result.report["ok_summary"]


def test_health_env_now_out_of_range_is_the_clock_finding(tmp_path):
    result = run_cli(root=copy_demo(tmp_path), now=None, env=clean_env(CORTEX_HEALTH_NOW=PAST_END))
    assert result.finding("cortex-clock-invalid")["detail"]["source"] == "env" and result.code == 2


@pytest.mark.parametrize("sub", ["statusline", "gate"])
def test_subcommands_refuse_an_out_of_range_now_without_an_internal_error(tmp_path, sub):
    root = copy_demo(tmp_path)
    wait = ["--wait"] if sub == "gate" else []  # the gate speaks of this check only when it waits for it
    result = run_cli(sub, *wait, "--root", str(root), "--now", PAST_END, root=None, now=None, write=True)
    assert "internal error" not in result.stdout + result.stderr and "Overflow" not in result.stdout + result.stderr
    assert ("not a valid timestamp" in result.stdout) or ("cortex-clock-invalid" in result.stdout + result.stderr)


def test_evidence_rows_with_out_of_range_instants_are_findings_not_crashes(tmp_path):
    root = copy_demo(tmp_path)
    with open(obs(root) / "memory-retrievals.jsonl", "a") as handle:
        handle.write(json.dumps({"ts": PAST_END, "query_hash": "q", "returned_count": 1, "duration_ms": 1}) + "\n")
    with open(obs(root) / "reviewer-runs.jsonl", "a") as handle:
        handle.write(json.dumps({"ts": PAST_END, "ok": True, "runId": "r"}) + "\n")
    (obs(root) / "review-state.json").write_text(json.dumps({"last_review_at": BEFORE_START}))
    result = run_cli(root=root)
    assert result.report["overall"] != "unknown" and result.code in (1, 2)
    assert "retrieval-evidence-malformed" in result.ids() and "state-corrupt" in result.ids()
    assert result.report["ts"] == iso_from_ms(parse_timestamp_ms(NOW))


# --- the boundary rule: an age equal to its threshold is fresh, one millisecond more is stale --------

def test_an_age_equal_to_the_threshold_is_fresh_and_one_millisecond_more_is_stale(tmp_path):
    root = copy_demo(tmp_path)
    latest = parse_timestamp_ms(run_cli(root=root).report["evidence"]["retrieval"]["latest"]["ts"])
    threshold = 3_600_000
    at_limit = run_cli("--threshold", f"retrieval_stale_ms={threshold}", root=root, now=iso_from_ms(latest + threshold))
    assert "retrieval-fresh" in at_limit.report["ok_summary"]
    past = run_cli("--threshold", f"retrieval_stale_ms={threshold}", root=root, now=iso_from_ms(latest + threshold + 1))
    assert past.finding("retrieval-stale")["detail"]["measured"] == threshold + 1


def test_the_status_line_uses_the_same_boundary(tmp_path):
    from tests.ops_support import publish_runs

    root = copy_demo(tmp_path)
    published = parse_timestamp_ms(publish_runs(root, [0])[-1]["ts"])
    base = ["statusline", "--root", str(root), "--max-age", "30m", "--now"]
    assert run_cli(*base, iso_from_ms(published + 1_800_000), root=None, now=None, write=True).stdout == "mem ✓ ok 30m\n"
    stale = run_cli(*base, iso_from_ms(published + 1_800_001), root=None, now=None, write=True).stdout
    assert stale == "mem ? stale 30m (last ok)\n"


@settings(max_examples=300)
@given(st.lists(st.one_of(st.text(max_size=45), st.sampled_from(["2026-01-01", "1969-12-31T23:59:59.999Z",
                                                                 "2026-02-30", "9999-12-31T23:59:59.999Z"])),
                max_size=20))
def test_the_memo_of_parsed_instants_never_changes_an_answer(values):
    """Parsing is memoised (a corpus repeats its instants): every answer, first or repeated, is the parser's own."""
    from cortex.core import timestamps

    for value in values + values:
        assert timestamps.parse_timestamp_ms(value) == timestamps._parse(value)
    assert len(timestamps._MEMO) <= timestamps._MEMO_SIZE
    assert all(len(key) <= timestamps._LONGEST for key in timestamps._MEMO)


@given(st.integers(MIN_MS, MAX_MS))
def test_iso_text_matches_datetime_in_range(ms):
    """timestamps prints with time.gmtime (datetime costs every command's start-up): the same text as datetime."""
    from datetime import datetime, timedelta, timezone

    moment = datetime(1970, 1, 1, tzinfo=timezone.utc) + timedelta(milliseconds=ms)
    assert iso_from_ms(ms) == f"{moment.year:04d}" + moment.strftime("-%m-%dT%H:%M:%S.") + \
        f"{moment.microsecond // 1000:03d}Z"


def test_the_range_constants_are_datetimes_range():
    from datetime import datetime, timezone

    epoch = datetime(1970, 1, 1, tzinfo=timezone.utc)
    assert MIN_MS == (datetime(100, 1, 1, tzinfo=timezone.utc) - epoch).days * 86_400_000
    assert MAX_MS == ((datetime(9999, 12, 31, tzinfo=timezone.utc) - epoch).days + 1) * 86_400_000 - 1


_STAMP_CHARS = "0123456789-T:.Z+ \u0663\uff12\u00b2x"  # ASCII digits and separators, other digits, and noise


@settings(max_examples=500)
@given(st.one_of(st.integers(MIN_MS, MAX_MS).map(iso_from_ms),
                 st.text(_STAMP_CHARS, min_size=24, max_size=24),
                 st.integers(MIN_MS, MAX_MS).map(iso_from_ms).flatmap(
                     lambda text: st.tuples(st.integers(0, 23), st.sampled_from(_STAMP_CHARS)).map(
                         lambda at: text[:at[0]] + at[1] + text[at[0] + 1:]))))
def test_the_sliced_shape_reads_what_the_pattern_reads(value):
    """Our own stamps' shape is read by slicing (no `re` on the Stop hook): the same groups as the pattern, or None."""
    from cortex.core import timestamps

    match = timestamps._pattern().match(value)
    assert timestamps._fields(value) == (match.groups() if match else None)
