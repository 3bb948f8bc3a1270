"""Collect stage: run the collectors a check list names, each in isolation. Called by health.run.

A collector is a plain `collect(layout)` function in its own module; which collectors run,
and in which order, is decided by the one check list (health.judge.checks). A collector that
raises becomes CollectorFailure evidence and the others still run.
"""
from __future__ import annotations

from collectors.lifeos.layout import Layout
from collectors.evidence import CollectorFailure, CollectorSkipped

TYPE_CHECKING = False  # typing costs every audit ~2 ms; these names are only annotations
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any


class Collector:
    """name: str, evidence key and finding prefix (`<name>-collector-error`); collect: Callable[[Layout], Any]."""

    __slots__ = ("name", "collect")

    def __init__(self, name, collect) -> None:
        self.name, self.collect = name, collect


def run_one(collector: Collector, layout: Layout) -> Any:
    try:
        return collector.collect(layout)
    except Exception as error:  # noqa: BLE001 - failure is data: it becomes a finding
        return CollectorFailure(collector.name, f"{type(error).__name__}: {error}"[:500])


def collect_all(layout: Layout, collectors: Sequence[Collector],
                selected: frozenset[str] | None = None) -> dict[str, Any]:
    """Evidence per collector name, in the given order; a collector not in `selected` is skipped (as data)."""
    return {collector.name: run_one(collector, layout) if selected is None or collector.name in selected
            else CollectorSkipped(collector.name, "left out by --only/--skip")
            for collector in collectors}
