"""Collect stage (and the status line): where a LifeOS ROOT keeps things, as plain paths.

Used by collectors.lifeos.layout (the full Layout) and by health.statusline, which must stay
cheap to import: this module and cortex.layout, whose names it reuses, need nothing but
`os`. ROOT is a LifeOS config directory; M = ROOT/LIFEOS/MEMORY, O = M/OBSERVABILITY.
"""
from __future__ import annotations

import os

from cortex.layout import HEALTH_LOG, MEMORY_PARTS, OBSERVABILITY

HEALTH_LOG_NAME = HEALTH_LOG


def resolve_root(cli_root, environ) -> str:
    """--root, else CORTEX_HEALTH_ROOT, else CLAUDE_CONFIG_DIR, else ~/.claude (empty values skipped)."""
    for candidate in (cli_root, environ.get("CORTEX_HEALTH_ROOT"), environ.get("CLAUDE_CONFIG_DIR")):
        if candidate:
            return candidate
    home = environ.get("HOME") or os.path.expanduser("~")
    return os.path.join(home, ".claude")


def memory_dir(root: str) -> str:
    """M for an absolute ROOT."""
    return os.path.join(root, *MEMORY_PARTS)


def observability_dir(root: str) -> str:
    """O for an absolute ROOT."""
    return os.path.join(memory_dir(root), OBSERVABILITY)


def health_log_path(root: str) -> str:
    """O/memory-health.jsonl for ROOT (made absolute, ~ expanded)."""
    return os.path.join(observability_dir(os.path.abspath(os.path.expanduser(root))), HEALTH_LOG)
