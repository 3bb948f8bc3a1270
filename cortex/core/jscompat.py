"""Core helpers: the JavaScript semantics the reference implementation's outputs depend on.

The reference is TypeScript; to produce the same outputs for the same inputs we need its
notion of string length (UTF-16 code units), whitespace, trimming and number parsing.
Everything here is pure and stdlib-only.
"""
from __future__ import annotations

# ECMAScript WhiteSpace + LineTerminator: what JS `\s` and String.prototype.trim() use.
JS_WS = "\t\n\x0b\x0c\r \xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
# re.escape(JS_WS), spelled out: the hooks that never compile a pattern import no `re` (tests compare the two).
_JS_WS_ESCAPED = JS_WS.translate({ord(ch): "\\" + ch for ch in "\t\n\x0b\x0c\r "})
JS_WS_CLASS = "[" + _JS_WS_ESCAPED + "]"
JS_NOT_WS_CLASS = "[^" + _JS_WS_ESCAPED + "]"
# JS `.` (without the s flag) excludes exactly these line terminators.
JS_DOT = "[^\n\r\u2028\u2029]"
JS_LINE_TERMINATORS = "\n\r\u2028\u2029"


def js_len(text: str) -> int:
    """String length as JavaScript counts it: UTF-16 code units."""
    if text.isascii() or max(text) < "\U00010000":  # one unit a character (a lone surrogate too): no codec to load
        return len(text)
    # Two bytes per code unit; surrogatepass counts a lone surrogate as the one unit JS sees.
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def js_trim(text: str) -> str:
    return text.strip(JS_WS)


def utf16_key(text: str) -> bytes:
    """Sort key matching JavaScript's default string ordering (UTF-16 code units)."""
    return text.encode("utf-16-be", "surrogatepass")


_INF, _NAN = float("inf"), float("nan")  # not math's: its module is a shared library to load on every hook


def _radix():  # compiled on first use (re keeps it): most callers never meet a hex, octal or binary literal
    import re

    return re.compile(r"0([xXoObB])([0-9a-fA-F]+)\Z")


def js_number(text: str) -> float:
    """JavaScript's Number(string): NaN where JS would give NaN."""
    s = js_trim(text)
    if s == "":
        return 0.0
    from cortex.core.numbers import ascii_decimal  # here: the prompt hook parses no number

    decimal = ascii_decimal(s)  # ASCII digits only, like JavaScript
    if decimal is not None:
        return decimal
    m = _radix().match(s)
    if m:
        base = {"x": 16, "o": 8, "b": 2}[m.group(1).lower()]
        try:
            return float(int(m.group(2), base))
        except ValueError:
            return _NAN
    if s in ("Infinity", "+Infinity"):
        return _INF
    if s == "-Infinity":
        return -_INF
    return _NAN


def _shortest_digits(value: float) -> tuple[str, int]:
    """The shortest round-tripping digits of a positive double (repr's, as ECMAScript requires) without
    trailing zeros, and the exponent of their last digit: what Decimal(repr(value)).normalize().as_tuple()
    gives, read from repr's text (decimal costs the recall hook ~1.3 ms to import; tests compare the two)."""
    mantissa, _, power = repr(value).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).lstrip("0")
    significant = digits.rstrip("0")
    return significant, int(power or 0) - len(fraction) + len(digits) - len(significant)


def js_number_to_string(value: float) -> str:
    """Number.prototype.toString() for finite doubles (what JSON.stringify prints)."""
    if value == 0:
        return "0"
    if value != value or value in (_INF, -_INF):  # NaN, ±Infinity
        return "null"
    if value == int(value) and abs(value) < 2**53:
        return str(int(value))
    sign = "-" if value < 0 else ""
    digits, exponent = _shortest_digits(abs(value))
    n = len(digits) + exponent
    k = len(digits)
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    e = n - 1
    exp = ("+" if e >= 0 else "-") + str(abs(e))
    if k == 1:
        return sign + digits + "e" + exp
    return sign + digits[0] + "." + digits[1:] + "e" + exp
