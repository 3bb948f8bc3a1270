"""Report stage format `text`: a readable rich table (severity, id, message, measured vs threshold).

Chosen by the CLI on a terminal or with --format text. rich is imported here only. Without
a terminal the table is plain text at a fixed width, which the golden-file tests compare.
"""
from __future__ import annotations

from typing import Any, TextIO

from health.findings import human_ms

ORDER = {"critical": 0, "warn": 1}
STYLE = {"critical": "bold red", "warn": "yellow", "ok": "green", "unknown": "magenta"}
PLAIN_WIDTH = 120


def human_value(value: Any, unit: str | None) -> str:
    if value is None:
        return ""
    if unit == "ms" and isinstance(value, (int, float)):
        return human_ms(value)
    if unit == "bytes" and isinstance(value, (int, float)):
        return human_bytes(value)
    return str(value)


def human_bytes(size: float) -> str:
    for factor, unit in ((1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")):
        if size >= factor:
            return f"{size / factor:.1f} {unit}"
    return f"{int(size)} B"


def findings_table(document: dict[str, Any]):
    from rich.table import Table
    from rich.text import Text

    table = Table(show_lines=False, expand=False)
    for column in ("Severity", "ID", "Message", "Measured", "Threshold"):
        table.add_column(column, overflow="fold")
    for item in sorted(document["findings"], key=lambda f: ORDER.get(f["severity"], 2)):
        detail = item.get("detail") or {}
        unit = detail.get("unit")
        # Text, not markup: messages quote file content and may contain brackets.
        table.add_row(Text(item["severity"].upper(), style=STYLE[item["severity"]]), Text(item["id"]),
                      Text(item["message"]), Text(human_value(detail.get("measured"), unit)),
                      Text(human_value(detail.get("threshold"), unit)))
    return table


def render(document: dict[str, Any], out: TextIO, *, tty: bool = False) -> None:
    from rich.console import Console

    console = Console(file=out, force_terminal=tty, color_system="auto" if tty else None,
                      width=None if tty else PLAIN_WIDTH, highlight=False, emoji=False)
    counts = document["counts"]
    overall = document["overall"]
    console.print(f"cortex-health [{STYLE.get(overall, 'bold')}]{overall.upper()}[/]  "
                  f"critical {counts['critical']}, warn {counts['warn']}, ok {counts['ok']}  "
                  f"at {document['ts']}", markup=True)
    console.print(f"root: {document['root']}", markup=False)
    if document["findings"]:
        console.print(findings_table(document))
    else:
        console.print("No problems found.", markup=False)
    if document["ok_summary"]:
        console.print("ok: " + ", ".join(document["ok_summary"]), markup=False, soft_wrap=True)
    if document.get("reason"):
        console.print(f"reason: {document['reason']}", markup=False)
