"""Help data: look a reported id up in the catalogue of the check list. Used by explain and for stored lines.

A live run's findings carry their entries (health.judge.catalogue); a report read back from a stored
line (the history, the dashboard, a child check's printed report) is joined here, by its ids.

Literal ids, `{label}` ids (expanded for every hot-memory label) and templates as
--list-checks prints them (`markers-corrupt:{label}`, for explain) are found by one dict lookup;
a `{collector}` id matches any lowercase collector name written with `-`; the other
slots (`{file}`, `{hook}`, `{event}`, `{program}`, `{path}`, `{step}`) match what they name (SLOTS).
"""
from __future__ import annotations

import re
from functools import lru_cache

from cortex.layout import HOT_LABELS
from health.judge.catalogue import SLOTS, Check, Match, Problem
from health.judge.checks import catalogue

_Entry = tuple[Check, Problem | None]
_SLOT = re.compile(r"\{(" + "|".join(SLOTS) + r")\}")  # the free slots (SLOTS: what each may stand for)


def checks() -> tuple[Check, ...]:
    """Every check, in report order."""
    return catalogue()


@lru_cache(maxsize=1)
def _index():
    """(literal id -> entry, {collector} templates split around the slot); free-slot templates are _patterns()."""
    exact: dict[str, tuple[Check, Problem | None, str | None]] = {}
    templates: list[tuple[str, str, Check, Problem | None]] = []
    for check, template, problem in _entries():
        exact.setdefault(template, (check, problem, None))  # the template itself, as --list-checks prints it
        if _SLOT.search(template):
            continue
        if "{collector}" in template:
            before, _, after = template.partition("{collector}")
            templates.append((before, after, check, problem))
        elif "{label}" in template:
            exact.update({template.replace("{label}", label): (check, problem, label) for label in HOT_LABELS})
        else:
            exact[template] = (check, problem, None)
    return exact, tuple(templates)


@lru_cache(maxsize=1)
def _free_slot_templates() -> tuple[tuple[str, str, Check, Problem | None], ...]:
    """(literal text before the first slot, template, check, problem): the prefix spares compiling most patterns."""
    return tuple((_SLOT.split(template, 1)[0], template, check, problem) for check, template, problem in _entries()
                 if _SLOT.search(template))


def _entries():
    for check in checks():
        yield from ((check, ok, None) for ok in check.ok)
        yield from ((check, problem.id, problem) for problem in check.problems)


def _collector_name(text: str) -> bool:
    return bool(text) and text[0] != "-" and all(c.isdigit() or c == "-" or "a" <= c <= "z" for c in text)


@lru_cache(maxsize=4096)  # every report joins its ids, and the dashboard joins the same ids run after run
def lookup(finding_id: str) -> Match | None:
    """The catalogue entry for a reported id (ok or not), or None for an id it does not know (Match is frozen)."""
    exact, templates = _index()
    found = exact.get(finding_id)
    if found:
        return Match(*found)
    for before, after, check, problem in templates:
        middle = _collector_slot(before, after, finding_id)
        if middle:
            return Match(check, problem, middle)
    for prefix, template, check, problem in _free_slot_templates():
        # Every run joins all its ids: compile a template's pattern only when the id starts like it.
        found = finding_id.startswith(prefix) and _pattern(template).match(finding_id)
        if found:
            return Match(check, problem, ":".join(value for value in found.groups() if value) or None)
    return None


def _collector_slot(before: str, after: str, finding_id: str) -> str | None:
    """What a `{collector}` slot between `before` and `after` stands for in finding_id, if it is a collector name."""
    middle = finding_id[len(before):len(finding_id) - len(after)] if len(finding_id) > len(before + after) else ""
    matched = finding_id.startswith(before) and finding_id.endswith(after) and _collector_name(middle)
    return middle if matched else None


def instance_of(finding_id: str, template: str) -> bool:
    """Whether a reported id is an instance of one catalogue template, every slot read as lookup reads it."""
    if _SLOT.search(template):
        return _pattern(template).match(finding_id) is not None
    if "{collector}" in template:
        before, _, after = template.partition("{collector}")
        return _collector_slot(before, after, finding_id) is not None
    if "{label}" in template:
        return finding_id in {template.replace("{label}", label) for label in HOT_LABELS}
    return finding_id == template


@lru_cache(maxsize=None)
def _pattern(template: str) -> re.Pattern[str]:
    parts = _SLOT.split(template)
    return re.compile("".join(f"({SLOTS[part]})" if i % 2 else re.escape(part) for i, part in enumerate(parts)) + r"\Z")


def problems() -> list[tuple[Check, Problem]]:
    return [(check, problem) for check in checks() for problem in check.problems]


def known_ids() -> list[str]:
    """Every id as written in the catalogue (templates unexpanded): problems, then ok ids."""
    return [p.id for _, p in problems()] + [ok for check in checks() for ok in check.ok]
