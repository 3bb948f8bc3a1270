"""Agent-hook command helper: what a `cortex-health gate` run does when it cannot do its job. Used by health.gate.

Past the deadline, `overrun` publishes the report that says so in place of the check's. The gate
always exits 0 (a Stop hook must never block the agent), so a run that could not judge or
publish (a usage error, a check that printed no report or could not run, the deadline, a report
that was not appended) is also recorded, through the hooks' one failure writer
(cortex.hookfailures), in the LifeOS tree the gate audits; the auditor compares that row with
the gate's heartbeat (memory-health.jsonl) as for every hook.
"""
from __future__ import annotations

import os

from cortex.errors import CortexError
from health.runoptions import Options

TYPE_CHECKING = False  # typing costs the Stop hook milliseconds
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any


class GateFailure(CortexError):
    """Why this gate run could not do its job (recorded in O/hook-failures.jsonl): its own code and message."""

    def __init__(self, code: str, message: str, file: str | None = None):
        super().__init__(message)
        self.code = code
        self.at(file=file)


def overrun(options: Options, environ: Mapping[str, str], timeout: float, elapsed_ms: float) -> dict[str, Any]:
    """Publish (as the check would) a report whose one finding is the missed deadline."""
    from health.judge.catalogue.run import HEALTH_CHECK_DEADLINE_EXCEEDED
    from health.judge.evaluate import outcome
    from health.inputs import resolve_inputs, resolve_layout, resolve_thresholds
    from health.layouts import LayoutError, lifeos
    from health.judge.model import Assessment
    from health.run import Audit, publish
    from thresholds.clock import resolve_clock

    finding = HEALTH_CHECK_DEADLINE_EXCEEDED.at(
        message=f"The health check did not finish within the gate's {timeout:g} s deadline and was stopped; no "
        "evidence was judged in this run.", measured=round(elapsed_ms), threshold=timeout * 1000, unit="ms")
    try:  # publish where the check itself would have (a Dense Context tree logs beside context/)
        inputs = resolve_inputs(options, environ)
        layout, clock, thresholds = inputs.layout, inputs.clock, inputs.thresholds
    except LayoutError:
        layout, thresholds = resolve_layout(options, environ), resolve_thresholds(options, environ, lifeos.SPEC.thresholds)
        clock = resolve_clock(options.now, environ)
    audit = Audit(layout, clock, thresholds, {}, Assessment((outcome(finding),)), elapsed_ms)
    return publish(audit, options).document()  # the same shape as a child's printed report


def failure_of(document: Mapping[str, Any], elapsed_ms: float, timeout: float) -> GateFailure | None:
    """What kept this run from judging and publishing: no audit (overall unknown), the deadline, a failed append."""
    if document.get("overall") == "unknown":
        return GateFailure("audit_failed", str(document.get("reason") or "the check could not run"))
    for finding in document.get("findings") or ():
        if finding.get("id") == "health-check-deadline-exceeded":  # a printed report: its stored id
            return GateFailure("deadline_exceeded", f"the check did not finish within {timeout:g} s "
                               f"({round(elapsed_ms)} ms)")
        if finding.get("id") == "health-log-append-failed":
            detail = finding.get("detail") or {}
            return GateFailure("publish_failed", str(finding.get("message") or "report not appended"),
                               detail.get("path") if isinstance(detail.get("path"), str) else None)
    return None


def root_named(argv: Sequence[str]) -> str | None:
    """The --root of a command line that failed to parse (where to record that failure), or None."""
    for index, item in enumerate(argv):
        if item == "--root" and index + 1 < len(argv):
            return argv[index + 1]
        if item.startswith("--root="):
            return item.partition("=")[2] or None
    return None


def record(failure: GateFailure, options: Options | None, environ: Mapping[str, str]) -> str | None:
    """The gate's row in the audited tree's O/hook-failures.jsonl (LifeOS trees only); why not, or None. Never raises."""
    try:
        return _record(failure, options, environ)
    except Exception as error:  # noqa: BLE001 - recording is best effort: never a traceback, never a non-zero exit
        return f"failure not recorded: {type(error).__name__}: {error}"


def _record(failure: GateFailure, options: Options | None, environ: Mapping[str, str]) -> str | None:
    from collectors.readers.paths import resolve_root
    from cortex.hookfailures import record_hook_failure
    from cortex.layout import MEMORY_PARTS
    from thresholds.clock import resolve_clock

    options = options if options is not None else Options()
    root = os.path.abspath(os.path.expanduser(resolve_root(options.root, environ)))  # health.inputs.root_of's rule
    memory = os.path.join(root, *MEMORY_PARTS)
    if not os.path.isdir(memory):
        return None  # no LifeOS tree (a Dense Context root, a wrong --root): nowhere to record it
    return record_hook_failure(memory, "gate", failure, now_ms=resolve_clock(options.now, environ).now_ms)


