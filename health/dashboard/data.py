"""Dashboard stage: what the pages show, read from the end of memory-health.jsonl on each request. Called by
health.dashboard.pages.

The window is the last N lines, read backwards within the byte budget `history` uses, so the
cost does not grow with the log; lines already parsed by an earlier request (same bytes) are
not parsed again. Each well-formed line becomes the typed report once (reports.report.from_document,
each id joined to its catalogue entry), cached with the parse. Series are taken from the
reports' evidence through reports.measurements, the same numbers Prometheus and Nagios get. Per-check history turns
each id's presence run by run into episodes (when it started, how long it lasted) and counts
its state changes (flaps).
"""
from __future__ import annotations

import threading
from dataclasses import dataclass, field

from health.judge.catalogue.find import lookup
from collectors.healthlog.runs import History, Run, read_history
from collectors.healthlog.read import parse_report
from reports.measurements import measurements
from reports.report import Report, from_document



@dataclass
class Window:
    log: str
    history: History | None  # None when no run was recorded yet
    problem: str | None = None  # why the log cannot be read
    typed: dict[int, Report] = field(default_factory=dict)  # position -> typed report of each well-formed run

    @property
    def reports(self) -> list[tuple[int, Report]]:
        """(time ms, typed report) of the well-formed runs, oldest first."""
        if self.history is None:
            return []
        found = [self.typed.get(run.position) or from_document(run.report, lookup=lookup)
                 for run in self.history.runs if run.report]
        return [(report.now_ms, report) for report in found]

    @property
    def newest(self) -> Report | None:
        found = self.reports
        return found[-1][1] if found else None

    @property
    def malformed(self) -> list[Run]:
        return [run for run in self.history.runs if run.report is None] if self.history else []


class ParsedLines:
    """Parsed reports by their exact line bytes: a request re-reads the window but parses only lines it has not seen."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._lock = threading.Lock()
        self._parsed: dict[bytes, tuple[dict | str, Report | None]] = {}
        self._by_identity: dict[int, tuple[dict | str, Report | None]] = {}

    def __call__(self, raw: bytes | None) -> dict | str:
        return self.entry(raw)[0]

    def entry(self, raw: bytes | None) -> tuple[dict | str, Report | None]:
        """(the parsed line or why it is not a report, its typed report when it is one)."""
        if raw is None:
            return parse_report(raw), None
        with self._lock:
            found = self._parsed.get(raw)
        if found is None:
            parsed = parse_report(raw)
            found = (parsed, None)
            if isinstance(parsed, dict):
                try:
                    found = (parsed, from_document(parsed, lookup=lookup))
                except Exception as error:  # noqa: BLE001 - a shape the reader let through is still a bad line
                    found = (f"not a report this dashboard can show ({type(error).__name__})", None)
            with self._lock:
                if len(self._parsed) >= self.limit:
                    self._parsed.clear()  # simple and bounded; the next requests refill it
                    self._by_identity.clear()
                self._parsed[raw] = found
                if found[1] is not None:
                    self._by_identity[id(parsed)] = found  # holds `parsed`, so its id is not reused meanwhile
        return found

    def typed(self, parsed: dict | None) -> Report | None:
        """The typed report this memo built for `parsed` (the very dict it returned), if any."""
        if parsed is None:
            return None
        with self._lock:
            found = self._by_identity.get(id(parsed))
        return found[1] if found is not None and found[0] is parsed else None


def load_window(log: str, last: int, parse: ParsedLines | None = None) -> Window:
    """The newest `last` lines of the log, read as `history` reads them (same byte budget)."""
    parse = parse or ParsedLines(last)
    try:
        history = read_history(log, last, parse)
    except FileNotFoundError:
        return Window(log, None)
    except OSError as error:
        return Window(log, None, f"cannot read the health log: {error.strerror or error}")
    typed = {run.position: report for run in history.runs if (report := parse.typed(run.report)) is not None}
    return Window(log, history, typed=typed)


def series(window: Window) -> dict[str, list[tuple[int, float | None, float | None, float | None]]]:
    """name (with its label) -> [(time ms, value or None, warn threshold, maximum)] over the window."""
    table: dict[str, list] = {}
    reports = window.reports
    for index, (at, report) in enumerate(reports):
        seen = set()
        for item in measurements(report):
            key = item.name + "".join(f":{value}" for _, value in item.labels)
            if key not in table:  # a series that starts later: gaps before it
                table[key] = [(t, None, None, None) for t, _ in reports[:index]]
            table[key].append((at, item.value, item.warn, item.maximum))
            seen.add(key)
        for key, points in table.items():
            if key not in seen:
                points.append((at, None, None, None))
    return table


@dataclass
class Episode:
    severity: str
    start: str  # ts of the first run it was seen in
    end: str | None  # ts of the first run it was gone again; None while it lasts
    duration_ms: int | None
    runs: int


@dataclass
class CheckHistory:
    id: str
    current: str  # ok | warn | critical | absent
    flaps: int
    episodes: list[Episode] = field(default_factory=list)


def check_histories(window: Window) -> list[CheckHistory]:
    """Every id seen in the window (problems and ok ids), worst and most recent first."""
    reports = window.reports
    states: dict[str, list[str | None]] = {}
    for index, (_, report) in enumerate(reports):
        now = {f.id: f.severity for f in report.findings}
        now.update({item: "ok" for item in report.ok_summary if isinstance(item, str)})
        for finding_id in now.keys() | states.keys():
            states.setdefault(finding_id, [None] * index).append(now.get(finding_id))
    result = []
    for finding_id, row in states.items():
        episodes, flaps, open_episode, started_ms = [], 0, None, 0
        for index, state in enumerate(row):
            failing = state in ("warn", "critical")
            if index and (row[index - 1] in ("warn", "critical")) != failing:
                flaps += 1
            if failing and open_episode is None:
                open_episode, started_ms = Episode(state, reports[index][1].ts, None, None, 0), reports[index][0]
                episodes.append(open_episode)
            if failing:
                open_episode.runs += 1
                if state == "critical":
                    open_episode.severity = "critical"
            elif open_episode is not None:
                open_episode.end = reports[index][1].ts
                open_episode.duration_ms = reports[index][0] - started_ms
                open_episode = None
        if open_episode is not None:
            open_episode.duration_ms = reports[-1][0] - started_ms
        result.append(CheckHistory(finding_id, row[-1] or "absent", flaps, episodes))
    rank = {"critical": 0, "warn": 1, "ok": 3, "absent": 4}
    return sorted(result, key=lambda c: (rank[c.current] if c.episodes or c.current != "ok" else 2, -c.flaps, c.id))
