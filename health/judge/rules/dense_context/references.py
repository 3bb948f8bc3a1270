"""Evaluate stage rule (Dense Context): dangling references and contradicted evidence. Used through health.judge.rules.dense_context.RULES."""
from __future__ import annotations

from collections.abc import Iterator

from collectors.dense_context.references import ReferencesEvidence
from health.judge.catalogue.dense_context import DC_CONTRADICTION, DC_DANGLING_REF, DC_REFERENCES_OK
from health.judge.model import Finding
from health.judge.rules import Context


def judge(ev: ReferencesEvidence, ctx: Context) -> Iterator[Finding]:
    seen: set[str] = set()
    for item in ev.dangling:
        if item.path in seen:
            continue  # one finding per atom, naming every dangling target
        seen.add(item.path)
        targets = [f"{d.field}: {d.target}" for d in ev.dangling if d.path == item.path]
        yield DC_DANGLING_REF.at(
            item.path, message=f"{item.path}:{item.line or 1} names no existing atom: "
            f"{', '.join(targets)}.", path=item.path, line=item.line, targets=targets)
    for item in ev.contradictions:
        yield DC_CONTRADICTION.at(
            item.path, message=f"{item.path}:{item.line or 1}: all {item.evidence} evidence "
            f"atom(s) failed: {', '.join(item.failed)}.", path=item.path, line=item.line,
            failed=list(item.failed), evidence=item.evidence)
    if not ev.dangling and not ev.contradictions:
        partly = f"; {ev.partial_total} entry(ies) with part of their evidence failed (see evidence)" \
            if ev.partial_total else ""
        yield DC_REFERENCES_OK.at(message=f"{ev.references} reference(s) resolve{partly}.")
