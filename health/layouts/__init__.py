"""Application: which memory layout ROOT holds, chosen in this one place. Called by health.options and health.inputs.

`--layout lifeos|dense-context` (CORTEX_HEALTH_LAYOUT), default auto: each layout's spec
(health.layouts.spec.LayoutSpec, one module per layout) says whether ROOT holds its marker
(context/AGENTS.md, or a context/ folder holding AGENTS.md, is Dense Context; LIFEOS/ is
LifeOS); exactly one must: several or none is a usage error naming what was found. The
collectors and rules of one layout never run on another; the run's own checks (thresholds,
clock) run on every one. Adding a layout is one spec module listed in LAYOUTS.
"""
from __future__ import annotations

import os

from health.layouts import dense_context, lifeos
from health.layouts.spec import LayoutError, LayoutSpec

__all__ = ["LAYOUTS", "NAMES", "LayoutError", "LayoutSpec", "choose", "named"]

LAYOUTS: tuple[LayoutSpec, ...] = (lifeos.SPEC, dense_context.SPEC)  # the first: when there is nothing to tell from
NAMES = tuple(spec.name for spec in LAYOUTS)  # the --layout choices


def named(name: str) -> LayoutSpec:
    return next(spec for spec in LAYOUTS if spec.name == name)


def choose(requested: str | None, root: str) -> LayoutSpec:
    if requested is not None:
        return named(requested)
    if not os.path.isdir(root):
        return LAYOUTS[0]  # nothing to tell from; the audit itself reports the missing root
    seen = [(spec, spec.detect(root)) for spec in LAYOUTS]
    found = [spec for spec, detection in seen if detection.found]
    if len(found) == 1:
        return found[0]
    if found:
        what = f"{root} holds both " + " and ".join(detection.what for _, detection in seen if detection.found)
    else:
        what = f"{root} holds neither " + " nor ".join(detection.what for _, detection in seen)
    hint = "".join(detection.hint(root) for _, detection in seen if detection.hint is not None)
    raise LayoutError(f"usage: cannot tell the layout: {what}{hint}; or choose one with --layout "
                      f"{'|'.join(NAMES)} (or CORTEX_HEALTH_LAYOUT)")
