"""Report stage format `json`: the compact report, exactly the memory-health.jsonl line.

Chosen by the CLI when stdout is not a terminal or with --json / --format json.
"""
from __future__ import annotations

from reports.report import Report

TYPE_CHECKING = False  # typing costs the gate and every JSON audit ~2 ms
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import TextIO


def render(report: Report, out: TextIO, *, tty: bool = False, verbose: bool = False,
           environ: Mapping[str, str] | None = None) -> None:
    from reports.reportjson import report_text

    out.write(report_text(report) + "\n")
