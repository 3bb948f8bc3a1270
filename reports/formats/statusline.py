"""Report stage format `statusline`: one short line for a Claude Code status line, starship or tmux.

Used by `cortex-health statusline` (the newest published report, with its age) and by
--format statusline (a fresh run); both hand it the typed report (reports.report). Stdlib
only and no imports at run time: it is on the status line's fast path. Lines look like
`mem ✓ ok 4m`, `mem ▲ warn 2 · retrieval-stale`, `mem ✖ crit · reviewer-latest-failed`,
`mem ? no health run`. A report older than the
maximum age is stale: a stale ok never shows ✓, a stale problem keeps its mark.

Whatever the options or the report hold, the result is one line of printable text: every
character Python does not call printable (controls such as newline, CR and ESC, format
characters such as bidi overrides and zero-width spaces, line/paragraph separators, lone
surrogates) becomes a space: a prefix of ESC `[31mmem` and a newline prints `[31mmem ✓ ok 4m`.
"""
from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from reports.report import Report

ICONS = {"ok": "✓", "warn": "▲", "critical": "✖", "unknown": "?"}
ASCII_ICONS = {"ok": "+", "warn": "!", "critical": "x", "unknown": "?"}
WORDS = {"ok": "ok", "warn": "warn", "critical": "crit", "unknown": "unknown"}
MAX_ID = 40
SKEW_MS = 60_000  # a report up to a minute "from the future" is clock jitter, not skew


def age_text(ms: int) -> str:
    seconds = max(0, ms) // 1000
    if seconds < 60:
        return "<1m"
    if seconds < 3600:
        return f"{seconds // 60}m"
    if seconds < 48 * 3600:
        return f"{seconds // 3600}h"
    return f"{seconds // 86400}d"


def printable(text: object, limit: int | None = MAX_ID) -> str:
    """`text` with every non-printable character replaced by a space, trimmed, at most `limit` long."""
    value = "".join(ch if ch.isprintable() else " " for ch in str(text)).strip()
    return value if limit is None or len(value) <= limit else value[: limit - 1] + "…"


def problem_part(report: Report) -> str:
    """`warn 2 · retrieval-stale`: the worst severity, the count when > 1, its first id."""
    overall = report.overall
    total = (report.counts.critical or 0) + (report.counts.warn or 0)
    first = next((f for f in report.findings if f.severity == overall), None)
    text = WORDS.get(overall, "unknown") + (f" {total}" if total > 1 else "")
    if first is not None:
        text += f" · {printable(first.id)}"
    elif overall == "unknown" and report.reason:
        text += f" · {printable(report.reason)}"
    return text


def skipped_part(report: Report) -> str:
    count = len(report.skipped)
    return f" · {count} skipped" if count else ""


def line(report: Report | None, *, age_ms: int | None = None, max_age_ms: int | None = None,
         ascii: bool = False, prefix: str = "mem", problem: str | None = None) -> str:
    """The status line for a report (None: no report; `problem`: why none could be read)."""
    text = _compose(report, age_ms=age_ms, max_age_ms=max_age_ms, ascii=ascii, prefix=printable(prefix, None),
                    problem=problem)
    return "".join(ch if ch.isprintable() else " " for ch in text)  # the last guard: one printable line


def _compose(report: Report | None, *, age_ms: int | None, max_age_ms: int | None, ascii: bool, prefix: str,
             problem: str | None) -> str:
    icons = ASCII_ICONS if ascii else ICONS
    if problem is not None:
        return f"{prefix} {icons['unknown']} {printable(problem, 80)}"
    if report is None:
        return f"{prefix} {icons['unknown']} no health run"
    overall = report.overall if report.overall in ICONS else "unknown"
    if age_ms is not None and age_ms < -SKEW_MS:
        return f"{prefix} {icons['unknown']} clock skew: report is from the future (last {WORDS[overall]})"
    stale = age_ms is not None and max_age_ms is not None and age_ms > max_age_ms
    if overall == "ok":
        if stale:
            return f"{prefix} {icons['unknown']} stale {age_text(age_ms)} (last ok)"
        age = f" {age_text(age_ms)}" if age_ms is not None else ""
        return f"{prefix} {icons['ok']} ok{age}{skipped_part(report)}"
    text = f"{prefix} {icons[overall]} {problem_part(report)}"
    return text + (f" · stale {age_text(age_ms)}" if stale else "")


def render(report: Report, out, *, tty: bool = False, verbose: bool = False, environ=None) -> None:
    out.write(line(report) + "\n")
