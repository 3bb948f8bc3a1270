"""Evaluate stage rule (Dense Context): required files. Used through health.judge.rules.dense_context.RULES."""
from __future__ import annotations

from collections.abc import Iterator

from collectors.dense_context.structure import StructureEvidence
from health.judge.catalogue.dense_context import (DC_FOLDER_UNREADABLE, DC_PROJECT_FILE_MISSING, DC_ROOT_AGENTS_MISSING,
                                            DC_STRUCTURE_OK)
from health.judge.model import Finding
from health.judge.rules import Context


def judge(ev: StructureEvidence, ctx: Context) -> Iterator[Finding]:
    if ev.root_agents_problem:
        yield DC_ROOT_AGENTS_MISSING.at(
            message=f"Root AGENTS.md: {ev.root_agents_problem} (in {ev.context}).",
            path=ev.root_agents, line=None, reason=ev.root_agents_problem, context=ev.context)
    for path, why in ev.missing:
        yield DC_PROJECT_FILE_MISSING.at(path, message=f"{path}: {why}.", path=path, reason=why)
    for folder in ev.unreadable:
        yield DC_FOLDER_UNREADABLE.at(folder.split(':', 1)[0], message=f"Folder not listed: {folder}.", reason=folder)
    if not ev.root_agents_problem and not ev.missing and not ev.unreadable:
        yield DC_STRUCTURE_OK.at(message=f"Root AGENTS.md and the files of {ev.projects} project(s) are present.")
