"""Evaluate stage rule: the memory loop's install. Used by the evaluator through health.judge.checks.

Parity with the reference for a LifeOS-native install: every hook and tool file missing on
disk is critical; settings.json is the truth and settings.system.json the intent (intended
but not registered: a clobbered registration, critical; registered nowhere: warn). A
cortex-native install needs no .ts files; every registered command must resolve instead.
A subagent flag in the main session silently disables render, recall and fire: critical.
A settings.json that exists but cannot be used leaves the kind undetermined: its one finding
leads (settings-invalid, with the line and column of a JSON syntax error) and nothing that
depends on the kind is guessed.
"""
from __future__ import annotations

from collectors.lifeos.install import CORTEX_NATIVE, LIFEOS_NATIVE, UNDETERMINED, InstallEvidence
from health.judge.catalogue.install import (HOOK_COMMAND_MISSING, HOOK_COMMAND_RESOLVED, HOOK_FILE_MISSING,
                                      HOOK_FILE_PRESENT, INSTALL_CORTEX_NATIVE, INSTALL_LIFEOS_NATIVE,
                                      SETTINGS_HOOK_ABSENT, SETTINGS_HOOK_MISSING, SETTINGS_HOOK_PRESENT,
                                      SETTINGS_INVALID, SETTINGS_MISSING, SETTINGS_READABLE, SUBAGENT_FLAG_CLEAR,
                                      SUBAGENT_FLAG_IN_MAIN_SESSION, TOOL_FILE_MISSING, TOOL_FILE_PRESENT)
from health.judge.model import EvidenceStatus, Finding
from health.judge.rules import Context

TYPE_CHECKING = False  # annotations only: collections.abc imports collections (~7M instructions)
if TYPE_CHECKING:
    from collections.abc import Iterator

KINDS = {LIFEOS_NATIVE: INSTALL_LIFEOS_NATIVE, CORTEX_NATIVE: INSTALL_CORTEX_NATIVE}


def judge(ev: InstallEvidence, ctx: Context) -> Iterator[Finding]:
    if ev.kind == UNDETERMINED:
        yield unusable_settings(ev)
        yield subagent(ev)
        return
    yield KINDS[ev.kind].at(message=f"Install kind {ev.kind}: {ev.kind_reason}.", kind=ev.kind, reason=ev.kind_reason)
    if ev.kind == CORTEX_NATIVE:
        yield from cortex_native(ev)
    else:
        yield from lifeos_native(ev)
    yield subagent(ev)


def files(ev: InstallEvidence) -> Iterator[Finding]:
    for what, found, present, missing in (("hook", ev.hook_files, HOOK_FILE_PRESENT, HOOK_FILE_MISSING),
                                          ("tool", ev.tool_files, TOOL_FILE_PRESENT, TOOL_FILE_MISSING)):
        for item in found:
            if item.present:
                yield present.at(item.name, message=f"{what.title()} file present: {item.name}.", path=item.path)
            else:
                why = f" ({item.reason})" if item.reason else ""
                yield missing.at(item.name, message=f"Required {what} file missing on disk: {item.name}{why}.",
                                 path=item.path, reason=item.reason)


def settings_state(ev: InstallEvidence) -> Finding:
    if ev.settings.status is EvidenceStatus.OK and ev.settings_problem is None:
        return SETTINGS_READABLE.at(
            message="settings.json (the effective runtime settings) is readable.",
            path=ev.settings.path)
    reason = ev.settings_problem or ev.settings.reason or ev.settings.status.value
    return SETTINGS_MISSING.at(
        message=f"settings.json (the effective runtime settings) is not found or unreadable: {reason}.",
        path=ev.settings.path, status=ev.settings.status.value, reason=reason)


def unusable_settings(ev: InstallEvidence) -> Finding:
    """settings.json exists but cannot be used: the one finding, instead of guesses about the install kind."""
    if ev.settings_problem is None:  # unreadable: a permission error, a directory, a FIFO
        return settings_state(ev)
    where = (f" at line {ev.settings_line}, column {ev.settings_column}" if ev.settings_column
             else f" at line {ev.settings_line}" if ev.settings_line else "")
    return SETTINGS_INVALID.at(
        message=f"settings.json (the settings the agent reads) is not valid JSON{where}: {ev.settings_problem}. "
        "The agent cannot load it, so no hook of the memory loop is registered; the install checks that "
        "depend on it are skipped until it parses.", path=ev.settings.path, line=ev.settings_line,
        column=ev.settings_column, reason=ev.settings_problem)


def lifeos_native(ev: InstallEvidence) -> Iterator[Finding]:
    yield from files(ev)
    yield settings_state(ev)
    for item in ev.registrations:
        if item.live:
            yield SETTINGS_HOOK_PRESENT.at(item.hook, message=f"{item.hook} registered in the effective settings.json.")
        elif item.intended:
            yield SETTINGS_HOOK_MISSING.at(
                item.hook, message=f"{item.hook} is in settings.system.json but not in the effective settings.json: "
                "de-registered from the live runtime.",
                system=ev.system.path, live=ev.settings.path, hook=item.hook)
        else:
            yield SETTINGS_HOOK_ABSENT.at(
                item.hook, message=f"{item.hook} is not registered in any settings layer: the memory loop is not "
                "enabled on this install.", hook=item.hook, live=ev.settings.path, system=ev.system.path)


def cortex_native(ev: InstallEvidence) -> Iterator[Finding]:
    yield settings_state(ev)
    for item in ev.registrations:
        if item.live:
            yield SETTINGS_HOOK_PRESENT.at(item.hook, message=f"{item.hook} registered in the effective settings.json.")
        else:
            yield SETTINGS_HOOK_ABSENT.at(
                item.hook, message=f"The cortex hook `{item.hook}` is not registered in settings.json: that part of "
                "the memory "
                "loop does not run.", hook=item.hook, live=ev.settings.path)
    seen: set[tuple[str, str]] = set()
    for command in ev.commands:
        program = command.program or "?"
        if (command.event, program) in seen:
            continue
        seen.add((command.event, program))
        if command.resolved:
            yield HOOK_COMMAND_RESOLVED.at(
                command.event, program, message=f"{command.event} hook program {program} resolves to "
                f"{command.resolved}.",
                event=command.event, program=program, resolved=command.resolved)
        else:
            yield HOOK_COMMAND_MISSING.at(
                command.event, program, message=f"{command.event} hook program {program} does not resolve to an "
                "executable: "
                f"{command.reason}.", event=command.event, program=command.program, reason=command.reason,
                live=ev.settings.path)


def subagent(ev: InstallEvidence) -> Finding:
    if not ev.subagent_flags:
        return SUBAGENT_FLAG_CLEAR.at(message="No subagent flag is set for the main session.")
    named = ", ".join(f"{flag.variable}={flag.value} ({flag.where})" for flag in ev.subagent_flags)
    return SUBAGENT_FLAG_IN_MAIN_SESSION.at(
        message=f"A subagent flag is set for every session ({named}): render, recall and fire silently do "
        "nothing.", flags=[{"variable": f.variable, "value": f.value, "where": f.where}
                           for f in ev.subagent_flags], live=ev.settings.path)
