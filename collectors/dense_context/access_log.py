"""Collect stage (Dense Context): each project's access log, written by the memory-ref-tracker hook. Called through the layout's collector list.

Row shape, as the upstream hook (fangxm233/cortex-agent, hooks/memory-ref-tracker.mjs) writes
it: exactly {"file": "<EXP-NNN|K-NNN|PAT-NNN>.md" or "_directory_search", "tool": "Read" |
"Grep", "ts": ISO 8601}. Any other row is malformed: counted and named by line, never
skipped. Refs are rows per atom file name, as the index generator counts them. Atom ages
are measured against the audit's clock (layout.now_ms): stale candidates are active atoms
older than 30 days and never referenced, cold ones unreferenced and older than 14 days.
"""
from __future__ import annotations

import os
import re
from collections import Counter, namedtuple

from collectors.dense_context.index_drift import table_for
from collectors.dense_context.layout import DenseLayout
from collectors.dense_context.tree import Project, analysed
from collectors.readers.jsonl import MAX_REPORTED_LINES
from collectors.readers.cursors import scan_log
from collectors.readers.text import clip
from cortex.core.timestamps import parse_timestamp_ms
from collectors.evidence import EvidenceStatus, MalformedLine

DAY_MS = 86_400_000
STALE_AGE_MS = 30 * DAY_MS
COLD_AGE_MS = 14 * DAY_MS
ROW_KEYS = frozenset(["file", "tool", "ts"])
TOOLS = frozenset(["Read", "Grep"])
_FILE = re.compile(r"(?:EXP-\d+[a-z]?|K-\d+|PAT-\d+)\.md\Z|_directory_search\Z")
# The hook's exact JSON.stringify output: no escapes are possible, so the row is certain without a decoder.
_HOOK_ROW = re.compile(rb'\{"file":"((?:EXP-\d+[a-z]?|K-\d+|PAT-\d+)\.md|_directory_search)","tool":"(Read|Grep)",'
                       rb'"ts":"([0-9T:.Z+-]{10,35})"\}\s*\Z')


def hook_row(raw: bytes) -> dict | None:
    m = _HOOK_ROW.match(raw)
    return None if m is None else {"file": m.group(1).decode(), "tool": m.group(2).decode(), "ts": m.group(3).decode()}


class ProjectAccess(namedtuple("ProjectAccess", "project log state reason rows malformed malformed_total "
                                 "newest_row_ms newest_atom_ms active stale_candidates cold")):
    """One project's access log and the ages of its atoms.

    project: str; log: str (under CONTEXT); state: str (ok | missing | unreadable); reason: str | None;
    rows: int; malformed: tuple[MalformedLine, ...]; malformed_total: int; newest_row_ms: int | None;
    newest_atom_ms: int | None (newest atom `date`); active, stale_candidates, cold: int.
    """

    __slots__ = ()


class AccessEvidence(namedtuple("AccessEvidence", "status now_ms projects rows malformed_total stale_candidates "
                                                   "cold")):
    """Every project's access log.

    status: EvidenceStatus; now_ms: int | None; projects: tuple[ProjectAccess, ...]; rows, malformed_total,
    stale_candidates, cold: int (sums over the projects).
    """

    __slots__ = ()


def row_time(row: dict) -> int | str:
    """The row's ts in ms, or why the row is not in the upstream shape."""
    if row.keys() != ROW_KEYS:
        return f"keys must be exactly file, tool, ts (got {', '.join(sorted(map(str, row)))[:200]})"
    if not isinstance(row["file"], str) or not _FILE.match(row["file"]):
        return "file is not an atom file name or _directory_search"
    if row["tool"] not in TOOLS:
        return "tool is not Read or Grep"
    ts = parse_timestamp_ms(row["ts"])
    return "ts is not an ISO 8601 timestamp" if ts is None else ts


class References:
    """The aggregate (collectors.readers.cursors.Aggregate): refs per atom file, rows off the upstream shape, the newest ts."""

    key = "dc_access_log.references/1"

    def __init__(self) -> None:
        self.refs: Counter = Counter()
        self.bad: list[MalformedLine] = []
        self.bad_total = 0
        self.newest: int | None = None

    def rows(self, first_line: int, rows: list[dict]) -> None:
        for number, row in enumerate(rows, first_line):
            ts = row_time(row)
            if isinstance(ts, str):
                self.bad_total += 1
                if len(self.bad) < MAX_REPORTED_LINES:
                    self.bad.append(MalformedLine(number, clip(ts)))  # it may quote the row's keys
                continue
            self.refs[row["file"]] += 1
            if self.newest is None or ts > self.newest:
                self.newest = ts

    def state(self) -> dict:  # atom file names only (the shape check admits no other text)
        return {"refs": dict(self.refs), "bad": [[m.line, m.reason] for m in self.bad], "bad_total": self.bad_total,
                "newest": self.newest}

    def restore(self, state: dict) -> None:
        if not all(type(n) is int for n in state["refs"].values()) or type(state["bad_total"]) is not int \
                or not isinstance(state["newest"], (int, type(None))):
            raise TypeError("references")
        self.refs = Counter(state["refs"])
        self.bad = [MalformedLine(int(line), str(reason)) for line, reason in state["bad"]]
        self.bad_total, self.newest = state["bad_total"], state["newest"]


def read_log(layout: DenseLayout, project: Project) -> ProjectAccess:
    path = os.path.join(project.path, "_meta", "access-log.jsonl")
    dates = [atom.date_ms for atom in project.atoms if atom.date_ms is not None]
    active = [atom for atom in project.atoms if atom.id and table_for(atom.status) == "active"]
    if os.path.islink(os.path.dirname(path)):  # a symlink inside the tree is never followed, even within it
        return ProjectAccess(project.name, layout.rel(path), "unreadable", "_meta is a symlink (not followed)", 0, (),
                             0, None, max(dates, default=None), len(active), 0, 0)  # references unknown: none counted
    scanned, found = scan_log(path, References, anchor=project.path, cursors=layout.cursors, quick=hook_row)
    refs, bad, counts = found.refs, found.bad, {"bad": found.bad_total, "newest": found.newest}
    malformed = tuple(sorted(scanned.malformed + tuple(bad), key=lambda m: m.line)[:MAX_REPORTED_LINES])
    state = scanned.file.status.value if scanned.file.status in (EvidenceStatus.MISSING, EvidenceStatus.UNREADABLE) \
        else "ok"
    now = layout.now_ms
    unreferenced = [atom.date_ms for atom in active if refs[f"{atom.stem}.md"] == 0 and atom.date_ms is not None]
    stale = sum(1 for date in unreferenced if now is not None and now - date > STALE_AGE_MS)
    cold = sum(1 for date in unreferenced if now is not None and now - date > COLD_AGE_MS)
    return ProjectAccess(project.name, layout.rel(path), state, scanned.file.reason, scanned.rows - counts["bad"],
                         malformed, scanned.malformed_total + counts["bad"], counts["newest"],
                         max(dates, default=None), len(active), stale, cold)


def project_access(layout: DenseLayout, project: Project) -> ProjectAccess | None:
    if project.atoms or os.path.lexists(os.path.join(project.path, "_meta", "access-log.jsonl")):
        return read_log(layout, project)
    return None


def collect(layout: DenseLayout) -> AccessEvidence:
    found = tuple(result for _, result in analysed(layout, "dc_access_log") if result is not None)
    status = EvidenceStatus.UNREADABLE if any(p.state == "unreadable" for p in found) else EvidenceStatus.OK
    return AccessEvidence(status, layout.now_ms, found, sum(p.rows for p in found),
                          sum(p.malformed_total for p in found), sum(p.stale_candidates for p in found),
                          sum(p.cold for p in found))
