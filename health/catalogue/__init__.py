"""Help data: the catalogue of every check and finding id. Read by explain, --list-checks, -v and the formats.

One source of truth for what an id means: its severity, the threshold it compares with,
what it means, its likely causes and how to fix it. A module in this package defines
`CHECKS = (Check(...), ...)` for one collector (the module names mirror health.rules);
tests hold the catalogue and the rules to each other, id by id and severity by severity.

An id may be a template: `{label}` stands for a hot-memory file label (principal, da) and
`{collector}` for any collector name with `_` written as `-`.
"""
from __future__ import annotations

import importlib
import pkgutil
import re
from dataclasses import dataclass, field
from functools import lru_cache

from collectors.layout import HOT_FILES

HOT_LABELS = tuple(label for label, _ in HOT_FILES)
_SLOTS = {"label": "|".join(HOT_LABELS), "collector": r"[a-z0-9][a-z0-9-]*", "path": r".+"}  # path: Dense Context


@dataclass(frozen=True)
class Problem:
    """A non-ok finding id and everything an operator needs to act on it."""

    id: str
    severity: str  # warn | critical
    meaning: str
    causes: tuple[str, ...]
    fix: str
    threshold: str | None = None  # thresholds.defaults name it is compared with


@dataclass(frozen=True)
class Check:
    """One thing the auditor checks; exactly one of its ids is reported per run (per label)."""

    key: str  # component:measurement, e.g. reviewer:latest-run (the health+json check key)
    collector: str | None  # whose evidence it judges; None for the run itself
    summary: str
    ok: tuple[str, ...]  # ids reported when it passes
    problems: tuple[Problem, ...] = field(default_factory=tuple)
    order: int = 0


@dataclass(frozen=True)
class Match:
    check: Check
    problem: Problem | None  # None for an ok id
    label: str | None  # the {label} or {collector} part of a template id

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


@lru_cache(maxsize=1)
def checks() -> tuple[Check, ...]:
    """Every check, in report order."""
    found: list[Check] = []
    for info in pkgutil.iter_modules(__path__):
        found.extend(getattr(importlib.import_module(f"{__name__}.{info.name}"), "CHECKS", ()))
    return tuple(sorted(found, key=lambda c: (c.order, c.key)))


def _pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"\{(label|collector|path)\}", template)
    regex = "".join(f"(?P<{part}>{_SLOTS[part]})" if i % 2 else re.escape(part) for i, part in enumerate(parts))
    return re.compile(regex + r"\Z")


@lru_cache(maxsize=1)
def _index() -> tuple[tuple[re.Pattern[str], Check, Problem | None], ...]:
    rows = []
    for check in checks():
        rows.extend((_pattern(ok_id), check, None) for ok_id in check.ok)
        rows.extend((_pattern(problem.id), check, problem) for problem in check.problems)
    # exact ids first, so a template never shadows a literal id
    return tuple(sorted(rows, key=lambda row: "(?P<" in row[0].pattern))


def lookup(finding_id: str) -> Match | None:
    """The catalogue entry for a reported id (ok or not), or None for an id it does not know."""
    for pattern, check, problem in _index():
        found = pattern.match(finding_id)
        if found:
            slots = found.groupdict()
            return Match(check, problem, slots.get("label") or slots.get("collector") or slots.get("path"))
    return None


def problems() -> list[tuple[Check, Problem]]:
    return [(check, problem) for check in checks() for problem in check.problems]


def known_ids() -> list[str]:
    """Every id as written in the catalogue (templates unexpanded): problems, then ok ids."""
    return [p.id for _, p in problems()] + [ok for check in checks() for ok in check.ok]
