"""Collect stage: where the audited tree keeps its evidence. Built by the CLI, read by collectors.

ROOT is a LifeOS config directory; M = ROOT/LIFEOS/MEMORY, O = M/OBSERVABILITY.
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass

HOT_FILES = (
    ("principal", ("LIFEOS", "USER", "PRINCIPAL", "PRINCIPAL_MEMORY.md")),
    ("da", ("LIFEOS", "USER", "DIGITAL_ASSISTANT", "DA_MEMORY.md")),
)
HEALTH_LOG_NAME = "memory-health.jsonl"


@dataclass(frozen=True)
class Layout:
    root: str
    memory: str  # M
    observability: str  # O
    policy: str
    manifest: str
    hot_files: tuple[tuple[str, str], ...]  # (label, path)

    @classmethod
    def for_root(cls, root: str, manifest: str | None = None) -> "Layout":
        root = os.path.abspath(os.path.expanduser(root))
        memory = os.path.join(root, "LIFEOS", "MEMORY")
        return cls(
            root=root,
            memory=memory,
            observability=os.path.join(memory, "OBSERVABILITY"),
            policy=os.path.join(root, "LIFEOS", "CORTEX_INDEX_POLICY.json"),
            manifest=os.path.abspath(manifest) if manifest else os.path.join(memory, "INDEX", "index-manifest.json"),
            hot_files=tuple((label, os.path.join(root, *parts)) for label, parts in HOT_FILES),
        )

    def evidence(self, name: str) -> str:
        """A file directly under O."""
        return os.path.join(self.observability, name)

    @property
    def health_log(self) -> str:
        return self.evidence(HEALTH_LOG_NAME)


def resolve_root(cli_root: str | None, environ: Mapping[str, str]) -> str:
    """--root, else CORTEX_HEALTH_ROOT, else CLAUDE_CONFIG_DIR, else ~/.claude (empty values skipped)."""
    for candidate in (cli_root, environ.get("CORTEX_HEALTH_ROOT"), environ.get("CLAUDE_CONFIG_DIR")):
        if candidate:
            return candidate
    home = environ.get("HOME") or os.path.expanduser("~")
    return os.path.join(home, ".claude")
