"""The fast strict row reader and the log cursors against the plain strict reader (property tests).

The reference is the line-at-a-time reader the auditor used before: cortex.core.safeio.iter_lines
with strictjson.parse_object. Lines are drawn from a pool of tricky fragments (duplicate keys,
NaN, lone surrogates, deep nesting, CRLF, blanks, invalid UTF-8, near-identical encodings).
"""
from __future__ import annotations

import os

from hypothesis import given, settings
from hypothesis import strategies as st

from collectors.readers.jsonl import MAX_REPORTED_LINES, scan_jsonl
from collectors.readers.cursors import scan_log
from collectors.lifeos.proposals import PendingCount
from collectors.lifeos.retrieval import LatestRetrieval
from collectors.lifeos.reviewer import NewestRows
from collectors.lifeos.reviewer_lifecycle import TerminalRunIds
from collectors.readers.text import clip
from cortex.core.safeio import iter_lines
from cortex.core.strictjson import parse_object

FRAGMENTS = [
    b'{"a":1}', b'{"a": 1}', b'{"a":1,"a":2}', b'{"a":NaN}', b'{"a":1e999}', b'{"a":1.0}', b'{"a":1E5}',
    b'{"a":"\\ud800"}', b'{"a":"\\u00e9"}', '{"a":"é"}'.encode(), b'{"a":"\xff"}', b"[1]", b"null", b"",
    b"   ", b'{"a":1}\r', b'{"a":1} ', b' {"a":1}', b'{"a":' + b"[" * 64 + b"]" * 64 + b"}",
    b'{"a":' + b"[" * 65 + b"1" + b"]" * 65 + b"}", b'{"status":"pending","id":"p"}', b'{"a":-0}',
    b'{"runId":"2026-11-29T10-00-00-000Z","ok":true}', b'{"runId":"odd id"}', b'{"a":' + b"9" * 30 + b"}",
    b'{"a":"x\\/y"}', b'{"a":"\\u001f"}', b'{"a":{"b":[1,2,{"c":null}]}}', b'{"k":"' + b"x" * 300 + b'"}',
    b'{"a":1}],[{"b":2}', b'{"c":[[1', b'2]]}', b"{", b"}", b'{"k<private>S</private>":1,"k<private>S</private>":2}',
]
lines = st.lists(st.sampled_from(FRAGMENTS), max_size=60)


def reference(path, max_line_bytes):
    rows, bad, total = [], [], 0
    for number, raw in iter_lines(path, max_line_bytes):
        if raw is not None and not raw.strip():
            continue
        row = parse_object(raw) if raw is not None else f"line longer than {max_line_bytes} bytes"
        if isinstance(row, str):
            total += 1
            if len(bad) < MAX_REPORTED_LINES:
                bad.append((number, clip(row)))  # reasons cross the privacy boundary
        else:
            rows.append((number, row))
    return rows, bad, total


@settings(max_examples=300, deadline=None)
@given(body=lines, newline_at_end=st.booleans(), max_line_bytes=st.sampled_from([40, 1 << 20]))
def test_fast_reader_judges_every_line_as_the_strict_reader(tmp_path_factory, body, newline_at_end, max_line_bytes):
    path = tmp_path_factory.mktemp("rows") / "log.jsonl"
    path.write_bytes(b"\n".join(body) + (b"\n" if newline_at_end and body else b""))
    rows = []
    scan = scan_jsonl(str(path), lambda number, row: rows.append((number, row)), max_line_bytes=max_line_bytes)
    expected_rows, expected_bad, total = reference(str(path), max_line_bytes)
    assert rows == expected_rows
    assert [(m.line, m.reason) for m in scan.malformed] == expected_bad and scan.malformed_total == total


def evidence(aggregate):
    if isinstance(aggregate, LatestRetrieval):
        return aggregate.latest()
    if isinstance(aggregate, NewestRows):
        return aggregate.latest(), aggregate.history()
    if isinstance(aggregate, PendingCount):
        return aggregate.pending
    return aggregate.finished({"2026-11-29T10-00-00-000Z", "2026-11-29T11-00-00-000Z"})


class FewRunIds(TerminalRunIds):
    KEEP = 2  # the bounded set overflows at once: lookups must stay exact or say unknown


def operation():
    chunk = st.lists(st.sampled_from(FRAGMENTS + [b'{"runId":"2026-11-29T1%d-00-00-000Z"}' % n for n in range(10)]),
                     min_size=1, max_size=8).map(lambda items: b"\n".join(items))
    return st.one_of(
        st.tuples(st.just("append"), chunk, st.booleans()),
        st.tuples(st.just("truncate"), st.floats(0, 1)),
        st.tuples(st.just("rewrite"), st.floats(0, 1), st.sampled_from([b"#", b"{", b"\n", b"\xff"])),
        st.tuples(st.just("rotate")),
    )


def apply(path, op) -> None:
    kind = op[0]
    if kind == "append":
        with open(path, "ab") as handle:
            handle.write(op[1] + (b"\n" if op[2] else b""))
    elif kind == "truncate":
        os.truncate(path, int(path.stat().st_size * op[1]))
    elif kind == "rewrite" and path.stat().st_size:
        with open(path, "r+b") as handle:
            handle.seek(min(int(path.stat().st_size * op[1]), path.stat().st_size - 1))
            handle.write(op[2])
    elif kind == "rotate":
        fresh = path.with_name("rotated")
        fresh.write_bytes(path.read_bytes()[len(path.read_bytes()) // 2:])
        os.replace(fresh, path)


@settings(max_examples=150, deadline=None)
@given(ops=st.lists(operation(), min_size=1, max_size=12))
def test_random_appends_and_damage_resume_to_the_full_read(tmp_path_factory, ops):
    # Logs here stay under 128 KiB, where the cursor's digests cover every byte: any change is seen.
    folder = tmp_path_factory.mktemp("log")
    path = folder / "log.jsonl"
    path.write_bytes(b"")
    cursors = folder / "cursors"
    cursors.mkdir(mode=0o700)
    for op in ops:
        apply(path, op)
        for make in (LatestRetrieval, NewestRows, PendingCount, FewRunIds):
            remembered = scan_log(str(path), make, anchor=None, cursors=str(cursors))
            full = scan_log(str(path), make, anchor=None, cursors=None)
            assert remembered[0] == full[0]
            assert evidence(remembered[1]) == evidence(full[1])


def test_bounded_run_ids_answer_exactly_or_say_unknown():
    seen = FewRunIds()
    seen.rows(1, [{"runId": f"2026-11-29T10-00-0{n}-000Z"} for n in range(6)] + [{"runId": "odd"}])
    assert seen.floor == "2026-11-29T10-00-03-000Z"
    assert seen.finished({"2026-11-29T10-00-05-000Z"}) == {"2026-11-29T10-00-05-000Z"}
    assert seen.finished({"2026-11-29T10-00-09-000Z"}) == set()  # newer than anything dropped
    assert seen.finished({"2026-11-29T10-00-01-000Z"}) is None  # may have been dropped: read in full
    assert seen.finished({"odd"}) is None


@settings(max_examples=300, deadline=None)
@given(body=st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=60), max_line_bytes=st.sampled_from([40, 1 << 20]))
def test_the_fast_path_either_declines_or_agrees_with_the_strict_decoder(body, max_line_bytes):
    """Small blocks skip the fast path in a scan (orjson's import costs more): prove it directly, at any size."""
    from collectors.readers.rowscan import certain_rows

    rows = certain_rows(body, max_line_bytes, min_bytes=0)
    if rows is not None:
        assert rows == [parse_object(raw) for raw in body]
        assert all(len(raw) <= max_line_bytes and isinstance(row, dict) for raw, row in zip(body, rows))


def test_a_small_block_never_imports_the_fast_codec_and_a_large_one_takes_it():
    from collectors.readers.rowscan import FAST_PATH_MIN_BYTES, certain_rows

    small = [b'{"a":1}'] * 10
    assert certain_rows(small, 1 << 20) is None
    large = [b'{"a":1}'] * (FAST_PATH_MIN_BYTES // 7 + 1)
    assert certain_rows(large, 1 << 20) == [{"a": 1}] * len(large)
