"""Report stage: the one severity order of the formats. Used by the text, nagios, github, prometheus formats, the dashboard.

Formats keep their own words (Nagios' WARNING, health+json's fail, the status line's icons);
the order and the numbers come from reports.vocabulary so no format keeps a private rank map.
"""
from __future__ import annotations

from collections.abc import Iterable

from reports.report import Finding
from reports.vocabulary import Overall


def rank(severity: object) -> int:
    """0 ok, 1 warn, 2 critical, 3 unknown (and for anything that is not a severity: never read as ok)."""
    try:
        return Overall(severity).rank
    except ValueError:
        return Overall.UNKNOWN.rank


def worst_first(findings: Iterable[Finding]) -> list[Finding]:
    """Critical, then warn, then the rest, each group in report order."""
    return sorted(findings, key=lambda finding: _GROUP.get(rank(finding.severity), 2))


_GROUP = {Overall.CRITICAL.rank: 0, Overall.WARN.rank: 1}
