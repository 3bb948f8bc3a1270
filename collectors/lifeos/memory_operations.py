"""Collect stage: memory operations from the hooks' logs since an exporter's cursor. Used by reports.otlp.live (OTLP export, --format otlp-json).

The hooks already leave one row per operation under O/: a recall (memory-retrievals.jsonl:
start and duration, records returned), a hot-memory write attempt (memory-writes.jsonl:
additions, evictions, ok or an error code), a reviewer run (reviewer-runs.jsonl: the run id
encodes its start, the row its end) and a Stop-turn fire (reviewer-fires.jsonl). This reads
the rows appended since the exporter last delivered them, through the audit's own incremental
reader (collectors.readers.cursors.scan_log, with its own aggregation key per log and destination),
and keeps for each row only numbers, booleans, instants and closed tokens: an error code
that is a short upper-case token (anything else is `_OTHER`), a hot file's label. Never a
row's text, so nothing private can leave through an operation.

Bounded: at most `limit` operations are kept per log (the newest; older ones are counted as
dropped), and the reader's memory stays flat whatever the log's size. A row that is not a
valid operation (no valid timestamp, the wrong types) is counted, never exported.

The cumulative duration histogram of each log lives in that log's cursor: a lost, damaged
or foreign cursor means a full read, which counts every row again, so the histogram (like
every audit aggregate) never depends on the cursor. The cursors are committed only once the
exporter says the spans were delivered (collectors.readers.exportcursors.Staging): until then each
export reads from the last delivered position, so a failed delivery is sent again, never
lost, and a delivered row is never sent twice.
"""
from __future__ import annotations

import os
import re
from bisect import bisect_left
from collections import deque, namedtuple

from collectors.readers.cursors import scan_log
from cortex import layout as contract
from cortex.core.timestamps import parse_timestamp_ms
from cortex.evidencerows import is_count, is_duration, retrieval_row_problem
from cortex.reviewrows import run_id_ms

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

MAX_OPERATIONS = 10_000  # per export: ~4 MiB of spans, well under a Collector's 20 MiB request limit
BOUNDS_S = (0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92)  # semconv advice
MAX_NANOS = (1 << 64) - 1  # OTLP times are fixed64 nanoseconds
_ERROR_CODE = re.compile(r"[A-Z][A-Z0-9_]{0,63}\Z", re.ASCII)
_HOT_LABELS = {parts[-1]: label for label, parts in contract.HOT_FILES.items()}
OTHER = "_OTHER"  # error.type when the row's error is not a short code (semantic conventions' fallback)


class Operation(namedtuple("Operation", "name start_ns end_ns records error extra")):
    """One memory operation. name: str (gen_ai.operation.name); start_ns, end_ns: int; records: int | None
    (gen_ai.memory.record.count); error: str | None (error.type); extra: tuple of (attribute, bool | int | str).
    """

    __slots__ = ()


_POINT = "operation error start_ms count total_s minimum maximum bounds buckets"


class DurationPoint(namedtuple("DurationPoint", _POINT)):
    """A cumulative duration histogram point. operation, error (None when ok): str; start_ms: int (the log's first
    measured operation); count: int; total_s, minimum, maximum: float (seconds); bounds: tuple[float, ...];
    buckets: tuple[int, ...] (len(bounds) + 1).
    """

    __slots__ = ()


def _instant_ns(ms: int | None, plus_ms: float = 0) -> int | None:
    """An instant (integer ms, plus a duration) in nanoseconds, exactly; None when OTLP cannot hold it."""
    if ms is None:
        return None
    value = ms * 1_000_000 + round(plus_ms * 1_000_000)
    return value if 0 <= value <= MAX_NANOS else None


def _error_code(value: object) -> str:
    code = value.get("code") if isinstance(value, dict) else None
    return code if isinstance(code, str) and _ERROR_CODE.match(code) else OTHER


def recall(row: dict) -> tuple[Operation, float] | None:
    if retrieval_row_problem(row) is not None:
        return None
    at_ms = parse_timestamp_ms(row["ts"])
    start, end = _instant_ns(at_ms), _instant_ns(at_ms, row["duration_ms"])
    if start is None or end is None:
        return None
    return Operation("search_memory", start, end, row["returned_count"], None, ()), row["duration_ms"] / 1000


def write(row: dict) -> tuple[Operation, None] | None:
    """A hot-memory write attempt; a legacy row (LifeOS: no ok, additions or evictions) counts by its entry counts."""
    at = _instant_ns(parse_timestamp_ms(row.get("ts")))
    ok = row.get("ok", True)
    additions, evictions = row.get("additions"), row.get("evictions")
    if at is None or type(ok) is not bool:
        return None
    if isinstance(additions, list) and isinstance(evictions, list):
        name, records = ("update_memory" if evictions else "create_memory"), len(additions) + len(evictions)
    elif additions is None and evictions is None and is_count(row.get("prior_count")) \
            and is_count(row.get("new_count")):
        change = row["new_count"] - row["prior_count"]
        name, records = ("create_memory" if change > 0 else "update_memory"), abs(change)
    else:
        return None
    label = _HOT_LABELS.get(row["file"].rpartition("/")[2]) if isinstance(row.get("file"), str) else None
    extra = (("cortex.memory.file", label),) if label else ()
    return Operation(name, at, at, records, None if ok else _error_code(row.get("error")), extra), None


def review(row: dict) -> tuple[Operation, float] | None:
    end_ms, ok = parse_timestamp_ms(row.get("ts")), row.get("ok")
    if end_ms is None or type(ok) is not bool:
        return None
    start_ms, spent = run_id_ms(row.get("runId")), 0
    if start_ms is None or start_ms > end_ms:  # no start in the id: the inference time before the end
        spent = row.get("inference_duration_ms")
        start_ms, spent = end_ms, spent if is_duration(spent) else 0
    start, end = _instant_ns(start_ms, -spent), _instant_ns(end_ms)
    if start is None or end is None:
        return None
    summary = row.get("dispatch_summary")
    records = summary.get("total") if isinstance(summary, dict) and is_count(summary.get("total")) else None
    error = None if ok else ("parse_failed" if row.get("parse_ok") is False else "review_failed")
    extra = (("cortex.review.skipped", True),) if row.get("skipped") is True else ()
    return Operation("review_memory", start, end, records, error, extra), (end - start) / 1e9


def fire(row: dict) -> tuple[Operation, None] | None:
    at = _instant_ns(parse_timestamp_ms(row.get("ts")))
    started, turns = row.get("started"), row.get("turns")
    if at is None or type(started) is not bool:
        return None
    extra = (("cortex.review.started", started),) + ((("cortex.review.turns", turns),) if is_count(turns) else ())
    return Operation("fire_review", at, at, None, None, extra), None


# log name -> what one of its rows is (None: not an operation); the order is the export's
SOURCES: dict[str, Callable[[dict], tuple[Operation, float | None] | None]] = {
    contract.RETRIEVALS_LOG: recall, contract.WRITES_LOG: write,
    contract.REVIEWER_RUNS_LOG: review, contract.REVIEWER_FIRES_LOG: fire,
}


class Durations:
    """Cumulative duration histograms of one log's operations, by (operation, error); resumable from JSON."""

    def __init__(self) -> None:
        # (name, error or "") -> [start_ms, count, sum, min, max, buckets]
        self.points: dict[tuple[str, str], list] = {}

    def add(self, operation: Operation, seconds: float) -> None:
        key = (operation.name, operation.error or "")
        point = self.points.get(key)
        if point is None:
            point = self.points[key] = [operation.start_ns // 1_000_000, 0, 0.0, seconds, seconds,
                                        [0] * (len(BOUNDS_S) + 1)]
        point[1] += 1
        point[2] += seconds
        point[3], point[4] = min(point[3], seconds), max(point[4], seconds)
        point[5][bisect_left(BOUNDS_S, seconds)] += 1  # bucket i holds (bounds[i-1], bounds[i]]

    def state(self) -> list:
        return [[name, error, *point[:5], point[5]] for (name, error), point in self.points.items()]

    def restore(self, state: list) -> None:
        for name, error, start, count, total, low, high, buckets in state:
            if not (isinstance(name, str) and isinstance(error, str) and type(start) is int and is_count(count)
                    and all(type(n) is int and n >= 0 for n in buckets) and len(buckets) == len(BOUNDS_S) + 1
                    and sum(buckets) == count and all(isinstance(x, (int, float)) for x in (total, low, high))):
                raise ValueError("not a duration histogram")
            self.points[(name, error)] = [start, count, float(total), float(low), float(high), list(buckets)]

    def result(self) -> list[DurationPoint]:
        return [DurationPoint(name, error or None, start, count, total, low, high, BOUNDS_S, tuple(buckets))
                for (name, error), (start, count, total, low, high, buckets) in sorted(self.points.items())]


class Operations:
    """The aggregate (collectors.readers.cursors.Aggregate) of one log for one destination.

    Its cursor state is the duration histogram alone; the operations read are kept in memory,
    the newest `limit`, and never written to the cursor.
    """

    VERSION = "otlp.operations/1"

    def __init__(self, log: str, destination: str, limit: int) -> None:
        self.key = f"{self.VERSION}/{log}/{destination}"
        self.convert = SOURCES[log]
        self.kept: deque[Operation] = deque(maxlen=max(limit, 0))
        self.read = 0  # operations read since the cursor
        self.invalid = 0  # rows since the cursor that are no operation
        self.durations = Durations()

    def rows(self, first_line: int, rows: list[dict]) -> None:
        for row in rows:
            found = self.convert(row)
            if found is None:
                self.invalid += 1
                continue
            operation, seconds = found
            self.read += 1
            if self.kept.maxlen:
                self.kept.append(operation)
            if seconds is not None:
                self.durations.add(operation, seconds)

    def state(self) -> dict:
        return {"durations": self.durations.state()}

    def restore(self, state: dict) -> None:
        self.durations.restore(state["durations"])


class Batch(namedtuple("Batch", "operations durations read dropped invalid malformed")):
    """The operations of every log since the cursors. operations: list[Operation] (oldest first, at most the limit);
    durations: list[DurationPoint]; read, dropped (read but over the limit), invalid (rows that are no operation),
    malformed (lines that are no JSON object): int.
    """

    __slots__ = ()


def operations_since(observability: str, anchor: str | None, cursors: str | None, destination: str,
                     limit: int = MAX_OPERATIONS) -> Batch:
    """What the four logs under `observability` hold past `destination`'s cursors in `cursors` (None: everything)."""
    kept: list[Operation] = []
    durations: list[DurationPoint] = []
    read = invalid = malformed = 0
    for log in SOURCES:
        scan, found = scan_log(os.path.join(observability, log), lambda log=log: Operations(log, destination, limit),
                               anchor=anchor, cursors=cursors)
        kept += found.kept
        durations += found.durations.result()
        read, invalid = read + found.read, invalid + found.invalid
        malformed += scan.malformed_total
    kept.sort(key=lambda item: (item.end_ns, item.start_ns))
    newest = kept[-limit:] if limit > 0 else []
    return Batch(newest, durations, read, read - len(newest), invalid, malformed)
