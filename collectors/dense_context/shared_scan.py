"""Collect stage (Dense Context): the one shared tree scan, run before this layout's collectors. Called by health.layouts.dense_context (its prepare step).

Each collector that judges atoms brings one per-project analysis (listed here, in the order
they run); the scan (collectors.dense_context.tree) walks and parses the tree once, runs every
analysis on a project while its atoms are in memory, and the result is kept on the layout value
every collector of the layout receives. A scan that raised is kept as well: each collector
reading it then fails with that error, as data, and the others still run.
"""
from __future__ import annotations

from collectors.dense_context import access_log, atoms, index_drift, references
from collectors.dense_context.layout import DenseLayout
from collectors.dense_context.tree import scan

ANALYSES = (("dc_atoms", atoms.project_problems), ("dc_references", references.project_references),
            ("dc_index", index_drift.project_drift), ("dc_access_log", access_log.project_access))


def scanned(layout: DenseLayout) -> DenseLayout:
    """`layout` with its tree scanned (or the exception the scan raised)."""
    try:
        tree = scan(layout, ANALYSES)
    except Exception as error:  # noqa: BLE001 - failure is data: it becomes the failure of each collector reading it
        tree = error
    return layout._replace(tree=tree)
