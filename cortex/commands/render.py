"""Prompt command: `cortex hot render` for a UserPromptSubmit hook; registered with the CLI.

Prints the <lifeos-memory> block (cortex.hot.hotrender). A hot path: stdlib only, no envelope;
on any error stdout stays empty, one line goes to stderr and the exit code is 0, so a
broken memory never blocks a prompt. Prints nothing in a subagent session. After a render it
replaces the surface heartbeat (cortex.hot.surfacebeat), which the auditor compares with the
agent's activity and the memory writes.
"""
from __future__ import annotations

import sys

from cortex.errors import InvalidInput
from cortex.hookinput import is_subagent
from cortex.hot.hotrender import render_memory
from cortex.invocation import CommandSpec, Invocation
from cortex.layout import Layout
from cortex.core.safeio import write_quietly
from cortex.hot.surfacebeat import beat


def render(inv: Invocation) -> tuple[int, str]:
    if inv.positionals:
        raise InvalidInput("hot render accepts no positional arguments")
    if is_subagent(inv):
        return 0, ""
    layout = Layout.from_memory_root(inv.requested_memory_root())
    block = render_memory(layout)
    try:
        beat(layout, inv.now_ms())
    except Exception as error:  # noqa: BLE001 - the block still reaches the prompt; the failure row says why
        write_quietly(sys.stderr, f"cortex hot render: heartbeat not written: {error}\n")
        from cortex.hookfailures import describe, record_for_invocation

        problem = record_for_invocation(inv, "render", error, code="heartbeat_failed",
                                        message=f"heartbeat not written: {describe(error)[1]}")
        if problem:
            write_quietly(sys.stderr, f"cortex hot render: {problem}\n")
    return 0, block


COMMANDS = [CommandSpec("hot render", render, enveloped=False, error_exit=0, usage="cortex hot render",
                        example="cortex hot render --root ~/.claude")]
