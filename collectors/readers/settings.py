"""Collect stage helper: the agent's settings files (ROOT/settings.json, ROOT/settings.system.json). Used by collectors.lifeos.install and collectors.lifeos.heartbeats.

settings.json is what Claude Code actually reads (the truth); settings.system.json states the
intent of a LifeOS install. Both are read bounded and without blocking; a symlinked file is
followed, because the agent follows it too. Only hook commands, the `env` block and (for the
intent file) the set of strings it mentions are kept: nothing else leaves this module.
"""
from __future__ import annotations

import os

from collectors.readers.fsprobe import describe_os_error
from collectors.readers.text import brief
from cortex.core.patterns import compiled
from cortex.core.privacy import strip_private_content
from cortex.core.safeio import UnsafeFile, read_bounded
from cortex.core.strictjson import parse_object
from collectors.evidence import EvidenceStatus, FileState

TYPE_CHECKING = False  # annotations only: collections.abc imports collections (~7M instructions)
if TYPE_CHECKING:
    from collections.abc import Mapping

MAX_SETTINGS_BYTES = 1 << 20
MAX_COMMANDS = 500  # hook commands kept per file; more is not a real settings file
MAX_NODES = 100_000  # JSON values walked while collecting the strings of the intent file
LIVE_NAME = "settings.json"
SYSTEM_NAME = "settings.system.json"
# The cortex hooks and the words that name them (program basename first).
CORTEX_HOOKS = {
    "cortex hot render": ("cortex", "hot", "render"),
    "cortex recall": ("cortex", "recall"),
    "cortex review fire": ("cortex", "review", "fire"),
    "cortex-health gate": ("cortex-health", "gate"),
}
# $VAR, ${VAR} and ${VAR:-default}: compiled (cortex.core.patterns) for the first word that holds a `$`.
_VARIABLE = r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-((?:[^{}]|\{[^{}]*\})*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)"
_NAME_START = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
_NAME = _NAME_START | frozenset("0123456789")


class HookCommand:
    """event: str, UserPromptSubmit, Stop, ...; command: object, as written (cut to a bounded length); program: str |
    None, the program word, variables expanded; None when it cannot be told; words: tuple[str, ...], the words after
    the program; problem: str | None, why the program cannot be told.
    """

    __slots__ = ("event", "command", "program", "words", "problem")

    def __init__(self, event, command, program, words, problem) -> None:
        self.event, self.command, self.program, self.words, self.problem = event, command, program, words, problem

    @property
    def cortex_hook(self) -> str | None:
        """Which cortex hook this command runs ("cortex hot render", ...), if any."""
        if self.program is None:
            return None
        said = (os.path.basename(self.program), *self.words)
        for name, words in CORTEX_HOOKS.items():
            if said[:len(words)] == words:
                return name
        return None


class SettingsFile:
    """file: FileState; problem: str | None, why the content cannot be used (not JSON, not an object); commands:
    tuple[HookCommand, ...]; env: tuple[tuple[str, str], ...], the `env` block's string values; strings: tuple[str,
    ...], every string the file mentions (only for the intent file); line, column: int | None, where a JSON syntax
    error sits (1-based, counted in the file as it is on disk).
    """

    __slots__ = ("file", "problem", "commands", "env", "strings", "line", "column")

    def __init__(self, file, problem=None, commands=(), env=(), strings=(), line=None, column=None) -> None:
        self.file, self.problem, self.commands, self.env, self.strings = file, problem, commands, env, strings
        self.line, self.column = line, column

    @property
    def usable(self) -> bool:
        return self.file.status is EvidenceStatus.OK and self.problem is None

    def mentions(self, name: str) -> bool:
        return any(name in text for text in self.strings)

    def registers(self, name: str) -> bool:
        return any(isinstance(c.command, str) and name in c.command for c in self.commands)


def expand(text: str, env: Mapping[str, str]) -> tuple[str, list[str]]:
    """`text` with $VAR, ${VAR} and ${VAR:-default} expanded; also the names left unset."""
    unset: list[str] = []

    def value(match) -> str:
        name = match.group(1) or match.group(3)
        if env.get(name):
            return env[name]
        if match.group(2) is not None:
            inner, missing = expand(match.group(2), env)
            unset.extend(missing)
            return inner
        unset.append(name)
        return ""

    expanded = compiled(_VARIABLE).sub(value, text) if "$" in text else text
    if expanded.startswith("~/") and env.get("HOME"):
        expanded = env["HOME"] + expanded[1:]
    return expanded, unset


def is_assignment(word: str) -> bool:
    """Whether `word` starts with NAME= (a shell variable assignment): what the pattern [A-Za-z_][A-Za-z0-9_]*= matches
    at its start (tests/collectors/test_shell_words.py compares the two)."""
    name, equals, _ = word.partition("=")
    return bool(equals) and name[:1] in _NAME_START and all(char in _NAME for char in name)


def shell_words(command: str) -> list[str]:
    """shlex.split(command). A printable ASCII command without quotes or backslashes is split at its spaces, which
    is what shlex does with it (tests/collectors/test_shell_words.py compares the two); shlex is imported only for
    the rest (it costs the audit about 1M instructions, and every usual hook command is plain words)."""
    if command.isascii() and command.isprintable() and not any(mark in command for mark in "'\"\\"):
        return command.split()
    import shlex

    return shlex.split(command)


def parse_command(event: str, command: object, env: Mapping[str, str]) -> HookCommand:
    if not isinstance(command, str) or not command.strip():
        return HookCommand(event, brief(command), None, (), "the command is not a non-empty string")
    command = strip_private_content(command)  # commands are shown in evidence: the privacy boundary first
    try:
        words = shell_words(command)
    except ValueError as error:
        return HookCommand(event, brief(command), None, (), f"not a shell command ({error})")
    while words and is_assignment(words[0]):
        words = words[1:]  # VAR=value prefixes set the environment, they are not the program
    if not words:
        return HookCommand(event, brief(command), None, (), "the command names no program")
    program, unset = expand(words[0], env)
    if unset:
        return HookCommand(event, brief(command), None, tuple(words[1:]),
                           f"the program word uses unset variables: {', '.join(sorted(set(unset)))}")
    return HookCommand(event, brief(command), program, tuple(words[1:]), None)


def hook_commands(settings: dict, env: Mapping[str, str]) -> tuple[HookCommand, ...]:
    """Every command of Claude Code's {"hooks": {EVENT: [{"hooks": [{"command": ...}]}]}}."""
    found: list[HookCommand] = []
    hooks = settings.get("hooks")
    if not isinstance(hooks, dict):
        return ()
    for event, groups in hooks.items():
        for group in groups if isinstance(groups, list) else []:
            entries = group.get("hooks") if isinstance(group, dict) else None
            for entry in entries if isinstance(entries, list) else []:
                if isinstance(entry, dict) and len(found) < MAX_COMMANDS:
                    found.append(parse_command(str(event)[:100], entry.get("command"), env))
    return tuple(found)


def all_strings(value: object) -> tuple[str, ...]:
    found: list[str] = []
    pending = [value]
    seen = 0
    while pending and seen < MAX_NODES:
        item = pending.pop()
        seen += 1
        if isinstance(item, str):
            found.append(item)
        elif isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
    return tuple(found)


def settings_env(settings: dict) -> tuple[tuple[str, str], ...]:
    env = settings.get("env")
    if not isinstance(env, dict):
        return ()
    return tuple((str(key), value) for key, value in env.items() if isinstance(value, str))[:MAX_COMMANDS]


def hook_environment(env: tuple[tuple[str, str], ...], environ: Mapping[str, str]) -> dict[str, str]:
    """The environment the agent gives its hooks: its own, overlaid by a settings file's `env` block."""
    merged = dict(environ)
    for key, value in env:
        merged[key] = expand(value, environ)[0]
    return merged


def read_settings(path: str, environ: Mapping[str, str], *, keep_strings: bool = False) -> SettingsFile:
    try:
        data = read_bounded(path, MAX_SETTINGS_BYTES, follow_symlinks=True)
    except FileNotFoundError:
        return SettingsFile(FileState(path, EvidenceStatus.MISSING))
    except UnsafeFile as error:
        return SettingsFile(FileState(path, EvidenceStatus.UNREADABLE, str(error)))
    except OSError as error:
        return SettingsFile(FileState(path, EvidenceStatus.UNREADABLE, describe_os_error(error)))
    parsed = parse_object(data.removeprefix(b"\xef\xbb\xbf"))  # surrounding whitespace is JSON's own
    if isinstance(parsed, str):
        line, column = syntax_error_at(data)
        return SettingsFile(FileState(path, EvidenceStatus.OK), parsed, line=line, column=column)
    env = settings_env(parsed)
    commands = hook_commands(parsed, hook_environment(env, environ))
    return SettingsFile(FileState(path, EvidenceStatus.OK), None, commands, env,
                        all_strings(parsed) if keep_strings else ())


def syntax_error_at(data: bytes) -> tuple[int | None, int | None]:
    """(line, column) of the JSON syntax error in `data`, or (None, None) when the problem is not one."""
    from cortex.core.strictjson import StrictJSONError, decode

    try:
        decode(data.removeprefix(b"\xef\xbb\xbf").decode("utf-8"))
    except StrictJSONError as error:
        return error.line, error.column
    except UnicodeDecodeError as error:
        return data.count(b"\n", 0, error.start) + 1, None
    return None, None


def live_settings(root: str, environ: Mapping[str, str]) -> SettingsFile:
    """ROOT/settings.json as the agent reads it; collectors take it from Layout.settings (parsed once per audit)."""
    return read_settings(os.path.join(root, LIVE_NAME), environ)


def system_settings(root: str, environ: Mapping[str, str]) -> SettingsFile:
    return read_settings(os.path.join(root, SYSTEM_NAME), environ, keep_strings=True)
