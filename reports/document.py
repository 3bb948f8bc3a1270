"""Report stage: assemble the report document (plain JSON data). Called by health.run.

Stdlib only. The shape is the one `reports.schema.HealthReport` validates and publishes.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cortex.core.timestamps import iso_from_ms
from thresholds.clock import Clock
from health.model import Assessment, Overall, Severity, as_json
from thresholds.sources import EffectiveThresholds

SCHEMA_ID = "cortex-health/v1"


def threshold_entries(thresholds: EffectiveThresholds) -> dict[str, Any]:
    return {item.name: {"value": item.value, "source": item.source.value, "origin": item.origin, "unit": item.unit}
            for item in thresholds.values}


def build_report(*, assessment: Assessment, evidence: Mapping[str, Any], thresholds: EffectiveThresholds,
                 clock: Clock, root: str, duration_ms: float) -> dict[str, Any]:
    problems = [f for f in assessment.findings if f.severity is not Severity.OK]
    return {
        "schema": SCHEMA_ID,
        "ts": iso_from_ms(clock.now_ms),
        "overall": assessment.overall.value,
        "counts": assessment.counts(),
        "thresholds": threshold_entries(thresholds),
        "evidence": {name: as_json(item) for name, item in evidence.items()},
        "findings": [{"id": f.id, "severity": f.severity.value, "message": f.message, "detail": as_json(f.detail)}
                     for f in problems],
        "ok_summary": [f.id for f in assessment.findings if f.severity is Severity.OK],
        "root": root,
        "duration_ms": round(duration_ms, 3),
        "reason": None,
    }


def unknown_report(reason: str, *, now_ms: int, root: str | None = None, duration_ms: float = 0.0) -> dict[str, Any]:
    """The report printed when the auditor itself cannot run (exit 3)."""
    return {
        "schema": SCHEMA_ID,
        "ts": iso_from_ms(now_ms),
        "overall": Overall.UNKNOWN.value,
        "counts": {"critical": 0, "warn": 0, "ok": 0},
        "thresholds": {},
        "evidence": {},
        "findings": [],
        "ok_summary": [],
        "root": root,
        "duration_ms": round(duration_ms, 3),
        "reason": reason,
    }
