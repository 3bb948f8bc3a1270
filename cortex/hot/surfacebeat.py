"""Prompt stage (stdlib only): the surface heartbeat, LIFEOS/MEMORY/STATE/delta-surface-heartbeat; written by `cortex hot render`.

One ISO instant, replaced atomically each time the memory block was rendered, so the auditor
can tell a surface that stopped (delta-surface-dead, hook-silent:render) from one that runs.
Atomic but not fsynced: this runs on every prompt, and the next prompt rewrites it anyway; a
power loss may leave an older instant or an empty file, never a torn one read as valid.
Best effort: a heartbeat that cannot be written is reported on stderr and never blocks a prompt.
"""
from __future__ import annotations

from cortex.core.durable import replace_file
from cortex.layout import STATE, SURFACE_HEARTBEAT_FILE as HEARTBEAT_NAME, Layout
from cortex.core.safepaths import memory_dir
from cortex.core.timestamps import iso_from_ms



def beat(layout: Layout, now_ms: int) -> None:
    """Record that the surface ran at `now_ms`; raises OSError or IntegrityError when it cannot."""
    import os

    state = memory_dir(layout.memory_root, STATE)
    replace_file(os.path.join(state, HEARTBEAT_NAME), (iso_from_ms(now_ms) + "\n").encode("ascii"), sync=False)
