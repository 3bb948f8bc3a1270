"""The strict decoder's cheap validation (containers only, skipped when the text cannot fail) judges as the full walk."""
from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from cortex.core import strictjson
from cortex.core.strictjson import MAX_DEPTH, StrictJSONError, decode

scalars = st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.text(max_size=6) | \
    st.sampled_from(["\ud800", "a\udfffb", "é", "\u2028", "<private>"])
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner,
                                                                                           max_size=4), max_leaves=30)


def nested(depth: int, kind: str, leaf) -> object:
    value = leaf
    for _ in range(depth):
        value = [value] if kind == "list" else {"k": value}
    return value


def full_walk_verdict(text: str) -> str:
    """What decode said before: json.loads, then the full recursive walk."""
    try:
        value = json.loads(text, parse_constant=strictjson._no_constant, parse_float=strictjson._finite_float,
                           object_pairs_hook=strictjson._unique_keys)
        strictjson._check(value)
    except StrictJSONError as error:
        return str(error)
    return "ok"


def verdict(text: str) -> str:
    try:
        decode(text)
    except StrictJSONError as error:
        return str(error)
    return "ok"


@settings(max_examples=400, deadline=None)
@given(value=values, ensure_ascii=st.booleans())
def test_any_value_is_judged_as_the_full_walk_judges_it(value, ensure_ascii):
    text = json.dumps(value, ensure_ascii=ensure_ascii)
    assert verdict(text) == full_walk_verdict(text)


@settings(max_examples=200, deadline=None)
@given(depth=st.integers(MAX_DEPTH - 3, MAX_DEPTH + 3), kind=st.sampled_from(["list", "dict"]),
       leaf=st.sampled_from([1, "x", [], {}, "\ud800", [1], {"a": "\udc00"}]), ensure_ascii=st.booleans(),
       padding=st.integers(0, 80))
def test_nesting_near_the_bound_and_surrogates_deep_inside(depth, kind, leaf, ensure_ascii, padding):
    value = {"pad": [[] for _ in range(padding)], "deep": nested(depth, kind, leaf)}  # brackets beyond the bound
    text = json.dumps(value, ensure_ascii=ensure_ascii)
    assert verdict(text) == full_walk_verdict(text)



def outcome(function, text):
    try:
        return "value", function(text)
    except Exception as error:  # noqa: BLE001 - the comparison is of outcomes, errors included
        return type(error).__name__, str(error)


@settings(deadline=None)
@given(st.text(st.sampled_from('{}[]":,0123456789.eE+-tfnaulrsx \\\ufeff\ud800é')) | values.map(json.dumps)
       | st.binary(max_size=12))
def test_the_kept_decoder_answers_as_json_loads_would(text):
    """The kept decoder (cortex.core.hookjson.loader): the same values and errors as json.loads with the strict hooks."""
    hooks = dict(parse_constant=strictjson._no_constant, parse_float=strictjson._finite_float,
                 object_pairs_hook=strictjson._unique_keys)
    assert outcome(strictjson._loads, text) == outcome(lambda t: json.loads(t, **hooks), text)
