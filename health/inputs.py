"""Application: the audit's inputs resolved once (command line, then environment, then defaults). Used by health.run, health.gate and explain.

Options carries what the command line said (with its environment fallbacks already applied
by health.options); this turns it into the frozen values the stages take: the layout of
the audited ROOT, the clock and the effective thresholds with their sources. A bad clock is
kept as data (the cortex-clock-invalid finding), never a usage error, on every path.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from collectors.layout import Layout, resolve_root
from thresholds.clock import Clock, resolve_clock
from thresholds.sources import EffectiveThresholds, resolve


@dataclass(frozen=True)
class Inputs:
    layout: Layout
    clock: Clock
    thresholds: EffectiveThresholds


def resolve_layout(options, environ: Mapping[str, str]) -> Layout:
    """The audited tree's paths, ROOT being --root > CORTEX_HEALTH_ROOT > CLAUDE_CONFIG_DIR > ~/.claude (nothing is read)."""
    return Layout.for_root(resolve_root(options.root, environ), options.index_manifest, environ)


def resolve_inputs(options, environ: Mapping[str, str]) -> Inputs:
    """The layout (see resolve_layout), the clock and the thresholds."""
    layout = resolve_layout(options, environ)
    return Inputs(layout, resolve_clock(options.now, environ),
                  resolve(environ, config_path=options.config, cli=options.thresholds))
