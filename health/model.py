"""Shared model: the frozen values the stages exchange (evidence states, findings, severities).

Imported by collectors (evidence), the evaluator and rules (findings), reporters and the CLI.
Stdlib only. Nothing here decides anything; it only names the closed sets and carries data.
"""
from __future__ import annotations

import dataclasses
import enum
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


class Severity(str, enum.Enum):
    """Result of one check. `rank` orders them; `unknown` is reserved for an auditor failure."""

    OK = "ok"
    WARN = "warn"
    CRITICAL = "critical"

    @property
    def rank(self) -> int:
        return _RANK[self]


_RANK = {Severity.OK: 0, Severity.WARN: 1, Severity.CRITICAL: 2}


class Overall(str, enum.Enum):
    OK = "ok"
    WARN = "warn"
    CRITICAL = "critical"
    UNKNOWN = "unknown"  # the auditor itself could not run (usage or internal error)


EXIT_CODES = {Overall.OK: 0, Overall.WARN: 1, Overall.CRITICAL: 2, Overall.UNKNOWN: 3}


class EvidenceStatus(str, enum.Enum):
    """What a collector could measure: the closed set every evidence value reports."""

    OK = "ok"  # measured
    MISSING = "missing"  # nothing at the path
    MALFORMED = "malformed"  # present but its content breaks the expected format
    UNREADABLE = "unreadable"  # present but refused or unreadable (symlink, directory, FIFO, errno)
    ERROR = "error"  # the collector itself raised
    SKIPPED = "skipped"  # not run: the operator left it out (--only / --skip)


@dataclass(frozen=True)
class MalformedLine:
    line: int
    reason: str


@dataclass(frozen=True)
class FileState:
    """Where a collector looked and whether it could read it (`reason` says why not)."""

    path: str
    status: EvidenceStatus
    reason: str | None = None

    @property
    def readable(self) -> bool:
        return self.status in (EvidenceStatus.OK, EvidenceStatus.MALFORMED)


@dataclass(frozen=True)
class CollectorFailure:
    """Evidence of a collector that raised: the evaluator turns it into `<name>-collector-error`."""

    collector: str
    error: str
    status: EvidenceStatus = EvidenceStatus.ERROR


@dataclass(frozen=True)
class CollectorSkipped:
    """Evidence of a collector the operator left out: judged by no rule, shown in the report."""

    collector: str
    reason: str
    status: EvidenceStatus = EvidenceStatus.SKIPPED


@dataclass(frozen=True)
class Finding:
    """One check's result. `detail` may carry `measured`, `threshold` and `unit` for reporters."""

    id: str
    severity: Severity
    message: str
    detail: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Assessment:
    findings: tuple[Finding, ...]

    @property
    def overall(self) -> Overall:
        worst = max((f.severity.rank for f in self.findings), default=0)
        return Overall(Severity.OK.value if worst == 0 else Severity.WARN.value if worst == 1 else Severity.CRITICAL.value)

    def counts(self) -> dict[str, int]:
        counts = {severity.value: 0 for severity in (Severity.CRITICAL, Severity.WARN, Severity.OK)}
        for item in self.findings:
            counts[item.severity.value] += 1
        return counts


def as_json(value: Any) -> Any:
    """Plain JSON data from frozen values: dataclasses, enums, tuples, mappings."""
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: as_json(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Mapping):
        return {str(key): as_json(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [as_json(item) for item in value]
    return value
