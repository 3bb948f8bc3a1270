"""Evaluate stage rule: the run's own inputs (thresholds, config file, clock). Used by health.judge.evaluate."""
from __future__ import annotations

from cortex.core.timestamps import iso_from_ms
from health.judge.catalogue.run import (CORTEX_CLOCK_INVALID, CORTEX_CLOCK_VALID, CORTEX_CONFIG_INVALID,
                                  CORTEX_THRESHOLDS_VALID, CORTEX_THRESHOLD_INVALID)
from health.judge.model import Finding
from health.judge.rules import Context
from thresholds.sources import Threshold

TYPE_CHECKING = False  # annotations only: collections.abc imports collections (~7M instructions)
if TYPE_CHECKING:
    from collections.abc import Iterator


def judge(_evidence: None, ctx: Context) -> Iterator[Finding]:
    thresholds = ctx.thresholds
    for problem in thresholds.problems:
        kept = _in_force(ctx, problem.name)
        keeps = f"{kept.value} from {kept.source.value} stays in force" if kept else "it is ignored"
        yield CORTEX_THRESHOLD_INVALID.at(
            message=f"Threshold {problem.name} from {problem.origin} is invalid ({problem.reason}); {keeps}.",
            name=problem.name, value=problem.value, source=problem.source.value, origin=problem.origin,
            reason=problem.reason, in_force=kept.value if kept else None)
    if thresholds.config_problem:
        yield CORTEX_CONFIG_INVALID.at(
            message=f"{thresholds.config_problem}; defaults stay in force.",
            path=thresholds.config_path, reason=thresholds.config_problem)
    if not thresholds.problems and not thresholds.config_problem:
        yield CORTEX_THRESHOLDS_VALID.at(message="Every threshold override is a finite number > 0.")
    clock = ctx.clock
    if clock.problem:
        yield CORTEX_CLOCK_INVALID.at(
            message=f"{clock.problem}; real time ({iso_from_ms(clock.now_ms)}) was used so every other check still "
            "ran.",
            value=clock.given, source=clock.source, fallback="real time", now=iso_from_ms(clock.now_ms))
    else:
        yield CORTEX_CLOCK_VALID.at(message=f"Audit time {iso_from_ms(clock.now_ms)} ({clock.source}).")


def _in_force(ctx: Context, name: str) -> Threshold | None:
    return next((item for item in ctx.thresholds.values if item.name == name), None)

