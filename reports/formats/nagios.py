"""Report stage format `nagios`: plugin output for Nagios, Icinga, Naemon, Sensu and check_mk.

Chosen with --format nagios; the exit code is already the plugin's (0 OK, 1 WARNING,
2 CRITICAL, 3 UNKNOWN). Output follows the plugin guidelines: a first line
`CORTEX HEALTH WARNING - <summary> | <perfdata>` whose summary stays under 80 characters,
then the long text (one line per finding and an `ok:` line). The perfdata sits on the first
line because NRPE v2 passes on only the first 1,023 bytes of a plugin's output: whatever
follows may be cut, so the first line (with its newline) stays within that and any perfdata
item that would not fit goes after the long text (`| ...` on its last line, one item per
further line), where the plugin API also allows it. Perfdata is
`'label'=value[UOM];warn;crit;min;max`. A `|` inside a message would start perfdata, so text
is stripped of it.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TextIO

from collectors.metric import Metric
from reports.measurements import measurements
from reports.report import Report
from reports.severity import worst_first

STATE = {"ok": "OK", "warn": "WARNING", "critical": "CRITICAL", "unknown": "UNKNOWN"}
MAX_FIRST_LINE = 79  # the status and summary before the perfdata
NRPE_V2_BYTES = 1023  # what NRPE v2 relays of a plugin's output (its 1 KiB buffer less the NUL)
UOM = {"seconds": "s", "bytes": "B", "count": ""}


def clean(text: str) -> str:
    """One line of plugin text: no `|` (perfdata separator), no line breaks."""
    return " ".join(str(text).replace("|", "/").split())


def label(name: str) -> str:
    return "'" + name.replace("'", "''") + "'"


def value_text(value: float) -> str:
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return str(int(value))
    return f"{value:.3f}".rstrip("0").rstrip(".")


def perf(name: str, value: float, uom: str = "", warn: float | None = None, crit: float | None = None,
         minimum: float | None = 0, maximum: float | None = None) -> str:
    fields = [value_text(x) if x is not None else "" for x in (warn, crit, minimum, maximum)]
    return f"{label(name)}={value_text(value)}{uom};" + ";".join(fields).rstrip(";")


def measurement_perf(item: Metric) -> str:
    name = item.name + "".join(f"_{value}" for _, value in item.labels)
    return perf(name, item.value, UOM[item.unit], warn=item.warn, maximum=item.maximum,
                minimum=None if item.name.endswith("_age_seconds") else 0)


def summary(report: Report) -> str:
    findings = worst_first(report.findings)
    if report.overall == "unknown":
        return clean(report.reason or "the auditor could not run")
    if not findings:
        return f"{report.counts.ok} checks ok"
    counts = report.counts._asdict()
    head = ", ".join(f"{counts[key]} {key}" for key in ("critical", "warn") if counts.get(key))
    return f"{head}: " + ", ".join(clean(f.id) for f in findings)


def first_line(report: Report) -> str:
    start = f"CORTEX HEALTH {STATE.get(report.overall, 'UNKNOWN')} - "
    room = MAX_FIRST_LINE - len(start)
    text = summary(report)
    if len(text) > room:
        text = text[: room - 3].rstrip(" ,") + "..."
    return start + text


def render(report: Report, out: TextIO, *, tty: bool = False, verbose: bool = False,
           environ: Mapping[str, str] | None = None) -> None:
    long_text = [f"[{STATE.get(item.severity, 'UNKNOWN')}] {clean(item.id)}: {clean(item.message)}"
                 for item in worst_first(report.findings)]
    if report.overall == "unknown":
        long_text.append(f"reason: {clean(report.reason or 'unknown')}")
    else:
        long_text.append(f"ok: {', '.join(clean(i) for i in report.ok_summary) or '(none)'}")
    perfdata = [perf("critical", report.counts.critical, crit=0), perf("warn", report.counts.warn, warn=0)]
    perfdata += [measurement_perf(item) for item in measurements(report)]
    first, later = first_line_with_perfdata(first_line(report), perfdata)
    if later:
        long_text[-1] += " | " + later[0]
        long_text.extend(later[1:])
    out.write("\n".join([first, *long_text]) + "\n")


def first_line_with_perfdata(status: str, perfdata: list[str]) -> tuple[str, list[str]]:
    """(status | as many perfdata items as fit NRPE v2's budget, the items left for after the long text)."""
    line, used = status, len(status.encode("utf-8")) + 1  # + the newline
    for index, item in enumerate(perfdata):
        separator = " | " if index == 0 else " "
        cost = len((separator + item).encode("utf-8"))
        if used + cost > NRPE_V2_BYTES:
            return line, perfdata[index:]
        line, used = line + separator + item, used + cost
    return line, []
