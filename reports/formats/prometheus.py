"""Report stage format `prometheus`: node_exporter textfile-collector (text exposition 0.0.4) metrics.

Chosen with --format prometheus; health.run also writes it to --prometheus-textfile PATH.prom
(atomically, mode 0644). Every metric is named cortex_health_* with base units in its name and
HELP/TYPE lines, one family per reports.measurements.series (the OTLP metrics carry the same
series): gauges, and one summary (the hook latencies over the last 24 h). Severities are
numbers so alerts can compare them: 0 ok, 1 warn, 2 critical, 3 unknown (the auditor could
not run). Numbers are printed shortest-exact (repr of the float, integers without a decimal
point). A label value never carries an absolute path: a check id that names a program by path
(hook-command-resolved: Stop:/home/ana/.venv/bin/cortex) is labelled by the program's name
alone (the path differs per install and would split one series per venv); ids that collapse
into one label keep the worst severity.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TextIO

from reports.measurements import PREFIX, series
from reports.report import Report


def escape_label(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def escape_help(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\n", "\\n")


def number(value: float) -> str:
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer() and abs(value) < 2**53):
        return str(int(value))
    return repr(float(value))


def sample(name: str, labels: tuple[tuple[str, str], ...], value: float) -> str:
    label_text = ",".join(f'{key}="{escape_label(str(val))}"' for key, val in labels)
    return f"{PREFIX}{name}{{{label_text}}} {number(value)}" if labels else f"{PREFIX}{name} {number(value)}"


def family(name: str, help_text: str, samples: Iterable[tuple[tuple[tuple[str, str], ...], float]],
           kind: str = "gauge", totals: Iterable[tuple[tuple[tuple[str, str], ...], float, int]] = ()) -> list[str]:
    rows = list(samples)
    if not rows:
        return []
    lines = [f"# HELP {PREFIX}{name} {escape_help(help_text)}", f"# TYPE {PREFIX}{name} {kind}"]
    lines += [sample(name, labels, value) for labels, value in rows]
    for labels, total, count in totals:  # a summary's sum and count per label set
        lines += [sample(f"{name}_sum", labels, total), sample(f"{name}_count", labels, count)]
    return lines


def lines_for(report: Report, table=None) -> list[str]:
    """The textfile's lines: every family of reports.measurements.series (`table`: its evidence metrics table)."""
    lines: list[str] = []
    for item in series(report, table):
        lines += family(item.name, item.help, item.samples, item.kind, item.totals)
    return lines


def render(report: Report, out: TextIO, *, tty: bool = False, verbose: bool = False,
           environ: Mapping[str, str] | None = None) -> None:
    out.write("\n".join(lines_for(report)) + "\n")
