"""Prompt command: `cortex hot render` for a UserPromptSubmit hook; registered with the CLI.

Prints the <lifeos-memory> block (cortex.hotrender). A hot path: stdlib only, no envelope;
on any error stdout stays empty, one line goes to stderr and the exit code is 0, so a
broken memory never blocks a prompt. Prints nothing in a subagent session.
"""
from __future__ import annotations

from cortex.errors import InvalidInput
from cortex.hookinput import is_subagent
from cortex.hotrender import render_memory
from cortex.invocation import CommandSpec, Invocation
from cortex.layout import Layout


def render(inv: Invocation) -> tuple[int, str]:
    if inv.positionals:
        raise InvalidInput("hot render accepts no positional arguments")
    if is_subagent(inv):
        return 0, ""
    return 0, render_memory(Layout.from_memory_root(inv.requested_memory_root()))


COMMANDS = [CommandSpec("hot render", render, enveloped=False, error_exit=0)]
