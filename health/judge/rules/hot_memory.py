"""Evaluate stage rule: hot-memory files. Used by the evaluator through the check list (health.judge.checks).

A missing or unreadable hot file, or corrupt markers, means the assistant may load nothing:
critical. Invalid on-disk entries would be erased by the next curation write: warn. So would
hand-edited lines of the entry block that are not entries at all: warn, by line and rule.
"""
from __future__ import annotations

from collectors.lifeos.hot_memory import HotFile, HotMemoryEvidence
from health.judge.catalogue.hot_memory import (CAP_OK, CAP_PRESSURE, ENTRIES_VALID, HOT_ENTRIES_UNPARSED, MARKERS_CORRUPT,
                                         MARKERS_OK, MARKERS_UNREADABLE, MEMORY_MISSING, MEMORY_PRESENT,
                                         PENDING_SILENT_LOSS)
from health.judge.model import EvidenceStatus, Finding, as_json
from health.judge.rules import Context

TYPE_CHECKING = False  # annotations only: collections.abc imports collections (~7M instructions)
if TYPE_CHECKING:
    from collections.abc import Iterator

FILE_NAMES = {"principal": "PRINCIPAL_MEMORY.md", "da": "DA_MEMORY.md"}


def judge(ev: HotMemoryEvidence, ctx: Context) -> Iterator[Finding]:
    for hot in ev.files:
        yield from judge_file(hot, ctx)


def judge_file(hot: HotFile, ctx: Context) -> Iterator[Finding]:
    label, path = hot.label, hot.file.path
    name = FILE_NAMES.get(label, path)
    if hot.file.status is EvidenceStatus.MISSING:
        yield MEMORY_MISSING.at(label, message=f"{name} missing.", path=path)
        return
    if hot.file.status is not EvidenceStatus.OK:
        yield MARKERS_UNREADABLE.at(
            label, message=f"{name} cannot be read: {hot.file.reason}.",
            path=path, reason=hot.file.reason)
        return
    yield MEMORY_PRESENT.at(label, message=f"{name} present.", path=path)
    markers = hot.markers
    if markers.ok:
        yield MARKERS_OK.at(label, message=f"{label} memory markers well-formed (1 BEGIN, 1 END, in order).")
    else:
        yield MARKERS_CORRUPT.at(
            label, message=f"{label} memory markers malformed ({markers.begins} BEGIN, {markers.ends} END"
            f"{', END before BEGIN' if markers.inverted else ''}): readers may load nothing.",
            begins=markers.begins, ends=markers.ends, inverted=markers.inverted, path=path)
    if hot.dropped_total:
        one = hot.dropped_total == 1
        yield PENDING_SILENT_LOSS.at(
            label, message=f"{label} memory has {hot.dropped_total} on-disk "
            f"entr{'y that fails' if one else 'ies that fail'} "
            f"validation: the next curation write erases {'it' if one else 'them'} silently.",
            dropped=as_json(hot.dropped), total=hot.dropped_total, path=path)
    if hot.unparsed_total:
        yield unparsed(hot, name, path)
    if not hot.dropped_total and not hot.unparsed_total:
        yield ENTRIES_VALID.at(label, message=f"Every {label} memory entry is valid.")
    cap = ctx.thresholds["cap_pressure"]
    where = dict(measured=hot.valid_entries, threshold=cap, unit="count", cap_entries=hot.cap_entries)
    if hot.valid_entries >= cap:
        yield CAP_PRESSURE.at(
            label, message=f"{label} memory at {hot.valid_entries}/{hot.cap_entries}: the next curation must "
            "consolidate.",
            **where)
    else:
        yield CAP_OK.at(label, message=f"{label} memory has headroom ({hot.valid_entries}/{hot.cap_entries}).", **where)


def unparsed(hot: HotFile, name: str, path: str) -> Finding:
    """Lines between the markers that are no entry: the next write drops them (recorded, but gone from the file)."""
    listed = "; ".join(f"line {item.line}: {item.reason}" for item in hot.unparsed)
    more = hot.unparsed_total - len(hot.unparsed)
    return HOT_ENTRIES_UNPARSED.at(
        name, message=f"{name} has {hot.unparsed_total} line(s) between the entry markers that are not entries "
        f"({listed}"
        f"{f'; and {more} more' if more > 0 else ''}): the assistant does not load them and the next write "
        "drops these lines.", lines=[{"line": item.line, "rule": item.reason} for item in hot.unparsed],
        total=hot.unparsed_total, path=path,
        label=hot.label)
