"""Collect stage (Dense Context): size of the capped governance files. Called through the layout's collector list.

Measures every AGENTS.md, STATUS.md and ISSUES.md at the places the seed puts them: CONTEXT,
its top-level folders, each project and each project folder (atom folders are not walked
file by file). Lines count newline-terminated lines plus a final unterminated one; bytes
are the file size. Reading is bounded: beyond MAX_READ the line count is a lower bound.
"""
from __future__ import annotations

import os
from collections import namedtuple

from collectors.dense_context.layout import DenseLayout
from collectors.dense_context.tree import is_dir, list_dir, regular_file
from collectors.readers.fsprobe import describe_os_error
from cortex.core.safeio import UnsafeFile, open_regular
from collectors.evidence import EvidenceStatus

CAPPED = {"AGENTS.md": "agents", "STATUS.md": "status", "ISSUES.md": "status"}
MAX_READ = 1 << 20


class CappedFile(namedtuple("CappedFile", "path kind lines bytes problem", defaults=(None,))):
    """One capped file's size.

    path: str (under CONTEXT); kind: str (agents | status: which pair of thresholds applies);
    lines, bytes: int | None; problem: str | None (why it could not be measured).
    """

    __slots__ = ()


class CapsEvidence(namedtuple("CapsEvidence", "status files")):
    """Every capped file. status: EvidenceStatus; files: tuple[CappedFile, ...]."""

    __slots__ = ()


def measure(path: str, rel: str, kind: str) -> CappedFile:
    why = regular_file(path)
    if why:
        return CappedFile(rel, kind, None, None, why)
    try:
        fd = open_regular(path)
    except (UnsafeFile, OSError) as error:
        return CappedFile(rel, kind, None, None, str(error) if isinstance(error, UnsafeFile) else describe_os_error(error))
    try:
        size = os.fstat(fd).st_size
        data = os.read(fd, MAX_READ)
    finally:
        os.close(fd)
    lines = data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)
    return CappedFile(rel, kind, lines, size)


def folders(layout: DenseLayout) -> list[str]:
    """CONTEXT, its top-level folders, every project and every folder of a project."""
    found = [layout.context]
    for entry in _dirs(layout.context, tree_root=True):
        found.append(entry.path)
        if entry.name == "projects":
            for project in _dirs(entry.path):
                found.append(project.path)
                found.extend(sub.path for sub in _dirs(project.path))
    return found


def _dirs(path: str, tree_root: bool = False) -> list[os.DirEntry]:
    entries = list_dir(path, tree_root=tree_root)
    return [] if isinstance(entries, str) else [e for e in entries if is_dir(e) and not e.name.startswith(".")]


def collect(layout: DenseLayout) -> CapsEvidence:
    if not os.path.isdir(layout.context):
        return CapsEvidence(EvidenceStatus.MISSING, ())
    files = []
    for folder in folders(layout):
        for name, kind in CAPPED.items():
            path = os.path.join(folder, name)
            if os.path.lexists(path):
                files.append(measure(path, layout.rel(path), kind))
    unreadable = any(item.problem for item in files)
    return CapsEvidence(EvidenceStatus.UNREADABLE if unreadable else EvidenceStatus.OK, tuple(files))
