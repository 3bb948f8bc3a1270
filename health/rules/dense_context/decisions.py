"""Evaluate stage rule (Dense Context): decision records. Used through health.rules.dense_context.RULES."""
from __future__ import annotations

from collections.abc import Iterator

from collectors.dense_context.decisions import DecisionsEvidence
from health.findings import ok, warn
from health.model import Finding
from health.rules import Context


def judge(ev: DecisionsEvidence, ctx: Context) -> Iterator[Finding]:
    for item in ev.problems:
        message = f"{item.path}{f':{item.line}' if item.line else ''}: {item.detail}."
        detail = dict(path=item.path, line=item.line, reason=item.detail)
        if item.kind == "misnamed":
            yield warn(f"dc-decision-misnamed:{item.path}", message, **detail)
        elif item.kind == "title":
            yield warn(f"dc-decision-title:{item.path}", message, **detail)
        else:
            yield warn(f"dc-decision-numbering:{item.path}", message, **detail)
    if not ev.problems:
        yield ok("dc-decisions-ok", f"{ev.records} decision record(s) in {ev.folders} folder(s) are well named and "
                 "numbered.")
