"""Report stage format `nagios`: plugin output for Nagios, Icinga, Naemon, Sensu and check_mk.

Chosen with --format nagios; the exit code is already the plugin's (0 OK, 1 WARNING,
2 CRITICAL, 3 UNKNOWN). Output follows the plugin API: a first line under 80 characters
`CORTEX HEALTH WARNING - <summary>`, then one detail line per finding and an `ok:` line
(long output), the last of them followed by `| <perfdata>` and one perfdata item per
further line. Perfdata is `'label'=value[UOM];warn;crit;min;max`. The whole first line is
left to the summary, so all perfdata sits after the long output, where the plugin API
allows it. A `|` inside a message would start perfdata, so text is stripped of it.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TextIO

from reports.measurements import Measurement, measurements
from reports.report import Report
from reports.severity import worst_first

STATE = {"ok": "OK", "warn": "WARNING", "critical": "CRITICAL", "unknown": "UNKNOWN"}
MAX_FIRST_LINE = 79
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


def measurement_perf(item: Measurement) -> str:
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
    lines = [first_line(report)]
    for item in worst_first(report.findings):
        lines.append(f"[{STATE.get(item.severity, 'UNKNOWN')}] {clean(item.id)}: {clean(item.message)}")
    if report.overall == "unknown":
        lines.append(f"reason: {clean(report.reason or 'unknown')}")
    else:
        lines.append(f"ok: {', '.join(clean(i) for i in report.ok_summary) or '(none)'}")
    more = [perf("critical", report.counts.critical, crit=0), perf("warn", report.counts.warn, warn=0)]
    more += [measurement_perf(item) for item in measurements(report)]
    lines[-1] += " | " + more[0]
    lines.extend(more[1:])
    out.write("\n".join(lines) + "\n")
