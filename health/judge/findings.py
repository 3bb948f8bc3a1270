"""Evaluate stage: small helpers shared by the rules in health.judge.rules (a finding itself is made by its catalogue
entry: `PROBLEM.at(...)`, health.judge.catalogue).

`detail` conventions: `measured`, `threshold` and `unit` (ms | bytes | count) let reporters
print "measured vs threshold" without knowing each rule.
"""
from __future__ import annotations

from reports.vocabulary import human_ms  # noqa: F401 - re-exported for the rules: messages and tables agree

TYPE_CHECKING = False  # typing costs every audit ~2 ms; these names are only annotations
if TYPE_CHECKING:
    from typing import Any


def line_list(malformed: tuple, total: int) -> str:
    """`1 malformed line (line 3: invalid JSON)`, `3 malformed lines (lines 3, 5, 9; line 3: invalid JSON)`."""
    shown = ", ".join(str(item.line) for item in malformed)
    more = total - len(malformed)
    where = ("line " if total == 1 else "lines ") + shown + (f" and {more} more" if more > 0 else "")
    first = f"; line {malformed[0].line}: {malformed[0].reason}" if malformed and total > 1 else (
        f": {malformed[0].reason}" if malformed else "")
    return f"{total} malformed line{'' if total == 1 else 's'} ({where}{first})"


def malformed_detail(malformed: tuple, total: int) -> dict[str, Any]:
    return {"lines": [{"line": m.line, "reason": m.reason} for m in malformed], "malformed_total": total}
