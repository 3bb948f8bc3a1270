"""Core command registry: every `cortex` command module registers its CommandSpec here.

Adding a command is a one-file change: a module under cortex/commands/ exposing COMMANDS
(a list of CommandSpec) and its name in _MODULES. The hook commands are also listed in
_HOT_PATH so that running one imports only its own module (a prompt hook must not pay for
pydantic and every other command); a test checks that table against the registry.
"""
from __future__ import annotations

import importlib

from cortex.invocation import CommandSpec

_MODULES = ("read", "benchmark", "init", "hot", "write", "proposals", "render", "recall", "review", "fire")
_HOT_PATH = {"hot render": "render", "recall": "recall", "review fire": "fire"}


def _specs(module_name: str) -> list[CommandSpec]:
    return list(importlib.import_module(f"cortex.commands.{module_name}").COMMANDS)


def registry() -> dict[str, CommandSpec]:
    commands: dict[str, CommandSpec] = {}
    for module_name in _MODULES:
        for spec in _specs(module_name):
            if spec.name in commands:
                raise RuntimeError(f"command registered twice: {spec.name}")
            commands[spec.name] = spec
    return commands


def hot_path_module(args: list[str]) -> str | None:
    """The one module that serves `args` when they name a hook command."""
    two = " ".join(args[:2]) if len(args) >= 2 else None
    return _HOT_PATH.get(two) if two in _HOT_PATH else _HOT_PATH.get(args[0] if args else "")


def commands_for(args: list[str]) -> dict[str, CommandSpec]:
    """The registry, or only the hook command's own spec when `args` name one."""
    module_name = hot_path_module(args)
    if module_name is None:
        return registry()
    return {spec.name: spec for spec in _specs(module_name)}
