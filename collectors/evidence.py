"""Collect stage: the evidence vocabulary every collector returns. Used by collectors and read by health.

Closed set of evidence states plus the frozen values that say where a collector looked and
what it could read. Stdlib and cortex.core.closedset only. Nothing here decides a severity.
"""
from __future__ import annotations

from _collections_abc import Mapping  # collections.abc.Mapping itself, without importing collections (~7M instructions)

from cortex.core.closedset import ClosedSet

from _collections_abc import mappingproxy as MappingProxyType  # types.MappingProxyType, without importing types (~0.6M)

TYPE_CHECKING = False  # typing costs every audit ~2 ms; these names are only annotations
if TYPE_CHECKING:
    from typing import Any


class EvidenceStatus(ClosedSet):
    """What a collector could measure: the closed set every evidence value reports."""

    OK = "ok"  # measured
    MISSING = "missing"  # nothing at the path
    MALFORMED = "malformed"  # present but its content breaks the expected format
    UNREADABLE = "unreadable"  # present but refused or unreadable (symlink, directory, FIFO, errno)
    ERROR = "error"  # the collector itself raised
    SKIPPED = "skipped"  # not run: the operator left it out (--only / --skip)


def same_record(self, other: object) -> bool:
    """`==` for the record classes that need it: same class, equal fields (tests compare resumed evidence with a
    full read)."""
    return type(other) is type(self) and all(getattr(self, name) == getattr(other, name) for name in self.__slots__)


class MalformedLine:
    """line: int; reason: str."""

    __slots__ = ("line", "reason")

    def __init__(self, line, reason) -> None:
        self.line, self.reason = line, reason

    __eq__ = same_record  # compared field by field (resumed evidence against a full read)


class FileState:
    """Where a collector looked and whether it could read it (`reason` says why not).

    path: str; status: EvidenceStatus; reason: str | None.
    """

    __slots__ = ("path", "status", "reason")

    def __init__(self, path, status, reason=None) -> None:
        self.path, self.status, self.reason = path, status, reason

    __eq__ = same_record  # compared field by field (resumed evidence against a full read)

    @property
    def readable(self) -> bool:
        return self.status in (EvidenceStatus.OK, EvidenceStatus.MALFORMED)


class CollectorFailure:
    """Evidence of a collector that raised: the evaluator turns it into `<name>-collector-error`.

    collector: str; error: str; status: EvidenceStatus.
    """

    __slots__ = ("collector", "error", "status")

    def __init__(self, collector, error, status=EvidenceStatus.ERROR) -> None:
        self.collector, self.error, self.status = collector, error, status


class CollectorSkipped:
    """Evidence of a collector the operator left out: judged by no rule, shown in the report.

    collector: str; reason: str; status: EvidenceStatus.
    """

    __slots__ = ("collector", "reason", "status")

    def __init__(self, collector, reason, status=EvidenceStatus.SKIPPED) -> None:
        self.collector, self.reason, self.status = collector, reason, status


_SCALARS = frozenset({str, int, float, bool, type(None)})  # most of the values: returned as they are, at once


def as_json(value: Any, frozen: bool = False) -> Any:
    """Plain JSON data from frozen values: records (named tuples, __slots__ classes), enums, tuples, mappings.

    `frozen`: objects made read-only views and arrays tuples instead, in the same walk (the report's form,
    reports.report.frozen of the plain data).
    """
    if type(value) in _SCALARS:
        return value
    if isinstance(value, ClosedSet):
        return value.value
    # Most fields and items are scalars: each is taken where it stands, without a call.
    if isinstance(value, tuple) and hasattr(value, "_fields"):  # a record: an object, not an array
        data = {name: item if type(item) in _SCALARS else as_json(item, frozen)
                for name, item in zip(value._fields, value)}
    elif fields := getattr(type(value), "__slots__", None):  # a record class: its fields in declaration order
        data = {name: item if type(item := getattr(value, name)) in _SCALARS else as_json(item, frozen)
                for name in fields}
    elif isinstance(value, Mapping):
        data = {str(key): item if type(item) in _SCALARS else as_json(item, frozen) for key, item in value.items()}
    elif isinstance(value, (list, tuple)):
        items = [item if type(item) in _SCALARS else as_json(item, frozen) for item in value]
        return tuple(items) if frozen else items
    else:
        return value
    return MappingProxyType(data) if frozen else data
