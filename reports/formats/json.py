"""Report stage format `json`: the compact report, exactly the memory-health.jsonl line.

Chosen by the CLI when stdout is not a terminal or with --json / --format json.
"""
from __future__ import annotations

from typing import Any, TextIO


def render(document: dict[str, Any], out: TextIO, *, tty: bool = False) -> None:
    from reports.schema import report_json

    out.write(report_json(document) + "\n")
