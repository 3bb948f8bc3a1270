"""Collect stage (Dense Context): one module per evidence source of the Dense Context layout, wired in health.judge.checks.

These collectors never run on a LifeOS tree and the LifeOS collectors never run on this one
(health.judge.checks.DENSE_CONTEXT is this layout's check list). Their names start with `dc_`.
`context_of` lives here, not in .layout, because every audit's layout detection asks it (health.layouts).
"""
from __future__ import annotations

import os


def context_of(root: str) -> str:
    """CONTEXT for ROOT: ROOT/context when it is a folder, else ROOT itself when it is named context."""
    inside = os.path.join(root, "context")
    if os.path.basename(root) == "context" and not os.path.isdir(inside):
        return root
    return inside
