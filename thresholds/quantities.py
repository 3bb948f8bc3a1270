"""Thresholds stage: durations (`90s`, `2h`) and sizes (`256MiB`) for `*_ms` and `*_bytes` thresholds.

Read by thresholds.sources for --threshold, config and environment values, and by the
reports (explain, --list-checks, text -v) to show a threshold in both forms. Only ASCII
digits count (cortex.core.numbers); units are case-insensitive. KB/MB/GB are decimal (1000),
KiB/MiB/GiB binary (1024), as their standards say; the reports show the exact bytes.
"""
from __future__ import annotations

from cortex.core.numbers import ascii_decimal

DURATIONS = {"ms": 1, "s": 1000, "m": 60_000, "min": 60_000, "h": 3_600_000, "d": 86_400_000, "w": 604_800_000}
SIZES = {"b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12,
         "kib": 1 << 10, "mib": 1 << 20, "gib": 1 << 30, "tib": 1 << 40}
UNITS = {"ms": DURATIONS, "bytes": SIZES}
HINTS = {"ms": "a number of milliseconds or a duration like 90s, 30m, 2h, 7d",
         "bytes": "a number of bytes or a size like 10KB, 256MiB, 1GiB"}


def split_unit(text: str) -> tuple[str, str]:
    """(number part, unit suffix) of `2h`, `1.5 GiB`, `90`."""
    stripped = text.strip()
    cut = len(stripped)
    while cut and stripped[cut - 1].isascii() and stripped[cut - 1].isalpha():
        cut -= 1
    return stripped[:cut].strip(), stripped[cut:].lower()


def quantity(text: str, unit: str) -> float | None:
    """The value `text` spells in the threshold's unit (ms or bytes), or None when it spells none."""
    number_part, suffix = split_unit(text)
    factors = UNITS.get(unit, {})
    if suffix and suffix not in factors:
        return None
    number = ascii_decimal(number_part)
    return None if number is None else number * factors.get(suffix, 1)


def has_unit(text: str) -> bool:
    return bool(split_unit(text)[1])


def short_form(value: float, unit: str) -> str:
    """The shortest exact spelling (`2h`, `256MiB`), or '' when only the raw number is exact."""
    if unit not in UNITS or value != int(value):
        return ""
    order = ("d", "h", "m", "s") if unit == "ms" else ("tib", "gib", "mib", "kib")
    names = {"tib": "TiB", "gib": "GiB", "mib": "MiB", "kib": "KiB"}
    for suffix in order:
        factor = UNITS[unit][suffix]
        if value >= factor and value % factor == 0:
            return f"{int(value) // factor}{names.get(suffix, suffix)}"
    return ""


def both_forms(value: float, unit: str) -> str:
    """`2h (7200000 ms)`, `256MiB (268435456 bytes)`, or the bare value when no shorter form is exact."""
    raw = str(int(value)) if float(value).is_integer() else str(value)
    short = short_form(value, unit)
    if unit not in UNITS:
        return raw
    return f"{short} ({raw} {unit})" if short else f"{raw} {unit}"
