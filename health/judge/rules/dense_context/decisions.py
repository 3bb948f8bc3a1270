"""Evaluate stage rule (Dense Context): decision records. Used through health.judge.rules.dense_context.RULES."""
from __future__ import annotations

from collections.abc import Iterator

from collectors.dense_context.decisions import DecisionsEvidence
from health.judge.catalogue.dense_context import (DC_DECISIONS_OK, DC_DECISION_MISNAMED, DC_DECISION_NUMBERING,
                                            DC_DECISION_TITLE)
from health.judge.model import Finding
from health.judge.rules import Context


def judge(ev: DecisionsEvidence, ctx: Context) -> Iterator[Finding]:
    for item in ev.problems:
        message = f"{item.path}{f':{item.line}' if item.line else ''}: {item.detail}."
        detail = dict(path=item.path, line=item.line, reason=item.detail)
        if item.kind == "misnamed":
            yield DC_DECISION_MISNAMED.at(item.path, message=message, **detail)
        elif item.kind == "title":
            yield DC_DECISION_TITLE.at(item.path, message=message, **detail)
        else:
            yield DC_DECISION_NUMBERING.at(item.path, message=message, **detail)
    if not ev.problems:
        yield DC_DECISIONS_OK.at(
            message=f"{ev.records} decision record(s) in {ev.folders} folder(s) are well named and "
            "numbered.")
