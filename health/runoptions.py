"""Application stage: the options of one audit run (a frozen dataclass); used by health.options, health.gate and health.run.

Its own module so that parsing a command line (and the gate's parent process, which only
parses and waits) never imports the check list and every collector behind health.run.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Options:
    root: str | None = None
    now: str | None = None
    config: str | None = None
    thresholds: tuple[tuple[str, str], ...] = ()
    no_write: bool = False
    report_path: str | None = None
    index_manifest: str | None = None
    selected: tuple[str, ...] | None = None  # collectors to run (--only/--skip); None: all
    prometheus_textfile: str | None = None
    layout: str | None = None  # lifeos | dense-context; None: auto-detect (health.layouts)
