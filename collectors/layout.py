"""Collect stage: where the audited tree keeps its evidence. Built by the CLI, read by collectors.

ROOT is a LifeOS config directory; M = ROOT/LIFEOS/MEMORY, O = M/OBSERVABILITY.
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field

from collectors.paths import HEALTH_LOG_NAME, memory_dir, observability_dir, resolve_root

__all__ = ["HEALTH_LOG_NAME", "HOT_FILES", "Layout", "resolve_root"]

HOT_FILES = (
    ("principal", ("LIFEOS", "USER", "PRINCIPAL", "PRINCIPAL_MEMORY.md")),
    ("da", ("LIFEOS", "USER", "DIGITAL_ASSISTANT", "DA_MEMORY.md")),
)


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

    @classmethod
    def for_root(cls, root: str, manifest: str | None = None, environ: Mapping[str, str] | None = None) -> "Layout":
        root = os.path.abspath(os.path.expanduser(root))
        memory = memory_dir(root)
        return cls(
            root=root,
            memory=memory,
            observability=observability_dir(root),
            policy=os.path.join(root, "LIFEOS", "CORTEX_INDEX_POLICY.json"),
            manifest=os.path.abspath(manifest) if manifest else os.path.join(memory, "INDEX", "index-manifest.json"),
            hot_files=tuple((label, os.path.join(root, *parts)) for label, parts in HOT_FILES),
            environ=dict(environ or {}),
        )

    def evidence(self, name: str) -> str:
        """A file directly under O."""
        return os.path.join(self.observability, name)

    @property
    def health_log(self) -> str:
        return self.evidence(HEALTH_LOG_NAME)

