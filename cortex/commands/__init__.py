"""Core command registry: every `cortex` command module registers its CommandSpec here; used by cortex.cli.

Adding a command is a one-file change plus one row: a module under cortex/commands/ exposing
COMMANDS (a list of CommandSpec) and each command's name in _COMMAND_MODULES. Running a
command imports only its own module (a prompt hook must not pay for pydantic, and an
unknown command for nothing at all); a test checks that table against the modules' specs.
"""
from __future__ import annotations

import sys

from cortex.invocation import CommandSpec, command_key

# command name -> the module under cortex/commands/ that defines it
_COMMAND_MODULES = {
    "status": "read", "search": "read", "timeline": "read", "get": "read", "export": "read", "rebuild": "read",
    "benchmark": "benchmark", "init": "init", "hot": "hot", "remember": "write", "propose": "write",
    "proposals": "proposals", "hot render": "render", "recall": "recall",
    "review replay": "review", "review run": "review", "review fire": "fire", "cache": "cache",
}
_MODULES = tuple(dict.fromkeys(_COMMAND_MODULES.values()))
# The plain-text hook commands (a subset of the table, kept for the hook tests and the docs).
_HOT_PATH = {name: _COMMAND_MODULES[name] for name in ("hot render", "recall", "review fire")}


def _specs(module_name: str) -> list[CommandSpec]:
    name = f"cortex.commands.{module_name}"
    __import__(name)  # not importlib.import_module: importlib costs a hook ~0.5 ms to import
    return list(sys.modules[name].COMMANDS)


def registry() -> dict[str, CommandSpec]:
    commands: dict[str, CommandSpec] = {}
    for module_name in _MODULES:
        for spec in _specs(module_name):
            if spec.name in commands:
                raise RuntimeError(f"command registered twice: {spec.name}")
            commands[spec.name] = spec
    return commands


def command_words() -> list[str]:
    """Every word a command line may start with (for the did-you-mean of an unknown command)."""
    return sorted({name.split()[0] for name in _COMMAND_MODULES} | {"help"})


def commands_for(args: list[str]) -> dict[str, CommandSpec]:
    """Only the specs of the module that serves `args` (none for an unknown command)."""
    name = command_key(args, _COMMAND_MODULES)
    if name is None:
        return {}
    return {spec.name: spec for spec in _specs(_COMMAND_MODULES[name])}
