"""Core JSON for the hook paths: json.loads, and json.dumps' default shape for flat objects, from `_json` alone.

Used by `review fire` (the review state, the hook payload), the lock stamps and the JSON
writer (cortex.core.jsjson). `import json` costs every Stop hook about 5M instructions
(json.decoder and json.scanner compile regular expressions at import, for the pure-Python
fallbacks); the C scanner and string encoders that json itself uses need none of them. The
results are json's own: the same C code, called the way json.loads calls it; any text this
path does not accept whole is handed to json.loads, so every error and its message are json's.
"""
from __future__ import annotations

try:
    import _json
except ImportError:  # an interpreter without the accelerator: json itself (its pure-Python twins)
    _json = None

_WHITESPACE = " \t\n\r"  # json.decoder.WHITESPACE


class _DecoderSettings:
    """What `_json.make_scanner` reads from a json.JSONDecoder(): the defaults of json.loads."""

    strict = True
    object_hook = None
    object_pairs_hook = None
    parse_float = float
    parse_int = int
    parse_constant = {"-Infinity": float("-inf"), "Infinity": float("inf"), "NaN": float("nan")}.__getitem__


_scan = _json.make_scanner(_DecoderSettings()) if _json is not None else None


def loads(text: str):
    """json.loads(text) for a str."""
    if _scan is not None:
        start = len(text) - len(text.lstrip(_WHITESPACE))
        try:
            value, end = _scan(text, start)
        except Exception:  # noqa: BLE001 - no value, or bad JSON: json.loads says so in its own words (the C
            end = None  # scanner's own error needs json.decoder imported, else it is a SystemError)
        if end is not None and not text[end:].lstrip(_WHITESPACE):
            return value
    import json

    return json.loads(text)


def encode_string(value: str) -> str:
    """json.encoder.encode_basestring (ensure_ascii=False): the quoted, escaped string."""
    if _json is None:
        import json

        return json.encoder.encode_basestring(value)
    return _json.encode_basestring(value)


def dumps_flat(mapping: dict) -> str:
    """json.dumps(mapping) with its defaults, for a dict of str keys and str or int values."""
    if _json is None or not all(type(key) is str and type(value) in (str, int) for key, value in mapping.items()):
        import json

        return json.dumps(mapping)
    text = _json.encode_basestring_ascii
    return "{" + ", ".join(f"{text(key)}: {text(value) if type(value) is str else repr(value)}"
                           for key, value in mapping.items()) + "}"
