"""Core JSON for the hook paths and the audit: json.loads and json.dumps (no indent), from `_json` alone.

Used by `review fire` (the review state, the hook payload), the lock stamps, the JSON
writer (cortex.core.jsjson), the strict decoder and the audit's readers and report.
`import json` costs every Stop hook and audit about 5M instructions
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


def loader(**hooks):
    """json.loads(text, **hooks) for hooks among object_pairs_hook, parse_float and parse_constant."""
    settings = _DecoderSettings()
    for name, hook in hooks.items():
        setattr(settings, name, hook)
    scan = _json.make_scanner(settings) if _json is not None else None

    def load(text):
        if scan is not None and type(text) is not str:
            text = _utf8(text)
        if scan is not None and type(text) is str:
            start = len(text) - len(text.lstrip(_WHITESPACE))
            try:
                value, end = scan(text, start)
            except Exception:  # noqa: BLE001 - no value, or bad JSON: json.loads says so in its own words (the C
                end = None  # scanner's own error needs json.decoder imported, else it is a SystemError)
            if end is not None and not text[end:].lstrip(_WHITESPACE):
                return value
        import json

        return json.loads(text, **hooks)

    return load


def _utf8(data):
    """The text json.loads decodes `data` (bytes) to, where that is plain UTF-8 (json.detect_encoding says utf-8
    when the first byte is ASCII and not NUL and the second is not NUL); else `data` itself, for json.loads."""
    if type(data) in (bytes, bytearray) and data and 0 < data[0] < 128 and (len(data) < 2 or data[1]):
        try:
            return data.decode("utf-8", "surrogatepass")
        except UnicodeDecodeError:
            return data
    return data


loads = loader()


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


def _not_serializable(value):
    raise TypeError  # json's own encoder then says what it says about `value`


def encoder(*, ensure_ascii: bool = True, separators: tuple[str, str] = (", ", ": "), allow_nan: bool = True,
            check_circular: bool = True):
    """json.JSONEncoder(...).encode with these settings (no indent, sort_keys, skipkeys or default): the C encoder
    json.dumps itself runs; whatever it refuses is handed to json, so every error and its message are json's."""
    settings = {"ensure_ascii": ensure_ascii, "separators": separators, "allow_nan": allow_nan,
                "check_circular": check_circular}
    if _json is None:
        import json

        return json.JSONEncoder(**settings).encode
    string = _json.encode_basestring_ascii if ensure_ascii else _json.encode_basestring
    item_separator, key_separator = separators

    def encode(value) -> str:
        if isinstance(value, str):
            return string(value)
        try:  # markers: json's circular-reference check, fresh per call as in JSONEncoder.iterencode
            return "".join(_json.make_encoder({} if check_circular else None, _not_serializable, string, None,
                                              key_separator, item_separator, False, False, allow_nan)(value, 0))
        except Exception:  # noqa: BLE001 - json's own error, in its words
            import json

            return json.JSONEncoder(**settings).encode(value)

    return encode


def dumps(value, *, ensure_ascii: bool = True, separators: tuple[str, str] = (", ", ": ")) -> str:
    """json.dumps(value, ensure_ascii=..., separators=...)."""
    return encoder(ensure_ascii=ensure_ascii, separators=separators)(value)
