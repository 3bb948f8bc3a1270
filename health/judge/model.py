"""Judgement model: the frozen values the evaluator hands on (severities, findings, the assessment).

Imported by the rules, the evaluator and the CLI. Stdlib only. The report's vocabulary
(Severity, Overall, Finding, Assessment) lives one floor down (reports.vocabulary, so reports/
imports nothing from health/) and the evidence states two floors down (collectors.evidence);
both are re-exported here for the rules. Nothing here decides anything.
"""
from __future__ import annotations

from collectors.evidence import (  # noqa: F401 - re-exported for the rules
    CollectorFailure, CollectorSkipped, EvidenceStatus, FileState, MalformedLine, as_json)
from reports.vocabulary import Assessment, Finding, Overall, Severity  # noqa: F401 - re-exported for the judge
