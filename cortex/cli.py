"""Core CLI entry point (`cortex`, `python -m cortex`): one envelope line on stdout, semantic exit.

Only this module turns results and exceptions into exit codes. Whatever happens, stdout
gets exactly one compact JSON envelope validated against the published schema; an
unexpected exception is internal_error (exit 1), never a traceback.
"""
from __future__ import annotations

import os
import sys
from typing import Mapping, Sequence, TextIO

from cortex.envelope import EXIT_CODES, failure, success
from cortex.errors import CortexError, InvalidInput
from cortex.invocation import Invocation, parse_arguments
from cortex.jsjson import dumps


def run(
    args: Sequence[str],
    *,
    environ: Mapping[str, str] | None = None,
    memory_root: str | None = None,
    stdin: TextIO | None = None,
) -> tuple[int, dict | str]:
    """Run one command in-process; returns (exit code, envelope dict or raw text)."""
    from cortex.commands import registry

    environ = os.environ if environ is None else environ
    command = args[0] if args else ""
    try:
        spec, options, positionals = parse_arguments(list(args), registry())
        invocation = Invocation(command, options, positionals, environ, memory_root, stdin)
        data = spec.handler(invocation)
        if not spec.enveloped:
            return data  # (exit code, text) for hook commands that print plain text
        envelope = success(command, data)
    except CortexError as error:
        envelope = failure(command, error.code, error.message)
    except Exception as error:  # noqa: BLE001 - the contract: internal_error, never a traceback
        envelope = failure(command, "internal_error", f"{type(error).__name__}: {error}")
    return _checked(envelope)


def _checked(envelope: dict) -> tuple[int, dict]:
    from pydantic import ValidationError

    from cortex.envelope import validate_envelope

    try:
        validate_envelope(envelope)
    except ValidationError as error:
        envelope = failure(envelope.get("command", ""), "internal_error", f"invalid response envelope: {error.error_count()} errors")
    code = EXIT_CODES.get(envelope["error"]["code"] if envelope["error"] else None, 1)
    return code, envelope


def main(argv: Sequence[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        code, output = run(args)
        text = output if isinstance(output, str) else dumps(output) + "\n"
    except Exception as error:  # noqa: BLE001 - last line of defence
        code = 1
        text = dumps(failure(args[0] if args else "", "internal_error", f"{type(error).__name__}: {error}")) + "\n"
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away; do not die with a traceback on interpreter shutdown.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return code


if __name__ == "__main__":
    sys.exit(main())
