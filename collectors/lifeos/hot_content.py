"""Collect stage: what the hot-memory entries say, against the curation contract (seed 002 §2.4, §3). Called through health.judge.checks.

For PRINCIPAL_MEMORY.md and DA_MEMORY.md: the entries phrased as commands, shaped like a
prompt injection, repeated, or holding ephemera (collectors.lifeos.hot_patterns, hot_ephemera,
hot_duplicates), each with its line in the file and the rule it matched; the calendar
dates entries name (the rule compares them with the clock); and, for a file at or above the
reviewer's consolidate-first line (cortex.hot.hotmemory.CONSOLIDATE_AT), its entry count over
the health history (collectors.lifeos.hot_trend). Entries come from the one hot-memory parser
(cortex.hot.hotmemory), private spans stripped on the way in. The verdicts are remembered by
the file's digest (collectors.lifeos.hot_content_memo), so an unchanged file costs no detector. A missing or unreadable file
is left to the hot_memory collector, which reports it; here it is only noted.
"""
from __future__ import annotations

from collectors.evidence import EvidenceStatus, same_record
from collectors.lifeos.hot_entry_text import Entry, shown, split_entry
from collectors.lifeos.layout import Layout
from cortex.core.jscompat import js_trim
from cortex.hot.hotmemory import CONSOLIDATE_AT, MAX_ENTRIES

TYPE_CHECKING = False  # annotations only
if TYPE_CHECKING:
    from cortex.hot.hotmemory import ParsedMemoryFile

MAX_SHOWN = 5  # flagged entries listed per kind and file (evidence goes into every health-log line)
MAX_DATED = 10


class Flagged:
    """line: int; entry: str, as shown (invisible characters spelt out, clipped); rule: str, what matched;
    first_line: int | None, for a duplicate the line of the entry it repeats.
    """

    __slots__ = ("line", "entry", "rule", "first_line")

    def __init__(self, line, entry, rule, first_line=None) -> None:
        self.line, self.entry, self.rule, self.first_line = line, entry, rule, first_line

    __eq__ = same_record  # compared field by field (resumed evidence against a full read)


class Flags:
    """total: int; shown: tuple[Flagged, ...], the first MAX_SHOWN in file order."""

    __slots__ = ("total", "shown")

    def __init__(self, total=0, shown=()) -> None:
        self.total, self.shown = total, shown

    __eq__ = same_record  # compared field by field (resumed evidence against a full read)


class Dated:
    """line: int; entry: str, as shown; dates: tuple[str, ...], `YYYY-MM-DD` or `--MM-DD`."""

    __slots__ = ("line", "entry", "dates")

    def __init__(self, line, entry, dates) -> None:
        self.line, self.entry, self.dates = line, entry, dates

    __eq__ = same_record  # compared field by field (resumed evidence against a full read)


class HotContentFile:
    """label: str; file: FileState; entries: int | None, valid entries (what counts against the cap); cap_entries:
    int | None; imperative, injection, duplicates, ephemeral: Flags; dated: tuple[Dated, ...]; trend:
    tuple[TrendPoint, ...], oldest first (only near the cap).
    """

    __slots__ = ("label", "file", "entries", "cap_entries", "imperative", "injection", "duplicates", "ephemeral",
                 "dated", "trend")

    def __init__(self, label, file, entries=None, cap_entries=None, imperative=Flags(), injection=Flags(),
                 duplicates=Flags(), ephemeral=Flags(), dated=(), trend=()) -> None:
        self.label, self.file, self.entries, self.cap_entries = label, file, entries, cap_entries
        self.imperative, self.injection, self.duplicates, self.ephemeral = imperative, injection, duplicates, ephemeral
        self.dated, self.trend = dated, trend

    __eq__ = same_record  # compared field by field (resumed evidence against a full read)


class HotContentEvidence:
    """status: EvidenceStatus; consolidate_at: int, the reviewer's consolidate-first line; files: tuple[HotContentFile,
    ...]."""

    __slots__ = ("status", "consolidate_at", "files")

    def __init__(self, status, consolidate_at, files) -> None:
        self.status, self.consolidate_at, self.files = status, consolidate_at, files

    __eq__ = same_record  # compared field by field (resumed evidence against a full read)


def numbered_entries(text: str, parsed: ParsedMemoryFile) -> list[tuple[int, str]]:
    """The parser's entries (`parsed`, of `text`), each as (the 1-based line it first appears on, its text)."""
    offset = parsed.frontmatter.count("\n")
    lines: dict[str, int] = {}
    for number, line in enumerate(text.split("\n")[offset:], offset + 1):
        lines.setdefault(js_trim(line), number)
    return [(lines.get(entry, 0), entry) for entry in parsed.entries]


def verdicts(entries: list[Entry]) -> dict:
    """What the detectors say of one file's entries, as plain data (what the memo keeps): per kind [total, [[line,
    rule, first line or None], ...]] (the first MAX_SHOWN), and "dated": [[line, [date, ...]], ...]."""
    from collectors.lifeos.hot_duplicates import duplicates
    from collectors.lifeos.hot_ephemera import dates, ephemeral
    from collectors.lifeos.hot_patterns import imperative, injection

    found: dict[str, list] = {"imperative": [], "injection": [], "ephemeral": []}
    dated: list = []
    for entry in entries:
        for kind, detect in (("imperative", imperative), ("injection", injection), ("ephemeral", ephemeral)):
            rule = detect(entry)
            if rule:
                found[kind].append([entry.line, rule, None])
        named = dates(entry)
        if named and len(dated) < MAX_DATED:
            dated.append([entry.line, list(named)])
    found["duplicates"] = [[item.entry.line, item.reason, item.first.line] for item in duplicates(entries)]
    judged = {kind: [len(rows), rows[:MAX_SHOWN]] for kind, rows in found.items()}
    judged["dated"] = dated
    return judged


def judged_fields(judged: dict, entries: list[tuple[int, str]]) -> dict:
    """The evidence fields of the verdicts, each entry shown from the file as read now."""
    text = dict(entries)

    def flags(kind: str) -> Flags:
        total, rows = judged[kind]
        return Flags(total, tuple(Flagged(line, shown(text.get(line, "")), rule, first) for line, rule, first in rows))

    return dict(imperative=flags("imperative"), injection=flags("injection"), duplicates=flags("duplicates"),
                ephemeral=flags("ephemeral"),
                dated=tuple(Dated(line, shown(text.get(line, "")), tuple(named)) for line, named in judged["dated"]))


def judge_file(path: str, text: str, entries: list[tuple[int, str]], cursors: str | None) -> dict:
    """The verdicts from the memo when it knows this text, else from the detectors (and then remembered): only they
    need the entries taken apart (collectors.lifeos.hot_entry_text.split_entry)."""
    from collectors.lifeos import hot_content_memo as memo

    key, where = memo.memo_key(text), memo.where(cursors, path)
    judged = memo.load(where, path, key)
    known = {line for line, _text in entries}
    if judged is None or any(line not in known for line in _lines(judged)):
        judged = verdicts([split_entry(line, entry) for line, entry in entries])
        memo.save(where, path, key, judged)
    return judged_fields(judged, entries)


def _lines(judged: dict) -> list[int]:
    return [row[0] for kind in ("imperative", "injection", "duplicates", "ephemeral") for row in judged[kind][1]] + [
        row[0] for row in judged["dated"]]


def read_file(label: str, path: str, layout: Layout) -> HotContentFile:
    state, text, parsed, validation = layout.hot_texts[path]
    if text is None:
        return HotContentFile(label, state)
    entries = numbered_entries(text, parsed)
    valid = len(validation.accepted)  # what counts against the cap
    trend = ()
    if valid >= CONSOLIDATE_AT:
        from collectors.lifeos.hot_trend import entry_trend

        trend = entry_trend(layout.health_log, label, layout.memory)
    return HotContentFile(label, state, valid, MAX_ENTRIES, trend=trend,
                          **judge_file(path, text, entries, layout.cursors))


def collect(layout: Layout) -> HotContentEvidence:
    files = tuple(read_file(label, path, layout) for label, path in layout.hot_files)
    worst = next((f.file.status for f in files if f.file.status is not EvidenceStatus.OK), EvidenceStatus.OK)
    return HotContentEvidence(worst, CONSOLIDATE_AT, files)
