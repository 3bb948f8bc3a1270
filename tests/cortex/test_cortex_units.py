"""Pure helpers the contract's outputs depend on: timestamps, JS number text, JSON output."""
from __future__ import annotations

import json
import math
from datetime import datetime

import pytest
from hypothesis import given, strategies as st

from cortex.core.jscompat import js_len, js_number, js_number_to_string
from cortex.core.jsjson import dumps
from cortex.core.search import round6
from cortex.core.timestamps import iso_from_ms, parse_timestamp_ms


@pytest.mark.parametrize("value, ms", [
    ("1970-01-01", 0),
    ("2026-01-06", 1767657600000),
    ("2026-01-06T01:02Z", 1767661320000),
    ("2026-01-06T01:02:03.4567Z", 1767661323456),
    ("2026-01-06T02:00:00+01:00", 1767657600000 + 3600000),
    ("2024-02-29", 1709164800000),
])
def test_valid_timestamps(value, ms):
    assert parse_timestamp_ms(value) == ms


@pytest.mark.parametrize("value", [
    "2026-01-06T01:02:03", "2026-01-06 01:02:03Z", "2026-02-29", "2026-00-10", "2026-01-32", "2026-01-01T23:60Z",
    "2026-01-01T00:00:60Z", "2026-01-01T00:00+24:00", "26-01-01", "2026-1-1", "", "0050-01-01",
    "2026-01-01T00:00:00.1234567890Z", None, 20260101,
])
def test_invalid_timestamps(value):
    assert parse_timestamp_ms(value) is None


@given(st.datetimes(min_value=datetime(1900, 1, 1), max_value=datetime(9999, 12, 31)))
def test_iso_round_trip(moment):
    text = moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"
    parsed = parse_timestamp_ms(text)
    assert parsed is not None and iso_from_ms(parsed) == text


@pytest.mark.parametrize("value, text", [
    (0.0, "0"), (2.0, "2"), (1.5, "1.5"), (1e-7, "1e-7"), (0.000001, "0.000001"), (1e21, "1e+21"),
    (123456789012345680000.0, "123456789012345680000"), (0.00005, "0.00005"), (-2.5e-8, "-2.5e-8"),
])
def test_js_number_text(value, text):
    assert js_number_to_string(value) == text


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_js_number_text_round_trips(value):
    assert float(js_number_to_string(value)) == value


def test_js_number_parsing_and_length():
    assert js_number(" 12 ") == 12 and js_number("1e2") == 100 and js_number("0x10") == 16
    assert math.isnan(js_number("12px")) and js_number("") == 0
    assert js_len("a😀") == 3 and js_len("abc") == 3


@given(st.text(st.characters(blacklist_categories=())) | st.text(st.sampled_from("aé—\ud800\udfff\uffff😀\U00010000")))
def test_js_len_counts_utf16_code_units(text):
    assert js_len(text) == len(text.encode("utf-16-le", "surrogatepass")) // 2


def test_dumps_matches_json_for_plain_values_and_escapes_lone_surrogates():
    value = {"a": [1, "x\"\n\u0001é", None, True, {"b": []}]}
    assert dumps(value) == json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    assert dumps("\ud800") == '"\\ud800"'
    assert dumps([2.0, 0.1]) == "[2,0.1]"


@given(st.floats(min_value=0, exclude_min=True, allow_infinity=False))
def test_shortest_digits_are_decimals_normalised_repr(value):
    """js_number_to_string reads repr's digits itself (no decimal import on the hooks): as decimal reads them."""
    from decimal import Decimal

    from cortex.core.jscompat import _shortest_digits

    _sign, digits, exponent = Decimal(repr(value)).normalize().as_tuple()
    assert _shortest_digits(value) == ("".join(map(str, digits)), exponent)


def test_round6_is_half_up_on_the_exact_value():
    # (5e-7).toFixed(6) is "0.000000": the double is just below the tie
    assert round6(0.0000005) == 0.0
    assert round6(1.0000015) == 1.000001
    assert round6(0.0000015) == 0.000002  # this double is just above the tie
    assert round6(0.12345649) == 0.123456 and round6(2.5) == 2.5


@given(st.one_of(st.floats(allow_nan=False, allow_infinity=False), st.floats(-100, 100),
                 st.integers(0, 10**9).map(lambda n: n / 10**7)))
def test_round6_in_integers_is_the_decimal_quantize(value):
    """round6 computes toFixed(6) in integers (no decimal import on the recall hook): the same float, sign
    included, and decimal's own error past its precision."""
    import math
    from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

    try:
        expected = float(Decimal(value).quantize(Decimal("0.000001"), rounding=ROUND_HALF_UP))
    except InvalidOperation:
        with pytest.raises(InvalidOperation):
            round6(value)
        return
    got = round6(value)
    assert got == expected and math.copysign(1, got) == math.copysign(1, expected)


_ANY_TEXT = st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=()))
_PLAIN = st.recursive(st.none() | st.booleans() | st.integers(-(2**53), 2**53) | _ANY_TEXT,
                      lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_ANY_TEXT, inner, max_size=4),
                      max_leaves=12)


@given(_PLAIN)
def test_the_c_encoder_path_matches_dumps_on_float_free_values(value):
    from cortex.core.jsjson import dumps_plain_utf8

    assert dumps_plain_utf8(value) == dumps(value).encode("utf-8")


_MOSTLY_ASCII = st.text(alphabet=st.sampled_from(list("ab\\u\"/ \n\t\x00\x1f\x7f") + ["\u00e9", "\u2028", "\ud800"]))


@given(st.dictionaries(_MOSTLY_ASCII, _MOSTLY_ASCII | st.lists(_MOSTLY_ASCII, max_size=3), max_size=4))
def test_the_ascii_encoder_is_taken_only_where_it_writes_the_same(value):
    """dumps_plain_utf8 writes a dict with json's ASCII string encoder unless that writes a \\u escape."""
    from cortex.core.jsjson import dumps_plain_utf8

    assert dumps_plain_utf8(value) == dumps(value).encode("utf-8")


def test_rebuild_digests_fork_at_the_first_view_that_differs():
    from cortex.core.digest import canonical_corpus_digest, rebuild_digests
    from cortex.core.records import CortexRecord

    records = [CortexRecord(f"r{n}", "memory", "t", "2026-01-01", "2026-01-01", "codex", None, "a.jsonl", f"c{n}", [],
                            None, None) for n in (3, 1, 2, 5, 4)]

    def rebuilt(changed: set[str]):
        def rebuild(view: dict) -> CortexRecord:
            fields = {key: value for key, value in view.items() if key != "provenance"} | view["provenance"]
            if fields["id"] in changed:
                fields["content"] += "!"
            return CortexRecord(**fields)
        return rebuild

    canonical = canonical_corpus_digest(records)
    for changed in (set(), {"r1"}, {"r3"}, {"r5"}, {"r2", "r4"}):
        rebuild = rebuilt(changed)
        expected = canonical_corpus_digest([rebuild(record.to_json()) for record in records])
        assert rebuild_digests(records, rebuild) == (canonical, expected)
        assert (expected == canonical) == (not changed)


@given(st.text(alphabet=st.characters(min_codepoint=0, max_codepoint=0x10FFFF, exclude_categories=())))
def test_js_len_counts_utf16_code_units_surrogates_included(text):
    assert js_len(text) == sum(2 if ord(ch) > 0xFFFF else 1 for ch in text)


def test_the_whitespace_classes_are_re_escapes():
    """jscompat spells re.escape(JS_WS) out (importing it loads no `re`): the same classes."""
    import re

    from cortex.core.jscompat import JS_NOT_WS_CLASS, JS_WS, JS_WS_CLASS

    assert (JS_WS_CLASS, JS_NOT_WS_CLASS) == ("[" + re.escape(JS_WS) + "]", "[^" + re.escape(JS_WS) + "]")



_VIEW_TEXT = st.text(alphabet=st.sampled_from(list("ab \"\\u0/\n\x00\x1f\x7f") + ["\u00e9", "\u2028", "\ud800",
                                                                                   "\U0001f600"]))


@given(st.fixed_dictionaries({
    "id": _VIEW_TEXT, "type": _VIEW_TEXT, "title": _VIEW_TEXT, "created": _VIEW_TEXT, "updated": _VIEW_TEXT,
    "provenance": st.fixed_dictionaries({"source": _VIEW_TEXT, "session": st.none() | _VIEW_TEXT, "path": _VIEW_TEXT}),
    "content": _VIEW_TEXT | st.sampled_from(["plain prose, caf\u00e9 \u2014 \u201cquoted\u201d", "\x00", "\\u0000"]),
    "related": st.lists(_VIEW_TEXT, max_size=3), "valid_from": st.none() | _VIEW_TEXT, "valid_until": st.none()}))
def test_a_view_is_written_as_dumps_writes_it(view):
    """digest.view_bytes splices a content that needs no escape into the rest of the view written with a placeholder."""
    from cortex.core.digest import view_bytes
    from cortex.core.jsjson import dumps_plain_utf8

    before = dict(view)
    assert view_bytes(view) == dumps_plain_utf8(view) == dumps(view).encode("utf-8")
    assert view == before  # the placeholder was only lent


@given(st.floats() | st.integers() | st.sampled_from([10**400, -(10**400), True, float("nan"), float("-inf")]))
def test_is_finite_is_math_isfinite(value):
    import math

    from cortex.core.numbers import is_finite

    def outcome(function):
        try:
            return function(value)
        except OverflowError as error:
            return str(error)

    assert outcome(is_finite) == outcome(math.isfinite)
