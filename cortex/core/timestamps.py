"""Core helpers: the one strict timestamp grammar shared by the corpus, the CLI and the auditor.

Accepted: `YYYY-MM-DD` (UTC midnight) or `YYYY-MM-DDTHH:MM[:SS[.fraction]]` followed by `Z` or
`±HH:MM`. A datetime without a zone is invalid (it would mean "local time", which is not
reproducible), and so is any impossible calendar date or clock time, and any instant that falls
outside 0100-01-01T00:00:00.000Z … 9999-12-31T23:59:59.999Z once its offset is applied
(`9999-12-31T23:30:00-01:00` is year 10000 in UTC): no caller ever sees an overflow.
"""
from __future__ import annotations

import time

_TIMESTAMP = None  # the grammar's pattern, compiled on first parse (~0.2 ms): a hook that only writes instants never does
GRAMMAR = "YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS[.frac]] with Z or ±HH:MM, from 0100-01-01 to 9999-12-31 in UTC"
_DAY_MS = 86_400_000
_MONTH_DAYS = (31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31)
_CYCLE_MS = 146_097 * _DAY_MS  # 400 Gregorian years
# The representable range, as milliseconds since the epoch: both ends inclusive (0100-01-01
# and 9999-12-31 by days_from_civil; tests check them against datetime, which costs start-up).
MIN_MS = -59_011_459_200_000
MAX_MS = 253_402_300_799_999


_MEMO: dict[str, int | None] = {}  # records written together share instants: a corpus repeats them
_MEMO_SIZE = 4096
_LONGEST = 40  # longer than any valid timestamp: never kept
_UNSEEN = object()


def parse_timestamp_ms(value: object) -> int | None:
    """Milliseconds since the epoch, or None when `value` is not a valid timestamp."""
    if not isinstance(value, str):
        return None
    found = _MEMO.get(value, _UNSEEN)
    if found is not _UNSEEN:
        return found
    ms = _parse(value)
    if len(value) <= _LONGEST:
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.clear()  # bounded and simple: the next values refill it
        _MEMO[value] = ms
    return ms


def _pattern():
    global _TIMESTAMP
    if _TIMESTAMP is None:
        import re

        _TIMESTAMP = re.compile(
            r"(\d{4})-(\d{2})-(\d{2})"
            r"(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2}))?\Z",
            re.ASCII,  # \d is 0-9 only, as in the reference: `２０２６-01-01` is not a date
        )
    return _TIMESTAMP


def _fields(value: str) -> tuple | None:
    """The pattern's groups. The shape our own stamps and records carry (`2026-06-01T00:00:00.000Z`) is read by
    slicing: compiling the pattern imports `re` (~10M instructions), which a Stop hook that reads one lock stamp
    otherwise never needs (tests compare the two)."""
    if (len(value) == 24 and value.isascii() and value[4] == value[7] == "-" and value[10] == "T"
            and value[13] == value[16] == ":" and value[19] == "." and value[23] == "Z"):
        fields = (value[0:4], value[5:7], value[8:10], value[11:13], value[14:16], value[17:19], value[20:23])
        if all(field.isdigit() for field in fields):  # ASCII text: 0-9 only
            return (*fields, "Z")
    if (len(value) == 20 and value.isascii() and value[4] == value[7] == "-" and value[10] == "T"
            and value[13] == value[16] == ":" and value[19] == "Z"):  # the same without milliseconds
        fields = (value[0:4], value[5:7], value[8:10], value[11:13], value[14:16], value[17:19])
        if all(field.isdigit() for field in fields):
            return (*fields, None, "Z")
    if len(value) == 10 and value.isascii() and value[4] == value[7] == "-":  # a date
        fields = (value[0:4], value[5:7], value[8:10])
        if all(field.isdigit() for field in fields):
            return (*fields, None, None, None, None, None)
    m = _pattern().match(value)
    return m.groups() if m else None


def _parse(value: str) -> int | None:
    fields = _fields(value)
    if fields is None:
        return None
    y, mo, d, h, mi, sec, fraction, zone = fields
    year, month, day = int(y), int(mo), int(d)
    # The reference validates the calendar with Date.UTC, which maps years 0-99 to
    # 1900-1999; such years therefore never validate there, nor here.
    if year < 100 or not 1 <= month <= 12 or not 1 <= day <= _days_in_month(year, month):
        return None
    hour, minute, second = int(h or 0), int(mi or 0), int(sec or 0)
    if hour > 23 or minute > 59 or second > 59:
        return None
    millis = int((fraction or "0")[:3].ljust(3, "0"))
    offset_ms = 0
    if zone and zone != "Z":
        oh, om = int(zone[1:3]), int(zone[4:6])
        if oh > 23 or om > 59:
            return None
        offset_ms = (oh * 60 + om) * 60_000 * (1 if zone[0] == "+" else -1)
    # Integer arithmetic (no datetime per call, this runs twice per record): an offset can never overflow.
    ms = ((_days_from_civil(year, month, day) * 24 + hour) * 3600 + minute * 60 + second) * 1000 + millis - offset_ms
    return ms if MIN_MS <= ms <= MAX_MS else None


def _days_in_month(year: int, month: int) -> int:
    if month != 2:
        return _MONTH_DAYS[month - 1]
    return 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28


def _days_from_civil(year: int, month: int, day: int) -> int:
    """Days since 1970-01-01 of a proleptic Gregorian date (the era arithmetic of H. Hinnant's days_from_civil)."""
    year -= month <= 2
    era, year_of_era = divmod(year, 400)
    day_of_year = (153 * (month + (-3 if month > 2 else 9)) + 2) // 5 + day - 1
    return era * 146_097 + year_of_era * 365 + year_of_era // 4 - year_of_era // 100 + day_of_year - 719_468


def iso_from_ms(ms: int) -> str:
    """Date.prototype.toISOString(): UTC with milliseconds, e.g. 2026-01-06T00:00:00.000Z.

    Total, like the reference: an instant past year 9999 (a pinned clock plus a bump) prints in
    the extended form `+010000-01-01T00:00:00.000Z`, which the grammar above then refuses.
    """
    cycles = 0  # the Gregorian calendar repeats every 400 years: shift into years 100-9999
    if ms > MAX_MS:
        cycles = -(-(ms - MAX_MS) // _CYCLE_MS)
    elif ms < MIN_MS:
        cycles = -(-(MIN_MS - ms) // _CYCLE_MS) * -1
    seconds, millis = divmod(ms - cycles * _CYCLE_MS, 1000)
    moment = time.gmtime(seconds)  # not datetime: its import costs every command ~1.5 ms
    year = moment.tm_year + 400 * cycles
    shown = f"{year:04d}" if 0 <= year <= 9999 else f"{'+' if year > 0 else '-'}{abs(year):06d}"
    return (f"{shown}-{moment.tm_mon:02d}-{moment.tm_mday:02d}T{moment.tm_hour:02d}:{moment.tm_min:02d}:"
            f"{moment.tm_sec:02d}.{millis:03d}Z")


def now_ms() -> int:
    """Real wall-clock time in milliseconds (callers inject their own clock for tests)."""
    return int(time.time() * 1000)
