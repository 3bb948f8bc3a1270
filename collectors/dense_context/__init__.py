"""Collect stage (Dense Context): the collectors of the Dense Context layout, in report order. Read by health.layouts.

This list is the layout's whole collector registry: these collectors never run on a LifeOS
tree and the LifeOS collectors never run on this one. Their names start with `dc_`.
"""
from __future__ import annotations

from collectors.dense_context import access_log, atoms, caps, decisions, index_drift, references, structure
from collectors.registry import Collector

COLLECTORS = (
    Collector("dc_structure", 200, structure.collect),
    Collector("dc_caps", 210, caps.collect),
    Collector("dc_atoms", 220, atoms.collect),
    Collector("dc_references", 230, references.collect),
    Collector("dc_index", 240, index_drift.collect),
    Collector("dc_access_log", 250, access_log.collect),
    Collector("dc_decisions", 260, decisions.collect),
)
