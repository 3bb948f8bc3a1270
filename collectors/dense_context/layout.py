"""Collect stage (Dense Context): where a Dense Context tree keeps things. Built by health.layouts.dense_context, read by its collectors.

BASE is the Cortex home (`~/.cortex`), CONTEXT = BASE/context. The audited ROOT may be either.
The auditor never writes under CONTEXT: its health log is BASE/logs/cortex-health.jsonl (the
folder where Cortex already keeps its own logs); the auditor creates that folder (0700) when
BASE exists without it, so a first publication does not fail.
"""
from __future__ import annotations

import os
from collections import namedtuple

from collectors.dense_context import context_of

HEALTH_LOG_PARTS = ("logs", "cortex-health.jsonl")
ATOM_FOLDERS = ("experiments", "knowledge", "patterns")


class DenseLayout(namedtuple("DenseLayout", "root context health_log now_ms tree cursors name",
                             defaults=(None, None, None, None))):
    """Where a Dense Context tree keeps things.

    root, context, health_log: str; now_ms: int | None (the audit's clock: atom ages, stale and
    cold, are measured against it); tree: the shared scan (collectors.dense_context.tree.Tree, or
    the exception it raised), kept here by the layout's prepare step (collectors.dense_context.shared_scan)
    before the collectors run, None until then; cursors, name: str | None (as Layout's).
    Nothing compares or hashes layouts.
    """

    __slots__ = ()

    @classmethod
    def for_root(cls, root: str, now_ms: int | None = None) -> "DenseLayout":
        root = os.path.abspath(os.path.expanduser(root))
        context = context_of(root)
        return cls(root, context, os.path.join(os.path.dirname(context), *HEALTH_LOG_PARTS), now_ms)

    @property
    def projects(self) -> str:
        return os.path.join(self.context, "projects")

    def rel(self, path: str) -> str:
        """`path` relative to CONTEXT, the form every finding id and evidence row uses."""
        return os.path.relpath(path, self.context)

    # What health.publish needs: report paths inside CONTEXT are refused, the log's folder
    # must stay inside BASE, and no file of the tree is "protected" beyond CONTEXT itself.
    @property
    def memory(self) -> str:
        return self.context

    @property
    def log_anchor(self) -> str:
        return os.path.dirname(self.context)

    @property
    def creates_log_folder(self) -> bool:
        """BASE/logs is the auditor's own folder beside context/: health.publish creates it when missing."""
        return True

    @property
    def hot_files(self) -> tuple:
        return ()

    @property
    def policy(self) -> str:
        return os.path.join(self.context, "AGENTS.md")

    @property
    def manifest(self) -> str:
        return self.policy
