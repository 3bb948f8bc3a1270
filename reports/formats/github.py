"""Report stage format `github`: GitHub Actions annotations plus a Markdown job summary.

Chosen with --format github, and by default when GITHUB_ACTIONS=true. Writes `::error` for
critical and `::warning` for warn findings, worst first, escaped as the runner's workflow
command parser expects, and within GitHub's limit of 10 errors and 10 warnings per step
(the tenth becomes "N more"). The Markdown summary is appended to $GITHUB_STEP_SUMMARY when
the environment names it (bounded well under the runner's 1 MiB per step).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TextIO

from reports.report import Report
from reports.units import human_value
from reports.severity import worst_first

PER_STEP = 10  # GitHub shows at most 10 error and 10 warning annotations per step
MAX_SUMMARY_BYTES = 512 * 1024
COMMAND = {"critical": "error", "warn": "warning"}


def escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(kind: str, title: str, message: str) -> str:
    return f"::{kind} title={escape_property(title)}::{escape_data(message)}"


def annotations(report: Report) -> list[str]:
    lines = []
    for severity, kind in COMMAND.items():
        items = [f for f in report.findings if f.severity == severity]
        shown = items if len(items) <= PER_STEP else items[: PER_STEP - 1]
        lines += [annotation(kind, f"cortex-health {f.id}", f.message) for f in shown]
        if len(items) > len(shown):
            lines.append(annotation(kind, "cortex-health", f"{len(items) - len(shown)} more {severity} findings: "
                                    "see the job summary or run cortex-health -v"))
    if report.overall == "unknown":
        lines.insert(0, annotation("error", "cortex-health", f"the auditor could not run: {report.reason}"))
    return lines


def cell(text: Any) -> str:
    value = str(text).replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("|", "\\|")
    return " ".join(value.split())


def summary_markdown(report: Report) -> str:
    counts = report.counts
    lines = [f"## cortex-health: {str(report.overall).upper()}", "",
             f"critical {counts.critical}, warn {counts.warn}, ok {counts.ok} "
             f"at {cell(report.ts)}, root `{cell(report.root)}`", ""]
    if report.reason:
        lines += [f"**The auditor could not run:** {cell(report.reason)}", ""]
    findings = worst_first(report.findings)
    if findings:
        lines += ["| severity | id | message | measured | threshold |", "| --- | --- | --- | --- | --- |"]
        for item in findings:
            unit = item.detail.get("unit")
            lines.append(f"| {item.severity} | `{cell(item.id)}` | {cell(item.message)} | "
                         f"{cell(human_value(item.detail.get('measured'), unit))} | "
                         f"{cell(human_value(item.detail.get('threshold'), unit))} |")
        lines.append("")
    if report.ok_summary:
        lines += ["<details><summary>ok checks</summary>", "",
                  ", ".join(f"`{cell(i)}`" for i in report.ok_summary), "", "</details>", ""]
    text = "\n".join(lines)
    if len(text.encode("utf-8")) > MAX_SUMMARY_BYTES:
        text = text.encode("utf-8")[: MAX_SUMMARY_BYTES].decode("utf-8", "ignore").rsplit("\n", 1)[0]
        text += "\n\n_(summary truncated: run cortex-health -v for everything)_\n"
    return text


def append_summary(path: str, text: str) -> str | None:
    try:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(text if text.endswith("\n") else text + "\n")
    except OSError as error:
        return f"{path}: {error.strerror or error}"
    return None


def render(report: Report, out: TextIO, *, tty: bool = False, verbose: bool = False,
           environ: Mapping[str, str] | None = None) -> None:
    lines = annotations(report)
    target = (environ or {}).get("GITHUB_STEP_SUMMARY")
    if target:
        failure = append_summary(target, summary_markdown(report))
        if failure:
            lines.append(annotation("warning", "cortex-health", f"job summary not written: {failure}"))
    counts = report.counts
    lines.append(f"cortex-health {str(report.overall).upper()}: critical {counts.critical}, "
                 f"warn {counts.warn}, ok {counts.ok}")
    out.write("\n".join(lines) + "\n")
