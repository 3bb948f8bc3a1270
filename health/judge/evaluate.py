"""Evaluate stage: evidence + thresholds + clock + rules → findings. Called by health.run.

Pure: reads nothing but its arguments (the rules come from health.judge.checks). Evidence from a
collector that raised (or that is absent) becomes `<collector>-collector-error` critical
instead of being judged, and evidence that no rule judges becomes
`<collector>-evidence-unjudged` critical, so nothing can read as green unvouched.
"""
from __future__ import annotations

from thresholds.clock import Clock
from health.judge.catalogue import Check, Match
from health.judge.catalogue.run import COLLECTOR_ERROR, EVIDENCE_UNJUDGED, OUTCOMES
from health.judge.model import Assessment, CollectorFailure, CollectorSkipped, Finding
from health.judge.rules import Context, Rule
from thresholds.sources import EffectiveThresholds

TYPE_CHECKING = False  # typing costs every audit ~2 ms; these names are only annotations
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping, Sequence
    from typing import Any


def collector_error(collector: str, error: str) -> Finding:
    return outcome(COLLECTOR_ERROR.at(collector.replace("_", "-"), message=f"The {collector} collector failed: "
                                      f"{error}", collector=collector, error=error))


def unjudged(collector: str) -> Finding:
    return outcome(EVIDENCE_UNJUDGED.at(collector.replace("_", "-"), message=f"The {collector} collector's evidence "
                                        "is judged by no rule, so nothing vouches for it.", collector=collector))


def placed(findings: Iterable[Finding], collector: str | None, checks: Sequence[Check]) -> Iterator[Finding]:
    """Findings with their entries placed in the check list: each names the listed check (every id of it) and the
    collector whose evidence it judged, as its row says (a catalogue module declares its checks bare: key and
    summary; the row that lists them knows the collector)."""
    listed = {check.key: check for check in checks}
    placed_checks: dict[str, Check] = {}  # made as findings need them (most checks report one id)
    for finding in findings:
        entry = finding.entry
        check = listed.get(entry.check.key) if entry is not None else None
        if check is None:
            yield finding
            continue
        place = placed_checks.get(check.key)
        if place is None:
            place = placed_checks[check.key] = check._replace(collector=collector)
        yield finding.with_entry(Match(place, entry.problem, entry.label))  # not two _replace: a fifth of the evaluation


def outcome(finding: Finding) -> Finding:
    """A finding about the run's outcome (a collector error, publication, the gate's deadline), placed."""
    return next(placed((finding,), None, OUTCOMES))


def evaluate(evidence: Mapping[str, Any], thresholds: EffectiveThresholds, clock: Clock,
             rules: Sequence[Rule]) -> Assessment:
    context = Context(thresholds, clock)
    findings: list[Finding] = []
    judged: set[str] = set()
    for rule in rules:
        if rule.collector is None:
            findings.extend(placed(rule.judge(None, context), None, rule.checks))
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
            findings.extend(placed(rule.judge(item, context), rule.collector, rule.checks))
    for name, item in evidence.items():  # evidence no rule judged must not pass silently
        if name in judged or isinstance(item, CollectorSkipped):
            continue
        findings.append(collector_error(name, item.error) if isinstance(item, CollectorFailure) else unjudged(name))
    return Assessment(tuple(findings))
