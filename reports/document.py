"""Report stage: assemble a run's typed report (reports.report.Report). Called by health.run and health.cli (exit 3).

Stdlib only. Each finding and passed id already carries its catalogue entry (from the Problem
or Ok that reported it, health.judge.catalogue): copied here, never looked up, so no format looks
the catalogue up; `Report.document()` is the shape reports.schema.HealthReport validates and
publishes.
"""
from __future__ import annotations

from collectors.evidence import as_json
from cortex import __version__ as RELEASE
from cortex.core.timestamps import iso_from_ms
from thresholds.clock import Clock
from reports.report import SCHEMA_ID, Counts, Finding, Passed, Report, Threshold
from reports.vocabulary import Assessment, Overall, Severity
from thresholds.sources import EffectiveThresholds

from _collections_abc import mappingproxy as MappingProxyType  # types.MappingProxyType, without importing types (~0.6M)

TYPE_CHECKING = False  # typing costs every audit ~2 ms; these names are only annotations
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

__all__ = ["SCHEMA_ID", "build_report", "threshold_rows", "unknown_report"]


def threshold_rows(thresholds: EffectiveThresholds) -> tuple[Threshold, ...]:
    return tuple(Threshold(item.name, item.value, item.source.value, item.origin, item.unit)
                 for item in thresholds.values)


def build_report(*, assessment: Assessment, evidence: Mapping[str, Any], thresholds: EffectiveThresholds,
                 clock: Clock, root: str, duration_ms: float) -> Report:
    return Report(
        ts=iso_from_ms(clock.now_ms),
        now_ms=clock.now_ms,
        overall=assessment.overall.value,
        counts=Counts(**assessment.counts()),
        thresholds=threshold_rows(thresholds),
        evidence=MappingProxyType({name: as_json(item, frozen=True) for name, item in evidence.items()}),
        findings=tuple(Finding(f.id, f.severity.value, f.message, as_json(f.detail, frozen=True), f.entry)
                       for f in assessment.findings if f.severity is not Severity.OK),
        passed=tuple(Passed(f.id, f.entry) for f in assessment.findings if f.severity is Severity.OK),
        root=root,
        duration_ms=round(duration_ms, 3),
        reason=None,
        version=RELEASE,
    )


def unknown_report(reason: str, *, now_ms: int, root: str | None = None, duration_ms: float = 0.0) -> Report:
    """The report printed when the auditor itself cannot run (exit 3): nothing checked, nothing to join."""
    return Report(ts=iso_from_ms(now_ms), now_ms=now_ms, overall=Overall.UNKNOWN.value, counts=Counts(),
                  thresholds=(), evidence=MappingProxyType({}), findings=(), passed=(), root=root,
                  duration_ms=round(duration_ms, 3), reason=reason, version=RELEASE)
