"""Core command registry: every `cortex` command module registers its CommandSpec here; used by cortex.cli.

Adding a command is a one-file change plus one row: a module under cortex/commands/ exposing
COMMANDS (a list of CommandSpec, each with its help) and the command's name, module and summary
in COMMAND_TABLE here. Running a command imports only its own module (a prompt hook must not pay
for pydantic, and an unknown command for nothing at all); a test checks that table against the
modules' specs.
"""
from __future__ import annotations

import sys

from cortex.invocation import CommandSpec, command_key

# command name -> (the module under cortex/commands/ that defines it, its one-line summary), in the order
# `cortex --help` lists them. The summaries live here, not in the specs, so that the overview imports no
# command module (all of them would load pydantic); the rest of a command's help is in its CommandSpec.
COMMAND_TABLE = {
    "status": ("read", "Show the pinned memory root and how many canonical records it holds."),
    "search": ("read", "Rank records for a query (BM25); answers cards, never content."),
    "timeline": ("read", "Records created around an anchor record or date."),
    "get": ("read", "Full sanitized records by id, all or nothing (exit 3 names the missing ids)."),
    "export": ("read", "The same selection as get, as a lifeos-cortex-export/v1 payload; writes no file."),
    "rebuild": ("read", "Rebuild the corpus view from the canonical files and compare digests."),
    "cache": ("cache", "Show, verify or clear this memory root's search cache (derived; never a source of truth)."),
    "benchmark": ("benchmark", "Run the labeled retrieval benchmark (lifeos-cortex-benchmark/v1 report)."),
    "init": ("init", "Create a fresh LifeOS layout under --root; never overwrites an existing file."),
    "hot": ("hot", "Read and write the two hot-memory files (principal, da)."),
    "remember": ("write", "Write a memory, idea or knowledge item through the governed write path."),
    "propose": ("write", "Queue a proposal (an edit to a curated file) for approval."),
    "proposals": ("proposals", "List, approve or reject queued proposals."),
    "review run": ("review", "Run one memory review of a Claude Code transcript (the reviewer)."),
    "review fire": ("fire", "Stop hook: count a turn and start a review when one is due."),
    "review replay": ("review", "Dispatch again the items a review kept because their dispatch failed."),
    "hot render": ("render", "UserPromptSubmit hook: print the <lifeos-memory> block."),
    "recall": ("recall", "UserPromptSubmit hook: print a bounded <lifeos-recall> block for a prompt."),
}
_COMMAND_MODULES = {name: module for name, (module, _summary) in COMMAND_TABLE.items()}
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


def summary(name: str) -> str:
    return COMMAND_TABLE[name][1]


def commands_for(args: list[str]) -> dict[str, CommandSpec]:
    """Only the specs of the module that serves `args` (none for an unknown command)."""
    name = command_key(args, _COMMAND_MODULES)
    if name is None:
        return {}
    return {spec.name: spec for spec in _specs(_COMMAND_MODULES[name])}
