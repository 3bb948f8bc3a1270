"""Collect stage (Dense Context): the files every tree and project must have. Called through the layout's collector list.

Root: CONTEXT/AGENTS.md. Each project (`projects/<p>/`): AGENTS.md, mission.md and STATUS.md.
"""
from __future__ import annotations

import os
from collections import namedtuple

from collectors.dense_context.layout import DenseLayout
from collectors.dense_context.tree import regular_file, scanned_tree
from collectors.evidence import EvidenceStatus

PROJECT_FILES = ("AGENTS.md", "mission.md", "STATUS.md")


class StructureEvidence(namedtuple("StructureEvidence", "status context root_agents root_agents_problem projects "
                                         "missing unreadable", defaults=((), ()))):
    """The files every tree and project must have.

    status: EvidenceStatus; context: str; root_agents: str (path under CONTEXT); root_agents_problem: str | None
    (None when it is a regular file); projects: int; missing: tuple of (path under CONTEXT, why: missing | is a
    symlink | ...); unreadable: tuple[str, ...] (folders that could not be listed).
    """

    __slots__ = ()


def collect(layout: DenseLayout) -> StructureEvidence:
    problem = regular_file(os.path.join(layout.context, "AGENTS.md"))
    if not os.path.isdir(layout.context):
        return StructureEvidence(EvidenceStatus.MISSING, layout.context, "AGENTS.md", "context folder missing", 0)
    tree = scanned_tree(layout)
    missing = []
    for project in tree.projects:
        for name in PROJECT_FILES:
            why = regular_file(os.path.join(project.path, name))
            if why:
                missing.append((f"projects/{project.name}/{name}", why))
    status = EvidenceStatus.OK if not tree.unreadable else EvidenceStatus.UNREADABLE
    return StructureEvidence(status, layout.context, "AGENTS.md", problem, len(tree.projects), tuple(missing),
                             tree.unreadable)
