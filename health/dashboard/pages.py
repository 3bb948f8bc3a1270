"""Dashboard stage: the HTML pages (verdict, history plots, per-check history). Called by health.dashboard.handler.

Pure functions of a Window (and the live chain status): no I/O here. Every value from a
report goes through html.escape; the pages carry no script, no inline style (the CSS is
/style.css, allowed by the Content-Security-Policy) and no link outside the dashboard.
Shown from a report: the verdict, ids, messages, the finding details, thresholds and the
catalogue's meaning and fix, i.e. what the published report already holds; never a
memory file.
"""
from __future__ import annotations

from html import escape
from typing import Any

from health.dashboard import svg
from health.dashboard.data import Window, check_histories, series
from health.judge.model import Overall
from reports.report import Finding, Report
from reports.severity import rank
from health.judge.findings import human_ms
from reports.hints import detail_text, threshold_line

NAV = (("/", "Verdict"), ("/history", "History"), ("/checks", "Checks"))
CSS = """body{font-family:DejaVu Sans,Helvetica,Arial,sans-serif;margin:1.2em 2em;color:#111;max-width:1400px}
nav a{margin-right:1.2em}nav a.here{font-weight:bold;text-decoration:none;color:#111}
.verdict{display:inline-block;padding:.2em .7em;border-radius:4px;color:#fff;font-weight:bold}
.ok{background:#15803d}.warn{background:#d97706}.critical{background:#b91c1c}.unknown,.absent{background:#555}
table{border-collapse:collapse;margin:.6em 0}td,th{border:1px solid #ddd;padding:.25em .5em;vertical-align:top;
text-align:left;font-size:.9em}th{background:#f3f4f6}.sev{color:#fff;font-weight:bold}
.charts{display:flex;flex-wrap:wrap;gap:10px}.chart{border:1px solid #e5e7eb}.muted{color:#555}
code{font-size:.9em}
"""


def layout(title: str, path: str, body: str) -> str:
    here = ' class="here"'
    links = "".join(f'<a href="{href}"{here if href == path else ""}>{name}</a>' for href, name in NAV)
    return (f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>{escape(title)} · cortex-health'
            f'</title><link rel="stylesheet" href="/style.css"><meta name="referrer" content="no-referrer">'
            f'</head><body><nav>{links}</nav><h1>{escape(title)}</h1>{body}</body></html>')


def _empty(window: Window) -> str | None:
    if window.problem:
        return f'<p id="problem" class="muted">{escape(window.problem)}</p>'
    if not window.reports:
        return '<p id="empty" class="muted">No health run recorded yet: run <code>cortex-health</code> once.</p>'
    return None


def _chain(chain: dict[str, Any]) -> str:
    return (f'<p id="chain">History chain: <strong data-state="{escape(chain.get("state", "?"))}">'
            f'{escape(chain.get("state", "?"))}</strong> <span class="muted">{escape(chain.get("text", ""))}</span></p>')


def verdict_page(window: Window, chain: dict[str, Any]) -> str:
    empty = _empty(window)
    if empty:
        return layout("Memory health", "/", empty + _chain(chain))
    report = window.newest
    overall, counts = report.overall, report.counts
    parts = [f'<p><span id="overall" class="verdict {escape(overall)}">{escape(overall.upper())}</span> '
             f'critical {counts.critical}, warn {counts.warn}, ok {counts.ok} · run at '
             f'<time>{escape(report.ts)}</time> · {len(window.reports)} run(s) in the window</p>', _chain(chain)]
    if report.reason:
        parts.append(f'<p>The auditor could not run: {escape(str(report.reason))}</p>')
    if window.malformed:
        parts.append(f'<p class="muted">{len(window.malformed)} line(s) in the window are not reports (positions from '
                     f'the end: {escape(", ".join(str(r.position) for r in window.malformed[:20]))}).</p>')
    rows = [_finding_row(finding, report) for finding in report.findings]
    parts.append('<table id="findings"><tr><th>severity</th><th>id</th><th>message</th><th>evidence</th>'
                 '<th>threshold</th><th>fix</th></tr>' + "".join(rows) + "</table>" if rows
                 else '<p id="no-findings">No finding: every check passed.</p>')
    ok_ids = ", ".join(escape(str(item)) for item in report.ok_summary)
    parts.append(f'<p class="muted">ok: {ok_ids}</p>')
    return layout("Memory health", "/", "".join(parts))


def _finding_row(finding: Finding, report: Report) -> str:
    problem = finding.problem_entry()  # joined when the line became a typed report
    threshold = threshold_line(finding, report) if problem else "none (a state check)"
    fix = problem.fix if problem else "No catalogue entry for this id; read its message."
    severity = escape(finding.severity)
    return (f'<tr class="finding" data-id="{escape(finding.id)}"><td class="sev {severity}">{severity}</td>'
            f'<td><code>{escape(finding.id)}</code></td><td>{escape(finding.message)}</td>'
            f'<td>{escape(detail_text(finding.detail))}</td><td>{escape(threshold)}</td>'
            f'<td>{escape(fix)}</td></tr>')


def _points(table: dict, key: str, scale: float = 1.0) -> tuple[list, float | None, float | None]:
    rows = table.get(key, [])
    points = [(t, None if v is None else v / scale) for t, v, _, _ in rows]
    warn = next((w for _, v, w, _ in reversed(rows) if w is not None), None)
    cap = next((m for _, v, _, m in reversed(rows) if m is not None), None)
    return points, None if warn is None else warn / scale, cap


def history_page(window: Window, chain: dict[str, Any]) -> str:
    empty = _empty(window)
    if empty:
        return layout("Health history", "/history", empty + _chain(chain))
    reports = window.reports
    table = series(window)
    level = {overall.rank: overall.value for overall in Overall}
    charts = [svg.chart("Overall over time", [svg.Series("overall", [(t, rank(r.overall)) for t, r in reports],
                                                         svg.COLOURS[2])], step=True, y_labels=level)]
    charts.append(svg.chart("Findings per severity", [
        svg.Series(name, [(t, getattr(r.counts, name)) for t, r in reports], colour)
        for name, colour in (("critical", svg.COLOURS[2]), ("warn", svg.COLOURS[1]))]))
    for key, title in (("reviewer_age_seconds", "Reviewer age"), ("retrieval_age_seconds", "Retrieval age")):
        points, warn, _ = _points(table, key, 3600)
        charts.append(svg.chart(f"{title} (hours)", [svg.Series(key.split("_")[0], points)], unit="hours",
                                threshold=warn, threshold_name="stale after"))
    points, warn, _ = _points(table, "observability_bytes")
    charts.append(svg.chart("Observability bytes", [svg.Series("bytes", points)], unit="bytes", threshold=warn,
                            threshold_name="max"))
    points, warn, _ = _points(table, "pending_proposals")
    charts.append(svg.chart("Pending proposals", [svg.Series("pending", points)], threshold=warn,
                            threshold_name="backlog"))
    hot = [key for key in table if key.startswith("hot_memory_entries:")]
    caps = [_points(table, key) for key in hot]
    cap = next((c for _, _, c in caps if c is not None), None)
    charts.append(svg.chart("Hot-memory entries against the cap", [
        svg.Series(key.split(":", 1)[1], points, svg.COLOURS[i % len(svg.COLOURS)]) for i, (key, (points, _, _))
        in enumerate(zip(hot, caps))], threshold=cap, threshold_name="cap"))
    body = (f'<p>{len(reports)} run(s) from {escape(reports[0][1].ts)} to {escape(reports[-1][1].ts)}.</p>'
            + _chain(chain) + '<div class="charts">' + "".join(charts) + "</div>")
    return layout("Health history", "/history", body)


def checks_page(window: Window, chain: dict[str, Any]) -> str:
    empty = _empty(window)
    if empty:
        return layout("Per-check history", "/checks", empty)
    rows = []
    for item in check_histories(window):
        episodes = "; ".join(f'{escape(e.severity)} from {escape(e.start)} '
                             + (f"to {escape(e.end)}" if e.end else "(still failing)")
                             + (f", {escape(human_ms(e.duration_ms))}" if e.duration_ms else "") + f", {e.runs} run(s)"
                             for e in item.episodes[-5:])
        more = f" (+{len(item.episodes) - 5} earlier)" if len(item.episodes) > 5 else ""
        current = escape(item.current)
        rows.append(f'<tr class="check" data-id="{escape(item.id)}"><td><code>{escape(item.id)}</code></td>'
                    f'<td class="sev {current}">{current}</td><td>{len(item.episodes)}</td><td>{item.flaps}'
                    f'{" (flapping)" if item.flaps >= 3 else ""}</td><td>{episodes or "never failed"}{more}</td></tr>')
    body = (f'<p>{len(window.reports)} run(s) in the window. A flap is a change between failing and passing.</p>'
            '<table id="checks"><tr><th>id</th><th>now</th><th>episodes</th><th>flaps</th>'
            '<th>when it failed (start, end, how long)</th></tr>' + "".join(rows) + "</table>")
    return layout("Per-check history", "/checks", body)
