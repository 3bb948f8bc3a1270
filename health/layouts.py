"""Orchestration: the one place that picks a memory layout and its collectors and rules. Called by health.run.

`--layout lifeos|dense-context` (CORTEX_HEALTH_LAYOUT), default auto: a root holding
context/AGENTS.md (or a context/ folder holding AGENTS.md) is Dense Context, a root with
LIFEOS/ is LifeOS; both or neither is a usage error naming what was found. The collectors
and rules of one layout never run on the other; the run's own checks (thresholds, clock)
run on both.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

LAYOUTS = ("lifeos", "dense-context")


class LayoutError(Exception):
    """The layout cannot be chosen (exit 3, reported as a usage error)."""


@dataclass(frozen=True)
class Selected:
    name: str
    layout: Any  # collectors.layout.Layout | collectors.dense_context.layout.DenseLayout
    collectors: tuple
    rules: tuple


def choose(requested: str | None, root: str) -> str:
    from collectors.dense_context.layout import detect

    if requested is not None:
        return requested
    found, what = detect(root)
    if found is None:
        raise LayoutError(f"usage: cannot tell the layout: {what}; choose one with --layout lifeos|dense-context "
                          "(or CORTEX_HEALTH_LAYOUT)")
    return found


def select(requested: str | None, root: str, manifest: str | None, now_ms: int) -> Selected:
    from health import rules

    name = choose(requested, root)
    run_rules = tuple(rule for rule in rules.discovered() if rule.collector is None)
    if name == "dense-context":
        from collectors.dense_context import COLLECTORS
        from collectors.dense_context.layout import DenseLayout
        from health.rules.dense_context import RULES

        return Selected(name, DenseLayout.for_root(root, now_ms), COLLECTORS, run_rules + RULES)
    from collectors.layout import Layout
    from collectors.registry import discovered

    return Selected(name, Layout.for_root(root, manifest), tuple(discovered()), tuple(rules.discovered()))
