"""Collect stage: where the audited tree keeps its evidence. Built by health.run, read by collectors.

ROOT is a LifeOS config directory; M = ROOT/LIFEOS/MEMORY, O = M/OBSERVABILITY. Every name
comes from cortex.layout, the contract the writers follow; this adds only the auditor's
choices (an explicit --index-manifest, absolute paths from ROOT).
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from collectors.paths import HEALTH_LOG_NAME, memory_dir, observability_dir, resolve_root
from cortex import layout as contract

__all__ = ["HEALTH_LOG_NAME", "HOT_FILES", "Layout", "resolve_root"]

# (label, path relative to ROOT), in report order: the core's hot files under ROOT/LIFEOS
HOT_FILES = tuple((label, (contract.LIFEOS, *parts)) for label, parts in contract.HOT_FILES.items())


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
        memory = memory_dir(root)
        return cls(
            root=root,
            memory=memory,
            observability=observability_dir(root),
            policy=os.path.join(root, contract.LIFEOS, contract.INDEX_POLICY_FILE),
            manifest=os.path.abspath(manifest) if manifest else os.path.join(memory, contract.INDEX,
                                                                               contract.INDEX_MANIFEST_FILE),
            hot_files=tuple((label, os.path.join(root, *parts)) for label, parts in HOT_FILES),
            environ=dict(environ or {}),
        )

    def evidence(self, name: str) -> str:
        """A file directly under O."""
        return os.path.join(self.observability, name)

    @property
    def health_log(self) -> str:
        return self.evidence(HEALTH_LOG_NAME)

