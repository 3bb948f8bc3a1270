"""Evaluate stage rule (Dense Context): generated indexes against the atoms. Used through health.rules.dense_context.RULES."""
from __future__ import annotations

from collections.abc import Iterator

from collectors.dense_context.index_drift import IndexEvidence
from health.findings import ok, warn
from health.model import Finding
from health.rules import Context


def judge(ev: IndexEvidence, ctx: Context) -> Iterator[Finding]:
    for item in ev.drift:
        base = dict(path=item.index, line=None, reason=item.reason)
        if item.state == "missing":
            yield warn(f"dc-index-missing:{item.path}", f"{item.index} is missing while the folder has atoms.", **base)
        elif item.state in ("unrecognised", "unreadable"):
            yield warn(f"dc-index-unrecognised:{item.path}", f"{item.index} cannot be compared: {item.reason}.",
                       **base)
        else:
            missing, extra, misplaced = item.counts
            parts = [f"{missing} atom(s) missing" if missing else "", f"{extra} row(s) for no atom" if extra else "",
                     f"{misplaced} atom(s) in the wrong table" if misplaced else ""]
            yield warn(f"dc-index-stale:{item.path}", f"{item.index}: {', '.join(p for p in parts if p)}.",
                       path=item.index, missing=[list(m) for m in item.missing],
                       extra=[{"id": i, "line": line} for i, line in item.extra],
                       misplaced=[{"id": i, "line": line, "found": found, "expected": expected}
                                  for i, line, found, expected in item.misplaced])
    if not ev.drift:
        yield ok("dc-indexes-current", f"{ev.current} index(es) list every atom in the right table.")
