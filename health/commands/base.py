"""CLI stage: the one base of every `cortex-health` command (pip's Command.main); used by each command module.

`Command.main(argv, environ, stdout, stderr)` owns what every command did on its own before:
the defaults of the outside world (sys.argv, os.environ, sys.stdout, sys.stderr), resuming the
collector once the command's code is loaded (cortex.core.gcpause), --help (argparse's SystemExit
after printing on the injected stdout, health.parser), a usage error (the one UsageError, worded
and exited as the command says: `usage_error`) and an internal error (never a traceback:
`internal_error`). A command supplies `parse` (its health.parser.Parser, by default) and `run`.
`end(code, argv)` is how the program itself ends (health.cli.main). Standard library only, and nothing imported
at load time: the status line and the gate run through it on a start-up budget.
"""
from __future__ import annotations

import os
import sys

from cortex.core import gcpause

TYPE_CHECKING = False  # typing costs the status line and the gate milliseconds
if TYPE_CHECKING:
    from argparse import ArgumentParser  # a health.parser.Parser (which imports this module's UsageError)
    from collections.abc import Mapping, Sequence
    from typing import Any, NoReturn, TextIO

USAGE_EXIT = 3  # the auditor cannot run as asked (cortex-health's exit 3)


class UsageError(Exception):
    """A command line the command cannot run; the message says why (Command.usage_error words it)."""


class Call:
    """One call of one command: its arguments, the outside world it was given, and when it started."""

    __slots__ = ("argv", "environ", "stdout", "stderr", "started")

    def __init__(self, argv: Sequence[str], environ: Mapping[str, str], stdout: TextIO, stderr: TextIO) -> None:
        import time

        self.started = time.monotonic()
        self.argv, self.environ, self.stdout, self.stderr = list(argv), environ, stdout, stderr

    @property
    def tty(self) -> bool:
        """Whether stdout is a terminal (the check's default format, text, depends on it)."""
        return bool(getattr(self.stdout, "isatty", lambda: False)())


class Command:
    """A `cortex-health` command. Subclasses set `name` and define `run` (and `parser` or `parse`)."""

    name = ""  # the word after `cortex-health`
    help_text: str | None = None  # a fixed help text (see show_help); else the parser's own
    resumes_gc = True  # False: the command resumes the collector itself (the check, the gate)

    def parser(self) -> ArgumentParser:
        raise NotImplementedError

    def parse(self, call: Call) -> Any:
        """The parsed arguments; UsageError, or SystemExit after --help."""
        parser = self.parser()
        parser.out = call.stdout
        return parser.parse_args(call.argv)

    def run(self, args: Any, call: Call) -> int:
        raise NotImplementedError

    @property
    def prog(self) -> str:
        return f"cortex-health {self.name}".rstrip()

    def show_help(self, call: Call) -> NoReturn:
        """Print the fixed help text on stdout and end the call with exit 0 (as argparse's --help does)."""
        call.stdout.write(self.help_text + "\n")
        raise SystemExit(0)

    def usage_error(self, message: str, call: Call) -> int:
        call.stderr.write(f"{self.prog}: usage: {message}\n")
        return USAGE_EXIT

    def internal_error(self, error: BaseException, call: Call) -> int:
        call.stderr.write(f"{self.prog}: internal error: {type(error).__name__}: {error}\n")
        return USAGE_EXIT

    def main(self, argv: Sequence[str] | None = None, environ: Mapping[str, str] | None = None,
             stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
        call = Call(sys.argv[1:] if argv is None else argv, os.environ if environ is None else environ,
                    stdout or sys.stdout, stderr or sys.stderr)
        if self.resumes_gc:
            gcpause.resume()
        try:
            try:
                args = self.parse(call)
            except SystemExit as done:  # --help printed its text
                return int(done.code or 0)
            return self.run(args, call)
        except UsageError as error:
            return self.usage_error(str(error), call)
        except BaseException as error:  # noqa: BLE001 - a command never ends in a traceback
            return self.internal_error(error, call)


def end(code: int, argv: Sequence[str]) -> NoReturn:
    """How the cortex-health program ends (health.cli.main): at once once stdout and stderr are flushed, as `cortex`
    does, for the interpreter's teardown frees every module and object one by one (~5M instructions of an audit).
    Our writes are complete when they return, no code registers an exit handler, and the gate's detached child has
    its own os._exit. `serve` (hours long; its refresher may be publishing when it stops) and a stream that will not
    flush (reported as it always was) end through the teardown."""
    if argv[:1] != ["serve"]:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except (AttributeError, OSError, ValueError):
            sys.exit(code)
        os._exit(code)
    sys.exit(code)
