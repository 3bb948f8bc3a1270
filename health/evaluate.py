"""Evaluate stage: evidence + thresholds + clock + rules → findings. Called by health.run.

Pure: reads nothing but its arguments (the rules come from health.checks). Evidence from a
collector that raised (or that is absent) becomes `<collector>-collector-error` critical
instead of being judged, and evidence that no rule judges becomes
`<collector>-evidence-unjudged` critical, so nothing can read as green unvouched.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from thresholds.clock import Clock
from health.findings import critical
from health.model import Assessment, CollectorFailure, CollectorSkipped, Finding
from health.rules import Context, Rule
from thresholds.sources import EffectiveThresholds

TYPE_CHECKING = False  # typing costs every audit ~2 ms; these names are only annotations
if TYPE_CHECKING:
    from typing import Any


def collector_error_id(collector: str) -> str:
    return f"{collector.replace('_', '-')}-collector-error"


def collector_error(collector: str, error: str) -> Finding:
    return critical(collector_error_id(collector), f"The {collector} collector failed: {error}",
                    collector=collector, error=error)


def unjudged(collector: str) -> Finding:
    return critical(f"{collector.replace('_', '-')}-evidence-unjudged",
                    f"The {collector} collector's evidence is judged by no rule, so nothing vouches for it.",
                    collector=collector)


def evaluate(evidence: Mapping[str, Any], thresholds: EffectiveThresholds, clock: Clock,
             rules: Sequence[Rule]) -> Assessment:
    context = Context(thresholds, clock)
    findings: list[Finding] = []
    judged: set[str] = set()
    for rule in rules:
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
    for name, item in evidence.items():  # evidence no rule judged must not pass silently
        if name in judged or isinstance(item, CollectorSkipped):
            continue
        findings.append(collector_error(name, item.error) if isinstance(item, CollectorFailure) else unjudged(name))
    return Assessment(tuple(findings))
