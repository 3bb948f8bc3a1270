"""Reviewer stage: why the inference command failed, said in the run's error (and so in the audit's findings); used by the reviewer.

A bare "exited with status 1" sends the user digging in a run folder for the cause that the
command printed ("Invalid API key"). The error gains the first line of the command's stderr
(past the privacy boundary, printable characters only, bounded), a hint when a credential-like
variable was withheld from the command (pass_env), and for a command that is not installed,
where to name another one.
"""
from __future__ import annotations

import os

from cortex.core.privacy import strip_private_content
from cortex.review.childenv import withheld
from cortex.review.inference import MAX_STDERR_BYTES, InferenceError
from cortex.review.reviewruns import spelled_out

MAX_LINE_CHARS = 200
MAX_NAMES = 3
_TRACEBACK = "Traceback (most recent call last):"


def _printable(line: str) -> str:
    without_escapes = []
    skipping = False
    for char in line:  # ANSI colour sequences (ESC [ ... letter) and other control characters go
        if char == "\x1b":
            skipping = True
        elif skipping:
            skipping = not char.isalpha()
        elif char.isprintable() or char.isspace():
            without_escapes.append(char)
    return " ".join("".join(without_escapes).split())


def stderr_line(stderr: bytes) -> str | None:
    """The command's first non-blank stderr line (a Python traceback's last one), private spans removed, bounded."""
    text = strip_private_content(spelled_out(stderr.decode("utf-8", "replace")))
    if len(stderr) >= MAX_STDERR_BYTES:
        text = text.partition("\n")[2]  # only the tail was kept: its first line is cut
    lines = [line for line in map(_printable, text.splitlines()) if line]
    if not lines:
        return None
    line = lines[-1] if lines[0] == _TRACEBACK else lines[0]
    return line if len(line) <= MAX_LINE_CHARS else line[:MAX_LINE_CHARS - 1] + "…"


def withheld_hint(environ, pass_env) -> str | None:
    names = withheld(environ, pass_env)
    if not names:
        return None
    shown = ", ".join(names[:MAX_NAMES]) + (f" and {len(names) - MAX_NAMES} more" if len(names) > MAX_NAMES else "")
    verb, pronoun = ("is", "it") if len(names) == 1 else ("are", "them")
    return (f"{shown} {verb} set but withheld from the command: name {pronoun} in pass_env in memory-review.json if "
            "the command needs it")


def explained(error: InferenceError, argv: list[str], environ, pass_env) -> str:
    """The error's message with its cause: stderr's first line and the pass_env hint, or how to name a command."""
    if error.not_found:
        program = os.path.basename(argv[0])
        install = "install Claude Code, or " if program == "claude" else "install it, or "
        return (f"{error.message}: {install}name another command in inference_command (memory-review.json) or "
                "CORTEX_REVIEWER_COMMAND")
    parts = [error.message]
    line = stderr_line(error.stderr) if error.stderr else None
    if line:
        parts[0] += f": {line}"
    hint = withheld_hint(environ, pass_env) if error.exited else None
    if hint:
        parts.append(hint)
    return "; ".join(parts)
