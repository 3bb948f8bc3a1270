"""Report stage format `prometheus`: node_exporter textfile-collector (text exposition 0.0.4) metrics.

Chosen with --format prometheus; health.run also writes it to --prometheus-textfile PATH.prom
(atomically, mode 0644). Every metric is named cortex_health_* with base units in its name and
HELP/TYPE lines: gauges, and one summary (the hook latencies over the last 24 h). Severities are numbers so alerts can compare them:
0 ok, 1 warn, 2 critical, 3 unknown (the auditor could not run).
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, TextIO

from reports.measurements import measurements
from reports.report import Report
from reports.severity import rank

PREFIX = "cortex_health_"


def escape_label(value: str) -> str:
    return value.replace("\\", "\\\\").replace("\n", "\\n").replace('"', '\\"')


def escape_help(text: str) -> str:
    return text.replace("\\", "\\\\").replace("\n", "\\n")


def number(value: float) -> str:
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer() and abs(value) < 2**53):
        return str(int(value))
    return repr(float(value))


def family(name: str, help_text: str, samples: Iterable[tuple[tuple[tuple[str, str], ...], float]]) -> list[str]:
    rows = list(samples)
    if not rows:
        return []
    lines = [f"# HELP {PREFIX}{name} {escape_help(help_text)}", f"# TYPE {PREFIX}{name} gauge"]
    for labels, value in rows:
        label_text = ",".join(f'{key}="{escape_label(str(val))}"' for key, val in labels)
        lines.append(f"{PREFIX}{name}{{{label_text}}} {number(value)}" if labels else f"{PREFIX}{name} {number(value)}")
    return lines


def check_rows(report: Report) -> list[tuple[str, str, int]]:
    """(id, collector, severity number) for every id of the run, ok ones included; the collector is its catalogue's."""
    rows = [(item, rank(item.severity)) for item in report.findings] + [(item, 0) for item in report.passed]
    return sorted((item.id, (item.entry.collector if item.entry else None) or "run", severity)
                  for item, severity in rows)


def collector_rows(report: Report, checks: list[tuple[str, str, int]]) -> list[tuple[str, int]]:
    """Worst severity per collector that ran (skipped collectors have no series)."""
    worst: dict[str, int] = {}
    for name, item in report.evidence.items():
        if isinstance(item, Mapping) and item.get("status") != "skipped":
            worst[name] = 0
    for _, collector, severity in checks:
        if collector in worst:
            worst[collector] = max(worst[collector], severity)
    return sorted(worst.items())


def hook_latency_lines(report: Report) -> list[str]:
    """A summary per hook over the last 24 h of its rows (sum and count cover the same window, so they can fall)."""
    from reports.hook_latency import summaries

    hooks = summaries(report)
    if not hooks:
        return []
    name = f"{PREFIX}hook_duration_seconds"
    lines = [f"# HELP {name} Duration of each memory hook over the last 24 h of its own rows (recall, fire, gate), "
             "in seconds; _sum and _count cover the same window.", f"# TYPE {name} summary"]
    for item in hooks:
        label = f'hook="{escape_label(item.hook)}"'
        lines += [f'{name}{{{label},quantile="{quantile}"}} {number(value)}' for quantile, value in item.quantiles]
        lines += [f"{name}_sum{{{label}}} {number(item.sum_seconds)}", f"{name}_count{{{label}}} {item.count}"]
    lines += family("hook_timeout_seconds", "Timeout settings.json registers for each memory hook (Claude Code's "
                    "60 s when none), in seconds.",
                    [((("hook", item.hook),), item.timeout_seconds) for item in hooks if item.timeout_seconds])
    return lines


def lines_for(report: Report) -> list[str]:
    checks = check_rows(report)
    now = report.now_ms
    counts = report.counts._asdict()
    lines = family("overall", "Overall result of the last cortex-health run: 0 ok, 1 warn, 2 critical, 3 unknown "
                   "(the auditor could not run).", [((), rank(report.overall))])
    if now is not None:
        lines += family("last_run_timestamp_seconds", "When the last cortex-health run happened (its clock), in "
                        "seconds since the epoch.", [((), now / 1000)])
    lines += family("checks", "Checks of the last run by severity.",
                    [((("severity", key),), counts.get(key, 0)) for key in ("critical", "warn", "ok")])
    lines += family("check_severity", "Severity of each check id of the last run: 0 ok, 1 warn, 2 critical.",
                    [((("check", finding_id), ("collector", collector)), severity)
                     for finding_id, collector, severity in checks])
    lines += family("collector_severity", "Worst severity among the checks of each collector that ran: "
                    "0 ok, 1 warn, 2 critical.",
                    [((("collector", name),), severity) for name, severity in collector_rows(report, checks)])
    history = report.evidence.get("health_history") or {}
    if isinstance(history, Mapping) and type(history.get("head_seq")) is int:
        lines += family("history_head_seq", "Sequence number of the newest chained line of memory-health.jsonl "
                        "(before this run's own line); a drop means the history was cut or rolled back.",
                        [((), history["head_seq"])])
    lines += hook_latency_lines(report)
    grouped: dict[str, list] = {}
    for item in measurements(report):
        grouped.setdefault(item.name, []).append(item)
    for name, items in grouped.items():
        lines += family(name, items[0].help, [(item.labels, item.value) for item in items])
    return lines


def render(report: Report, out: TextIO, *, tty: bool = False, verbose: bool = False,
           environ: Mapping[str, str] | None = None) -> None:
    out.write("\n".join(lines_for(report)) + "\n")
