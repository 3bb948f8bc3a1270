"""cortex.core.hookjson agrees with json: every value, every error and its message (the hooks' JSON without `import json`)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hypothesis import given, strategies as st

from cortex.core import hookjson

_VALUES = st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
                       lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
                       max_leaves=12)


def _outcome(function, text: str):
    try:
        return "value", repr(function(text))
    except Exception as error:  # noqa: BLE001 - the error itself is what is compared
        return "error", type(error), str(error)


@given(_VALUES, st.sampled_from(["", " ", "\n\t\r ", "\ufeff", " x", " 1", ",", "]"]),
       st.sampled_from(["", " ", "\r\n", "\ufeff"]))
def test_loads_agrees_with_json_on_documents_and_their_damage(value, after, before):
    text = before + json.dumps(value) + after
    assert _outcome(hookjson.loads, text) == _outcome(json.loads, text)


@given(st.text(max_size=40))
def test_loads_agrees_with_json_on_any_text(text):
    assert _outcome(hookjson.loads, text) == _outcome(json.loads, text)


@pytest.mark.parametrize("text", ["", "   ", "nul", "[1,2", '{"a":1} x', "1 2", "NaN", "-Infinity", '"\\ud800"',
                                  '{"a":1,"a":2}', '"\x01"', "[" * 100_000])
def test_loads_agrees_with_json_on_edges(text):
    assert _outcome(hookjson.loads, text) == _outcome(json.loads, text)


@given(st.dictionaries(st.text(), st.text() | st.integers() | st.booleans() | st.none(), max_size=5))
def test_dumps_flat_is_json_dumps(mapping):
    assert hookjson.dumps_flat(mapping) == json.dumps(mapping)


@given(st.text())
def test_encode_string_is_json_encode_basestring(text):
    assert hookjson.encode_string(text) == json.encoder.encode_basestring(text)


def test_errors_are_json_s_own_in_a_process_that_never_imported_json():
    code = ("import sys\nfrom cortex.core import hookjson\nassert 'json' not in sys.modules\n"
            "assert hookjson.loads(' {\"a\": [1, 2.5]} ') == {'a': [1, 2.5]} and 'json' not in sys.modules\n"
            "try:\n    hookjson.loads('{oops')\nexcept ValueError as error:\n    print(type(error).__name__, error)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.stdout == "JSONDecodeError Expecting property name enclosed in double quotes: line 1 column 2 (char 1)\n", \
        out.stderr


@given(st.binary(max_size=24) | _VALUES.map(lambda value: json.dumps(value).encode("utf-8")),
       st.sampled_from([b"", b"\xef\xbb\xbf", b"\x00", b"\xff\xfe", b" "]))
def test_loads_agrees_with_json_on_bytes(data, before):
    assert _outcome(hookjson.loads, before + data) == _outcome(json.loads, before + data)


def _pairs(pairs):
    if len(dict(pairs)) != len(pairs):
        raise ValueError("duplicate")
    return dict(pairs)


def _constant(name):
    raise ValueError(f"constant {name}")


@given(st.text(max_size=30) | _VALUES.map(json.dumps) | st.just('{"a": 1, "a": 2}'))
def test_a_loader_with_hooks_agrees_with_json_loads_given_them(text):
    hooks = {"object_pairs_hook": _pairs, "parse_float": lambda text: ("float", text), "parse_constant": _constant}
    assert _outcome(hookjson.loader(**hooks), text) == _outcome(lambda t: json.loads(t, **hooks), text)


_SETTINGS = st.fixed_dictionaries({"ensure_ascii": st.booleans(), "separators": st.sampled_from([(", ", ": "), (",", ":")]),
                                   "allow_nan": st.booleans(), "check_circular": st.booleans()})


@given(_VALUES | st.tuples(_VALUES) | st.just({1: 2, None: 3, 2.5: "x"}) | st.just({(1,): 1}) | st.just([object()]),
       _SETTINGS)
def test_encoder_is_json_s_encoder(value, settings):
    assert _outcome(hookjson.encoder(**settings), value) == _outcome(json.JSONEncoder(**settings).encode, value)


def test_encoder_refuses_a_circular_value_as_json_does():
    loop: list = []
    loop.append(loop)
    assert _outcome(hookjson.encoder(), loop) == _outcome(json.JSONEncoder().encode, loop)
    assert hookjson.encoder()([1, [2]]) == "[1, [2]]"  # the refusal left nothing behind


@given(_VALUES, st.booleans(), st.sampled_from([(", ", ": "), (",", ":")]))
def test_dumps_is_json_dumps(value, ensure_ascii, separators):
    assert hookjson.dumps(value, ensure_ascii=ensure_ascii, separators=separators) == json.dumps(
        value, ensure_ascii=ensure_ascii, separators=separators)
