"""Application: the audit's inputs resolved once (command line, then environment, then defaults). Used by health.run, health.gate and explain.

Options carries what the command line said (with its environment fallbacks already applied
by health.options); this turns it into the frozen values the stages take: the memory layout
of the audited ROOT and its check list, the clock and the effective thresholds with their
sources, and where the log cursors live (cortex.core.cachedir; none when caching is off).
A bad clock is kept as data (the cortex-clock-invalid finding), never a usage
error, on every path.
"""
from __future__ import annotations

import os

from collectors.lifeos.layout import Layout, resolve_root
from cortex.core.cachedir import cache_dir
from health.judge.checks import CheckRow, probe_row
from health.layouts import LAYOUTS, LayoutError, LayoutSpec, choose, lifeos
from thresholds.clock import Clock, resolve_clock
from thresholds.sources import EffectiveThresholds, resolve

TYPE_CHECKING = False  # annotations only: collections.abc imports collections (~7M instructions)
if TYPE_CHECKING:
    from collections.abc import Mapping


class Inputs:
    """What one audit takes.

    layout: the chosen layout's value for ROOT (collectors.lifeos.layout.Layout, DenseLayout...); spec: LayoutSpec (the
    chosen layout, health.layouts); clock: Clock; thresholds: EffectiveThresholds; checks: tuple[CheckRow, ...]
    (the chosen layout's check list, or the one a test passed).
    """

    __slots__ = ("layout", "spec", "clock", "thresholds", "checks")

    def __init__(self, layout, spec, clock, thresholds, checks) -> None:
        self.layout, self.spec, self.clock, self.thresholds, self.checks = layout, spec, clock, thresholds, checks


def root_of(options, environ: Mapping[str, str]) -> str:
    """ROOT, absolute: --root > CORTEX_HEALTH_ROOT > CLAUDE_CONFIG_DIR > ~/.claude."""
    return os.path.abspath(os.path.expanduser(resolve_root(options.root, environ)))


def resolve_layout(options, environ: Mapping[str, str]) -> Layout:
    """The LifeOS paths of ROOT (pure path arithmetic: nothing is read), for what publishes when no layout is told."""
    return Layout.for_root(root_of(options, environ), options.index_manifest, environ)._replace(name=lifeos.NAME)


def resolve_thresholds(options, environ: Mapping[str, str], layout_name: str | None) -> EffectiveThresholds:
    return resolve(environ, config_path=options.config, cli=options.thresholds, layout=layout_name)


def resolve_inputs(options, environ: Mapping[str, str], checks: tuple[CheckRow, ...] | None = None) -> Inputs:
    """Everything an audit takes; health.layouts.LayoutError when the layout cannot be told."""
    clock = resolve_clock(options.now, environ)
    root = root_of(options, environ)
    # a test's own check list audits the default layout
    spec: LayoutSpec = LAYOUTS[0] if checks is not None else choose(getattr(options, "layout", None), root)
    layout = spec.for_root(root, options, environ, clock.now_ms)
    layout = layout._replace(cursors=cache_dir(environ, "audit", layout.root), name=spec.name)
    thresholds = resolve_thresholds(options, environ, spec.thresholds)
    chosen = spec.checks() if checks is None else checks
    if probe_wanted(options):
        if spec is not lifeos.SPEC:  # the probe is LifeOS's: it runs the hooks that install registers
            raise LayoutError(f"usage: the probe runs the hooks of a LifeOS install (--layout {lifeos.NAME})")
        chosen = chosen + (probe_row(int(thresholds["probe_timeout_ms"])),)
    return Inputs(layout, spec, clock, thresholds, chosen)


def probe_wanted(options) -> bool:
    """--probe, or --only naming the probe (its row is not in the plain list)."""
    return bool(getattr(options, "probe", False)) or "probe" in (getattr(options, "selected", None) or ())
