"""Collect stage (Dense Context): each folder's generated index.md against its atoms. Called through the layout's collector list.

The table an atom belongs in follows from its status prefix (seed and upstream generator):
invalidated → invalid table; superseded, deprecated, refined, stale → superseded/deprecated
table; anything else (active, valid, partial, challenged, corrected, empty, unknown) →
active table. Only membership and placement are compared, never formatting, column layout,
order or the `Last updated` line. A table is recognised by its heading (`## Active …`,
`## Invalidated …`, `## Superseded / Deprecated …`, and the seed's Chinese names); a row by
an atom id at the start of its first cell. An index with atom rows but no recognised table
is reported as unrecognised (its format is unknown), never as current.
"""
from __future__ import annotations

import os
import re
from collections import namedtuple

from collectors.dense_context.layout import DenseLayout
from collectors.dense_context.tree import MAX_LISTED, Project, analysed, regular_file, scanned_tree
from collectors.readers.fsprobe import describe_os_error
from cortex.core.privacy import strip_private_content
from cortex.core.safeio import UnsafeFile, read_bounded
from collectors.evidence import EvidenceStatus

MAX_INDEX_BYTES = 8 << 20
MAX_ROWS_SHOWN = 20
INACTIVE = frozenset(["superseded", "deprecated", "refined", "stale"])
_HEADING = re.compile(r"#{1,6}\s+(.*)")
_ROW_ID = re.compile(r"\|\s*(?:\*\*|\[|`)?\s*(EXP-\d+[a-z]?|K-\d+|PAT-\d+)(?![\w-])")
_TABLES = (("active", ("active", "活跃")), ("invalid", ("invalid", "无效")),
           ("inactive", ("superseded", "deprecated", "inactive", "取代", "弃用")))


def table_for(status: str) -> str:
    prefix = status.split(":", 1)[0].strip()
    return "invalid" if prefix == "invalidated" else "inactive" if prefix in INACTIVE else "active"


def heading_table(text: str) -> str | None:
    lowered = text.strip().lower()
    for table, starts in _TABLES:
        if lowered.startswith(starts):
            return table
    return None


class IndexRows(namedtuple("IndexRows", "rows recognised")):
    """One index.md read. rows: dict (atom id → [(table | None, line)]); recognised: bool (a table heading known)."""

    __slots__ = ()


def read_rows(text: str) -> IndexRows:
    rows: dict[str, list] = {}
    table, recognised = None, False
    for number, line in enumerate(text.splitlines(), 1):
        heading = _HEADING.match(line)
        if heading:
            table = heading_table(heading.group(1))
            recognised = recognised or table is not None
            continue
        m = _ROW_ID.match(line.lstrip())
        if m:
            rows.setdefault(m.group(1), []).append((table, number))
    return IndexRows(rows, recognised)


class FolderDrift(namedtuple("FolderDrift", "path index state missing extra misplaced counts reason",
                             defaults=((), (), (), (0, 0, 0), None))):
    """One atom folder whose index.md does not match its atoms.

    path: str (<project>/<folder>); index: str (under CONTEXT); state: str (stale | missing | unrecognised |
    unreadable); missing: tuple of (id, table it belongs in); extra: tuple of (id, index line), rows for no
    atom; misplaced: tuple of (id, line, table found, table expected); counts: (missing, extra, misplaced),
    exact; reason: str | None.
    """

    __slots__ = ()


class IndexEvidence(namedtuple("IndexEvidence", "status folders current drift drift_total")):
    """Every index.

    status: EvidenceStatus; folders: int (atom folders compared); current, drift_total: int;
    drift: tuple[FolderDrift, ...].
    """

    __slots__ = ()


def compare(project: Project, folder: str, layout: DenseLayout) -> FolderDrift | None:
    atoms = [atom for atom in project.atoms if atom.folder == folder and atom.id]
    path = os.path.join(project.path, folder, "index.md")
    base = dict(path=f"{project.name}/{folder}", index=layout.rel(path))
    why = regular_file(path)
    if why == "missing":
        return FolderDrift(state="missing", **base) if atoms else None
    if why:
        return FolderDrift(state="unreadable", reason=why, **base)
    try:
        text = strip_private_content(read_bounded(path, MAX_INDEX_BYTES).decode("utf-8"))
    except (UnsafeFile, UnicodeDecodeError) as error:
        return FolderDrift(state="unreadable", reason=str(error), **base)
    except OSError as error:
        return FolderDrift(state="unreadable", reason=describe_os_error(error), **base)
    found = read_rows(text)
    if found.rows and not found.recognised:
        return FolderDrift(state="unrecognised", reason="atom rows but no Active / Superseded / Invalidated table "
                           "heading: an index format this auditor does not know", **base)
    expected = {atom.id: table_for(atom.status) for atom in atoms}
    missing = [(atom_id, table) for atom_id, table in expected.items() if atom_id not in found.rows]
    extra = [(atom_id, places[0][1]) for atom_id, places in found.rows.items() if atom_id not in expected]
    misplaced = [(atom_id, line, table or "none", expected[atom_id]) for atom_id, places in found.rows.items()
                 if atom_id in expected for table, line in places if table != expected[atom_id]]
    if not (missing or extra or misplaced):
        return None
    return FolderDrift(state="stale", missing=tuple(missing[:MAX_ROWS_SHOWN]), extra=tuple(extra[:MAX_ROWS_SHOWN]),
                       misplaced=tuple(misplaced[:MAX_ROWS_SHOWN]), counts=(len(missing), len(extra), len(misplaced)),
                       **base)


def project_drift(layout: DenseLayout, project: Project) -> list[FolderDrift | None]:
    return [compare(project, folder, layout) for folder in project.folders]


def collect(layout: DenseLayout) -> IndexEvidence:
    drift: list[FolderDrift] = []
    compared = total = 0
    for _, folders in analysed(layout, "dc_index"):
        for found in folders:
            compared += 1
            if found is not None:
                total += 1
                if total <= MAX_LISTED:
                    drift.append(found)
    status = EvidenceStatus.UNREADABLE if scanned_tree(layout).unreadable else EvidenceStatus.OK
    return IndexEvidence(status, compared, compared - total, tuple(drift), total)
