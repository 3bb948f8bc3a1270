"""Core contract: every path, folder and log name of a LifeOS tree. Used by every writer and by the auditor.

M is the memory root (`--memory-root`), LIFEOS its parent, ROOT the parent of LIFEOS and
O = M/OBSERVABILITY. The writers leave their evidence under these names and the auditor
(collectors.lifeos.layout, collectors.readers.paths) reads it under the same names, so they are a public
contract: change one here and both sides move together. Needs nothing but `os` (the status
line imports it), hence a plain class instead of a dataclass.
"""
from __future__ import annotations

import os

# Folders
LIFEOS = "LIFEOS"
MEMORY = "MEMORY"
MEMORY_PARTS = (LIFEOS, MEMORY)  # M relative to ROOT
OBSERVABILITY = "OBSERVABILITY"
KNOWLEDGE = "KNOWLEDGE"
STATE = "STATE"
USER = "USER"
INDEX = "INDEX"

# Files outside O
INDEX_POLICY_FILE = "CORTEX_INDEX_POLICY.json"  # in LIFEOS
INDEX_MANIFEST_FILE = "index-manifest.json"  # in M/INDEX
HOT_FILES = {
    "principal": (USER, "PRINCIPAL", "PRINCIPAL_MEMORY.md"),  # relative to LIFEOS
    "da": (USER, "DIGITAL_ASSISTANT", "DA_MEMORY.md"),
}
HOT_LABELS = tuple(HOT_FILES)
INDEX_POLICY = {"schema": "lifeos-cortex-index-policy/v1", "policy": "no-index-v1"}

# Evidence under O (one writer each; the auditor reads them)
REVIEWER_RUNS_LOG = "reviewer-runs.jsonl"
REVIEWER_RUNS_DIR = "reviewer-runs"  # O/reviewer-runs/<runId>/
REVIEWER_STARTS_LOG = "reviewer-starts.jsonl"  # one `started` row per run, before inference
REVIEWER_FIRES_LOG = "reviewer-fires.jsonl"
REVIEW_STATE_FILE = "review-state.json"
RETRIEVALS_LOG = "memory-retrievals.jsonl"
WRITES_LOG = "memory-writes.jsonl"
LOCKS_LOG = "memory-locks.jsonl"
SNAPSHOTS_DIR = "memory-snapshots"
PENDING_PROPOSALS_LOG = "pending-proposals.jsonl"
PROPOSAL_DECISIONS_LOG = "proposal-decisions.jsonl"
TIER_B_LOG = "tier-b-writes.jsonl"
HEALTH_LOG = "memory-health.jsonl"  # written by cortex-health itself
HEALTH_CHECKPOINT = "memory-health.checkpoint"  # its chain head, rewritten after each append
FAILED_ITEMS_FILE = "failed-items.json"  # O/reviewer-runs/<runId>/: items whose dispatch failed
REPLAYED_FILE = "replayed.json"  # beside it, once `cortex review replay` dispatched them
HOOK_FAILURES_LOG = "hook-failures.jsonl"  # cortex-native: one row per hook run that could not do its job

# Under M/STATE
SURFACE_HEARTBEAT_FILE = "delta-surface-heartbeat"  # written by `cortex hot render`


class Layout:
    """All paths are lexical (aliases unresolved); `cortex.core.safepaths` pins them before use. Immutable."""

    __slots__ = ("memory_root",)
    memory_root: str

    def __init__(self, memory_root: str):
        object.__setattr__(self, "memory_root", memory_root)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"Layout is immutable: cannot set {name}")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Layout) and other.memory_root == self.memory_root

    def __hash__(self) -> int:
        return hash(self.memory_root)

    def __repr__(self) -> str:
        return f"Layout(memory_root={self.memory_root!r})"

    @classmethod
    def from_memory_root(cls, memory_root: str) -> "Layout":
        return cls(os.path.abspath(memory_root))

    @classmethod
    def from_claude_root(cls, root: str) -> "Layout":
        return cls(os.path.join(os.path.abspath(root), *MEMORY_PARTS))

    @property
    def lifeos(self) -> str:
        return os.path.dirname(self.memory_root)

    @property
    def root(self) -> str:
        return os.path.dirname(self.lifeos)

    @property
    def observability(self) -> str:
        return os.path.join(self.memory_root, OBSERVABILITY)

    @property
    def knowledge(self) -> str:
        return os.path.join(self.memory_root, KNOWLEDGE)

    @property
    def state(self) -> str:
        return os.path.join(self.memory_root, STATE)

    @property
    def user(self) -> str:
        return os.path.join(self.lifeos, USER)

    @property
    def index_policy(self) -> str:
        return os.path.join(self.lifeos, INDEX_POLICY_FILE)

    @property
    def index_manifest(self) -> str:
        return os.path.join(self.memory_root, INDEX, INDEX_MANIFEST_FILE)

    def hot_file(self, label: str) -> str:
        return os.path.join(self.lifeos, *HOT_FILES[label])

    def evidence(self, name: str) -> str:
        """A file directly under O, e.g. evidence(WRITES_LOG)."""
        return os.path.join(self.observability, name)

    @property
    def snapshots(self) -> str:
        return os.path.join(self.observability, SNAPSHOTS_DIR)

    @property
    def pending_proposals(self) -> str:
        return self.evidence(PENDING_PROPOSALS_LOG)

    def display(self, path: str) -> str:
        """Path relative to ROOT for logs and results, e.g. LIFEOS/USER/PRINCIPAL/PRINCIPAL_MEMORY.md."""
        relative = os.path.relpath(path, self.root)
        return path if relative.startswith("..") else relative.replace(os.sep, "/")
