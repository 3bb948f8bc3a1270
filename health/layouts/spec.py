"""Application: what one memory layout is (LayoutSpec) and how it tells a root is its own. Used by health.layouts and its modules.

A layout is one spec (pip-audit's one interface, one module per variant): the modules under
health.layouts each build one, health.layouts.LAYOUTS lists them, and nothing else branches on
a layout's name. A spec loads nothing heavy: its functions import their modules when called,
so the --layout choices and the auto-detection stay import-light.
"""
from __future__ import annotations


class Detection:
    """What a layout's detect(root) saw.

    found: bool (ROOT holds this layout's marker); what: str (the marker found, or the one looked
    for: the words of the usage error when no single layout is found); hint: Callable[[str], str] |
    None (extra words for that error, e.g. where a tree of this layout is nearby; "" when none).
    """

    __slots__ = ("found", "what", "hint")

    def __init__(self, found, what, hint=None) -> None:
        self.found, self.what, self.hint = found, what, hint


class LayoutSpec:
    """One memory layout.

    name: str (the --layout value); detect: Callable[[str], Detection]; for_root: Callable[[root, options,
    environ, now_ms], layout value] (pure path arithmetic: nothing is read); checks: Callable[[], tuple[CheckRow,
    ...]] (this layout's list in health.judge.checks); thresholds: str (the `layout` of its ThresholdSpec rows,
    what thresholds.sources.resolve keeps); describe: str (what the reports call the audited tree);
    prepare: Callable[[layout], layout] (the shared step run once before the collectors, its result kept
    on the layout value they receive: Dense Context's one tree scan; the identity when there is none).
    """

    __slots__ = ("name", "detect", "for_root", "checks", "thresholds", "describe", "prepare")

    def __init__(self, name, detect, for_root, checks, thresholds, describe, prepare) -> None:
        self.name, self.detect, self.for_root, self.checks, self.thresholds = name, detect, for_root, checks, thresholds
        self.describe, self.prepare = describe, prepare


def unprepared(layout):
    """The prepare step of a layout whose collectors share nothing: the layout as it is."""
    return layout


class LayoutError(Exception):
    """The layout cannot be chosen (exit 3, reported as a usage error)."""
