"""Evaluate stage rule: what the hot-memory entries say, against the curation contract. Used by the evaluator through health.judge.checks.

Per hot file: entries phrased as commands (warn), shaped like a prompt injection (critical),
stated twice (warn), holding ephemera or a date within the next 7 days (warn), and a file at
or above the reviewer's consolidate-first line (39 of 48) but below `cap_pressure` (warn,
with the entry count's trend over the health history). From `cap_pressure` on the file's
capacity is hot_memory's `cap-pressure:{label}` alone: one finding per problem. A file the
hot_memory collector reports missing or unreadable gets nothing here.
"""
from __future__ import annotations

from collectors.lifeos.hot_content import HotContentEvidence, HotContentFile
from cortex.core.timestamps import iso_from_ms, parse_timestamp_ms
from health.judge.catalogue import Ok, Problem
from health.judge.catalogue.hot_content import (HOT_CAP_HEADROOM, HOT_CAP_PRESSURE, HOT_ENTRIES_DECLARATIVE,
                                          HOT_ENTRIES_DISTINCT, HOT_ENTRIES_DUPLICATE, HOT_ENTRIES_DURABLE,
                                          HOT_ENTRIES_NO_INJECTION, HOT_ENTRY_EPHEMERAL, HOT_ENTRY_IMPERATIVE,
                                          HOT_ENTRY_INJECTION)
from health.judge.model import EvidenceStatus, Finding, as_json
from health.judge.rules import Context

TYPE_CHECKING = False  # annotations only: collections.abc imports collections (~7M instructions)
if TYPE_CHECKING:
    from collections.abc import Iterator

DAY_MS = 86_400_000
SOON_DAYS = 7
RULES = {  # the contract's words (seed 002 §2.4, §3), quoted in every finding
    "imperative": "hot entries are declarative facts about the person, never instructions "
                  "(PREFERENCE: prefers terse responses, not RULE: Always be terse)",
    "injection": "memory is injected into every prompt: an entry must never carry instructions, prompt markup, "
                 "commands to run or hidden characters",
    "duplicates": "merge duplicates, and supersede rather than stack (a new fact replaces the old entry)",
    "ephemeral": "never save session state, task progress or TODOs, commit SHAs, PR numbers, branch names, "
                 "environment-dependent failures or anything stale within 7 days",
    "capacity": "at 39 entries or more the reviewer must consolidate before adding",
}


def judge(ev: HotContentEvidence, ctx: Context) -> Iterator[Finding]:
    for hot in ev.files:
        if hot.file.status is EvidenceStatus.OK:
            yield from judge_file(hot, ev.consolidate_at, ctx)


def judge_file(hot: HotContentFile, consolidate_at: int, ctx: Context) -> Iterator[Finding]:
    label, path = hot.label, hot.file.path
    yield _kind(hot, "imperative", hot.imperative.total, hot.imperative.shown, HOT_ENTRY_IMPERATIVE,
                "phrased as a command to the assistant", HOT_ENTRIES_DECLARATIVE, "are declarative facts")
    yield _kind(hot, "injection", hot.injection.total, hot.injection.shown, HOT_ENTRY_INJECTION,
                "shaped like a prompt injection or a command to run", HOT_ENTRIES_NO_INJECTION,
                "carry no injection-shaped text")
    yield _kind(hot, "duplicates", hot.duplicates.total, hot.duplicates.shown, HOT_ENTRIES_DUPLICATE,
                "repeating an earlier entry", HOT_ENTRIES_DISTINCT, "are distinct")
    soon = [item for item in _soon(hot, ctx.now_ms) if item["line"] not in {f.line for f in hot.ephemeral.shown}]
    ephemeral = [as_json(item) for item in hot.ephemeral.shown] + soon
    yield _kind(hot, "ephemeral", hot.ephemeral.total + len(soon), ephemeral, HOT_ENTRY_EPHEMERAL, "holding ephemera",
                HOT_ENTRIES_DURABLE, "hold no ephemera")
    cap = ctx.thresholds["cap_pressure"]
    where = dict(measured=hot.entries, threshold=consolidate_at, unit="count", cap_entries=hot.cap_entries, path=path)
    if hot.entries < consolidate_at:
        yield HOT_CAP_HEADROOM.at(
            label, message=f"{label} memory is below the consolidate-first line "
            f"({hot.entries}/{hot.cap_entries}, consolidate at {consolidate_at}).", **where)
    elif hot.entries < cap:
        yield HOT_CAP_PRESSURE.at(
            label, message=f"{label} memory at {hot.entries}/{hot.cap_entries} entries, at or "
            f"over the reviewer's consolidate-first line ({consolidate_at}){_trend_text(hot, ctx.now_ms)}: "
            f"{RULES['capacity']}.", rule=RULES["capacity"], trend=as_json(hot.trend), **where)


def _kind(hot: HotContentFile, kind: str, total: int, shown, problem: Problem, what: str, passed: Ok,
          ok_text: str) -> Finding:
    label = hot.label
    if not total:
        return passed.at(label, message=f"The {hot.entries} {label} memory entries {ok_text}.")
    items = [item if isinstance(item, dict) else as_json(item) for item in shown]
    first = items[0]
    more = f" (and {total - 1} more)" if total > 1 else ""
    return problem.at(
        label, message=f"{label} memory line {first['line']}{more}: {total} entr{'y' if total == 1 else 'ies'} "
        f"{what} ({first['rule']}): {RULES[kind]}.", entries=items, total=total, rule=RULES[kind],
        path=hot.file.path)


def _soon(hot: HotContentFile, now_ms: int) -> list[dict]:
    """Dated entries naming a day from today (UTC) to SOON_DAYS days ahead."""
    found = []
    for item in hot.dated:
        date = next((date for date in item.dates if soon_date(date, now_ms)), None)
        if date:
            found.append({"line": item.line, "entry": item.entry, "rule": f"names {date}, within the next 7 days"})
    return found


def soon_date(date: str, now_ms: int) -> bool:
    """Whether `YYYY-MM-DD` (or `--MM-DD`, its next occurrence) falls from today (UTC) to SOON_DAYS days ahead."""
    today = now_ms - now_ms % DAY_MS
    if date.startswith("--"):
        year = int(iso_from_ms(today)[:4])
        at_ms = parse_timestamp_ms(f"{year}{date[1:]}")
        if at_ms is None or at_ms < today:
            at_ms = parse_timestamp_ms(f"{year + 1}{date[1:]}")
    else:
        at_ms = parse_timestamp_ms(date)
    return at_ms is not None and today <= at_ms <= now_ms + SOON_DAYS * DAY_MS


def _trend_text(hot: HotContentFile, now_ms: int) -> str:
    points = [point for point in hot.trend if point.at_ms <= now_ms]
    if not points or points[0].at_ms >= now_ms:
        return ""
    oldest = points[0]
    days = (now_ms - oldest.at_ms) / DAY_MS  # from the oldest run sampled to now, whose count is hot.entries
    change = hot.entries - oldest.entries
    since = iso_from_ms(oldest.at_ms)[:10]
    if change <= 0:
        return f"; {'down' if change else 'steady'} from {oldest.entries} since {since}"
    rate = change / days if days > 0 else 0
    left = (hot.cap_entries or 48) - hot.entries
    eta = f", the cap in about {left / rate:.0f} days at that rate" if rate > 0 and left > 0 else ""
    return f"; up {change} since {since} ({rate:.1f}/day{eta})"
