"""Report stage: the OTLP ExportLogsServiceRequest of a run, one log record per finding. Used by reports.otlp.live and the otlp-json format.

A record carries what the JSON report already says, nothing read from the tree beyond it:
the message as its body, the finding's severity as severityText (`warn`, `critical`) and as
an OTLP severity number (WARN 13, ERROR 17), and as attributes its id, check, collector,
evidence (the finding's detail, a map) and the catalogue's fix. Ok checks have no record
(their state is in the metrics). Every record is stamped with the run's clock.
"""
from __future__ import annotations

from reports.otlp.encode import SCOPE, attributes, nanos
from reports.report import Report

# OTLP SeverityNumber for the report's words (an unknown word is never read as less than an error)
SEVERITY_NUMBER = {"warn": 13, "critical": 17}
ERROR = 17


def record(finding, when: str) -> dict:
    problem = finding.problem_entry()
    entry = finding.entry
    return {"timeUnixNano": when, "observedTimeUnixNano": when,
            "severityNumber": SEVERITY_NUMBER.get(finding.severity, ERROR), "severityText": str(finding.severity),
            "body": {"stringValue": str(finding.message)},
            "attributes": attributes((("cortex_health.finding.id", finding.id),
                                      ("cortex_health.check", entry.check.key if entry else None),
                                      ("cortex_health.collector", (entry.collector if entry else None) or "run"),
                                      ("cortex_health.evidence", finding.detail),
                                      ("cortex_health.fix", problem.fix if problem else None)))}


def logs_request(report: Report, resource: dict[str, str]) -> dict:
    when = nanos(report.now_ms) if report.now_ms is not None else "0"
    return {"resourceLogs": [{"resource": {"attributes": attributes(resource)},
                              "scopeLogs": [{"scope": SCOPE, "logRecords": [record(item, when)
                                                                            for item in report.findings]}]}]}
