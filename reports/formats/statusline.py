"""Report stage format `statusline`: one short line for a Claude Code status line, starship or tmux.

Used by `cortex-health statusline` (the newest published report, with its age) and by
--format statusline (a fresh run). Stdlib only and no imports at all: it is on the status
line's fast path. Lines look like `mem ✓ ok 4m`, `mem ▲ warn 2 · retrieval-stale`,
`mem ✖ crit · reviewer-latest-failed`, `mem ? no health run`. A report older than the
maximum age is stale: a stale ok never shows ✓, a stale problem keeps its mark.

Whatever the options or the report hold, the result is one line of printable text: every
character Python does not call printable (controls such as newline, CR and ESC, format
characters such as bidi overrides and zero-width spaces, line/paragraph separators, lone
surrogates) becomes a space: a prefix of ESC `[31mmem` and a newline prints `[31mmem ✓ ok 4m`.
"""
from __future__ import annotations

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


def problem_part(document: dict) -> str:
    """`warn 2 · retrieval-stale`: the worst severity, the count when > 1, its first id."""
    overall = document.get("overall")
    counts = document.get("counts") or {}
    total = (counts.get("critical") or 0) + (counts.get("warn") or 0)
    first = next((f for f in document.get("findings") or () if f.get("severity") == overall), None)
    text = WORDS.get(overall, "unknown") + (f" {total}" if total > 1 else "")
    if first is not None:
        text += f" · {printable(first.get('id'))}"
    elif overall == "unknown" and document.get("reason"):
        text += f" · {printable(document['reason'])}"
    return text


def skipped_part(document: dict) -> str:
    evidence = document.get("evidence") or {}
    count = sum(1 for item in evidence.values() if isinstance(item, dict) and item.get("status") == "skipped")
    return f" · {count} skipped" if count else ""


def line(document: dict | None, *, age_ms: int | None = None, max_age_ms: int | None = None,
         ascii: bool = False, prefix: str = "mem", problem: str | None = None) -> str:
    """The status line for a report (None: no report; `problem`: why none could be read)."""
    text = _compose(document, age_ms=age_ms, max_age_ms=max_age_ms, ascii=ascii, prefix=printable(prefix, None),
                    problem=problem)
    return "".join(ch if ch.isprintable() else " " for ch in text)  # the last guard: one printable line


def _compose(document: dict | None, *, age_ms: int | None, max_age_ms: int | None, ascii: bool, prefix: str,
             problem: str | None) -> str:
    icons = ASCII_ICONS if ascii else ICONS
    if problem is not None:
        return f"{prefix} {icons['unknown']} {printable(problem, 80)}"
    if document is None:
        return f"{prefix} {icons['unknown']} no health run"
    overall = document.get("overall") if document.get("overall") in ICONS else "unknown"
    if age_ms is not None and age_ms < -SKEW_MS:
        return f"{prefix} {icons['unknown']} clock skew: report is from the future (last {WORDS[overall]})"
    stale = age_ms is not None and max_age_ms is not None and age_ms > max_age_ms
    if overall == "ok":
        if stale:
            return f"{prefix} {icons['unknown']} stale {age_text(age_ms)} (last ok)"
        age = f" {age_text(age_ms)}" if age_ms is not None else ""
        return f"{prefix} {icons['ok']} ok{age}{skipped_part(document)}"
    text = f"{prefix} {icons[overall]} {problem_part(document)}"
    return text + (f" · stale {age_text(age_ms)}" if stale else "")


def render(document: dict, out, *, tty: bool = False, verbose: bool = False, environ=None) -> None:
    out.write(line(document) + "\n")
