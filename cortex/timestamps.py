"""Core helpers: the one strict timestamp grammar shared by the corpus, the CLI and the auditor.

Accepted: `YYYY-MM-DD` (UTC midnight) or `YYYY-MM-DDTHH:MM[:SS[.fraction]]` followed by `Z` or
`±HH:MM`. A datetime without a zone is invalid (it would mean "local time", which is not
reproducible), and so is any impossible calendar date or clock time.
"""
from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

_TIMESTAMP = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})"
    r"(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:\d{2}))?\Z"
)
_EPOCH = datetime(1970, 1, 1, tzinfo=timezone.utc)


def parse_timestamp_ms(value: object) -> int | None:
    """Milliseconds since the epoch, or None when `value` is not a valid timestamp."""
    if not isinstance(value, str):
        return None
    m = _TIMESTAMP.match(value)
    if not m:
        return None
    year, month, day = int(m.group(1)), int(m.group(2)), int(m.group(3))
    # The reference validates the calendar with Date.UTC, which maps years 0-99 to
    # 1900-1999; such years therefore never validate there, nor here.
    if year < 100:
        return None
    hour = int(m.group(4) or 0)
    minute = int(m.group(5) or 0)
    second = int(m.group(6) or 0)
    if hour > 23 or minute > 59 or second > 59:
        return None
    millis = int((m.group(7) or "0")[:3].ljust(3, "0"))
    zone = m.group(8)
    offset = timedelta(0)
    if zone and zone != "Z":
        oh, om = int(zone[1:3]), int(zone[4:6])
        if oh > 23 or om > 59:
            return None
        offset = timedelta(hours=oh, minutes=om) * (1 if zone[0] == "+" else -1)
    try:
        moment = datetime(year, month, day, hour, minute, second, tzinfo=timezone.utc)
    except ValueError:
        return None
    delta = moment - offset - _EPOCH
    return (delta.days * 86_400 + delta.seconds) * 1000 + millis


def is_valid_timestamp(value: object) -> bool:
    return parse_timestamp_ms(value) is not None


def iso_from_ms(ms: int) -> str:
    """Date.prototype.toISOString(): UTC with milliseconds, e.g. 2026-01-06T00:00:00.000Z."""
    moment = _EPOCH + timedelta(milliseconds=ms)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def now_ms() -> int:
    """Real wall-clock time in milliseconds (callers inject their own clock for tests)."""
    return int(datetime.now(timezone.utc).timestamp() * 1000)
