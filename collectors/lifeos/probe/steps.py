"""Collect stage helper: the probe's steps, each run as the agent (or a user) would run it in the copy. Used by collectors.lifeos.probe.collect.

Hook steps: every memory hook settings.json registers (collectors.lifeos.hook_registry), in the
agent's order (UserPromptSubmit, then Stop), with its command line, Claude Code's JSON on
stdin and its timeout. Write steps, with the `cortex` the hooks run: `remember` (a probe idea
through the governed write path), `search` finds it, `get` returns it, and `review run` on
the probe transcript with a stub inference command (the real one is never called). The
environment is the agent's (the auditor's, overlaid with the settings' `env`) pointed at the
copy: CORTEX_MEMORY_ROOT, CLAUDE_CONFIG_DIR, CORTEX_HEALTH_ROOT and the caches go into the
temporary folder, CORTEX_REVIEWER_COMMAND is the stub, the report copies the gate could
write elsewhere are turned off, and ROOT's path in a command line or an `env` value is
replaced by the copy's.
"""
from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
from collections import namedtuple
from collections.abc import Mapping

from collectors.readers.settings import hook_environment
from collectors.lifeos.hook_registry import DEFAULT_TIMEOUT_MS, Registry
from collectors.lifeos.probe import verdicts
from collectors.lifeos.probe.sandbox import Sandbox, stub_command
from collectors.readers.text import clip

EVENT_ORDER = ("UserPromptSubmit", "Stop")
HOOK_VERDICTS = {"render": verdicts.render, "recall": verdicts.recall, "fire": verdicts.fire, "gate": verdicts.gate}
REDIRECTED = ("CORTEX_HEALTH_PROMETHEUS_TEXTFILE", "CORTEX_HEALTH_REPORT_PATH")


class Step(namedtuple("Step", "name kind event command shown timeout_ms timeout_declared stdin judge")):
    """name: str (render, recall, fire, gate, remember, search, get, review; -2, -3 for a hook registered again);
    kind: hook | write | review; event: str | None; command: str, the shell command line (never in evidence);
    shown: str, the program and its words (what evidence keeps); timeout_ms: int; timeout_declared: bool; stdin:
    bytes; judge: Callable[[Outcome, Sandbox], str | None] | None (None for the round trip's steps, judged where
    their answers are used, in collectors.lifeos.probe.collect).
    """

    __slots__ = ()


def environment(environ: Mapping[str, str], registry: Registry, sandbox: Sandbox, real_root: str) -> dict[str, str]:
    env = {key: redirect(value, real_root, sandbox, environ) for key, value in
           hook_environment(registry.env, environ).items()}
    for key in REDIRECTED:
        env.pop(key, None)
    cache = os.path.join(sandbox.folder, "cache")
    env.update(CORTEX_MEMORY_ROOT=sandbox.memory, CLAUDE_CONFIG_DIR=sandbox.root, CORTEX_HEALTH_ROOT=sandbox.root,
               CORTEX_CACHE_DIR=cache, XDG_CACHE_HOME=cache, CLAUDE_PROJECT_DIR=sandbox.project,
               CORTEX_REVIEWER_COMMAND=stub_command(sandbox))
    return env


def redirect(text: str, real_root: str, sandbox: Sandbox, environ: Mapping[str, str]) -> str:
    """`text` with the real ROOT (also through its symlinks' target, and as ~/.claude or $HOME/.claude when it is
    that) replaced by the copy's."""
    for spelling in dict.fromkeys((real_root, os.path.realpath(real_root))):
        text = text.replace(spelling, sandbox.root)
    home = environ.get("HOME")
    if home and os.path.join(home, ".claude") == real_root:
        for alias in ("~/.claude", "$HOME/.claude", "${HOME}/.claude"):
            text = text.replace(alias, sandbox.root)
    return text


def payload(event: str, sandbox: Sandbox) -> bytes:
    """Claude Code's JSON for a hook: UserPromptSubmit with the probe prompt, Stop."""
    common = {"session_id": sandbox.session, "transcript_path": sandbox.transcript, "cwd": sandbox.project,
              "permission_mode": "default", "hook_event_name": event}
    if event == "UserPromptSubmit":
        common["prompt"] = f"What does the note about {sandbox.token} say?"
    elif event == "Stop":
        common["stop_hook_active"] = False
    return json.dumps(common).encode("utf-8")


def shown(program: str | None, words: tuple[str, ...]) -> str:
    return clip(" ".join([program or "?", *words]), 200)


def hook_steps(registry: Registry, sandbox: Sandbox, real_root: str, environ: Mapping[str, str]) -> list[Step]:
    ordered = sorted(registry.hooks, key=lambda item: EVENT_ORDER.index(item.event) if item.event in EVENT_ORDER
                     else len(EVENT_ORDER))
    seen: dict[str, int] = {}
    steps = []
    for item in ordered:
        seen[item.hook] = seen.get(item.hook, 0) + 1
        name = item.hook if seen[item.hook] == 1 else f"{item.hook}-{seen[item.hook]}"
        steps.append(Step(name, "hook", item.event, redirect(item.command, real_root, sandbox, environ),
                          shown(item.parsed.program, item.parsed.words), item.timeout_ms, item.timeout_declared,
                          payload(item.event, sandbox), HOOK_VERDICTS[item.hook]))
    return steps


def cortex_program(registry: Registry, env: Mapping[str, str]) -> str:
    """The `cortex` the hooks run (their program word), else the one beside this interpreter, else on PATH."""
    for item in registry.hooks:
        program = item.parsed.program
        if program and os.path.basename(program) == "cortex":
            return program
    beside = os.path.join(os.path.dirname(os.path.abspath(sys.executable)), "cortex")
    if os.access(beside, os.X_OK) and not os.path.isdir(beside):
        return beside
    return shutil.which("cortex", path=env.get("PATH", os.defpath)) or "cortex"


def write_step(name: str, program: str, *args: str, kind: str = "write") -> Step:
    """A `cortex` command of the round trip: Claude Code's default hook timeout applies to it as well."""
    return Step(name, kind, None, shlex.join([program, *args]), shown(program, args[:2] if kind == "review" else
                                                                    args[:1]), DEFAULT_TIMEOUT_MS, False, b"", None)


def remember_step(program: str, sandbox: Sandbox) -> Step:
    item = {"type": "idea", "title": f"Cortex probe write {sandbox.token}",
            "content": f"Written by cortex-health probe; {sandbox.token} finds it."}
    return write_step("remember", program, "remember", json.dumps(item), "--adapter", "claude", "--allow-write")


def search_step(program: str, sandbox: Sandbox) -> Step:
    return write_step("search", program, "search", sandbox.token)


def get_step(program: str, record: str) -> Step:
    return write_step("get", program, "get", record)


def review_step(program: str, sandbox: Sandbox) -> Step:
    return write_step("review", program, "review", "run", "--input", sandbox.transcript, kind="review")

