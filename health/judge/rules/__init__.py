"""Evaluate stage: what a rule is. Its modules are wired to their collectors by health.judge.checks.

A rule module defines `judge(evidence, context)`: a pure function that judges one
collector's evidence (or, for health.judge.rules.run_inputs, the run's own inputs) against the
thresholds and the clock, yielding findings. It never reads anything else.
"""
from __future__ import annotations

from health.judge.model import Finding

TYPE_CHECKING = False  # typing costs every audit ~2 ms; these names are only annotations
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable
    from typing import Any


class Context:
    """What a rule judges against. thresholds: EffectiveThresholds; clock: Clock."""

    __slots__ = ("thresholds", "clock")

    def __init__(self, thresholds, clock) -> None:
        self.thresholds, self.clock = thresholds, clock

    @property
    def now_ms(self) -> int:
        return self.clock.now_ms


if TYPE_CHECKING:  # a name for annotations only
    Judge = Callable[[Any, Context], Iterable[Finding]]


class Rule:
    """collector: str | None (whose evidence it judges; None for the run's own inputs); judge: Judge; checks:
    tuple[Check, ...] (the catalogue entries of its ids, as the check list names them: each finding's entry is
    placed in them, health.judge.evaluate.placed)."""

    __slots__ = ("collector", "judge", "checks")

    def __init__(self, collector, judge, checks=()) -> None:
        self.collector, self.judge, self.checks = collector, judge, checks
