"""Report stage: the verbose block for one finding (evidence, threshold and its source, fix).

Used by the text format's -v and by `cortex-health explain`; the fix text comes from
health.catalogue, so `explain ID` and -v say the same thing. Plain strings, no styling.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from health.catalogue.find import lookup
from reports.units import human_value, threshold_value

MAX_VALUE = 160


def threshold_text(name: str, entry: Mapping[str, Any] | None) -> str:
    """`retrieval_stale_ms = 1d (86400000 ms) (env CORTEX_RETRIEVAL_STALE_MS)` from a report's threshold entry."""
    if not entry:
        return f"{name} (not in this report)"
    source = entry.get("source", "?")
    origin = entry.get("origin")
    where = f"{source} {origin}" if origin else str(source)
    return f"{name} = {threshold_value(entry.get('value'), entry.get('unit'))} ({where})"


def detail_text(detail: Mapping[str, Any]) -> str:
    """The finding's detail as `key=value` pairs, measured first; the threshold has its own line."""
    parts = []
    unit = detail.get("unit")
    if "measured" in detail:
        parts.append(f"measured={human_value(detail['measured'], unit)}")
    for key, value in detail.items():
        if key in ("unit", "measured", "threshold"):
            continue
        shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        if len(shown) > MAX_VALUE:
            shown = shown[:MAX_VALUE] + "…"
        parts.append(f"{key}={shown}")
    return " ".join(parts) or "(none)"


def finding_block(finding: Mapping[str, Any], document: Mapping[str, Any]) -> list[str]:
    """Lines for one finding: what was measured, against which threshold, and how to fix it."""
    match = lookup(finding["id"])
    collector = match.collector if match else None
    evidence = (document.get("evidence") or {}).get(collector or "", {})
    # The collector's status says whether it could read its files, not whether the finding is good: it goes last.
    source = f" (from the {collector} collector; its files: {evidence.get('status', 'absent')})" if collector else ""
    detail = finding.get("detail") or {}
    lines = [f"{finding['severity'].upper()} {finding['id']}: {finding['message']}",
             f"  evidence:  {detail_text(detail)}{source}"]
    name = match.problem.threshold if match and match.problem else None
    if name:
        lines.append(f"  threshold: {threshold_text(name, (document.get('thresholds') or {}).get(name))}")
    elif "threshold" in detail:  # a limit fixed in the rule (reviewer-failing's 3): the table shows it too
        lines.append(f"  threshold: {human_value(detail['threshold'], detail.get('unit'))} (fixed by the rule, "
                     "not configurable)")
    else:
        lines.append("  threshold: none (a state check, not a comparison)")
    fix = match.problem.fix if match and match.problem else "No catalogue entry for this id; read its message."
    lines.append(f"  fix:       {fix}")
    return lines
