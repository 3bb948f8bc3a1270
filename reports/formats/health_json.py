"""Report stage format `health+json`: the IETF "Health Check Response Format for HTTP APIs" (application/health+json).

Chosen with --format health+json (the registry maps that name to this module). Status is
pass / warn / fail (critical and unknown are fail); `checks` is keyed
`component:measurement` from each id's catalogue entry (joined in the report), each an array
with one object per id the run reported for it (componentId is the hot-memory label or the collector): status, time,
and for non-ok ids output, observedValue and observedUnit when the finding measured one.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, TextIO

from reports.report import Finding, Passed, Report

STATUS = {"ok": "pass", "warn": "warn", "critical": "fail", "unknown": "fail"}


def check_key(result: Finding | Passed) -> tuple[str, str, str]:
    """(check key, componentId, componentType) of a reported id; ids the catalogue lacks keep their own name."""
    match = result.entry
    if match is None:
        return f"{result.id}:status", result.id, "component"
    return match.check.key, match.component, "component" if match.collector else "system"


def entry(result: Finding | Passed, status: str, time: str | None) -> tuple[str, dict]:
    key, component, kind = check_key(result)
    item: dict[str, Any] = {"componentId": component, "componentType": kind, "status": status, "time": time}
    if isinstance(result, Finding):
        measured = result.detail.get("measured")
        if isinstance(measured, (int, float)) and not isinstance(measured, bool):
            item["observedValue"] = measured
            if result.detail.get("unit"):
                item["observedUnit"] = result.detail["unit"]
        item["output"] = f"{result.id}: {result.message}"
    return key, item


def response(report: Report) -> dict[str, Any]:
    checks: dict[str, list[dict]] = {}
    rows = [(f, STATUS.get(f.severity, "fail")) for f in report.findings] + [(p, "pass") for p in report.passed]
    for result, status in rows:
        key, item = entry(result, status, report.ts)
        checks.setdefault(key, []).append(item)
    body: dict[str, Any] = {
        "status": STATUS.get(report.overall, "fail"),
        "version": "1",
        "serviceId": "cortex-health",
        "description": f"Health of the LifeOS memory tree at {report.root}",
    }
    problems = [f"{f.id}: {f.message}" for f in report.findings]
    if report.reason:
        problems.insert(0, report.reason)
    if problems:
        body["output"] = "; ".join(problems)
    skipped = sorted(report.skipped)
    if skipped:
        body["notes"] = [f"not checked (skipped): {', '.join(skipped)}"]
    body["checks"] = dict(sorted(checks.items()))
    return body


def render(report: Report, out: TextIO, *, tty: bool = False, verbose: bool = False,
           environ: Mapping[str, str] | None = None) -> None:
    out.write(json.dumps(response(report), ensure_ascii=False, separators=(",", ":")) + "\n")
