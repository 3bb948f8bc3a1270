"""Core helpers: the one number grammar for options, environment overrides and config strings.

Used by the cortex commands, the thresholds and every cortex-health subcommand (the status
line too, so it imports nothing). Only ASCII digits count: Python's int() and float() would
also take `１０` (full-width), `٣` (Arabic-Indic), `1_000` and surrounding Unicode spaces;
the reference's number parsing (JavaScript's Number) takes none of them, and neither do we.
"""
from __future__ import annotations


def ascii_digits(text: str) -> bool:
    """One or more of 0-9 and nothing else."""
    return text.isascii() and text.isdigit()


def digits_note(text: str) -> str:
    """A hint for messages when `text` holds digits other than 0-9 (the refusal would look odd otherwise)."""
    foreign = any(ch.isdigit() and not ch.isascii() for ch in text)
    return ": only the ASCII digits 0-9 count" if foreign else ""


def ascii_int(text: str, low: int, high: int) -> int | None:
    """The whole number `text` spells in ASCII digits, when low <= it <= high; else None.

    Length is checked before int(), so a 100,000-digit value is refused, not a ValueError.
    """
    if not ascii_digits(text):
        return None
    digits = text.lstrip("0") or "0"
    if len(digits) > len(str(high)):
        return None
    value = int(digits)
    return value if low <= value <= high else None


def whole_setting(name: str, raw: str | None, default: int, low: int, high: int) -> int:
    """The option or variable `name` as a whole number from `low` to `high`, `default` when unset; else InvalidInput."""
    if raw is None:
        return default
    value = ascii_int(raw, low, high)
    if value is None:
        from cortex.errors import InvalidInput

        raise InvalidInput(f"{name} must be an integer from {low} to {high} in ASCII digits")
    return value


def ascii_decimal(text: str) -> float | None:
    """`[+-]` digits `[.digits]` `[e[+-]digits]` (or `.digits`), ASCII only, as a float (may be inf); else None."""
    body = text[1:] if text[:1] in ("+", "-") else text
    mantissa, marker, exponent = body.partition("e") if "e" in body else body.partition("E")
    if marker:
        exponent = exponent[1:] if exponent[:1] in ("+", "-") else exponent
        if not ascii_digits(exponent):
            return None
    whole, _, fraction = mantissa.partition(".")
    if not (whole or fraction) or any(part and not ascii_digits(part) for part in (whole, fraction)):
        return None
    return float(text)


def is_finite(value: int | float) -> bool:
    """math.isfinite(value) for an int or a float (an int beyond any float raises OverflowError, as there), without
    loading math: a shared library, ~0.5M instructions for each hook and audit that would (tests compare the two)."""
    number = float(value)
    return number - number == 0  # inf - inf and nan - nan are nan


def finite_number(value: object) -> bool:
    """A JSON number a float can hold (a bool is not one, nor an integer of hundreds of digits): a hand-edited
    line may hold any JSON number. Used by the report, its units and every collector's metrics."""
    if type(value) not in (int, float):
        return False
    try:
        return is_finite(value)
    except OverflowError:
        return False
