"""Report stage: the verbose block for one finding (evidence, threshold and its source, fix).

Used by the text format's -v, the dashboard and `cortex-health explain`; the fix text is the
finding's catalogue entry, joined when the report was built (reports.report), so
`explain ID` and -v say the same thing. Plain strings, no styling.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from reports.report import Finding, Report, Threshold, plain
from reports.units import human_value, threshold_value

MAX_VALUE = 160


def threshold_text(name: str, entry: Threshold | None) -> str:
    """`retrieval_stale_ms = 1d (86400000 ms) (env CORTEX_RETRIEVAL_STALE_MS)` from a report's threshold row."""
    if entry is None:
        return f"{name} (not in this report)"
    source = "?" if entry.source is None else entry.source
    where = f"{source} {entry.origin}" if entry.origin else str(source)
    return f"{name} = {threshold_value(entry.value, entry.unit)} ({where})"


def detail_text(detail: Mapping[str, Any]) -> str:
    """The finding's detail as `key=value` pairs, measured first; the threshold has its own line."""
    parts = []
    unit = detail.get("unit")
    if "measured" in detail:
        parts.append(f"measured={human_value(detail['measured'], unit)}")
    for key, value in detail.items():
        if key in ("unit", "measured", "threshold"):
            continue
        shown = value if isinstance(value, str) else json.dumps(plain(value), ensure_ascii=False)
        if len(shown) > MAX_VALUE:
            shown = shown[:MAX_VALUE] + "…"
        parts.append(f"{key}={shown}")
    return " ".join(parts) or "(none)"


def finding_block(finding: Finding, report: Report) -> list[str]:
    """Lines for one finding: what was measured, against which threshold, and how to fix it."""
    collector = finding.entry.collector if finding.entry else None
    # The collector's status says whether it could read its files, not whether the finding is good: it goes last.
    status = report.status(collector or "") or "absent"
    source = f" (from the {collector} collector; its files: {status})" if collector else ""
    detail = finding.detail
    lines = [f"{finding.severity.upper()} {finding.id}: {finding.message}",
             f"  evidence:  {detail_text(detail)}{source}"]
    lines.append(f"  threshold: {threshold_line(finding, report)}")
    problem = finding.problem_entry()
    fix = problem.fix if problem else "No catalogue entry for this id; read its message."
    lines.append(f"  fix:       {fix}")
    return lines


def threshold_line(finding: Finding, report: Report) -> str:
    """The threshold a finding compares with and its source, a limit fixed in its rule, or none."""
    problem = finding.problem_entry()
    name = problem.threshold if problem else None
    if name:
        return threshold_text(name, report.threshold(name))
    if "threshold" in finding.detail:  # a limit fixed in the rule (reviewer-failing's 3): the table shows it too
        return fixed_limit_text(finding.detail["threshold"], finding.detail.get("unit"))
    return "none (a state check, not a comparison)"


def fixed_limit_text(value: Any, unit: str | None) -> str:
    """A limit a rule fixes, as -v, explain and the dashboard all word it."""
    return f"{human_value(value, unit)} (fixed by the rule, not configurable)"
