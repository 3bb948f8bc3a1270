"""Report stage: the three OTLP requests of one live run. Used by the otlp-json format (render_live) and health.otel.export.

metrics: every series of the report (the textfile's) plus the memory operations' duration
histogram; logs: one record per finding; traces: one span per memory operation appended
since the destination's cursor (None when there is none). The operations are read only for
a LifeOS tree (a Dense Context tree has no hook logs) and only when their cursors have a
private folder that no other export holds: without one, nothing could stop the next export
from sending the same rows again, so no span is sent and a note says why. The caller
commits the cursors once the spans are delivered (`commit`), or forgets them (`discard`).
"""
from __future__ import annotations

from collections.abc import Mapping

from reports.otlp.logs import logs_request
from reports.otlp.metrics import duration_histogram, gauges, metrics_request
from reports.otlp.resource import resource_attributes, store_id
from reports.report import Report

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from collectors.readers.exportcursors import Staging

CACHE_KIND = "otlp"  # the cursors' folder: cortex.core.cachedir, beside the audit's own


class LiveBodies:
    """The requests of one run (plain JSON data) and the staged cursors of its spans."""

    def __init__(self, metrics: dict, logs: dict, traces: dict | None, staging: Staging | None,
                 notes: list[str]) -> None:
        self.metrics, self.logs, self.traces, self.staging, self.notes = metrics, logs, traces, staging, notes

    def requests(self) -> list[tuple[str, dict]]:
        """(signal, request) in the order they are written: metrics, logs, then traces when there are spans."""
        found = [("metrics", self.metrics), ("logs", self.logs)]
        return found + ([("traces", self.traces)] if self.traces is not None else [])

    def commit(self) -> None:
        if self.staging is not None:
            self.staging.commit()

    def discard(self) -> None:
        if self.staging is not None:
            self.staging.discard()


def live_bodies(report: Report, layout: Any, environ: Mapping[str, str], destination: str,
                limit: int | None = None) -> LiveBodies:
    """The run's requests; `layout` is the audited tree's (None when the auditor could not run), its `name` the
    layout's as the run chose it."""
    observability = getattr(layout, "observability", None)
    root = report.root or getattr(layout, "root", None)
    resource, problem = resource_attributes(environ, root, getattr(layout, "name", None))
    notes = [problem] if problem else []
    metrics, traces, staging = gauges(report), None, None
    if observability and report.now_ms is not None:
        from collectors.readers.exportcursors import Staging
        from collectors.lifeos.memory_operations import MAX_OPERATIONS, operations_since
        from cortex.core.cachedir import cache_dir
        from reports.otlp.spans import traces_request

        staging = Staging(cache_dir(environ, CACHE_KIND, layout.memory), observability, destination)
        if staging.problem:
            notes.append(f"memory operations not exported: {staging.problem}")
            staging = None
        else:
            limit = MAX_OPERATIONS if limit is None else limit
            batch = operations_since(observability, layout.memory, staging.path, destination, limit)
            histogram = duration_histogram(batch.durations, report.now_ms)
            metrics += [histogram] if histogram else []
            if batch.operations:
                traces = traces_request(resource, batch.operations, store_id(root))
            if batch.dropped:
                notes.append(f"{batch.dropped} older memory operations were not exported as spans "
                             f"(at most {limit} per export)")
            if batch.invalid:
                notes.append(f"{batch.invalid} rows of the hook logs are no valid memory operation (not exported)")
    return LiveBodies(metrics_request(resource, metrics), logs_request(report, resource), traces, staging, notes)
