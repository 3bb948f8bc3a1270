"""Application: which memory layout ROOT holds. Called by health.inputs; each layout's check list is in health.judge.checks.

`--layout lifeos|dense-context` (CORTEX_HEALTH_LAYOUT), default auto: a root holding
context/AGENTS.md (or a context/ folder holding AGENTS.md) is Dense Context, a root with
LIFEOS/ is LifeOS; both or neither is a usage error naming what was found. The collectors
and rules of one layout never run on the other; the run's own checks (thresholds, clock)
run on both.
"""
from __future__ import annotations

LAYOUTS = ("lifeos", "dense-context")


class LayoutError(Exception):
    """The layout cannot be chosen (exit 3, reported as a usage error)."""


def choose(requested: str | None, root: str) -> str:
    import os

    from collectors.dense_context.layout import detect

    if requested is not None:
        return requested
    if not os.path.isdir(root):
        return "lifeos"  # nothing to tell from; the audit itself reports the missing root
    found, what = detect(root)
    if found is None:
        from collectors.memory_root import nearby_tree

        nearby = nearby_tree(root)
        hint = f"; a LifeOS tree is at {nearby}: use --root {nearby}" if nearby else ""
        raise LayoutError(f"usage: cannot tell the layout: {what}{hint}; or choose one with --layout "
                          "lifeos|dense-context (or CORTEX_HEALTH_LAYOUT)")
    return found
