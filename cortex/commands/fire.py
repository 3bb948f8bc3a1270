"""Cadence command: `cortex review fire [--session ID] [--transcript PATH]` for a Stop hook; registered with the CLI.

Counts one turn of the session and, when a review is due, starts `cortex review run`
detached (its own session, stdio on /dev/null, credentials stripped from its environment)
and returns at once. Without --session the Claude Code hook payload on stdin supplies
session_id and transcript_path. Prints nothing. Plain-text hook command: any error is one
line on stderr and exit 1 (a non-blocking hook error in Claude Code; never 2, which would
block the stop). Does nothing in a subagent session (see cortex.hookinput).
"""
from __future__ import annotations

import os
import time

from cortex.review.cadence import Cadence, record_turn, reviewer_argv, start_detached
from cortex.errors import InvalidInput
from cortex.hookinput import is_subagent, payload_text, read_hook_payload
from cortex.invocation import CommandSpec, Invocation
from cortex.review.reviewdefaults import DEFAULT_MIN_MINUTES_BETWEEN, DEFAULT_TURN_THRESHOLD, command_override, uses_defaults
from cortex.review.reviewstate import check_session_id
from cortex.core.safepaths import memory_dir
from cortex.write.writecontext import WriteContext

FIRE_LOCK_WAIT_MS = 500  # a Stop hook must not hang on a busy state file


def fire(inv: Invocation) -> tuple[int, str]:
    began = time.perf_counter()  # the row's duration_ms: the hook's latency, read by the hook_latency check
    if is_subagent(inv):
        return 0, ""
    if inv.positionals:
        raise InvalidInput("review fire accepts no positional arguments")
    session, transcript = inv.option("--session"), inv.option("--transcript")
    if session is None:
        payload = read_hook_payload(inv.stdin)
        session = payload_text(payload, "session_id")
        transcript = transcript or payload_text(payload, "transcript_path") or None
    if not session:
        raise InvalidInput("review fire needs --session ID or a hook payload with session_id on stdin")
    check_session_id(session)
    transcript = os.path.abspath(transcript) if transcript else None  # the reviewer starts in another folder
    ctx = WriteContext.from_invocation(inv)
    ctx = WriteContext(ctx.layout, ctx.now_ms, min(ctx.lock_wait_ms, FIRE_LOCK_WAIT_MS))
    memory = memory_dir(ctx.layout.memory_root, create=False)
    cadence, pass_env = _settings(ctx, inv.environ)
    argv = reviewer_argv(ctx.layout.memory_root, transcript)

    def start() -> int:  # the environment only when a review starts: most Stops just count a turn
        from cortex.review.childenv import reviewer_environment

        return start_detached(argv, reviewer_environment(inv.environ, pass_env), memory)

    record_turn(ctx, session, cadence, start, began)
    return 0, ""


def _settings(ctx: WriteContext, environ) -> tuple[Cadence, list[str]]:
    """The cadence and pass_env: the defaults without pydantic when the config is absent or init's unchanged
    defaults, else the validated file."""
    if uses_defaults(ctx.layout):
        command_override(environ)  # a broken CORTEX_REVIEWER_COMMAND fails the same way with or without a file
        return Cadence(DEFAULT_TURN_THRESHOLD, DEFAULT_MIN_MINUTES_BETWEEN), []
    from cortex.review.reviewconfig import load_config  # pydantic: only for a file that must be validated in full

    config = load_config(ctx.layout, environ)
    return Cadence(config.turn_threshold, config.min_minutes_between), list(config.pass_env)


COMMANDS = [
    CommandSpec("review fire", fire, value_options=frozenset({"--session", "--transcript"}), enveloped=False,
                error_exit=1, usage="cortex review fire [--session ID] [--transcript PATH]",
                option_help=(("--session ID --transcript PATH", "default: Claude Code's hook JSON on stdin"),),
                example="cortex review fire --session demo-session"),
]
