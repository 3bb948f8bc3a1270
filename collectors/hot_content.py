"""Collect stage: what the hot-memory entries say, against the curation contract (seed 002 §2.4, §3). Called through health.checks.

For PRINCIPAL_MEMORY.md and DA_MEMORY.md: the entries phrased as commands, shaped like a
prompt injection, repeated, or holding ephemera (collectors.hot_patterns, hot_ephemera,
hot_duplicates), each with its line in the file and the rule it matched; the calendar
dates entries name (the rule compares them with the clock); and, for a file at or above the
reviewer's consolidate-first line (cortex.hot.hotmemory.CONSOLIDATE_AT), its entry count over
the health history (collectors.hot_trend). Entries come from the one hot-memory parser
(cortex.hot.hotmemory), private spans stripped on the way in. A missing or unreadable file
is left to the hot_memory collector, which reports it; here it is only noted.
"""
from __future__ import annotations

from collections import namedtuple

from collectors.evidence import EvidenceStatus, FileState
from collectors.fsprobe import probe_file
from collectors.hot_entry_text import Entry, shown, split_entry
from collectors.layout import Layout
from cortex.core.jscompat import js_trim
from cortex.core.safeio import UnsafeFile, read_bounded
from cortex.hot.hotinput import hot_text
from cortex.hot.hotmemory import CONSOLIDATE_AT, MAX_ENTRIES, parse_memory_content, validate_entries

MAX_HOT_BYTES = 1 << 20  # as the hot_memory collector reads them
MAX_SHOWN = 5  # flagged entries listed per kind and file (evidence goes into every health-log line)
MAX_DATED = 10


class Flagged(namedtuple("Flagged", "line entry rule first_line", defaults=(None,))):
    """line: int; entry: str, as shown (invisible characters spelt out, clipped); rule: str, what matched;
    first_line: int | None, for a duplicate the line of the entry it repeats.
    """

    __slots__ = ()


class Flags(namedtuple("Flags", "total shown", defaults=(0, ()))):
    """total: int; shown: tuple[Flagged, ...], the first MAX_SHOWN in file order."""

    __slots__ = ()


class Dated(namedtuple("Dated", "line entry dates")):
    """line: int; entry: str, as shown; dates: tuple[str, ...], `YYYY-MM-DD` or `--MM-DD`."""

    __slots__ = ()


class HotContentFile(namedtuple(
        "HotContentFile", "label file entries cap_entries imperative injection duplicates ephemeral dated trend",
        defaults=(None, None, Flags(), Flags(), Flags(), Flags(), (), ()))):
    """label: str; file: FileState; entries: int | None, valid entries (what counts against the cap); cap_entries: int | None; imperative, injection, duplicates,
    ephemeral: Flags; dated: tuple[Dated, ...]; trend: tuple[TrendPoint, ...], oldest first (only near the cap).
    """

    __slots__ = ()


class HotContentEvidence(namedtuple("HotContentEvidence", "status consolidate_at files")):
    """status: EvidenceStatus; consolidate_at: int, the reviewer's consolidate-first line; files: tuple[HotContentFile,
    ...]."""

    __slots__ = ()


def numbered_entries(text: str) -> list[Entry]:
    """The parser's entries, each with the 1-based line it first appears on."""
    parsed = parse_memory_content(text)
    offset = parsed.frontmatter.count("\n")
    lines: dict[str, int] = {}
    for number, line in enumerate(text.split("\n")[offset:], offset + 1):
        lines.setdefault(js_trim(line), number)
    return [split_entry(lines.get(entry, 0), entry) for entry in parsed.entries]


def _flags(found: list[Flagged]) -> Flags:
    return Flags(len(found), tuple(found[:MAX_SHOWN]))


def judge_entries(entries: list[Entry]) -> dict:
    """The flagged entries of one file by kind, and the dated ones."""
    from collectors.hot_duplicates import duplicates
    from collectors.hot_ephemera import dates, ephemeral
    from collectors.hot_patterns import imperative, injection

    kinds: dict[str, list[Flagged]] = {"imperative": [], "injection": [], "ephemeral": []}
    dated: list[Dated] = []
    for entry in entries:
        for kind, detect in (("imperative", imperative), ("injection", injection), ("ephemeral", ephemeral)):
            rule = detect(entry)
            if rule:
                kinds[kind].append(Flagged(entry.line, shown(entry.text), rule))
        named = dates(entry)
        if named and len(dated) < MAX_DATED:
            dated.append(Dated(entry.line, shown(entry.text), named))
    repeated = [Flagged(item.entry.line, shown(item.entry.text), item.reason, item.first.line)
                for item in duplicates(entries)]
    return dict(imperative=_flags(kinds["imperative"]), injection=_flags(kinds["injection"]),
                duplicates=_flags(repeated), ephemeral=_flags(kinds["ephemeral"]), dated=tuple(dated))


def read_file(label: str, path: str, layout: Layout) -> HotContentFile:
    state = probe_file(path)
    if state.status is not EvidenceStatus.OK:
        return HotContentFile(label, state)
    try:
        text = hot_text(read_bounded(path, MAX_HOT_BYTES))  # private spans stripped on the way in
    except UnicodeDecodeError as error:
        return HotContentFile(label, FileState(path, EvidenceStatus.UNREADABLE, f"invalid UTF-8 at byte {error.start}"))
    except (UnsafeFile, OSError) as error:
        return HotContentFile(label, FileState(path, EvidenceStatus.UNREADABLE, str(error)))
    entries = numbered_entries(text)
    valid = len(validate_entries([entry.text for entry in entries]).accepted)  # what counts against the cap
    trend = ()
    if valid >= CONSOLIDATE_AT:
        from collectors.hot_trend import entry_trend

        trend = entry_trend(layout.health_log, label, layout.memory)
    return HotContentFile(label, state, valid, MAX_ENTRIES, trend=trend, **judge_entries(entries))


def collect(layout: Layout) -> HotContentEvidence:
    files = tuple(read_file(label, path, layout) for label, path in layout.hot_files)
    worst = next((f.file.status for f in files if f.file.status is not EvidenceStatus.OK), EvidenceStatus.OK)
    return HotContentEvidence(worst, CONSOLIDATE_AT, files)
