"""Agent-hook command (`cortex-health gate --timeout S [check flags]`): the check within a deadline, never blocking. Called by health.cli.

Made for a Claude Code Stop hook. The check runs in a forked child process (the same check as
`cortex-health --format json`, which publishes to memory-health.jsonl as usual) with stdin
closed; the gate prints nothing
on stdout, one summary line on stderr only when overall is not ok, and exits 0 whatever
happens, so it never blocks the agent. Past the deadline the child's process group is
killed and a report holding `health-check-deadline-exceeded` (warn) is published in its
place: the overrun is visible to the status line, the history and monitoring.
"""
from __future__ import annotations

import argparse
import json
import os
import select
import signal
import sys
import time

from cortex.core.numbers import ascii_decimal
from cortex.core.safeio import write_quietly
from health.gatefailures import GateFailure, failure_of, overrun, record, root_named
from health.options import Parser, UsageError, add_check_options, options_from
from health.runoptions import Options

TYPE_CHECKING = False  # typing costs the Stop hook milliseconds
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import Any, TextIO

DEFAULT_TIMEOUT_S = 10.0
MAX_LINE = 300
MAX_REPORT_BYTES = 16 * 1024 * 1024


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
    add_check_options(parser)
    return parser


def without_timeout(argv: Sequence[str]) -> list[str]:
    """The check's own flags: argv minus --timeout and its value."""
    kept, skip = [], False
    for item in argv:
        if skip:
            skip = False
        elif item == "--timeout":
            skip = True
        elif not item.startswith("--timeout="):
            kept.append(item)
    return kept


def run_child(argv: list[str], environ: Mapping[str, str], seconds: float) -> tuple[dict | None, str | None]:
    """The child's report, or (None, what went wrong); (None, None) means the deadline passed.

    The check runs in a forked child in its own session (killable as a group), not a fresh
    interpreter: a second start-up and re-import of what this process already loaded would
    cost the Stop hook tens of milliseconds.
    """
    deadline = time.monotonic() + seconds
    read_end, write_end = os.pipe()
    for stream in (sys.stdout, sys.stderr):  # nothing buffered may be written twice
        try:
            stream.flush()
        except (AttributeError, OSError, ValueError):  # closed or absent: nothing buffered
            pass
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child leaves through os._exit; its effects are tested
        _child(argv, environ, read_end, write_end)
    os.close(write_end)
    try:
        out, complete = _read_until(read_end, deadline)
    finally:
        os.close(read_end)
    if not complete:
        _kill_group(pid)
        return None, None
    status = _reap(pid)
    try:
        return json.loads(out), None
    except ValueError:
        return None, f"the check printed no report (exit {status})"


def _child(argv: list[str], environ: Mapping[str, str], read_end: int, write_end: int) -> None:
    code = 3
    try:
        os.setsid()
        os.close(read_end)
        devnull = os.open(os.devnull, os.O_RDWR)
        os.dup2(devnull, 0)  # the hook's JSON on stdin is never read
        os.dup2(write_end, 1)
        os.dup2(devnull, 2)
        if environ is not os.environ:
            os.environ.clear()
            os.environ.update(environ)
        from collectors.heartbeats import RUNNING_HOOK_ENV

        os.environ[RUNNING_HOOK_ENV] = "gate"  # the audit judges the gate's heartbeat as now: it is the gate running
        from health.cli import run

        with open(1, "w", encoding="utf-8", closefd=False) as out, open(2, "w", closefd=False) as err:
            code = run([*argv, "--format", "json"], environ=os.environ, stdout=out, stderr=err)
    except BaseException:  # noqa: BLE001 - the parent reports a child without a report
        pass
    finally:
        os._exit(code)


def _read_until(fd: int, deadline: float, limit: int = MAX_REPORT_BYTES) -> tuple[bytes, bool]:
    """All the child prints, or (what came, False) when the deadline passes first."""
    chunks, size = [], 0
    while size <= limit:
        remaining = deadline - time.monotonic()
        if remaining <= 0 or not select.select([fd], [], [], remaining)[0]:
            return b"".join(chunks), False
        chunk = os.read(fd, 65536)
        if not chunk:
            return b"".join(chunks), True
        chunks.append(chunk)
        size += len(chunk)
    return b"", True  # far larger than any report: not one


def _kill_group(pid: int) -> int:
    """Kill the child's whole session and reap the child; its exit code."""
    try:
        os.killpg(pid, signal.SIGKILL)  # the session the child created, nothing else
    except ProcessLookupError:
        pass
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


def _reap(pid: int) -> int:
    """The child's exit code; one that closed its output but lingers is killed, never waited for."""
    done, status = os.waitpid(pid, os.WNOHANG)
    return os.waitstatus_to_exitcode(status) if done else _kill_group(pid)


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


def gate(argv: Sequence[str], environ: Mapping[str, str], started: float) -> tuple[str | None, GateFailure | None,
                                                                                     Options | None]:
    """(the stderr line, why this run failed, the options) of one gate run."""
    try:
        args = build_parser().parse_args(list(argv))
        options = options_from(args, environ)
    except UsageError as error:
        return (f"cortex-health gate: usage: {error}", GateFailure("invalid_input", f"usage: {error}"),
                Options(root=root_named(argv)))
    if not args.timeout > 0 or args.timeout == float("inf"):
        message = "usage: --timeout must be a number of seconds > 0"
        return f"cortex-health gate: {message}", GateFailure("invalid_input", message), options
    remaining = args.timeout - (time.monotonic() - started)
    document, problem = run_child(without_timeout(argv), environ, remaining) if remaining > 0 else (None, None)
    if problem:
        return f"cortex-health gate: {problem}", GateFailure("no_report", problem), options
    if document is None:
        document = overrun(options, environ, args.timeout, (time.monotonic() - started) * 1000)
    return summary(document), failure_of(document, (time.monotonic() - started) * 1000, args.timeout), options


def main(argv: Sequence[str], environ: Mapping[str, str] | None = None, stderr: TextIO | None = None) -> int:
    """Always 0: a hook that fails must not block the agent (its failure is recorded instead)."""
    started = time.monotonic()
    environ = os.environ if environ is None else environ
    stderr = stderr or sys.stderr
    options = None
    try:
        message, failure, options = gate(argv, environ, started)
    except SystemExit:  # --help printed its text
        return 0
    except BaseException as error:  # noqa: BLE001 - never a traceback, never a non-zero exit
        message = f"cortex-health gate: internal error: {type(error).__name__}: {error}"
        failure = GateFailure("internal_error", f"{type(error).__name__}: {error}")
    if message:
        write_quietly(stderr, message + "\n")
    problem = record(failure, options, environ) if failure is not None else None
    if problem:
        write_quietly(stderr, f"cortex-health gate: {problem}\n")
    return 0
