"""Write path: where every governed file lives, derived from the memory root; used by every writer.

M is the memory root (`--memory-root`), LIFEOS its parent, ROOT the parent of LIFEOS and
O = M/OBSERVABILITY. This is exactly the layout the auditor reads, so the names here are a
public contract: change them and `cortex-health` stops seeing the evidence.
"""
from __future__ import annotations

import os
from dataclasses import dataclass

HOT_FILES = {
    "principal": ("USER", "PRINCIPAL", "PRINCIPAL_MEMORY.md"),
    "da": ("USER", "DIGITAL_ASSISTANT", "DA_MEMORY.md"),
}
HOT_LABELS = tuple(HOT_FILES)
INDEX_POLICY = {"schema": "lifeos-cortex-index-policy/v1", "policy": "no-index-v1"}


@dataclass(frozen=True)
class Layout:
    """All paths are lexical (aliases unresolved); `cortex.safepaths` pins them before use."""

    memory_root: str

    @classmethod
    def from_memory_root(cls, memory_root: str) -> "Layout":
        return cls(os.path.abspath(memory_root))

    @classmethod
    def from_claude_root(cls, root: str) -> "Layout":
        return cls(os.path.join(os.path.abspath(root), "LIFEOS", "MEMORY"))

    @property
    def lifeos(self) -> str:
        return os.path.dirname(self.memory_root)

    @property
    def root(self) -> str:
        return os.path.dirname(self.lifeos)

    @property
    def observability(self) -> str:
        return os.path.join(self.memory_root, "OBSERVABILITY")

    @property
    def knowledge(self) -> str:
        return os.path.join(self.memory_root, "KNOWLEDGE")

    @property
    def state(self) -> str:
        return os.path.join(self.memory_root, "STATE")

    @property
    def user(self) -> str:
        return os.path.join(self.lifeos, "USER")

    @property
    def index_policy(self) -> str:
        return os.path.join(self.lifeos, "CORTEX_INDEX_POLICY.json")

    def hot_file(self, label: str) -> str:
        return os.path.join(self.lifeos, *HOT_FILES[label])

    def evidence(self, name: str) -> str:
        """A file directly under O, e.g. evidence("memory-writes.jsonl")."""
        return os.path.join(self.observability, name)

    @property
    def snapshots(self) -> str:
        return os.path.join(self.observability, "memory-snapshots")

    @property
    def pending_proposals(self) -> str:
        return self.evidence("pending-proposals.jsonl")

    def display(self, path: str) -> str:
        """Path relative to ROOT for logs and results, e.g. LIFEOS/USER/PRINCIPAL/PRINCIPAL_MEMORY.md."""
        relative = os.path.relpath(path, self.root)
        return path if relative.startswith("..") else relative.replace(os.sep, "/")
