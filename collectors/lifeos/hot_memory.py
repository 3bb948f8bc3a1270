"""Collect stage: hot-memory evidence for PRINCIPAL_MEMORY.md and DA_MEMORY.md.

Called through the check list (health.judge.checks). Parsing is cortex.hot.hotmemory's (the one shared parser), on
the one reading of each file the audit makes (collectors.readers.hotfile, Layout.hot_texts); this module keeps
counts plus a bounded list of the entries the next curation write would silently drop, and of the lines of the
entry block that are not entries at all (hand edits: their line and the rule they break, never their text).
"""
from __future__ import annotations

from collectors.lifeos.layout import Layout
from collectors.readers.text import clip
from cortex.hot.hotmemory import check_markers, diagnostics as hot_diagnostics
from collectors.evidence import EvidenceStatus, FileState, MalformedLine
from cortex.core.numbers import finite_number

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator, Mapping
    from typing import Any

    from collectors.metric import Limit, Metric

MAX_DROPPED_LISTED = 10


class Markers:
    """begins: int; ends: int; inverted: bool; ok: bool."""

    __slots__ = ("begins", "ends", "inverted", "ok")

    def __init__(self, begins, ends, inverted, ok) -> None:
        self.begins, self.ends, self.inverted, self.ok = begins, ends, inverted, ok


class DroppedEntry:
    """entry: str; reason: str."""

    __slots__ = ("entry", "reason")

    def __init__(self, entry, reason) -> None:
        self.entry, self.reason = entry, reason


class HotFile:
    """label: str; file: FileState; markers: Markers | None; valid_entries: int | None; cap_entries: int | None;
    chars_used: int | None; dropped: tuple[DroppedEntry, ...]; dropped_total: int; unparsed: tuple[MalformedLine,
    ...], the first lines of the entry block that are not entries (line, and the rule broken as reason);
    unparsed_total: int.
    """

    __slots__ = ("label", "file", "markers", "valid_entries", "cap_entries", "chars_used", "dropped", "dropped_total",
                 "unparsed", "unparsed_total")

    def __init__(self, label, file, markers=None, valid_entries=None, cap_entries=None, chars_used=None, dropped=(),
                 dropped_total=0, unparsed=(), unparsed_total=0) -> None:
        self.label, self.file, self.markers, self.valid_entries = label, file, markers, valid_entries
        self.cap_entries, self.chars_used, self.dropped = cap_entries, chars_used, dropped
        self.dropped_total, self.unparsed, self.unparsed_total = dropped_total, unparsed, unparsed_total


class HotMemoryEvidence:
    """status: EvidenceStatus; files: tuple[HotFile, ...]."""

    __slots__ = ("status", "files")

    def __init__(self, status, files) -> None:
        self.status, self.files = status, files


def read_hot_file(label: str, state: FileState, text: str | None, parsed, validation) -> HotFile:
    if text is None:
        return HotFile(label, state)
    check = check_markers(text)
    diagnostics = hot_diagnostics(parsed, validation)
    dropped = [row for row in diagnostics["dropped_invalid"] if row["reason"] != "unparsed"]
    unparsed = [row for row in diagnostics["dropped_invalid"] if row["reason"] == "unparsed"]
    return HotFile(
        label, state, Markers(check.begins, check.ends, check.inverted, check.ok), diagnostics["count"],
        diagnostics["cap_entries"], diagnostics["chars_used"],
        tuple(DroppedEntry(clip(row["entry"]), row["reason"]) for row in dropped[:MAX_DROPPED_LISTED]), len(dropped),
        tuple(MalformedLine(row["line"], row["rule"]) for row in unparsed[:MAX_DROPPED_LISTED]), len(unparsed),
    )


def collect(layout: Layout) -> HotMemoryEvidence:
    files = tuple(read_hot_file(label, *layout.hot_texts[path]) for label, path in layout.hot_files)
    worst = next((f.file.status for f in files if f.file.status is not EvidenceStatus.OK), EvidenceStatus.OK)
    return HotMemoryEvidence(worst, files)


# What this evidence gives a monitoring system (collectors.metric_table lists this function).
def metrics(evidence: Mapping[str, Any], now_ms: int | None, limit: Limit) -> Iterator[Metric]:
    """The valid entries of each hot-memory file, labelled by file, against cap_pressure and up to its cap."""
    from collectors.metric import Metric, json_object  # only a monitoring format asks (not JSON, not text)

    for hot in map(json_object, evidence.get("files") or ()):
        if finite_number(hot.get("valid_entries")):
            cap = hot.get("cap_entries")
            yield Metric("hot_memory_entries", "Valid entries in a hot-memory file (the cap is 48).",
                         hot["valid_entries"], "count", (("file", str(hot.get("label"))),),
                         warn=limit("cap_pressure"), maximum=cap if finite_number(cap) else None)
