"""Evaluate stage: the rule registry. Called by health.evaluate.

A rule is a module in this package defining `RULE = Rule(...)`: a pure function that
judges one collector's evidence (or, with collector=None, the run's own inputs) against
thresholds and now. Found by scanning the package, so adding one is a one-file change.
"""
from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from health.clock import Clock
from health.model import Finding
from thresholds.sources import EffectiveThresholds


@dataclass(frozen=True)
class Context:
    thresholds: EffectiveThresholds
    clock: Clock

    @property
    def now_ms(self) -> int:
        return self.clock.now_ms


@dataclass(frozen=True)
class Rule:
    collector: str | None  # whose evidence it judges; None for the run's own inputs
    order: int
    judge: Callable[[Any, Context], Iterable[Finding]]


def discovered() -> list[Rule]:
    rules: list[Rule] = []
    for info in pkgutil.iter_modules(__path__):
        rule = getattr(importlib.import_module(f"{__name__}.{info.name}"), "RULE", None)
        if isinstance(rule, Rule):
            rules.append(rule)
    return sorted(rules, key=lambda r: r.order)
