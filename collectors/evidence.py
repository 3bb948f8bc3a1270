"""Collect stage: the evidence vocabulary every collector returns. Used by collectors and read by health.

Closed set of evidence states plus the frozen values that say where a collector looked and
what it could read. Stdlib only. Nothing here decides a severity.
"""
from __future__ import annotations

import enum
from collections import namedtuple
from collections.abc import Mapping

TYPE_CHECKING = False  # typing costs every audit ~2 ms; these names are only annotations
if TYPE_CHECKING:
    from typing import Any


class EvidenceStatus(str, enum.Enum):
    """What a collector could measure: the closed set every evidence value reports."""

    OK = "ok"  # measured
    MISSING = "missing"  # nothing at the path
    MALFORMED = "malformed"  # present but its content breaks the expected format
    UNREADABLE = "unreadable"  # present but refused or unreadable (symlink, directory, FIFO, errno)
    ERROR = "error"  # the collector itself raised
    SKIPPED = "skipped"  # not run: the operator left it out (--only / --skip)


class MalformedLine(namedtuple("MalformedLine", "line reason")):
    """line: int; reason: str."""

    __slots__ = ()


class FileState(namedtuple("FileState", "path status reason", defaults=(None,))):
    """Where a collector looked and whether it could read it (`reason` says why not).

    path: str; status: EvidenceStatus; reason: str | None.
    """

    __slots__ = ()

    @property
    def readable(self) -> bool:
        return self.status in (EvidenceStatus.OK, EvidenceStatus.MALFORMED)


class CollectorFailure(namedtuple("CollectorFailure", "collector error status", defaults=(EvidenceStatus.ERROR,))):
    """Evidence of a collector that raised: the evaluator turns it into `<name>-collector-error`.

    collector: str; error: str; status: EvidenceStatus.
    """

    __slots__ = ()


class CollectorSkipped(namedtuple("CollectorSkipped", "collector reason status", defaults=(EvidenceStatus.SKIPPED,))):
    """Evidence of a collector the operator left out: judged by no rule, shown in the report.

    collector: str; reason: str; status: EvidenceStatus.
    """

    __slots__ = ()


def as_json(value: Any) -> Any:
    """Plain JSON data from frozen values: records (named tuples), enums, tuples, mappings."""
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, tuple) and hasattr(value, "_fields"):  # a record: an object, not an array
        return {name: as_json(item) for name, item in zip(value._fields, value)}
    if isinstance(value, Mapping):
        return {str(key): as_json(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [as_json(item) for item in value]
    return value
