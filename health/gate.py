"""Agent-hook command (`cortex-health gate --timeout S [check flags]`): the check within a deadline, never blocking. Called by health.cli.

Made for a Claude Code Stop hook. The gate prints nothing on stdout and exits 0 whatever
happens. By default it returns at once and the check runs detached after it (health.gatedetach);
its stderr line, printed only when not ok, is then the newest published report's (the previous
Stop's). With --wait or --no-write (and for a root without a folder) it judges within the
hook and speaks of this check. Either way the check runs in a forked child (in its own
session, stdin closed), the same check as `cortex-health --format json`, which publishes to
memory-health.jsonl as usual; past the deadline the child's process group is killed and a
report holding `health-check-deadline-exceeded` (warn) is published in its place.
"""
from __future__ import annotations

import argparse
import time

from cortex.core.numbers import ascii_decimal
from cortex.core.safeio import write_quietly
from health.commands.base import Call, Command
from health.checkparser import add_check_options
from health.options import options_from
from health.parser import Parser
from health.runoptions import Options

TYPE_CHECKING = False  # typing costs the Stop hook milliseconds
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any

    from health.gatefailures import GateFailure

DEFAULT_TIMEOUT_S = 10.0
MAX_LINE = 300


def seconds(text: str) -> float:
    value = ascii_decimal(text)
    if value is None:
        raise argparse.ArgumentTypeError(f"expected a number of seconds in ASCII digits, got {text!r}")
    return value


def build_parser() -> Parser:
    parser = Parser(prog="cortex-health gate", allow_abbrev=False,
                    description="Run the check within --timeout seconds for an agent hook: publish the report, "
                    "say on stderr when it is not ok, always exit 0.")
    parser.add_argument("--timeout", type=seconds, default=DEFAULT_TIMEOUT_S, metavar="SECONDS",
                        help=f"deadline for the whole check (default {DEFAULT_TIMEOUT_S:g})")
    parser.add_argument("--wait", action="store_true",
                        help="run the check within the gate and speak of it (default: the gate returns at once, "
                        "the check runs detached after it and publishes; stderr speaks of the newest report)")
    add_check_options(parser)
    return parser


def without_timeout(argv: Sequence[str]) -> list[str]:
    """The check's own flags: argv minus --timeout and its value, and --wait."""
    kept, skip = [], False
    for item in argv:
        if skip:
            skip = False
        elif item == "--timeout":
            skip = True
        elif not item.startswith("--timeout=") and item != "--wait":
            kept.append(item)
    return kept


def summary(document: Mapping[str, Any]) -> str | None:
    """One line for stderr, or None when overall is ok."""
    overall = document.get("overall")
    if overall == "ok":
        return None
    ids = ", ".join(str(f.get("id")) for f in document.get("findings") or ())
    text = f"cortex-health: {str(overall).upper()} · {ids or document.get('reason') or 'no detail'}"
    text = " ".join(text.split())
    text = text if len(text) <= MAX_LINE else text[: MAX_LINE - 1] + "…"
    return text + " (cortex-health -v --format text for details)"


class GateCommand(Command):
    """Always 0: a hook that fails must not block the agent (its failure is recorded instead)."""

    name = "gate"
    resumes_gc = False  # the gate's parent only waits for its child (which resumes in the check)

    def parser(self) -> Parser:
        return build_parser()

    def parse(self, call: Call) -> tuple[argparse.Namespace, Options]:
        args = super().parse(call)
        return args, options_from(args, call.environ)

    def usage_error(self, message: str, call: Call) -> int:
        from health.gatefailures import GateFailure, root_named

        return finish(f"cortex-health gate: usage: {message}", GateFailure("invalid_input", f"usage: {message}"),
                      Options(root=root_named(call.argv)), call)

    def internal_error(self, error: BaseException, call: Call) -> int:
        from health.gatefailures import GateFailure

        return finish(f"cortex-health gate: internal error: {type(error).__name__}: {error}",
                      GateFailure("internal_error", f"{type(error).__name__}: {error}"), None, call)

    def run(self, parsed: tuple[argparse.Namespace, Options], call: Call) -> int:
        args, options = parsed
        return finish(*gate(call.argv, call.environ, args, options, call.started), call)


def finish(message: str | None, failure: GateFailure | None, options: Options | None, call: Call) -> int:
    """Say `message` on stderr and record `failure` (health.gatefailures): a gate run's end, always exit 0."""
    if message:
        write_quietly(call.stderr, message + "\n")
    problem = None
    if failure is not None:
        from health.gatefailures import record

        problem = record(failure, options, call.environ)
    if problem:
        write_quietly(call.stderr, f"cortex-health gate: {problem}\n")
    return 0


def gate(argv: Sequence[str], environ: Mapping[str, str], args: argparse.Namespace, options: Options,
         started: float) -> tuple[str | None, GateFailure | None, Options]:
    """(the stderr line, why this run failed, the options) of one gate run; the check itself runs detached
    unless it must be waited for. (health.gatefailures, which says why a run failed, is imported only then.)"""
    if not args.timeout > 0 or args.timeout == float("inf"):
        from health.gatefailures import GateFailure

        message = "usage: --timeout must be a number of seconds > 0"
        return f"cortex-health gate: {message}", GateFailure("invalid_input", message), options
    if not (args.wait or options.no_write):
        from health.gatedetach import detach, publish_folder

        folder = publish_folder(options, environ)
        if folder is not None:
            return detach(argv, environ, options, args.timeout, started, folder, judge, summary), None, options
    return judge(argv, environ, options, args.timeout, started)


def judge(argv: Sequence[str], environ: Mapping[str, str], options: Options, timeout: float,
          started: float) -> tuple[str | None, GateFailure | None, Options]:
    """Run the check within what is left of the deadline: (its stderr line, why it failed, the options)."""
    from health.gatechild import run_child
    from health.gatefailures import GateFailure, failure_of, overrun

    remaining = timeout - (time.monotonic() - started)
    document, problem = run_child(without_timeout(argv), environ, remaining) if remaining > 0 else (None, None)
    if problem:
        return f"cortex-health gate: {problem}", GateFailure("no_report", problem), options
    if document is None:
        document = overrun(options, environ, timeout, (time.monotonic() - started) * 1000)
    return summary(document), failure_of(document, (time.monotonic() - started) * 1000, timeout), options


main = GateCommand().main
