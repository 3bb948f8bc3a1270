"""Orchestration: collect → evaluate → report → publish, for one audit. Called by health.cli.

Returns the final report document; the CLI alone turns it into output and an exit code.
Publication problems (a refused --report-path, a failed write or append) are findings in
the report, so they are as visible as any other problem.
"""
from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from collectors.layout import resolve_root
from collectors.registry import collect_all
from health.clock import Clock, resolve_clock
from health.evaluate import evaluate
from health.findings import critical, warn
from health.layouts import LayoutError, select
from health.model import Assessment, Finding
from reports.document import build_report
from thresholds.sources import EffectiveThresholds, resolve


class AuditError(Exception):
    """The audit cannot run at all (exit 3): an unusable root."""

    def __init__(self, message: str, root: str | None = None):
        super().__init__(message)
        self.root = root


@dataclass(frozen=True)
class Options:
    root: str | None = None
    now: str | None = None
    config: str | None = None
    thresholds: tuple[tuple[str, str], ...] = ()
    no_write: bool = False
    report_path: str | None = None
    index_manifest: str | None = None
    selected: tuple[str, ...] | None = None  # collectors to run (--only/--skip); None: all
    prometheus_textfile: str | None = None
    layout: str | None = None  # lifeos | dense-context; None: auto-detect (health.layouts)


@dataclass
class Audit:
    """Everything one run measured and decided; `document()` renders the current state."""

    layout: Any  # Layout, or DenseLayout for --layout dense-context
    clock: Clock
    thresholds: EffectiveThresholds
    evidence: Mapping[str, Any]
    assessment: Assessment
    duration_ms: float  # collect + evaluate, fixed so every rendering of this run is identical
    extra: list[Finding] = field(default_factory=list)

    def document(self) -> dict[str, Any]:
        assessment = Assessment(self.assessment.findings + tuple(self.extra))
        return build_report(assessment=assessment, evidence=self.evidence, thresholds=self.thresholds,
                            clock=self.clock, root=self.layout.root, duration_ms=self.duration_ms)


def audit(options: Options, environ: Mapping[str, str]) -> Audit:
    started = time.monotonic()
    clock = resolve_clock(options.now, environ)
    root = resolve_root(options.root, environ)
    if not os.path.isdir(root):
        raise AuditError(f"root {os.path.abspath(os.path.expanduser(root))} is not a directory",
                         os.path.abspath(os.path.expanduser(root)))
    # Layout selection (issue 16): the chosen layout's collectors and rules, and only its thresholds.
    try:
        chosen = select(options.layout, root, options.index_manifest or environ.get("CORTEX_INDEX_MANIFEST") or None,
                        clock.now_ms)
    except LayoutError as error:
        raise AuditError(str(error), os.path.abspath(os.path.expanduser(root))) from None
    thresholds = resolve(environ, config_path=options.config, cli=options.thresholds, layout=chosen.name)
    layout = chosen.layout
    selected = None if options.selected is None else frozenset(options.selected)
    if selected is not None and not selected & {c.name for c in chosen.collectors}:
        raise AuditError(f"usage: --only/--skip leave no {chosen.name} collector to run", layout.root)
    evidence = collect_all(layout, selected, chosen.collectors)
    assessment = evaluate(evidence, thresholds, clock, chosen.rules)
    return Audit(layout, clock, thresholds, evidence, assessment, (time.monotonic() - started) * 1000)


def publish(run: Audit, options: Options) -> dict[str, Any]:
    """Write the report where asked; returns the final document (with any publication finding).

    Order: --report-path, then --prometheus-textfile, then the memory-health.jsonl line, so
    the line (the record the status line and the history read) carries every earlier failure.
    """
    from health.publish import append_line
    from reports.schema import report_json

    if options.report_path is not None:
        path = options.report_path
        refused, failed = write_copy(run, path, lambda document: report_json(document) + "\n")
        if refused:
            run.extra.append(critical("report-path-refused", f"Report not written: {refused}; nothing was overwritten.",
                                      path=path, reason=refused))
        elif failed:
            run.extra.append(critical("report-write-failed", f"Report not written: {failed}.", path=path, reason=failed))
    if options.prometheus_textfile is not None:
        path = options.prometheus_textfile
        refused, failed = write_copy(run, path, prometheus_text)
        if refused:
            run.extra.append(critical("prometheus-textfile-refused",
                                      f"Prometheus textfile not written: {refused}; nothing was overwritten.",
                                      path=path, reason=refused))
        elif failed:
            run.extra.append(critical("prometheus-textfile-write-failed",
                                      f"Prometheus textfile not written: {failed}.", path=path, reason=failed))
    document = run.document()
    if not options.no_write:
        failure = append_line(run.layout, report_json(document))
        if failure:
            run.extra.append(warn("health-log-append-failed", f"Report not appended to the health log: {failure}.",
                                  path=run.layout.health_log, reason=failure))
            document = run.document()
    return document


def prometheus_text(document: dict[str, Any]) -> str:
    import io

    from reports.formats import load

    out = io.StringIO()
    load("prometheus").render(document, out, tty=False)
    return out.getvalue()


def write_copy(run: Audit, path: str, text_of: Callable[[dict[str, Any]], str]) -> tuple[str | None, str | None]:
    """Write text_of(document) atomically to `path`: (why it was refused, why the write failed), both None when done."""
    from health.publish import report_path_problem, write_atomically

    problem = report_path_problem(path, run.layout)
    if problem:
        return problem, None
    return None, write_atomically(path, text_of(run.document()))
