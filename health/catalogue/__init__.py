"""Help data: what a catalogue entry is. Read by health.checks, which places its modules in report order.

One source of truth for what an id means: its severity, the threshold it compares with,
what it means, its likely causes and how to fix it. A module in this package defines
`CHECKS = (Check(...), ...)` for one collector (the module names mirror health.rules);
health.catalogue.find looks ids up over the check list.

An id may be a template: `{label}` stands for a hot-memory file label (principal, da),
`{collector}` for any collector name with `_` written as `-`, `{file}` for a file name
(a hook, tool or lock file), `{hook}` for a hook (a LifeOS hook file, a cortex hook command
or a heartbeat name), `{event}` for a Claude Code hook event, `{program}` for the
program word of a hook command and `{step}` for a step of the probe.
"""
from __future__ import annotations

from collections import namedtuple


class Problem(namedtuple("Problem", "id severity meaning causes fix threshold fixed also_thresholds",
                         defaults=(None, None, ()))):
    """A non-ok finding id and everything an operator needs to act on it.

    id, meaning, fix: str; severity: str (warn | critical); causes: tuple[str, ...]; threshold: str | None
    (the thresholds.defaults name it is compared with); fixed: int | None (a limit its rule fixes instead, not
    configurable: explain, -v and the dashboard all show it); also_thresholds: tuple[str, ...] (further names
    it is compared with, e.g. a byte cap beside a line cap).
    """

    __slots__ = ()

    @property
    def threshold_names(self) -> tuple[str, ...]:
        """Every threshold this id is compared with, the main one first."""
        return ((self.threshold,) if self.threshold else ()) + tuple(self.also_thresholds)


class Check(namedtuple("Check", "key summary ok problems collector", defaults=((), None))):
    """One thing the auditor checks; exactly one of its ids is reported per run (per label).

    key: str (component:measurement, e.g. reviewer:latest-run: the health+json check key); summary: str;
    ok: tuple[str, ...] (ids reported when it passes); problems: tuple[Problem, ...]; collector: str | None
    (whose evidence it judges, set from its row in health.checks; None: the run).
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
