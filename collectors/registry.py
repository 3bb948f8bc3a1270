"""Collect stage: the collector registry. Called by health.run to gather all evidence.

A collector is a module in this package that defines `COLLECTOR = Collector(...)`; it is
found by scanning the package, so adding one is a one-file change. Each collector runs
in isolation: one that raises becomes CollectorFailure evidence and the others still run.
"""
from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from collectors.layout import Layout
from health.model import CollectorFailure, CollectorSkipped


@dataclass(frozen=True)
class Collector:
    name: str  # evidence key and finding prefix (`<name>-collector-error`)
    order: int  # position in the report
    collect: Callable[[Layout], Any]


_EXTRA: dict[str, Collector] = {}


def register(collector: Collector) -> Collector:
    """Add a collector that lives outside this package (plug-ins, tests of the isolation)."""
    _EXTRA[collector.name] = collector
    return collector


def discovered() -> list[Collector]:
    found: dict[str, Collector] = {}
    package = importlib.import_module("collectors")
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"collectors.{info.name}")
        collector = getattr(module, "COLLECTOR", None)
        if isinstance(collector, Collector):
            found[collector.name] = collector
    found.update(_EXTRA)
    return sorted(found.values(), key=lambda c: (c.order, c.name))


def run_one(collector: Collector, layout: Layout) -> Any:
    try:
        return collector.collect(layout)
    except Exception as error:  # noqa: BLE001 - failure is data: it becomes a finding
        return CollectorFailure(collector.name, f"{type(error).__name__}: {error}"[:500])


def names() -> list[str]:
    """Every collector's name of every layout, in report order (what --only and --skip accept)."""
    from collectors.dense_context import COLLECTORS as DENSE_CONTEXT  # layout selection: issue 16

    return [collector.name for collector in discovered()] + [collector.name for collector in DENSE_CONTEXT]


def collect_all(layout: Any, selected: frozenset[str] | None = None,
                collectors: list[Collector] | tuple[Collector, ...] | None = None) -> dict[str, Any]:
    """Evidence per collector name, in report order; a collector not in `selected` is skipped (as data).

    `collectors` is the chosen layout's list (health.layouts); None: the LifeOS collectors.
    """
    return {collector.name: run_one(collector, layout) if selected is None or collector.name in selected
            else CollectorSkipped(collector.name, "left out by --only/--skip")
            for collector in (discovered() if collectors is None else collectors)}
