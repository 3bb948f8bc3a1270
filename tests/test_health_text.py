"""The text format against a golden file, rendered by a colourless fixed-width console."""
from __future__ import annotations

import io
import os
from pathlib import Path

from reports.formats import text
from tests import health_scenarios as s
from tests.health_support import copy_demo, run_cli

GOLDEN = Path(__file__).parent / "golden" / "health_text_report.txt"


def test_text_report_matches_golden(tmp_path):
    root = copy_demo(tmp_path)
    s.da_cap(root)
    s.da_double_end(root)
    result = run_cli("--threshold", "proposal_backlog=1", root=root)
    document = result.report | {"root": "/home/ana/.claude"}
    out = io.StringIO()
    text.render(document, out, tty=False)
    if os.environ.get("UPDATE_GOLDEN") == "1":
        GOLDEN.write_text(out.getvalue())
    assert out.getvalue() == GOLDEN.read_text()


def test_messages_with_brackets_are_not_markup():
    document = {"counts": {"critical": 1, "warn": 0, "ok": 0}, "overall": "critical", "ts": "T", "root": "/r",
                "findings": [{"id": "x", "severity": "critical", "message": "keys [bold]ts[/bold] ['a']",
                              "detail": {"measured": 2048, "threshold": 1024, "unit": "bytes"}}],
                "ok_summary": [], "reason": None}
    out = io.StringIO()
    text.render(document, out, tty=False)
    assert "keys [bold]ts[/bold] ['a']" in out.getvalue() and "2.0 KiB" in out.getvalue()
