"""Collect stage helper: the memory hooks the effective settings.json registers, with their command lines and timeouts. Used by collectors.lifeos.hook_latency and the probe (collectors.lifeos.probe).

Claude Code runs each command hook of `{"hooks": {EVENT: [{"hooks": [{"type": "command",
"command": ..., "timeout": SECONDS}]}]}}` through the shell with the settings' `env` block
over its own environment, and kills it at its `timeout` (60 s when none is given). The memory
hooks are recognised as the heartbeat checks recognise them (collectors.lifeos.heartbeats.HOOKS: the
cortex commands, or the LifeOS hook files). Read bounded and without blocking, following a
symlinked settings file as the agent does. The command text stays in memory (the probe runs it
as written); what evidence keeps, the program and its words, has crossed the privacy boundary
(collectors.readers.settings.parse_command).
"""
from __future__ import annotations

import os

from collectors.readers.settings import (LIVE_NAME, MAX_COMMANDS, MAX_SETTINGS_BYTES, HookCommand, hook_environment,
                                       parse_command, settings_env)
from collectors.lifeos.heartbeats import HOOKS
from cortex.core.numbers import is_finite
from cortex.core.privacy import strip_private_content
from cortex.core.safeio import UnsafeFile, read_bounded
from cortex.core.strictjson import parse_object

TYPE_CHECKING = False  # annotations only: collections.abc imports collections (~7M instructions)
if TYPE_CHECKING:
    from collections.abc import Mapping

DEFAULT_TIMEOUT_MS = 60_000  # Claude Code's timeout for a command hook that names none
MAX_TIMEOUT_MS = 24 * 3_600_000


class RegisteredHook:
    """hook: str, render | recall | fire | gate; event: str, the Claude Code event; command: str, the command line as
    written, which the probe runs as the agent would (never put into evidence or output); timeout_ms: int; timeout_declared: bool, False when the
    entry names no valid timeout and Claude Code's default applies; parsed: HookCommand (program and words).
    """

    __slots__ = ("hook", "event", "command", "timeout_ms", "timeout_declared", "parsed")

    def __init__(self, hook, event, command, timeout_ms, timeout_declared, parsed) -> None:
        self.hook, self.event, self.command, self.timeout_ms = hook, event, command, timeout_ms
        self.timeout_declared, self.parsed = timeout_declared, parsed


class Registry:
    """path: str; problem: str | None, why the file gives no hooks (missing, unreadable, not an object); hooks:
    tuple[RegisteredHook, ...] in file order; env: tuple[tuple[str, str], ...], the settings' `env` block."""

    __slots__ = ("path", "problem", "hooks", "env")

    def __init__(self, path, problem, hooks, env) -> None:
        self.path, self.problem, self.hooks, self.env = path, problem, hooks, env

    def timeout_ms(self, hook: str) -> int | None:
        """The shortest timeout the hook is registered with (the agent kills it there), None when not registered."""
        found = [item.timeout_ms for item in self.hooks if item.hook == hook]
        return min(found) if found else None


def hook_of(command: str) -> str | None:
    """render, recall, fire or gate: as the heartbeat checks tell registrations apart."""
    for hook, (_log, names) in HOOKS.items():
        if any(name in command for name in names):
            return hook
    return None


def timeout_of(entry: dict) -> tuple[int, bool]:
    value = entry.get("timeout")
    if type(value) in (int, float) and is_finite(value) and 0 < value * 1000 <= MAX_TIMEOUT_MS:
        return int(value * 1000), True
    return DEFAULT_TIMEOUT_MS, False


def read_registry(root: str, environ: Mapping[str, str]) -> Registry:
    """The memory hooks of ROOT/settings.json as the agent would run them."""
    path = os.path.join(root, LIVE_NAME)
    try:
        data = read_bounded(path, MAX_SETTINGS_BYTES, follow_symlinks=True)
    except FileNotFoundError:
        return Registry(path, "missing", (), ())
    except (UnsafeFile, OSError) as error:
        return Registry(path, f"unreadable: {error}", (), ())
    settings = parse_object(data.removeprefix(b"\xef\xbb\xbf").strip())
    if isinstance(settings, str):
        return Registry(path, settings, (), ())
    env = settings_env(settings)
    expanded = hook_environment(env, environ)
    hooks = []
    for event, entry in _entries(settings):
        command = entry.get("command")
        if not isinstance(command, str):
            continue
        hook = hook_of(strip_private_content(command))
        if hook is not None:
            timeout, declared = timeout_of(entry)
            parsed: HookCommand = parse_command(event, command, expanded)  # privacy-stripped: what evidence shows
            hooks.append(RegisteredHook(hook, event, command, timeout, declared, parsed))
    return Registry(path, None, tuple(hooks), env)


def _entries(settings: dict):
    hooks = settings.get("hooks")
    seen = 0
    for event, groups in (hooks.items() if isinstance(hooks, dict) else ()):
        for group in groups if isinstance(groups, list) else ():
            entries = group.get("hooks") if isinstance(group, dict) else None
            for entry in entries if isinstance(entries, list) else ():
                seen += 1
                if isinstance(entry, dict) and seen <= MAX_COMMANDS:
                    yield str(event)[:100], entry
