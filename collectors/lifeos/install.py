"""Collect stage: the memory loop's install (hook and tool files, hook registrations, hook commands, subagent flags). Called through health.judge.checks.

The install kind decides what is required:
- cortex-native: the effective ROOT/settings.json registers at least one cortex hook command
  (`cortex hot render`, `cortex recall`, `cortex review fire`, `cortex-health gate`) and none
  of the LifeOS memory hook files. The .ts files are then not required; every registered
  command must resolve to an executable in the hooks' environment instead.
- lifeos-native: everything else, a missing settings.json included (the reference's view:
  hook files under ROOT/hooks/, tools under ROOT/LIFEOS/TOOLS/, registrations in settings).
- undetermined: settings.json exists but cannot be read or is not a JSON object (a trailing
  comma): the kind cannot be told, so nothing that depends on it is guessed (no .ts file is
  required, no registration or command judged); the file itself is the one finding.
"""
from __future__ import annotations

import os
import stat

from collectors.readers.settings import CORTEX_HOOKS, HookCommand, SettingsFile, hook_environment, system_settings
from collectors.readers.fsprobe import file_kind
from collectors.lifeos.layout import Layout
from collectors.readers.text import brief
from collectors.evidence import EvidenceStatus

TYPE_CHECKING = False  # annotations only: collections.abc imports collections (~7M instructions)
if TYPE_CHECKING:
    from collections.abc import Mapping

LIFEOS_NATIVE = "lifeos-native"
CORTEX_NATIVE = "cortex-native"
UNDETERMINED = "undetermined"
HOOK_FILES = ("MemoryTurnStart.hook.ts", "LoadMemory.hook.ts", "MemoryDeltaSurface.hook.ts",
              "MemoryReviewFire.hook.ts", "MemoryHealthGate.hook.ts")
TOOL_FILES = ("MemorySystem.ts", "MemoryReviewer.ts", "MemoryWriter.ts", "MemoryRetriever.ts", "MemoryTypes.ts",
              "MemoryStatus.ts", "MemoryHealthCheck.ts", "MutationTier.ts")
# MemoryTurnStart carries LoadMemory and the delta surface, so it is the one registered prompt hook.
REGISTERED_HOOK_FILES = ("MemoryTurnStart.hook.ts", "MemoryReviewFire.hook.ts", "MemoryHealthGate.hook.ts")
# Variables that make a session look like a subagent: render, recall and fire then do nothing.
SUBAGENT_FLAGS = ("CORTEX_SUBAGENT", "CLAUDE_CODE_FORK_SUBAGENT")


class FilePresence:
    """name: str; path: str; present: bool; reason: str | None, why a path that exists does not count."""

    __slots__ = ("name", "path", "present", "reason")

    def __init__(self, name, path, present, reason=None) -> None:
        self.name, self.path, self.present, self.reason = name, path, present, reason


class Registration:
    """hook: str, a hook file name or a cortex hook command; live: bool, registered in the effective settings.json;
    intended: bool, named in settings.system.json.
    """

    __slots__ = ("hook", "live", "intended")

    def __init__(self, hook, live, intended) -> None:
        self.hook, self.live, self.intended = hook, live, intended


class ResolvedCommand:
    """A hook command reduced to its program (the full text may carry secrets: it stays out of evidence).

    event: str; program: str | None; resolved: str | None, the executable the hook would run, None when it does not
    resolve; reason: str | None, why it does not resolve.
    """

    __slots__ = ("event", "program", "resolved", "reason")

    def __init__(self, event, program, resolved, reason) -> None:
        self.event, self.program, self.resolved, self.reason = event, program, resolved, reason


class SubagentFlag:
    """variable: str; value: object; where: str, "settings.json env" or "hook environment"."""

    __slots__ = ("variable", "value", "where")

    def __init__(self, variable, value, where) -> None:
        self.variable, self.value, self.where = variable, value, where


class InstallEvidence:
    """status: EvidenceStatus, that of settings.json; kind: str; kind_reason: str; settings: FileState;
    settings_problem: str | None, why a readable settings.json cannot be used; system: FileState; system_problem:
    str | None; hook_files: tuple[FilePresence, ...]; tool_files: tuple[FilePresence, ...]; registrations:
    tuple[Registration, ...]; commands: tuple[ResolvedCommand, ...]; subagent_flags: tuple[SubagentFlag, ...];
    settings_line, settings_column: int | None, where settings.json's JSON syntax error sits.
    """

    __slots__ = ("status", "kind", "kind_reason", "settings", "settings_problem", "system", "system_problem",
                 "hook_files", "tool_files", "registrations", "commands", "subagent_flags", "settings_line",
                 "settings_column")

    def __init__(self, status, kind, kind_reason, settings, settings_problem, system, system_problem, hook_files,
                 tool_files, registrations, commands, subagent_flags, settings_line=None, settings_column=None) -> None:
        self.status, self.kind, self.kind_reason, self.settings = status, kind, kind_reason, settings
        self.settings_problem, self.system, self.system_problem = settings_problem, system, system_problem
        self.hook_files, self.tool_files, self.registrations = hook_files, tool_files, registrations
        self.commands, self.subagent_flags, self.settings_line = commands, subagent_flags, settings_line
        self.settings_column = settings_column


def presence(directory: str, name: str) -> FilePresence:
    path = os.path.join(directory, name)
    try:
        info = os.stat(path)  # a symlinked hook file runs as well as a copy
    except FileNotFoundError:
        return FilePresence(name, path, False)
    except OSError as error:
        return FilePresence(name, path, False, f"cannot be examined: {error.strerror or error}")
    if not stat.S_ISREG(info.st_mode):
        return FilePresence(name, path, False, f"not a regular file ({file_kind(info.st_mode)})")
    return FilePresence(name, path, True)


def install_kind(settings: SettingsFile) -> tuple[str, str]:
    cortex = sorted({c.cortex_hook for c in settings.commands if c.cortex_hook})
    lifeos = [name for name in HOOK_FILES if settings.registers(name)]
    if settings.file.status is EvidenceStatus.MISSING:
        return LIFEOS_NATIVE, "settings.json is missing: the LifeOS reference install is assumed"
    if not settings.usable:
        why = settings.problem or settings.file.reason or settings.file.status.value
        return UNDETERMINED, f"settings.json cannot be used ({why}): the install kind cannot be told"
    if cortex and not lifeos:
        return CORTEX_NATIVE, f"settings.json registers the cortex hooks {', '.join(cortex)} and no LifeOS hook file"
    if lifeos:
        return LIFEOS_NATIVE, f"settings.json registers the LifeOS hook files {', '.join(lifeos)}"
    return LIFEOS_NATIVE, "settings.json registers no cortex hook command: the LifeOS reference install is assumed"


def resolve_program(command: HookCommand, env: Mapping[str, str]) -> ResolvedCommand:
    def result(resolved: str | None, reason: str | None) -> ResolvedCommand:
        return ResolvedCommand(command.event, command.program, resolved, reason)

    program = command.program
    if program is None:
        return result(None, command.problem)
    if "/" in program:
        if not os.path.isabs(program):
            return result(None, "a relative program path depends on the hook's working directory")
        if os.path.isfile(program) and os.access(program, os.X_OK):
            return result(program, None)
        return result(None, f"{program} is not an executable file")
    path = env.get("PATH", os.defpath)  # an unset PATH means the shell's default, as for the agent
    found = on_path(program, path) if path else None
    return result(found, None if found else f"{program} is not on the hooks' PATH ({brief(path)})")


def on_path(program: str, path: str) -> str | None:
    """shutil.which(program, path=path) for a bare name on POSIX, without importing shutil (with bz2, lzma and
    zlib: about 3 ms of every audit): the first PATH entry (each searched once) holding it as a non-directory
    this process may execute."""
    seen = set()
    for folder in path.split(os.pathsep):
        if folder not in seen:
            seen.add(folder)
            name = os.path.join(folder, program)
            if os.path.exists(name) and os.access(name, os.F_OK | os.X_OK) and not os.path.isdir(name):
                return name
    return None


def subagent_flags(settings: SettingsFile, environ: Mapping[str, str]) -> tuple[SubagentFlag, ...]:
    flags = [SubagentFlag(key, brief(value), "settings.json env") for key, value in settings.env
             if key in SUBAGENT_FLAGS and value not in ("", "0")]
    flags += [SubagentFlag(key, brief(environ[key]), "hook environment") for key in SUBAGENT_FLAGS
              if environ.get(key, "") not in ("", "0")]
    return tuple(flags)


def collect(layout: Layout) -> InstallEvidence:
    environ = layout.environ
    settings = layout.settings
    system = system_settings(layout.root, environ)
    kind, reason = install_kind(settings)
    hook_files = tool_files = registrations = commands = ()
    if kind == LIFEOS_NATIVE:
        hook_files = tuple(presence(os.path.join(layout.root, "hooks"), name) for name in HOOK_FILES)
        tool_files = tuple(presence(os.path.join(layout.root, "LIFEOS", "TOOLS"), name) for name in TOOL_FILES)
        registrations = tuple(Registration(name, settings.registers(name), system.mentions(name))
                              for name in REGISTERED_HOOK_FILES)
    elif kind == CORTEX_NATIVE:
        registered = {c.cortex_hook for c in settings.commands}
        registrations = tuple(Registration(name, name in registered, False) for name in CORTEX_HOOKS)
        env = hook_environment(settings.env, environ)
        commands = tuple(resolve_program(command, env) for command in settings.commands)
    return InstallEvidence(settings.file.status if settings.problem is None else EvidenceStatus.MALFORMED, kind,
                           reason, settings.file, settings.problem, system.file, system.problem, hook_files,
                           tool_files, registrations, commands, subagent_flags(settings, environ), settings.line,
                           settings.column)
