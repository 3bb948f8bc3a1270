"""Core JSON output: compact JSON exactly as JavaScript's JSON.stringify writes it.

Python's json module differs for floats (2.0 vs 2, 1e-06 vs 0.000001) and lone surrogates;
envelopes and digests must be byte-identical to the reference, so they go through here.
"""
from __future__ import annotations

TYPE_CHECKING = False  # annotations only: `re` (~10M instructions, with enum) loads with the first pattern compiled
if TYPE_CHECKING:
    import re

from cortex.core.hookjson import encode_string as _string  # json's C encoder, without importing json
from cortex.core.jscompat import js_number_to_string


def _surrogate() -> re.Pattern[str]:  # compiled when a string first holds one (~0.5 ms; re keeps it), not on import
    import re

    return re.compile("[\ud800-\udfff]")


_PLAIN = None  # _plain's encoder (kept here, not by functools.cache: its import costs each hook ~3M instructions)


def _plain():  # json's C encoder, made when a record view is first written (the hooks write none)
    global _PLAIN
    if _PLAIN is None:
        _PLAIN = _make_plain()
    return _PLAIN


def _make_plain():
    import json
    from json import encoder

    plain = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False, allow_nan=False)
    if encoder.c_make_encoder is None:  # pragma: no cover - a build without _json
        return plain.encode
    # What plain.encode(dict) runs (JSONEncoder.iterencode's one-shot C encoder), made once instead of once per
    # record view; a rebuild of 50,000 records writes 50,000. (Its ASCII string encoder first, falling back where
    # it writes a \u escape, was measured slower in CPU time on the bench corpus: not taken.)
    chunks = encoder.c_make_encoder(None, plain.default, encoder.encode_basestring, None, plain.key_separator,
                                    plain.item_separator, plain.sort_keys, plain.skipkeys, plain.allow_nan)
    join = "".join
    return lambda value: join(chunks(value, 0)) if isinstance(value, dict) else plain.encode(value)


def _escape_surrogate(match: re.Match) -> str:
    return f"\\u{ord(match.group(0)):04x}"


def _encode_str(value: str) -> str:
    encoded = _string(value)
    if encoded.isascii():
        return encoded
    try:
        encoded.encode("utf-8")  # C speed: only a lone surrogate fails
        return encoded
    except UnicodeEncodeError:
        return _surrogate().sub(_escape_surrogate, encoded)


def dumps_plain_utf8(value) -> bytes:
    """dumps(value) as UTF-8 for a value holding no float (a record view), by the C encoder.

    The C encoder escapes strings exactly as _encode_str does and prints ints as str() does;
    only floats differ, so callers pass float-free values (tests compare the two). A lone
    surrogate is the one thing UTF-8 cannot encode: only then is it escaped as JS does.
    """
    text = _plain()(value)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return _surrogate().sub(_escape_surrogate, text).encode("utf-8")


def _encode(value, out: list[str]) -> None:
    if isinstance(value, str):
        out.append(_encode_str(value))
    elif value is None:
        out.append("null")
    elif value is True:
        out.append("true")
    elif value is False:
        out.append("false")
    elif isinstance(value, int):
        out.append(str(value))
    elif isinstance(value, float):
        out.append(js_number_to_string(value) if value - value == 0.0 else "null")  # finite (not math.isfinite: the hooks import no math)
    elif isinstance(value, dict):
        out.append("{")
        first = True
        for key, item in value.items():
            if not first:
                out.append(",")
            first = False
            out.append(_encode_str(str(key)))
            out.append(":")
            _encode(item, out)
        out.append("}")
    elif isinstance(value, (list, tuple)):
        out.append("[")
        for index, item in enumerate(value):
            if index:
                out.append(",")
            _encode(item, out)
        out.append("]")
    else:
        raise TypeError(f"not JSON serialisable: {type(value).__name__}")


def dumps(value) -> str:
    out: list[str] = []
    _encode(value, out)
    return "".join(out)
