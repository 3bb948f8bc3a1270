"""A report without findings is written without rich (reports.formats.text.plain_lines) exactly as rich writes it."""
from __future__ import annotations

import io

from hypothesis import given, settings, strategies as st

from health.judge.catalogue.find import lookup
from reports.formats import text
from reports.report import from_document

IDS = ["cortex-thresholds-valid", "memory-root-present", "settings-hook-present:cortex hot render",
       "hook-command-resolved:UserPromptSubmit:cortex", "hot-cap-headroom:principal", "health-history-intact"]
ROOTS = st.one_of(st.none(), st.sampled_from(["/home/ana/.claude", "/tmp/x y/root", "/r", "", " /lead", "/trail ",
                                              "/a[b]c", "/back\\slash", "/t\tab", "/ünï", "/wide/日本"]),
                  st.text(min_size=1, max_size=150))


def _document(overall, root, ok, skipped, reason, ts):
    return {"counts": {"critical": 0, "warn": 0, "ok": len(ok)}, "overall": overall, "ts": ts, "root": root,
            "findings": [], "ok_summary": ok, "skipped": skipped, "reason": reason}


@settings(max_examples=300, deadline=None)
@given(overall=st.sampled_from(["ok", "unknown"]), root=ROOTS, ok=st.lists(st.sampled_from(IDS), max_size=70),
       skipped=st.lists(st.sampled_from(["locks", "index", "hot_memory"]), max_size=3),
       reason=st.one_of(st.none(), st.sampled_from(["root /x is not a directory", "[bold]x", "a " * 80]),
                        st.text(max_size=60)),
       ts=st.sampled_from(["2026-11-29T12:00:00.000Z", "T", "[x]"]), columns=st.sampled_from([None, "40", "80", "200"]))
def test_a_report_without_findings_reads_as_rich_prints_it(overall, root, ok, skipped, reason, ts, columns):
    report = from_document(_document(overall, root, ok, skipped, reason, ts), lookup=lookup)
    environ = {} if columns is None else {"COLUMNS": columns}
    plain, rich = io.StringIO(), io.StringIO()
    text.render(report, plain, tty=False, environ=environ)
    text.render_rich(report, rich, tty=False, environ=environ)
    assert plain.getvalue() == rich.getvalue()


def test_the_demo_s_healthy_report_needs_no_rich_and_findings_do():
    healthy = from_document(_document("ok", "/home/ana/.claude", IDS * 10, [], None, "2026-11-29T12:00:00.000Z"),
                            lookup=lookup)
    assert text.plain_lines(healthy, 120) is not None
    document = _document("critical", "/r", [], [], None, "T") | {
        "counts": {"critical": 1, "warn": 0, "ok": 0},
        "findings": [{"id": "x", "severity": "critical", "message": "m", "detail": {}}]}
    assert text.plain_lines(from_document(document, lookup=lookup), 120) is None
