"""Collect stage: each reviewer run's lifecycle (spawned by a fire, started, terminal row). Called through health.judge.checks.

Joins three logs by run id and time: O/reviewer-fires.jsonl (rows with `started: true` are
spawns), O/reviewer-starts.jsonl (the `started` row a run writes before inference: runId,
pid, host, ts) and O/reviewer-runs.jsonl (terminal rows). For a start without a terminal row
it measures whether the holder still lives (psutil, only then imported): alive, gone (no such
pid, a zombie, a reused pid) or unverifiable (another host, no pid). The rule decides.
"""
from __future__ import annotations

from collectors.readers.jsonl import scan_jsonl, tail_rows
from collectors.readers.cursors import scan_log
from collectors.lifeos.layout import Layout
from cortex import layout as contract
from collectors.readers.text import brief
from cortex.core.sha256 import blake2b
from cortex.liferows import spawn_at_ms, start_at_ms
from cortex.reviewrows import run_id_parts
from cortex.core.timestamps import parse_timestamp_ms
from collectors.evidence import FileState

STARTS_LOG = contract.REVIEWER_STARTS_LOG
FIRES_LOG = contract.REVIEWER_FIRES_LOG
RUNS_LOG = contract.REVIEWER_RUNS_LOG
KEPT_STARTS = 10
TAIL_ROWS = 200
DEFAULT_TIMEOUT_S = 180  # the reviewer's inference_timeout_seconds default


class Start:
    """run_id: str; at_ms: int; pid: object; host: object; terminal: bool, a terminal row with this runId exists;
    holder: str | None, alive | gone | unverifiable; None when terminal.
    """

    __slots__ = ("run_id", "at_ms", "pid", "host", "terminal", "holder")

    def __init__(self, run_id, at_ms, pid, host, terminal, holder) -> None:
        self.run_id, self.at_ms, self.pid, self.host, self.terminal = run_id, at_ms, pid, host, terminal
        self.holder = holder


class Spawn:
    """at_ms: int; pid: object."""

    __slots__ = ("at_ms", "pid")

    def __init__(self, at_ms, pid) -> None:
        self.at_ms, self.pid = at_ms, pid


class LifecycleEvidence:
    """status: EvidenceStatus, that of reviewer-starts.jsonl; starts_log: FileState; starts: tuple[Start, ...], newest
    first; newest_spawn: Spawn | None; inference_timeout_ms: int.
    """

    __slots__ = ("status", "starts_log", "starts", "newest_spawn", "inference_timeout_ms")

    def __init__(self, status, starts_log, starts, newest_spawn, inference_timeout_ms) -> None:
        self.status, self.starts_log, self.starts, self.newest_spawn = status, starts_log, starts, newest_spawn
        self.inference_timeout_ms = inference_timeout_ms


def tail_objects(path: str, anchor: str) -> tuple[FileState, list[dict]]:
    state, rows = tail_rows(path, TAIL_ROWS, anchor)
    return state, [row for row in rows if isinstance(row, dict)]


class TerminalRunIds:
    """The aggregate (collectors.readers.cursors.Aggregate): the run ids that have a terminal row, bounded.

    A run id in the reviewer's own format is kept as is (digits, no text); any other as a
    digest. Past 2 * KEEP ids the oldest are dropped (odd ids first) and `floor` remembers the
    newest dropped one, so a lookup stays exact: kept means finished, newer than the floor
    means not finished, anything else is unknown (the caller then reads the log in full).
    """

    key = "reviewer_lifecycle.terminal-run-ids/1"
    KEEP = 4096

    def __init__(self) -> None:
        self.ids: set[str] = set()
        self.floor: str | None = None  # "" when only odd ids were dropped

    def rows(self, first_line: int, rows: list[dict]) -> None:
        for row in rows:
            run_id = row.get("runId")
            if isinstance(run_id, str):
                self.ids.add(token(run_id))
        if len(self.ids) > 2 * self.KEEP:
            ordered = sorted(self.ids, key=order)
            dropped = ordered[:-self.KEEP]
            self.ids = set(ordered[-self.KEEP:])
            self.floor = max(self.floor or "", order(dropped[-1]))

    def finished(self, wanted: set[str]) -> set[str] | None:
        """Which wanted ids have a terminal row, or None when the bounded set cannot tell."""
        found = set()
        for run_id in wanted:
            if token(run_id) in self.ids:
                found.add(run_id)
            elif self.floor is not None and not (run_id_parts(run_id) and run_id > self.floor):
                return None
        return found

    def state(self) -> dict:
        return {"ids": sorted(self.ids), "floor": self.floor}

    def restore(self, state: dict) -> None:
        if not all(isinstance(item, str) for item in state["ids"]) or not isinstance(state["floor"], (str, type(None))):
            raise TypeError("run ids")
        self.ids, self.floor = set(state["ids"]), state["floor"]


def token(run_id: str) -> str:
    """A reviewer run id as is, any other id as a digest (so no free text lands in a cursor)."""
    if run_id_parts(run_id):  # the reviewer's runId form
        return run_id
    return "#" + blake2b(run_id.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


def order(kept: str) -> str:
    """Reviewer run ids sort by time as text; odd ids sort first, so they are dropped first."""
    return "" if kept.startswith("#") else kept


def finished_runs(layout: Layout, wanted: set[str]) -> set[str]:
    _, seen = scan_log(layout.evidence(RUNS_LOG), TerminalRunIds, anchor=layout.memory, cursors=layout.cursors)
    found = seen.finished(wanted)
    if found is None:  # beyond what the bounded set remembers: read the log for exactly these ids
        found = set()
        scan_jsonl(layout.evidence(RUNS_LOG), lambda _, row: found.add(row.get("runId"))
                   if row.get("runId") in wanted else None, anchor=layout.memory)
    return found


def holder_state(row: dict) -> str:
    pid = row.get("pid")
    if type(pid) is not int or pid <= 0:
        return "unverifiable"
    from cortex.core.liveness import host_name, process_is_gone  # only when a start has no terminal row (psutil: later)

    if row.get("host") != host_name():
        return "unverifiable"
    return "gone" if process_is_gone(pid, parse_timestamp_ms(row.get("ts"))) else "alive"


def inference_timeout_ms(config: dict) -> int:
    value = config.get("inference_timeout_seconds")
    ok = type(value) in (int, float) and 0 < value <= 3600
    return int((value if ok else DEFAULT_TIMEOUT_S) * 1000)


def collect(layout: Layout) -> LifecycleEvidence:
    state, rows = tail_objects(layout.evidence(STARTS_LOG), layout.memory)
    started = [(start_at_ms(row), row) for row in rows]  # the writer's own row model says which rows are starts
    started = sorted(((ms, row) for ms, row in started if ms is not None), key=lambda item: item[0],
                     reverse=True)[:KEPT_STARTS]
    wanted = {row["runId"] for _, row in started}
    finished = finished_runs(layout, wanted) if wanted else set()
    starts = tuple(Start(row["runId"], ms, brief(row.get("pid")), brief(row.get("host")), row["runId"] in finished,
                         None if row["runId"] in finished else holder_state(row)) for ms, row in started)
    _, fires = tail_objects(layout.evidence(FIRES_LOG), layout.memory)
    spawns = [Spawn(ms, brief(row.get("pid"))) for row in fires for ms in [spawn_at_ms(row)] if ms is not None]
    newest = max(spawns, key=lambda spawn: spawn.at_ms) if spawns else None
    return LifecycleEvidence(state.status, state, starts, newest, inference_timeout_ms(layout.review_config))
