"""Evaluate stage: evidence + thresholds + clock → findings. Called by health.run.

Pure: reads nothing but its arguments. Evidence from a collector that raised (or that is
absent) becomes `<collector>-collector-error` critical instead of being judged, so a
broken collector can never read as green.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from health.clock import Clock
from health.findings import critical
from health.model import Assessment, CollectorFailure, CollectorSkipped, Finding
from health.rules import Context, Rule, discovered
from thresholds.sources import EffectiveThresholds


def collector_error_id(collector: str) -> str:
    return f"{collector.replace('_', '-')}-collector-error"


def collector_error(collector: str, error: str) -> Finding:
    return critical(collector_error_id(collector), f"The {collector} collector failed: {error}",
                    collector=collector, error=error)


def evaluate(evidence: Mapping[str, Any], thresholds: EffectiveThresholds, clock: Clock,
             rules: Sequence[Rule] | None = None) -> Assessment:
    """`rules`: the chosen layout's rules (health.layouts); None: every rule the package scan finds (LifeOS)."""
    context = Context(thresholds, clock)
    findings: list[Finding] = []
    judged: set[str] = set()
    for rule in discovered() if rules is None else rules:
        if rule.collector is None:
            findings.extend(rule.judge(None, context))
            continue
        judged.add(rule.collector)
        item = evidence.get(rule.collector)
        if isinstance(item, CollectorSkipped):
            continue  # the operator's choice, recorded in the evidence; never read as ok
        if item is None:
            findings.append(collector_error(rule.collector, "no evidence was collected"))
        elif isinstance(item, CollectorFailure):
            findings.append(collector_error(rule.collector, item.error))
        else:
            findings.extend(rule.judge(item, context))
    # A collector without a rule still must not fail silently.
    for name, item in evidence.items():
        if name not in judged and isinstance(item, CollectorFailure):
            findings.append(collector_error(name, item.error))
    return Assessment(tuple(findings))
