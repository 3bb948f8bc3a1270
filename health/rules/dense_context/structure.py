"""Evaluate stage rule (Dense Context): required files. Used through health.rules.dense_context.RULES."""
from __future__ import annotations

from collections.abc import Iterator

from collectors.dense_context.structure import StructureEvidence
from health.findings import critical, ok, warn
from health.model import Finding
from health.rules import Context


def judge(ev: StructureEvidence, ctx: Context) -> Iterator[Finding]:
    if ev.root_agents_problem:
        yield critical("dc-root-agents-missing", f"Root AGENTS.md: {ev.root_agents_problem} (in {ev.context}).",
                       path=ev.root_agents, line=None, reason=ev.root_agents_problem, context=ev.context)
    for path, why in ev.missing:
        yield warn(f"dc-project-file-missing:{path}", f"{path}: {why}.", path=path, reason=why)
    for folder in ev.unreadable:
        yield warn(f"dc-folder-unreadable:{folder.split(':', 1)[0]}", f"Folder not listed: {folder}.", reason=folder)
    if not ev.root_agents_problem and not ev.missing and not ev.unreadable:
        yield ok("dc-structure-ok", f"Root AGENTS.md and the files of {ev.projects} project(s) are present.")
