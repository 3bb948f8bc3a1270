"""Application: `cortex-health --otlp`: the run's metrics, findings and memory operations to OTLP/HTTP endpoints. Called by health.run.publish and health.cli.fail.

One POST per signal (health.otel.transport), each within its timeout, never retried here:
the next run (the systemd timer's next tick) sends the state of then, and the spans that were
not delivered, since their cursor only moves once the traces endpoint accepted them (or
answered 400 or 413, which say that this very request can never be accepted: those spans are
dropped rather than sent again forever, and the finding says so). A refused endpoint, an
HTTP status other than 2xx or a transport failure becomes one `otlp-export-failed` warn
finding naming each failed signal's endpoint (without user info or query) and status or
reason, never a header. The audit's verdict is the same either way, plus that warning.
"""
from __future__ import annotations

from collections.abc import Mapping

from health.judge.catalogue.run import OTLP_EXPORT_FAILED
from health.judge.model import Finding
from health.otel.config import targets
from health.otel.transport import Delivery, deliver_all
from reports.otlp.encode import request_line
from reports.otlp.live import live_bodies
from reports.report import Report

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

UNSENDABLE = (400, 413)  # the receiver can never take this request: do not send its spans again
DESTINATION = "otlp"  # the spans' cursor of every --otlp export of a tree, whatever the endpoint (which may change)


def export(report: Report, layout: Any, environ: Mapping[str, str]) -> tuple[Finding | None, list[str]]:
    """(the otlp-export-failed finding or None, notes for stderr). `layout` None: the auditor could not run."""
    chosen, notes = targets(environ)
    wanted = {signal: target for signal, target in chosen.items() if not target.disabled}
    if not wanted:
        return None, notes + ["every OTLP signal is disabled (OTEL_SDK_DISABLED or OTEL_<SIGNAL>_EXPORTER=none)"]
    traces = chosen["traces"]
    bodies = live_bodies(report, layout, environ, DESTINATION)
    notes += bodies.notes
    failures = [Delivery(signal, target.shown, None, f"refused: {target.refused}", 0)
                for signal, target in wanted.items() if target.refused]
    jobs = [(wanted[signal], request_line(request).encode("ascii")) for signal, request in bodies.requests()
            if signal in wanted and not wanted[signal].refused]
    deliveries = deliver_all(jobs)
    failures += [item for item in deliveries if not item.ok]
    notes += [f"{item.signal}: the receiver accepted the request but rejected {item.rejected} of its items"
              for item in deliveries if item.ok and item.rejected]
    settle_spans(bodies, traces, deliveries, notes)
    return (failed(failures) if failures else None), notes


def settle_spans(bodies, traces, deliveries: list[Delivery], notes: list[str]) -> None:
    """Move the spans' cursor on when they were delivered (or can never be), else keep it for the next export."""
    if bodies.traces is None or traces.disabled:
        bodies.commit()  # no span to deliver (or spans deliberately not exported): the position and histogram advance
        return
    answer = next((item for item in deliveries if item.signal == "traces"), None)
    if answer is not None and (answer.ok or answer.status in UNSENDABLE):
        if not answer.ok:
            notes.append(f"traces: HTTP {answer.status}: these memory operations are not sent again")
        bodies.commit()
    else:
        bodies.discard()


def failed(failures: list[Delivery]) -> Finding:
    what = "; ".join(f"{item.signal} to {item.shown}: {item.failure}" for item in failures)
    return OTLP_EXPORT_FAILED.at(message=f"OTLP export failed ({what}); the audit itself is unaffected, and memory "
                                 "operations not delivered are sent with the next export.",
                                 failures=[{"signal": item.signal, "endpoint": item.shown, "status": item.status,
                                            "reason": item.reason} for item in failures])
