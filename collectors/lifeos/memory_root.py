"""Collect stage: whether ROOT holds the LifeOS memory tree (LIFEOS/MEMORY), and where one is if not.

Called through the check list (health.judge.checks), first, since every other LifeOS collector reads
below it; health.layouts uses `nearby_tree` for its usage error. Looks only at folder names.
"""
from __future__ import annotations

import os

from collectors.evidence import EvidenceStatus
from collectors.lifeos.layout import Layout
from cortex.layout import LIFEOS

MAX_ANCESTORS = 64  # a path deeper than this is not a home folder a user would pass


class MemoryRootEvidence:
    """status: EvidenceStatus; expected: str, ROOT/LIFEOS/MEMORY; nearby: str | None, a .claude folder with a LIFEOS
    tree below or above ROOT.
    """

    __slots__ = ("status", "expected", "nearby")

    def __init__(self, status, expected, nearby=None) -> None:
        self.status, self.expected, self.nearby = status, expected, nearby


def _holds_tree(folder: str) -> bool:
    return os.path.isdir(os.path.join(folder, LIFEOS))


def nearby_tree(root: str) -> str | None:
    """The folder to pass as --root instead: ROOT/.claude, or an ancestor (or its .claude) with LIFEOS/."""
    root = os.path.abspath(root)
    candidates = [os.path.join(root, ".claude")]
    folder = root
    for _ in range(MAX_ANCESTORS):
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
        candidates += [folder, os.path.join(folder, ".claude")]
    return next((c for c in candidates if c != root and _holds_tree(c)), None)


def collect(layout: Layout) -> MemoryRootEvidence:
    if os.path.isdir(layout.memory):
        return MemoryRootEvidence(EvidenceStatus.OK, layout.memory)
    return MemoryRootEvidence(EvidenceStatus.MISSING, layout.memory, nearby_tree(layout.root))
