"""Report stage: the report's vocabulary (severity, overall, a live finding, the assessment, durations in words).

The floor below everything that judges or renders: the rules and the evaluator (through
health.judge.model, which re-exports it with the evidence states), reports.document, reports.severity
and reports.units all use these names, so reports/ never imports health/. Stdlib and cortex.core (closedset, namedtuples) only.
"""
from __future__ import annotations

from cortex.core.closedset import ClosedSet
from cortex.core.namedtuples import namedtuple  # collections.namedtuple, without collections

from _collections_abc import mappingproxy as MappingProxyType  # types.MappingProxyType, without importing types (~0.6M)


class Severity(ClosedSet):
    """Result of one check. `rank` orders them; `unknown` is reserved for an auditor failure."""

    OK = "ok"
    WARN = "warn"
    CRITICAL = "critical"

    @property
    def rank(self) -> int:
        return _RANK[self]


_RANK = {Severity.OK: 0, Severity.WARN: 1, Severity.CRITICAL: 2}


class Overall(ClosedSet):
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
    the catalogue's Match (health.judge.catalogue) or None: carried from the Problem or Ok that reported it; None for
    an id made by hand, which no report joins to the catalogue.
    """

    __slots__ = ()

    def with_entry(self, entry: object) -> Finding:
        """This finding joined to another entry (health.judge.evaluate places each in its check list): what
        _replace(entry=...) gives, without its generic work (a tenth of an evaluation)."""
        return Finding(self.id, self.severity, self.message, self.detail, entry)


class Assessment:
    """Every finding of one run. findings: tuple[Finding, ...]."""

    __slots__ = ("findings",)

    def __init__(self, findings) -> None:
        self.findings = findings

    @property
    def overall(self) -> Overall:
        worst = max((f.severity.rank for f in self.findings), default=0)
        return Overall(Severity.OK.value if worst == 0 else Severity.WARN.value if worst == 1 else Severity.CRITICAL.value)

    def counts(self) -> dict[str, int]:
        counts = {severity.value: 0 for severity in (Severity.CRITICAL, Severity.WARN, Severity.OK)}
        for item in self.findings:
            counts[item.severity.value] += 1
        return counts


def human_ms(ms: float) -> str:
    """A duration in words, as the rules' messages and the tables write it: `1.5 h`, `40 ms`."""
    for size, unit in ((86_400_000, "d"), (3_600_000, "h"), (60_000, "min"), (1000, "s")):
        if abs(ms) >= size:
            return f"{ms / size:.1f} {unit}"
    return f"{ms:.0f} ms"
