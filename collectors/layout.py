"""Collect stage: where the audited tree keeps its evidence. Built by health.run, read by collectors.

ROOT is a LifeOS config directory; M = ROOT/LIFEOS/MEMORY, O = M/OBSERVABILITY. Every name
comes from cortex.layout (its Layout: the writers' own paths); this adds only the auditor's
choices (an explicit --index-manifest, absolute paths from ROOT) and the one reading of the
agent's settings.json and of the reviewer's memory-review.json that every collector of
the audit shares.
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import cached_property

from collectors.agent_settings import SettingsFile, live_settings
from collectors.jsonl import review_config
from collectors.paths import HEALTH_LOG_NAME, resolve_root
from cortex import layout as contract

__all__ = ["HEALTH_LOG_NAME", "Layout", "resolve_root"]


@dataclass(frozen=True)
class Layout:
    root: str
    memory: str  # M
    observability: str  # O
    policy: str
    manifest: str
    hot_files: tuple[tuple[str, str], ...]  # (label, path)
    # the auditor's environment (PATH, HOME, subagent flags): injected, never read globally
    environ: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)
    # the private folder of this tree's log cursors (collectors.logcursor); None reads every log in full
    cursors: str | None = field(default=None, compare=False, repr=False)

    @classmethod
    def for_root(cls, root: str, manifest: str | None = None, environ: Mapping[str, str] | None = None) -> "Layout":
        root = os.path.abspath(os.path.expanduser(root))
        core = contract.Layout.from_claude_root(root)  # the writers' own paths
        return cls(
            root=root,
            memory=core.memory_root,
            observability=core.observability,
            policy=core.index_policy,
            manifest=os.path.abspath(manifest) if manifest else core.index_manifest,
            hot_files=tuple((label, core.hot_file(label)) for label in contract.HOT_LABELS),
            environ=dict(environ or {}),
        )

    def evidence(self, name: str) -> str:
        """A file directly under O."""
        return os.path.join(self.observability, name)

    @cached_property
    def settings(self) -> SettingsFile:
        """The effective ROOT/settings.json, parsed on first use and then shared: a Layout is built per audit,
        so install and heartbeats judge one reading of it."""
        return live_settings(self.root, self.environ)

    @cached_property
    def review_config(self) -> dict:
        """The reviewer's memory-review.json, read once per audit for every collector that consults it."""
        return review_config(self.root)

    @property
    def health_log(self) -> str:
        return self.evidence(HEALTH_LOG_NAME)

