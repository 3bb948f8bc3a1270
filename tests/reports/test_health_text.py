"""The text format against a golden file, rendered by a colourless fixed-width console."""
from __future__ import annotations

import io
import os
from pathlib import Path

from reports.formats import text
from health.judge.catalogue.find import lookup
from reports.report import from_document
from tests import health_scenarios as s
from tests.health_support import copy_demo, run_cli

GOLDEN = Path(__file__).parents[1] / "golden" / "health_text_report.txt"


def test_text_report_matches_golden(tmp_path):
    root = copy_demo(tmp_path)
    s.da_cap(root)
    s.da_double_end(root)
    result = run_cli("--threshold", "proposal_backlog=1", root=root)
    document = result.report | {"root": "/home/ana/.claude"}
    out = io.StringIO()
    text.render(from_document(document, lookup=lookup), out, tty=False)
    if os.environ.get("UPDATE_GOLDEN") == "1":
        GOLDEN.write_text(out.getvalue())
    assert out.getvalue() == GOLDEN.read_text()


def test_messages_with_brackets_are_not_markup():
    document = {"counts": {"critical": 1, "warn": 0, "ok": 0}, "overall": "critical", "ts": "T", "root": "/r",
                "findings": [{"id": "x", "severity": "critical", "message": "keys [bold]ts[/bold] ['a']",
                              "detail": {"measured": 2048, "threshold": 1024, "unit": "bytes"}}],
                "ok_summary": [], "reason": None}
    out = io.StringIO()
    text.render(from_document(document, lookup=lookup), out, tty=False)
    assert "keys [bold]ts[/bold] ['a']" in out.getvalue() and "2.0 KiB" in out.getvalue()


def _ids_whole(out: str, ids: list[str]) -> None:
    for finding_id in ids:  # on one line, never split by the wrapper or the table
        assert any(finding_id in line for line in out.splitlines()), finding_id


def _lines_fit(out: str, width: int) -> None:
    import re

    for line in out.splitlines():  # only a single word longer than the width (a long path) may overflow
        assert len(line) <= width or not re.search(r"\s", line.strip()[width:]) or "/" in line, line


def test_text_at_80_and_120_columns_keeps_ids_whole_and_wraps_with_a_hanging_indent(tmp_path):
    root = copy_demo(tmp_path)
    s.da_cap(root)
    s.da_double_end(root)
    s.reviewer_failed(root)
    result = run_cli("--threshold", "proposal_backlog=1", root=root)
    document = result.report | {"root": "/home/ana/.claude"}
    ids = [item["id"] for item in document["findings"]] + document["ok_summary"]
    for width in (80, 120):
        out = io.StringIO()
        text.render(from_document(document, lookup=lookup), out, tty=False, verbose=True,
                    environ={"COLUMNS": str(width)})
        rendered = out.getvalue()
        _ids_whole(rendered, ids)
        _lines_fit(rendered, width)
        ok_block = rendered[rendered.index("\nok: "):].splitlines()[1:]
        assert len(ok_block) > 1 and all(line.startswith("    ") for line in ok_block[1:])
        fix_line = rendered.splitlines().index(next(line for line in rendered.splitlines() if line.startswith("  fix:")))
        follow = rendered.splitlines()[fix_line + 1]
        assert follow == "" or follow.startswith(" " * 13)  # the fix wraps under its own text
    narrow = io.StringIO()
    text.render(from_document(document, lookup=lookup), narrow, tty=False, environ={"COLUMNS": "80"})
    assert "Threshold" not in narrow.getvalue() or "┃" in narrow.getvalue()
    assert "CRITICAL reviewer-latest-failed\n" in narrow.getvalue()  # the list layout: the id on its own line


def test_narrow_tables_drop_empty_columns(tmp_path):
    document = {"counts": {"critical": 1, "warn": 0, "ok": 0}, "overall": "critical", "ts": "T", "root": "/r",
                "findings": [{"id": "state-corrupt", "severity": "critical", "message": "bad json", "detail": {}}],
                "ok_summary": [], "evidence": {}}
    narrow, wide = io.StringIO(), io.StringIO()
    text.render(from_document(document, lookup=lookup), narrow, tty=False, environ={"COLUMNS": "80"})
    text.render(from_document(document, lookup=lookup), wide, tty=False, environ={"COLUMNS": "120"})
    assert "Measured" not in narrow.getvalue() and "state-corrupt" in narrow.getvalue()
    assert "Measured" in wide.getvalue()


def test_the_cli_renders_at_the_width_columns_says(tmp_path):
    root = copy_demo(tmp_path)
    s.reviewer_failed(root)
    from tests.health_support import clean_env

    done = run_cli("--format", "text", "-v", root=root, env=clean_env(COLUMNS="80"))
    assert done.code == 2 and "reviewer-latest-failed" in done.stdout
    assert max(len(line) for line in done.stdout.splitlines() if "/" not in line) <= 80
