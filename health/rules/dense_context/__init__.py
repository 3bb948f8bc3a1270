"""Evaluate stage (Dense Context): the layout's rules, one per dc_* collector. Read by health.layouts.

Kept out of the package scan of health.rules (no module-level RULE), so a LifeOS audit never
judges Dense Context evidence and vice versa.
"""
from __future__ import annotations

from health.rules.dense_context import access_log, atoms, caps, decisions, index_drift, references, structure

RULES = tuple(module.RULE for module in (structure, caps, atoms, references, index_drift, access_log, decisions))
