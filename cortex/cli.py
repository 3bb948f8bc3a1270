"""Core CLI entry point (`cortex`, `python -m cortex`): one envelope line on stdout, semantic exit.

Only this module turns results and exceptions into exit codes. Whatever happens, stdout
gets exactly one compact JSON envelope validated against the published schema; an
unexpected exception is internal_error (exit 1), never a traceback. Plain-text hook
commands (CommandSpec.enveloped False: `hot render`, `recall`, `review fire`) print their
text instead, and on any error print nothing on stdout, a message on stderr, and exit with
their own error code. A write that succeeds but loses something the user sent (dropped hot
entries) or removes entries (a restore) also says so on stderr; the read commands keep it
empty, but for one note when the search cache was found damaged and rebuilt. Help (`--help`,
`-h`, `help [COMMAND]`, cortex.helptext) and `--version` are the other places that print
text: on stdout, exit 0. Bare `cortex` (no command) prints the usage on stderr and exits 4;
its invalid_input envelope goes to stdout unless that is a terminal. The root options may
come before the command (`cortex --root DIR status`). The envelope is built and checked with
plain data (cortex.envelope_data; tests prove it agrees with the pydantic model), so no
command pays for pydantic.
"""
from __future__ import annotations

import os
import sys
from io import TextIOBase as TextIO

from cortex.errors import CortexError
from cortex.invocation import CommandSpec, Invocation, find_command, help_request, options_first, parse_arguments
from cortex.core import gcpause
from cortex.core.safeio import write_quietly

TYPE_CHECKING = False  # annotations only: collections.abc costs every hook's start-up ~0.4M instructions
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence  # not typing: 6 ms of start-up


def run(
    args: Sequence[str],
    *,
    environ: Mapping[str, str] | None = None,
    memory_root: str | None = None,
    stdin: TextIO | None = None,
    stderr: TextIO | None = None,
    builds: list | None = None,
) -> tuple[int, dict | str]:
    """Run one command in-process; returns (exit code, envelope dict or raw text). `builds`: a list
    receives the search cache's build work for the caller to run after the answer (else it runs
    before this returns)."""
    from cortex.commands import command_words, commands_for

    environ = os.environ if environ is None else environ
    args = options_first(list(args))
    helped = _help(args)
    if helped is not None:
        return helped
    commands = commands_for(args)  # imports the command's module: start-up ends here
    gcpause.resume()
    named, _words = find_command(args, commands)
    if named is not None and not named.enveloped:
        return _run_plain(named, args, commands, environ, memory_root, stdin, stderr, builds)
    from cortex.envelope_data import failure, success  # here: the plain-text hooks build no envelope

    command = named.name if named is not None else (args[0] if args else "")
    try:
        spec, options, positionals = parse_arguments(args, commands, () if named else command_words())
        invocation = Invocation(spec.name, options, positionals, environ, memory_root, stdin, builds)
        try:
            envelope = success(command, spec.handler(invocation))
        finally:
            invocation.release()
        for notice in invocation.notices:
            warn(f"cortex {command}: {notice}", stderr)
    except CortexError as error:
        envelope = failure(command, error.code, error.message)
    except Exception as error:  # noqa: BLE001 - the contract: internal_error, never a traceback
        envelope = failure(command, "internal_error", f"{type(error).__name__}: {error}")
    return _checked(envelope)


def _help(args: list[str]) -> tuple[int, dict | str] | None:
    """(0, usage text) for a help or --version request, an invalid_input envelope for help on an unknown command,
    else None."""
    if args[:1] in (["--version"], ["-V"]):
        from cortex.core.version import banner

        return 0, banner("cortex")
    words = help_request(args)
    if words is None:
        return None
    from cortex.helptext import command_help, overview, topic

    if not words:
        return 0, overview()
    name = topic(words)
    if name is None:
        from cortex.envelope_data import failure

        return _checked(failure("help" if args[0] == "help" else args[0], "invalid_input", f"Unknown command: {words[0]}"))
    return 0, command_help(name)


# The hook commands that leave a row in O/hook-failures.jsonl when they cannot do their job (cortex.hookfailures)
FAILURE_LOGGED = {"hot render": "render", "recall": "recall", "review fire": "fire"}


def _run_plain(spec: CommandSpec, args: list[str], commands, environ, memory_root, stdin, stderr,
               builds: list | None = None) -> tuple[int, str]:
    """A hook command: its (exit code, text), or nothing on stdout, one stderr line and one failure row on any error."""
    invocation = None
    try:
        spec, options, positionals = parse_arguments(args, commands)
        invocation = Invocation(spec.name, options, positionals, environ, memory_root, stdin, builds)
        try:
            result = spec.handler(invocation)
        finally:
            invocation.release()
        for notice in invocation.notices:
            warn(f"cortex {spec.name}: {notice}", stderr)
        return result
    except CortexError as error:
        failure, message = error, error.message
    except Exception as error:  # noqa: BLE001 - a hook must never print a traceback
        failure, message = error, f"internal error: {type(error).__name__}: {error}"
    warn(f"cortex {spec.name}: {message}", stderr)
    _record_failure(spec.name, invocation or Invocation(spec.name, {}, [], environ, memory_root, stdin), failure, stderr)
    return spec.error_exit, ""


def _record_failure(name: str, invocation: Invocation, failure: BaseException, stderr: TextIO | None) -> None:
    """The failed hook's row (the writer is imported only now: a hook's success path never loads it)."""
    from cortex.hookinput import is_subagent

    if name not in FAILURE_LOGGED or is_subagent(invocation):  # a subagent's hooks do nothing, on purpose
        return
    from cortex.hookfailures import record_for_invocation

    problem = record_for_invocation(invocation, FAILURE_LOGGED[name], failure)
    if problem:
        warn(f"cortex {name}: {problem}", stderr)


def warn(message: str, stderr: TextIO | None = None) -> None:
    write_quietly(stderr if stderr is not None else sys.stderr, message.replace("\n", " ")[:2000] + "\n")


def _checked(envelope: dict) -> tuple[int, dict]:
    from cortex.envelope_data import EXIT_CODES, envelope_problem, failure

    problem = envelope_problem(envelope)
    if problem is not None:
        envelope = failure(envelope.get("command", "") if isinstance(envelope, dict) else "", "internal_error",
                           f"invalid response envelope: {problem}")
    code = EXIT_CODES.get(envelope["error"]["code"] if envelope["error"] else None, 1)
    return code, envelope


def main(argv: Sequence[str] | None = None) -> int:
    gcpause.pause()  # resumed once the command's module is loaded (run)
    args = sys.argv[1:] if argv is None else list(argv)
    builds: list = []  # search cache work this call leaves for after its answer (cortex.searchcache.builder)
    try:
        code, output = run(args, builds=builds)
        text = output if isinstance(output, str) else _json(output)
        if not options_first(args):  # no command at all: a person at a terminal reads the usage
            text = _missing_command(text)
    except Exception as error:  # noqa: BLE001 - last line of defence
        from cortex.envelope_data import failure

        code = 1
        text = _json(failure(args[0] if args else "", "internal_error", f"{type(error).__name__}: {error}"))
    finally:
        gcpause.resume()  # never left paused for a caller that goes on
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader went away; do not die with a traceback on interpreter shutdown.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    if builds:
        from cortex.searchcache.builder import run_deferred

        write_quietly(sys.stderr, "")  # flushed: the child must not write the parent's buffered text again
        run_deferred(builds)  # a detached child indexes what this call read afresh
    if argv is None:
        # The program itself (no argv given) ends at once, its output written and flushed: the interpreter's
        # teardown frees every module and object one by one (~11M instructions of a warm recall, 7M of a bare
        # interpreter) and, with a builder child, would write to, and so copy, every page the two share (at 50,000
        # records ~7% of the call). No cortex code registers an exit handler or leaves a file to be closed.
        write_quietly(sys.stderr, "")
        os._exit(code)
    return code


def _json(envelope: dict) -> str:
    """The envelope's line (the JSON writer is imported only here: the plain-text hooks never print JSON)."""
    from cortex.core.jsjson import dumps

    return dumps(envelope) + "\n"


def _missing_command(envelope_text: str) -> str:
    """Bare `cortex`: the usage on stderr (exit 4 stays); stdout keeps the envelope unless it is a terminal.

    A script or agent that runs `cortex` without a command still gets its one envelope
    (invalid_input, "Unknown command: (missing)"); only a person sees the usage alone.
    """
    from cortex.helptext import overview

    write_quietly(sys.stderr, overview())
    return "" if _stdout_is_terminal() else envelope_text


def _stdout_is_terminal() -> bool:
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


if __name__ == "__main__":
    sys.exit(main())
