"""Application: the Dense Context layout's spec (a Cortex home's context/ tree of projects and atoms). Listed in health.layouts.LAYOUTS.

Its collectors are collectors/dense_context/, its check list health.judge.checks.DENSE_CONTEXT,
its thresholds thresholds/dense_context.py; before its collectors run, one shared scan of the
tree (collectors.dense_context.shared_scan) is kept on the layout value they receive.
"""
from __future__ import annotations

import os

from health.layouts.spec import Detection, LayoutSpec

NAME = "dense-context"


def detect(root: str) -> Detection:
    from collectors.dense_context import context_of  # not .layout: a LifeOS audit needs no DenseLayout

    context = context_of(root)
    if os.path.isfile(os.path.join(context, "AGENTS.md")):
        return Detection(True, f"{os.path.relpath(context, root)}/AGENTS.md")
    return Detection(False, "context/AGENTS.md (nor is it a context/ folder with AGENTS.md)")


def for_root(root: str, options, environ, now_ms: int | None):
    from collectors.dense_context.layout import DenseLayout

    return DenseLayout.for_root(root, now_ms)


def checks() -> tuple:
    from health.judge.checks import DENSE_CONTEXT

    return DENSE_CONTEXT


def prepare(layout):
    from collectors.dense_context.shared_scan import scanned

    return scanned(layout)


SPEC = LayoutSpec(NAME, detect, for_root, checks, thresholds=NAME, describe="the Dense Context tree",
                  prepare=prepare)
