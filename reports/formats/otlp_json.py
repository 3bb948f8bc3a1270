"""Report stage format `otlp-json`: the OTLP/JSON requests `--otlp` posts, one JSON object per line.

Chosen with --format otlp-json. The lines are the OpenTelemetry file exporter's format (what
a Collector's `otlpjsonfile` receiver or a file shipper reads): an ExportMetricsServiceRequest
(every series of the Prometheus textfile, same names and values), an ExportLogsServiceRequest
(one record per finding), and in a live run an ExportTraceServiceRequest of the memory
operations appended since this destination's cursor (only when there are any), the metrics
then also carrying their duration histogram. `render` writes the report's two lines and
nothing else (a stored report, the auditor's exit-3 report); `render_live` is what the CLI
calls after a run: the same bodies `--otlp` would post, and the spans' cursor moves on only
once the lines are written. Resource attributes follow OTEL_SERVICE_NAME and
OTEL_RESOURCE_ATTRIBUTES (reports.otlp.resource).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TextIO

from reports.otlp.encode import request_line
from reports.otlp.logs import logs_request
from reports.otlp.metrics import gauges, metrics_request
from reports.otlp.resource import resource_attributes
from reports.report import Report

DESTINATION = "stdout"  # the spans' cursor of this format, apart from any --otlp endpoint's


def render(report: Report, out: TextIO, *, tty: bool = False, verbose: bool = False,
           environ: Mapping[str, str] | None = None) -> None:
    resource, _ = resource_attributes(environ or {}, report.root)
    out.write(request_line(metrics_request(resource, gauges(report))) + "\n")
    out.write(request_line(logs_request(report, resource)) + "\n")


def render_live(report: Report, out: TextIO, *, layout: Any, environ: Mapping[str, str],
                stderr: TextIO | None = None) -> None:
    """A run's lines, spans included; their cursor is committed once every line is written and flushed."""
    from cortex.core.safeio import write_quietly
    from reports.otlp.live import live_bodies

    bodies = live_bodies(report, layout, environ, DESTINATION)
    try:
        for _signal, request in bodies.requests():
            out.write(request_line(request) + "\n")
        out.flush()
    except BaseException:
        bodies.discard()  # not written: the same operations go out next time
        raise
    bodies.commit()
    for note in bodies.notes:
        if stderr is not None:
            write_quietly(stderr, f"cortex-health: otlp-json: {note}\n")
