"""Help data: what a catalogue entry is, and how a rule reports one. Read by the rules, health.judge.checks and the lookup.

One source of truth for what an id means, declared once where its meaning lives (Django's
`Error(msg, hint, id)`): a module in this package declares each check it judges
(`HOLDER = Check("locks:holder", summary)`), each id that check reports when it passes
(`LOCKS_FREE = Ok("locks-free", HOLDER)`) and each problem it finds
(`LOCK_STALE = Problem("lock-stale:{file}", WARN, HOLDER, meaning, causes, fix, threshold=...)`),
then `CHECKS = checks_of(LOCKS_FREE, ..., LOCK_STALE, ...)`, the listing of its checks. A rule
reports `LOCK_STALE.at(lock.file, message=..., **detail)`: the finding carries its entry (a
Match: the check, the problem, the label), so the report copies it and no id or severity is
written twice. health.judge.catalogue.find looks ids up only for `explain ID` and for stored lines.

An id may be a template: `{label}` stands for a hot-memory file label (principal, da),
`{collector}` for any collector name with `_` written as `-`, `{file}` for a file name
(a hook, tool or lock file), `{hook}` for a hook (a LifeOS hook file, a cortex hook command
or a heartbeat name), `{event}` for a Claude Code hook event, `{program}` for the
program word of a hook command and `{step}` for a step of the probe. `at()` fills the slots
in order; an id whose slot value the lookup could not read back from the id (SLOTS) carries
no entry, so a live report and the same report read back from its stored line always agree.
"""
from __future__ import annotations

import re
from collections import namedtuple
from functools import lru_cache

from cortex.layout import HOT_LABELS
from health.judge.model import Finding, Severity

TYPE_CHECKING = False  # typing costs every audit ~2 ms; these names are only annotations
if TYPE_CHECKING:
    from collections.abc import Mapping
    from typing import Any

WARN = Severity.WARN.value
CRITICAL = Severity.CRITICAL.value

# What each free slot of a template id may stand for; the named part is the finding's label.
SLOTS = {"file": r"[A-Za-z0-9_][A-Za-z0-9_.-]*", "hook": r"[A-Za-z0-9][A-Za-z0-9_. -]*", "event": r"[A-Za-z]+",
         "program": r"\S+", "path": r".+", "step": r"[a-z]+(?:-[0-9]+)?"}
_SLOT = re.compile(r"\{([a-z]+)\}")


class Check(namedtuple("Check", "key summary ok problems collector", defaults=((), (), None))):
    """One thing the auditor checks; exactly one of its ids is reported per run (per label).

    key: str (component:measurement, e.g. reviewer:latest-run: the health+json check key); summary: str;
    ok: tuple[str, ...] (ids reported when it passes); problems: tuple[Problem, ...]; collector: str | None
    (whose evidence it judges, set from its row in health.judge.checks; None: the run). Declared bare (key and
    summary) in a catalogue module; checks_of() gives the listing with its ids.
    """

    __slots__ = ()


class Match(namedtuple("Match", "check problem label")):
    """A reported id joined to its entry.

    check: Check; problem: Problem | None (None for an ok id); label: str | None (the {label} or
    {collector} part of a template id).
    """

    __slots__ = ()

    @property
    def component(self) -> str:
        """The health+json componentId: the label or collector an id names, else the check's component."""
        return self.label or self.check.key.split(":", 1)[0]

    @property
    def collector(self) -> str | None:
        """The collector whose evidence produced the id (None for ids about the run itself)."""
        if self.check.collector is None and self.label and self.check.key == "cortex:collectors":
            return self.label.replace("-", "_")
        return self.check.collector


def _clean(detail: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in detail.items() if value is not None}


@lru_cache(maxsize=None)
def _parts(template: str) -> tuple[str, ...]:
    """The template split around its slots: literal, slot name, literal, ..."""
    return tuple(_SLOT.split(template))


def _readable(slot: str, value: str) -> bool:
    """Whether the lookup reads `value` back from an id as this slot's part (see the module docstring)."""
    if slot == "label":
        return value in HOT_LABELS
    if slot == "collector":
        return bool(value) and value[0] != "-" and all(c.isdigit() or c == "-" or "a" <= c <= "z" for c in value)
    return _SLOT_TESTS[slot](value)


# re.fullmatch(SLOTS[slot], value) without compiling the patterns (~0.3M instructions each, in every audit that
# reports a hook, event or program); tests/health/test_catalogue_slots.py proves each the same as its pattern.
_ALNUM = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
_FILE_HEAD, _FILE, _HOOK = _ALNUM | {"_"}, _ALNUM | set("_.-"), _ALNUM | set("_. -")


def _step(value: str) -> bool:
    name, dash, number = value.partition("-")
    return (name.isascii() and name.isalpha() and name.islower()
            and (not dash or (number.isascii() and number.isdigit())))


_SLOT_TESTS = {
    "file": lambda value: value != "" and value[0] in _FILE_HEAD and _FILE.issuperset(value),
    "hook": lambda value: value != "" and value[0] in _ALNUM and _HOOK.issuperset(value),
    "event": lambda value: value.isascii() and value.isalpha(),
    "program": lambda value: value != "" and not any(c.isspace() for c in value),
    "path": lambda value: value != "" and "\n" not in value,
    "step": _step,
}


def _reported(entry: Problem | Ok, check: Check, problem: Problem | None, slots: tuple, message: str,
              detail: Mapping[str, Any], severity: Severity) -> Finding:
    parts = _parts(entry.id)
    if len(slots) != len(parts) // 2:
        raise TypeError(f"{entry.id} takes {len(parts) // 2} slot value(s), got {len(slots)}")
    if not slots:
        return Finding(entry.id, severity, message, _clean(detail), Match(check, problem, None))
    values = [str(value) for value in slots]
    finding_id = "".join(part if i % 2 == 0 else values[i // 2] for i, part in enumerate(parts))
    readable = all(_readable(parts[2 * i + 1], value) for i, value in enumerate(values))
    label = ":".join(value for value in values if value) or None
    return Finding(finding_id, severity, message, _clean(detail), Match(check, problem, label) if readable else None)


class Problem(namedtuple("Problem", "id severity check meaning causes fix threshold fixed also_thresholds",
                         defaults=(None, None, ()))):
    """A non-ok finding id and everything an operator needs to act on it.

    id, meaning, fix: str; severity: str (WARN | CRITICAL); check: Check (the bare check it belongs to);
    causes: tuple[str, ...]; threshold: str | None (the thresholds.defaults name it is compared with); fixed:
    int | None (a limit its rule fixes instead, not configurable: explain, -v and the dashboard all show it);
    also_thresholds: tuple[str, ...] (further names it is compared with, e.g. a byte cap beside a line cap).
    """

    __slots__ = ()

    @property
    def threshold_names(self) -> tuple[str, ...]:
        """Every threshold this id is compared with, the main one first."""
        return ((self.threshold,) if self.threshold else ()) + tuple(self.also_thresholds)

    def at(self, *slots: Any, message: str, **detail: Any) -> Finding:
        """This problem found: the id with its slots filled in order, `detail` without its None values."""
        return _reported(self, self.check, self, slots, message, detail, _SEVERITY[self.severity])


class Ok(namedtuple("Ok", "id check")):
    """An id a check reports when it passes. id: str (may be a template); check: Check (bare)."""

    __slots__ = ()

    def at(self, *slots: Any, message: str, **detail: Any) -> Finding:
        return _reported(self, self.check, None, slots, message, detail, Severity.OK)


_SEVERITY = {WARN: Severity.WARN, CRITICAL: Severity.CRITICAL}


def checks_of(*entries: Ok | Problem) -> tuple[Check, ...]:
    """The listing of a catalogue module: each check with its ok ids and problems, checks and ids in the order given."""
    found: dict[str, tuple[Check, list[str], list[Problem]]] = {}
    for entry in entries:
        _, oks, problems = found.setdefault(entry.check.key, (entry.check, [], []))
        if isinstance(entry, Ok):
            oks.append(entry.id)
        else:
            problems.append(entry)
    return tuple(check._replace(ok=tuple(oks), problems=tuple(problems)) for check, oks, problems in found.values())
