"""Evaluate stage rule (Dense Context): generated indexes against the atoms. Used through health.judge.rules.dense_context.RULES."""
from __future__ import annotations

from collections.abc import Iterator

from collectors.dense_context.index_drift import IndexEvidence
from health.judge.catalogue.dense_context import DC_INDEXES_CURRENT, DC_INDEX_MISSING, DC_INDEX_STALE, DC_INDEX_UNRECOGNISED
from health.judge.model import Finding
from health.judge.rules import Context


def judge(ev: IndexEvidence, ctx: Context) -> Iterator[Finding]:
    for item in ev.drift:
        base = dict(path=item.index, line=None, reason=item.reason)
        if item.state == "missing":
            yield DC_INDEX_MISSING.at(item.path, message=f"{item.index} is missing while the folder has atoms.", **base)
        elif item.state in ("unrecognised", "unreadable"):
            yield DC_INDEX_UNRECOGNISED.at(
                item.path, message=f"{item.index} cannot be compared: {item.reason}.",
                **base)
        else:
            missing, extra, misplaced = item.counts
            parts = [f"{missing} atom(s) missing" if missing else "", f"{extra} row(s) for no atom" if extra else "",
                     f"{misplaced} atom(s) in the wrong table" if misplaced else ""]
            yield DC_INDEX_STALE.at(
                item.path, message=f"{item.index}: {', '.join(p for p in parts if p)}.",
                path=item.index, missing=[list(m) for m in item.missing],
                extra=[{"id": i, "line": line} for i, line in item.extra],
                misplaced=[{"id": i, "line": line, "found": found, "expected": expected}
                           for i, line, found, expected in item.misplaced])
    if not ev.drift:
        yield DC_INDEXES_CURRENT.at(message=f"{ev.current} index(es) list every atom in the right table.")
