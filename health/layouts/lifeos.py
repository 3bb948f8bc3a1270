"""Application: the LifeOS layout's spec (ROOT/LIFEOS/MEMORY: hooks, reviewer, hot memory). Listed in health.layouts.LAYOUTS.

Its collectors are collectors/lifeos/, its check list health.judge.checks.CHECKS, its
thresholds thresholds/defaults.py (the rows without a layout of their own).
"""
from __future__ import annotations

import os

from health.layouts.spec import Detection, LayoutSpec, unprepared

NAME = "lifeos"


def nearby_hint(root: str) -> str:
    from collectors.lifeos.memory_root import nearby_tree

    nearby = nearby_tree(root)
    return f"; a LifeOS tree is at {nearby}: use --root {nearby}" if nearby else ""


def detect(root: str) -> Detection:
    return Detection(os.path.isdir(os.path.join(root, "LIFEOS")), "LIFEOS/", nearby_hint)


def for_root(root: str, options, environ, now_ms: int | None):
    from collectors.lifeos.layout import Layout

    return Layout.for_root(root, options.index_manifest, environ)._replace(now_ms=now_ms)


def checks() -> tuple:
    from health.judge.checks import CHECKS

    return CHECKS


SPEC = LayoutSpec(NAME, detect, for_root, checks, thresholds=NAME, describe="the LifeOS memory tree",
                  prepare=unprepared)
