"""collectors.lifeos.latency_rows reads a hook row's writer form exactly as the regular expressions it replaced."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings, strategies as st

from collectors.lifeos.latency_rows import quick_row

_NUMBER = rb"(\d{1,12}(?:\.\d{1,9})?)"
# (head, tail or None): the head matched at the row's start (its first 160 bytes when there is a tail), the tail
# searched for in its last 2200 bytes; TS is the head's group, the duration the last group of the tail.
_PATTERNS = {
    "recall": (rb'\{"ts":"([^"\\]{1,64})","query_hash":"[0-9a-f]{1,64}","returned_count":\d{1,9},'
               rb'"duration_ms":' + _NUMBER + rb'(?:,"top_score":[0-9.eE+-]{1,32})?\}\Z', None),
    "fire": (rb'\{"ts":"([^"\\]{1,64})","session":', rb',"duration_ms":' + _NUMBER + rb'\}\Z'),
    "gate": (rb'\{"schema":"cortex-health/v1","ts":"([^"\\]{1,64})",',
             rb',"duration_ms":' + _NUMBER + rb',"reason":(?:null|"(?:[^"\\]|\\.){0,2000}")'
             rb'(?:,"chain":\{"seq":\d{1,19},"prev":"[0-9a-f]{64}"\})?\}\Z'),
}


def _by_pattern(hook: str, line: bytes) -> tuple[bytes, bytes] | None:
    head, tail = (None if text is None else re.compile(text) for text in _PATTERNS[hook])
    first = head.match(line if tail is None else line[:160])
    last = (first if tail is None else tail.search(line[-2200:])) if first else None
    return (first.group(1), last.group(last.lastindex)) if first and last else None


_PIECES = st.sampled_from([b"0", b"7", b"12", b"1.5", b".", b"e", b"-", b"+", b"a", b"f", b"g", b'"', b"\\", b"\n",
                           b",", b":", b"{", b"}", b"null", b"x", b" ", b"\xff", b"0123456789" * 2, b"ab" * 33,
                           b'\\"', b",\"duration_ms\":", b",\"reason\":", b",\"chain\":{\"seq\":", b",\"prev\":\""])
_TEXT = st.lists(_PIECES, max_size=6).map(b"".join)


def _number():
    return st.one_of(st.integers(0, 10**13).map(lambda n: str(n).encode()),
                     st.tuples(st.integers(0, 10**12), st.integers(0, 10**10)).map(lambda p: f"{p[0]}.{p[1]}".encode()),
                     _TEXT)


@st.composite
def _rows(draw):
    hook = draw(st.sampled_from(sorted(_PATTERNS)))
    ts = draw(st.sampled_from([b"2026-11-29T11:00:00.000Z", b"", b"x" * 64, b"x" * 65, b'a"b', b"a\\b"]) | _TEXT)
    number = draw(_number())
    if hook == "recall":
        score = draw(st.sampled_from([b"", b',"top_score":0.5', b',"top_score":', b',"top_score":' + b"1" * 33]) | _TEXT)
        digest = draw(st.sampled_from([b"ab12", b"", b"f" * 64, b"f" * 65, b"G"]))
        count = draw(st.sampled_from([b"3", b"", b"1" * 9, b"1" * 10]))
        parts = [b'{"ts":"', ts, b'","query_hash":"', digest, b'","returned_count":', count, b',"duration_ms":',
                 number, score, b"}"]
    elif hook == "fire":
        parts = [b'{"ts":"', ts, b'","session":', draw(_TEXT), b',"duration_ms":', number, b"}"]
    else:
        reason = draw(st.sampled_from([b"null", b'"why"', b'"a\\"b"', b'"a\\\nb"', b'"' + b"x" * 2000 + b'"',
                                       b'"' + b"x" * 2001 + b'"', b'"' + b"\\n" * 2000 + b'"', b'"open']) | _TEXT)
        chain = draw(st.sampled_from([b"", b',"chain":{"seq":3,"prev":"' + b"a" * 64 + b'"}',
                                      b',"chain":{"seq":3,"prev":"' + b"a" * 63 + b'"}',
                                      b',"chain":{"seq":' + b"9" * 20 + b',"prev":"' + b"a" * 64 + b'"}']) | _TEXT)
        parts = [b'{"schema":"cortex-health/v1","ts":"', ts, b'",', draw(_TEXT), b',"duration_ms":', number,
                 b',"reason":', reason, chain, b"}"]
    cut = draw(st.integers(0, len(parts)))  # a damaged or foreign row: a part dropped, bytes inserted
    if draw(st.booleans()):
        parts[cut:cut + 1] = [draw(_TEXT)]
    return hook, b"".join(parts) + draw(st.sampled_from([b"", b"", b"\n", b"}", b" "]))


@settings(max_examples=600)
@given(_rows())
def test_a_row_is_read_as_its_pattern_reads_it(row):
    hook, line = row
    assert quick_row(hook, line) == _by_pattern(hook, line)


@given(st.sampled_from(sorted(_PATTERNS)), st.binary(max_size=80))
def test_any_bytes_are_read_as_the_pattern_reads_them(hook, line):
    assert quick_row(hook, line) == _by_pattern(hook, line)


@pytest.mark.parametrize("hook,line,expected", [
    ("recall", b'{"ts":"T","query_hash":"ab","returned_count":3,"duration_ms":12.5,"top_score":0.9}', (b"T", b"12.5")),
    ("fire", b'{"ts":"T","session":"s","duration_ms":7}', (b"T", b"7")),
    ("gate", b'{"schema":"cortex-health/v1","ts":"T","x":1,"duration_ms":3.25,"reason":null,"chain":{"seq":2,'
             b'"prev":"' + b"0" * 64 + b'"}}', (b"T", b"3.25")),
    ("gate", b'{"schema":"cortex-health/v1","ts":"T","duration_ms":1,"x":2,"duration_ms":4,"reason":"a\\"b"}',
     (b"T", b"4")),
    ("fire", b'{"ts":"T","session":' + b"x" * 3000 + b',"duration_ms":7}', (b"T", b"7")),
])
def test_the_writers_rows(hook, line, expected):
    assert quick_row(hook, line) == expected == _by_pattern(hook, line)
