"""Report stage format `text`: a readable rich table (severity, id, message, measured vs threshold).

Chosen by the CLI on a terminal or with --format text. rich is imported here only. Without
a terminal the table is plain text at a fixed width, which the golden-file tests compare.
With -v every finding also gets its evidence, its threshold and source, and the fix from
the catalogue (reports.hints), the same text `cortex-health explain ID` prints.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TextIO

from reports.units import human_bytes, human_value
from reports.severity import worst_first

__all__ = ["human_bytes", "human_value", "render"]

STYLE = {"critical": "bold red", "warn": "yellow", "ok": "green", "unknown": "magenta"}
PLAIN_WIDTH = 120


def findings_table(document: dict[str, Any]):
    from rich.table import Table
    from rich.text import Text

    table = Table(show_lines=False, expand=False)
    for column in ("Severity", "ID", "Message", "Measured", "Threshold"):
        table.add_column(column, overflow="fold")
    for item in worst_first(document["findings"]):
        detail = item.get("detail") or {}
        unit = detail.get("unit")
        # Text, not markup: messages quote file content and may contain brackets.
        table.add_row(Text(item["severity"].upper(), style=STYLE[item["severity"]]), Text(item["id"]),
                      Text(item["message"]), Text(human_value(detail.get("measured"), unit)),
                      Text(human_value(detail.get("threshold"), unit)))
    return table


def skipped(document: dict[str, Any]) -> list[str]:
    return [name for name, item in (document.get("evidence") or {}).items()
            if isinstance(item, dict) and item.get("status") == "skipped"]


def render(document: dict[str, Any], out: TextIO, *, tty: bool = False, verbose: bool = False,
           environ: Mapping[str, str] | None = None) -> None:
    from rich.console import Console

    console = Console(file=out, force_terminal=tty, color_system="auto" if tty else None,
                      width=None if tty else PLAIN_WIDTH, highlight=False, emoji=False)
    counts = document["counts"]
    overall = document["overall"]
    console.print(f"cortex-health [{STYLE.get(overall, 'bold')}]{overall.upper()}[/]  "
                  f"critical {counts['critical']}, warn {counts['warn']}, ok {counts['ok']}  "
                  f"at {document['ts']}", markup=True)
    console.print(f"root: {document['root'] or '(not resolved)'}", markup=False)
    if document["findings"]:
        console.print(findings_table(document))
    elif overall == "ok":
        console.print("No problems found.", markup=False)
    else:  # an unknown verdict found nothing because it could not look
        console.print("Nothing was checked: the verdict is unknown (see the reason below).", markup=False)
    if verbose:
        from reports.hints import finding_block

        for item in worst_first(document["findings"]):
            console.print("", markup=False)
            for line in finding_block(item, document):
                console.print(line, markup=False, soft_wrap=True)
    if skipped(document):
        console.print("skipped (not checked): " + ", ".join(skipped(document)), markup=False, soft_wrap=True)
    if document["ok_summary"]:
        console.print("ok: " + ", ".join(document["ok_summary"]), markup=False, soft_wrap=True)
    if document.get("reason"):
        console.print(f"reason: {document['reason']}", markup=False)
