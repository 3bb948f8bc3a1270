"""Collect stage helper: does a hot-memory entry hold what the curation contract says never to store? Used by collectors.lifeos.hot_content.

Seed 002 §3 ("永不保存的内容"): session-level temporary information, environment-dependent
failures, task progress and TODOs, commit SHAs, PR numbers and branch names, anything that is
stale within 7 days, what happened in this conversation. `ephemeral` names the marker an
entry carries that is ephemeral whatever the date; `dates` lists the calendar dates an entry
names (`YYYY-MM-DD`, or `--MM-DD` without a year), which the rule compares with the audit's
clock (a date within the next 7 days is ephemeral; the clock is not the collector's to read).
Stdlib only. Every pattern is gated by plain substring tests on the lower-cased entry: a
case-insensitive alternation costs about 10 µs an entry, a substring test well under one.
"""
from __future__ import annotations

import re

from collectors.lifeos.hot_entry_text import Entry

_MONTHS = {name: number for number, names in enumerate((
    "january jan", "february feb", "march mar", "april apr", "may", "june jun", "july jul", "august aug",
    "september sep sept", "october oct", "november nov", "december dec"), 1) for name in names.split()}
_MONTH = "|".join(sorted(_MONTHS, key=len, reverse=True))
_MONTH_STEMS = tuple(name for name in _MONTHS if len(name) == 3)
_DIGIT = re.compile(r"\d")

# (what the entry holds, its pattern, substrings of the lower-cased entry it needs one of; None: a digit)
_MARKERS = (
    ("a commit hash", re.compile(r"(?<![#\w/.:-])(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}(?![\w-])"), None),
    ("a PR or issue number", re.compile(
        r"(?i:\b(?:pull request|merge request|issue|ticket|bug|pr)\s*#\s*\d{1,7}\b)|\b(?:PR|MR)\s*#?\s*\d{1,7}\b"
        r"|(?<![\w&/])(?<!lat )(?<!nit )(?<!oom )(?<!apt )(?<!o\. )#\d{2,7}\b|\b[\w.-]+/[\w.-]+#\d+\b|\bGH-\d+\b"),
     ("#", "pr ", "mr ", "pull request", "merge request", "gh-")),
    ("a branch name", re.compile(
        r"\b(?:feature|feat|fix|bugfix|hotfix|release|chore|wip|topic)/[\w.-]+|\borigin/[\w./-]+"
        r"|\b(?:branch|checkout|git switch)\s+[`'\"]?[\w.-]+/[\w./-]+", re.I), ("/",)),
    ("a TODO", re.compile(r"\b(?:TODO|FIXME|WIP|TBD)\b|\btodo\s*:|待办[:：]|待辦[:：]"),
     ("todo", "fixme", "wip", "tbd", "待办", "待辦")),
    ("a relative day (today, tomorrow, this week)", re.compile(
        r"\b(?:today|tonight|tomorrow|yesterday|this (?:morning|afternoon|evening|week|weekend)|next week|"
        r"right now|later today|day after tomorrow)\b", re.I),
     ("today", "tonight", "tomorrow", "yesterday", "this ", "next week", "right now")),
    ("a relative day (CJK)", re.compile(r"今天|明天|昨天|今晚|后天|本周|这周|下周|刚才|今週|来週|오늘|내일|어제"),
     ("今", "明", "昨", "后天", "周", "刚才", "週", "오늘", "내일", "어제")),
    ("what happened in this conversation", re.compile(
        r"\b(?:in|during|for) (?:this|the current) (?:session|conversation|chat|thread)\b|\bthis session\b"
        r"|这次对话|本次会话|本次对话|这次会话", re.I), ("session", "conversation", "chat", "thread", "这次", "本次")),
    ("an environment-dependent failure", re.compile(
        r"\b(?:is|are|was) not installed\b|\bisn't installed\b|\baren't installed\b|\bcommand not found\b"
        r"|\bnot available on this machine\b|未安装|没有安装", re.I), ("install", "not found", "not available", "安装")),
)
_RECURRING = re.compile(r"\b(?:birthday|anniversary|every|each|annual|annually|yearly|since|born)\b|生日|纪念日|每年|每周",
                        re.I)
_ISO = re.compile(r"(?<!\d)(\d{4})-(\d{2})-(\d{2})(?!\d)")
_DAY_MONTH = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH})\.?(?:\s+(\d{{4}}))?\b", re.I)
_MONTH_DAY = re.compile(rf"\b({_MONTH})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?:,?\s+(\d{{4}}))?", re.I)
_CJK_DATE = re.compile(r"(?:(\d{4})年)?(\d{1,2})月(\d{1,2})[日号號]")


def ephemeral(entry: Entry) -> str | None:
    """The never-store marker the entry carries (a commit hash, a PR number, a TODO...), or None."""
    text = entry.text
    lower = text.lower()
    digits = _DIGIT.search(text) is not None
    for reason, pattern, needs in _MARKERS:
        if (digits if needs is None else any(word in lower for word in needs)) and pattern.search(text):
            return reason
    return None


def dates(entry: Entry) -> tuple[str, ...]:
    """The calendar dates the entry names, `YYYY-MM-DD` or `--MM-DD`; none for a recurring date (a birthday)."""
    text = entry.text
    if not _DIGIT.search(text):
        return ()
    lower = text.lower()
    found: list[str] = []
    if "-" in text:
        found += [_date(year, int(month), int(day)) for year, month, day in _ISO.findall(text)]
    if any(stem in lower for stem in _MONTH_STEMS):
        found += [_date(year, _MONTHS[month.lower()], int(day)) for day, month, year in _DAY_MONTH.findall(text)]
        found += [_date(year, _MONTHS[month.lower()], int(day)) for month, day, year in _MONTH_DAY.findall(text)]
    if "月" in text:
        found += [_date(year, int(month), int(day)) for year, month, day in _CJK_DATE.findall(text)]
    found = [item for item in found if item]
    if not found or _RECURRING.search(text):
        return ()
    return tuple(dict.fromkeys(found))


def _date(year: str, month: int, day: int) -> str:
    if not (1 <= month <= 12 and 1 <= day <= 31):
        return ""
    return f"{year}-{month:02d}-{day:02d}" if year else f"--{month:02d}-{day:02d}"
