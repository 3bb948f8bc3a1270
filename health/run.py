"""Orchestration: collect → evaluate → report → publish, for one audit. Called by health.cli.

Returns the final report (reports.report.Report, built once per audit); the CLI alone turns
it into output and an exit code.
Publication problems (a refused --report-path, a failed write or append) are findings in
the report, so they are as visible as any other problem.
"""
from __future__ import annotations

import os
import time

from collectors.runner import collect_all
from health.judge.checks import CheckRow, collectors, names, rules
from health.judge.evaluate import evaluate, outcome
from health.judge.catalogue import Problem
from health.judge.catalogue.run import (HEALTH_LOG_APPEND_FAILED, PROMETHEUS_TEXTFILE_REFUSED,
                                  PROMETHEUS_TEXTFILE_WRITE_FAILED, REPORT_PATH_REFUSED, REPORT_WRITE_FAILED)
from health.inputs import resolve_inputs, root_of
from health.layouts import LayoutError
from health.judge.model import Assessment, Finding
from health.runoptions import Options  # noqa: F401 - re-exported: callers and tests import it from here
from reports.document import build_report
from reports.report import Report

TYPE_CHECKING = False  # typing costs every audit ~2 ms; these names are only annotations
if TYPE_CHECKING:
    from collections.abc import Callable, Mapping
    from typing import Any, TextIO


class AuditError(Exception):
    """The audit cannot run at all (exit 3): an unusable root."""

    def __init__(self, message: str, root: str | None = None):
        super().__init__(message)
        self.root = root


class Audit:
    """Everything one run measured and decided; `report()` is its typed report (publication adds `extra`).

    layout: Layout, or DenseLayout for --layout dense-context; clock: Clock; thresholds: EffectiveThresholds;
    evidence: Mapping[str, Any]; assessment: Assessment; duration_ms: float (collect + evaluate, fixed so every
    rendering of this run is identical); extra: tuple[Finding, ...] (publication problems, added by publish()
    as a new Audit).
    """

    __slots__ = ("layout", "clock", "thresholds", "evidence", "assessment", "duration_ms", "extra")

    def __init__(self, layout, clock, thresholds, evidence, assessment, duration_ms, extra=()) -> None:
        self.layout, self.clock, self.thresholds, self.evidence = layout, clock, thresholds, evidence
        self.assessment, self.duration_ms, self.extra = assessment, duration_ms, extra

    def report(self) -> Report:
        assessment = Assessment(self.assessment.findings + tuple(self.extra))
        return build_report(assessment=assessment, evidence=self.evidence, thresholds=self.thresholds,
                            clock=self.clock, root=self.layout.root, duration_ms=self.duration_ms)

    def document(self) -> dict[str, Any]:
        """The plain JSON data of report() (what memory-health.jsonl holds)."""
        return self.report().document()


def audit(options: Options, environ: Mapping[str, str], checks: tuple[CheckRow, ...] | None = None) -> Audit:
    """Collect and judge what the chosen layout's check list (or the list a test passes) names."""
    started = time.monotonic()
    root = root_of(options, environ)
    if not os.path.isdir(root):
        raise AuditError(f"root {root} is not a directory", root)
    try:
        inputs = resolve_inputs(options, environ, checks)
    except LayoutError as error:
        raise AuditError(str(error), root) from None
    layout, clock, thresholds, checks = inputs.layout, inputs.clock, inputs.thresholds, inputs.checks
    selected = None if options.selected is None else frozenset(options.selected)
    if selected is not None and not selected & set(names(checks)):
        raise AuditError(f"usage: --only/--skip leave no {inputs.spec.name} collector to run", root)
    layout = inputs.spec.prepare(layout)  # the layout's shared step (Dense Context's one tree scan), then its collectors
    evidence = collect_all(layout, collectors(checks), selected)
    assessment = evaluate(evidence, thresholds, clock, rules(checks))
    return Audit(layout, clock, thresholds, evidence, assessment, (time.monotonic() - started) * 1000)


def publish(run: Audit, options: Options, environ: Mapping[str, str] | None = None,
            stderr: TextIO | None = None) -> Report:
    """Write the report where asked; returns the final report (with any publication finding).

    Order: --report-path, then --prometheus-textfile, then the --otlp export (health.otel,
    configured by `environ`'s OTEL_* variables, its notes on `stderr`), then the
    memory-health.jsonl line, so the line (the record the status line and the history read)
    carries every earlier failure.
    """
    report = run.report()  # built again only when a publication finding changes it
    if options.report_path is None and options.prometheus_textfile is None and options.no_write and not options.otlp:
        return report  # nothing to write: the writer and its lock stay unloaded (--no-write, CI)
    from health.publish import append_line
    from reports.reportjson import report_text

    if options.report_path is not None:
        run, report = write_copy_or_finding(run, report, options.report_path,
                                            lambda value: report_text(value) + "\n", "Report",
                                            REPORT_PATH_REFUSED, REPORT_WRITE_FAILED)
    if options.prometheus_textfile is not None:
        run, report = write_copy_or_finding(run, report, options.prometheus_textfile, prometheus_text,
                                            "Prometheus textfile", PROMETHEUS_TEXTFILE_REFUSED,
                                            PROMETHEUS_TEXTFILE_WRITE_FAILED)
    if options.otlp:
        run, report = otlp_export(run, report, os.environ if environ is None else environ, stderr)
    if not options.no_write:
        failure = append_line(run.layout, report_text(report))
        if failure:
            run = with_finding(run, HEALTH_LOG_APPEND_FAILED.at(
                message=f"Report not appended to the health log: {failure}.", path=run.layout.health_log,
                reason=failure))
            report = run.report()
    return report


def write_copy_or_finding(run: Audit, report: Report, path: str, render: Callable[[Report], str], what: str,
                          refused_problem: Problem, failed_problem: Problem) -> tuple[Audit, Report]:
    """One requested copy of the report; a refused path or a failed write becomes a critical finding."""
    from health.publish import write_copy

    refused, failed = write_copy(path, run.layout, lambda: render(report))
    if refused:
        run = with_finding(run, refused_problem.at(message=f"{what} not written: {refused}; nothing was overwritten.",
                                                   path=path, reason=refused))
    elif failed:
        run = with_finding(run, failed_problem.at(message=f"{what} not written: {failed}.", path=path, reason=failed))
    return run, (run.report() if refused or failed else report)


def otlp_export(run: Audit, report: Report, environ: Mapping[str, str], stderr: TextIO | None) -> tuple[Audit, Report]:
    """The --otlp export of this report; a failure becomes the otlp-export-failed warning, notes go to stderr."""
    from cortex.core.safeio import write_quietly
    from health.otel.export import export

    finding, notes = export(report, run.layout, environ)
    for note in notes:
        if stderr is not None:
            write_quietly(stderr, f"cortex-health: otlp: {note}\n")
    if finding is None:
        return run, report
    run = with_finding(run, finding)
    return run, run.report()


def with_finding(run: Audit, finding: Finding) -> Audit:
    return Audit(run.layout, run.clock, run.thresholds, run.evidence, run.assessment, run.duration_ms,
                 run.extra + (outcome(finding),))


def prometheus_text(report: Report) -> str:
    import io

    from reports.formats import load

    out = io.StringIO()
    load("prometheus").render(report, out, tty=False)
    return out.getvalue()
