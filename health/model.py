"""Judgement model: the frozen values the evaluator hands on (severities, findings, the assessment).

Imported by the rules and the evaluator, and read by the reports and the CLI. Stdlib only.
Evidence states live one floor down (collectors.evidence) and are re-exported here for the
rules. Nothing here decides anything; it only names the closed sets and carries data.
"""
from __future__ import annotations

import enum
from collections import namedtuple
from types import MappingProxyType

from collectors.evidence import (  # noqa: F401 - re-exported for the rules
    CollectorFailure, CollectorSkipped, EvidenceStatus, FileState, MalformedLine, as_json)


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

    @property
    def rank(self) -> int:
        """0 ok, 1 warn, 2 critical, 3 unknown: the one order every format uses (and Prometheus' value)."""
        return _OVERALL_RANK[self]


_OVERALL_RANK = {Overall.OK: 0, Overall.WARN: 1, Overall.CRITICAL: 2, Overall.UNKNOWN: 3}


class Finding(namedtuple("Finding", "id severity message detail entry", defaults=(MappingProxyType({}), None))):
    """One check's result. `detail` may carry `measured`, `threshold` and `unit` for reporters.

    id, message: str; severity: Severity; detail: Mapping[str, Any] (an empty read-only one by default); entry:
    health.catalogue.Match | None (its catalogue entry, carried from the Problem or Ok that reported it; None for
    an id made by hand, which no report joins to the catalogue).
    """

    __slots__ = ()


class Assessment(namedtuple("Assessment", "findings")):
    """Every finding of one run. findings: tuple[Finding, ...]."""

    __slots__ = ()

    @property
    def overall(self) -> Overall:
        worst = max((f.severity.rank for f in self.findings), default=0)
        return Overall(Severity.OK.value if worst == 0 else Severity.WARN.value if worst == 1 else Severity.CRITICAL.value)

    def counts(self) -> dict[str, int]:
        counts = {severity.value: 0 for severity in (Severity.CRITICAL, Severity.WARN, Severity.OK)}
        for item in self.findings:
            counts[item.severity.value] += 1
        return counts
