"""Core command registry: every `cortex` command module registers its CommandSpec here.

Adding a command is a one-file change: a module under cortex/commands/ exposing COMMANDS
(a list of CommandSpec) and its name in _MODULES.
"""
from __future__ import annotations

import importlib

from cortex.invocation import CommandSpec

_MODULES = ("read", "benchmark", "init", "hot", "write", "proposals")


def registry() -> dict[str, CommandSpec]:
    commands: dict[str, CommandSpec] = {}
    for module_name in _MODULES:
        module = importlib.import_module(f"cortex.commands.{module_name}")
        for spec in module.COMMANDS:
            if spec.name in commands:
                raise RuntimeError(f"command registered twice: {spec.name}")
            commands[spec.name] = spec
    return commands
