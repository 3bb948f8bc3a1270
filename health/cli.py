"""CLI entry point (`cortex-health`, `python -m health`): the only place that maps results to exit codes.

Called by the console script and health.__main__.

`cortex-health [flags]` runs the check: exit 0 ok, 1 warn, 2 critical (or as --fail-on
says); 3 when the auditor itself cannot run (bad usage, unusable root, internal error),
still printing a report with overall "unknown" and the reason. Nothing escapes as a
traceback. A first argument naming a subcommand of the one table (health.commands) hands over
to that module's main; the check and every subcommand run through the one base (Command, which
owns the preamble, --help, usage and internal errors). Loaded: os, sys, the table, the base and
two small core modules, so the status line starts fast; the rest is imported where it is used.
"""
from __future__ import annotations

import os
import sys

from cortex.core import gcpause
from cortex.core.safeio import write_quietly
from health.commands import COMMANDS
from health.commands.base import Call, Command, end

TYPE_CHECKING = False  # typing and collections.abc cost milliseconds the status line does not have
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    from typing import TextIO

    from health.options import Output
    from health.run import Options
    from reports.report import Report

UNKNOWN_EXIT = 3


def fail(reason: str, stdout: TextIO, stderr: TextIO, root: str | None = None, *, output: Output | None = None,
         options: Options | None = None, environ: Mapping[str, str] | None = None) -> int:
    """Print the overall-unknown report (in the chosen format when known) and return 3, whatever else is broken."""
    from reports.document import unknown_report
    from thresholds.clock import stamp_ms

    now = stamp_ms(options.now if options is not None else None, os.environ if environ is None else environ)
    report = unknown_report(reason, now_ms=now, root=root)
    if options is not None and options.prometheus_textfile:
        _unknown_textfile(report, options, os.environ if environ is None else environ, stderr)
    if options is not None and options.otlp:
        _unknown_otlp(report, os.environ if environ is None else environ, stderr)
    if output is None or output.format == "json" or not _render(report, output, stdout, environ):
        write_quietly(stdout, _json_text(report) + "\n")
    write_quietly(stderr, f"cortex-health: {reason}\n")
    return UNKNOWN_EXIT


def _json_text(report: Report) -> str:
    try:
        from reports.reportjson import report_text

        return report_text(report)
    except Exception:  # noqa: BLE001 - even a broken report model must not produce a traceback
        import json

        return json.dumps(report.document(), separators=(",", ":"))


def _render(report: Report, output: Output, stdout: TextIO, environ: Mapping[str, str] | None) -> bool:
    try:
        from reports.formats import load

        load(output.format).render(report, stdout, tty=False, verbose=output.verbose, environ=environ)
        return True
    except Exception:  # noqa: BLE001 - fall back to JSON
        return False


def _unknown_textfile(report: Report, options: Options, environ: Mapping[str, str], stderr: TextIO) -> None:
    """Monitoring must see "unknown" rather than keep serving the last good metrics.

    The same writer and checks as a normal run: a refused or failed write is reported on stderr.
    """
    from health.publish import write_copy
    from health.inputs import resolve_layout
    from health.run import prometheus_text

    try:
        refused, failed = write_copy(options.prometheus_textfile, resolve_layout(options, environ),
                                     lambda: prometheus_text(report))
        failure = f"refused: {refused}; nothing was overwritten" if refused else failed
    except Exception as error:  # noqa: BLE001
        failure = f"{type(error).__name__}: {error}"
    if failure:
        write_quietly(stderr, f"cortex-health: prometheus textfile not written: {failure}\n")


def _unknown_otlp(report: Report, environ: Mapping[str, str], stderr: TextIO) -> None:
    """An OTLP backend must see "unknown" too: the report's metrics and logs (no tree, so no spans)."""
    try:
        from health.otel.export import export

        finding, notes = export(report, None, environ)
        notes += [finding.message] if finding is not None else []
    except Exception as error:  # noqa: BLE001
        notes = [f"not exported: {type(error).__name__}: {error}"]
    for note in notes:
        write_quietly(stderr, f"cortex-health: otlp: {note}\n")


def exit_code(overall: str, fail_on: str | None) -> int:
    code = {"ok": 0, "warn": 1, "critical": 2}.get(overall, UNKNOWN_EXIT)
    if code == UNKNOWN_EXIT or fail_on in (None, "warn"):
        return code
    if fail_on == "never":
        return 0
    return code if code == 2 else 0  # --fail-on critical


def run(argv: Sequence[str] | None = None, *, environ: Mapping[str, str] | None = None,
        stdout: TextIO | None = None, stderr: TextIO | None = None, checks: tuple | None = None) -> int:
    """One audit: the exit code, having printed the report (or the unknown report). `checks` replaces the check
    list (health.judge.checks.CHECKS): tests of collector isolation, and `cortex-health probe` (() plus --probe)."""
    return CheckCommand(checks).main(argv, environ, stdout, stderr)


class CheckCommand(Command):
    """The check itself, `cortex-health [flags]`: a usage or internal error is the unknown report (exit 3)."""

    resumes_gc = False  # resumed in check(), once the formats and the audit are loaded

    def __init__(self, checks: tuple | None = None) -> None:
        self.checks = checks

    def parse(self, call: Call) -> tuple[Options, Output]:
        from health.options import parse  # a broken install still answers with exit 3 (internal_error)

        return parse(call.argv, call.environ, call.tty, call.stdout, self.checks)

    def usage_error(self, message: str, call: Call) -> int:
        """In the format asked for (text on a terminal), JSON when that cannot be told."""
        from health.options import Output, requested_format

        wanted = requested_format(call.argv, call.environ, call.tty)
        return fail(f"usage: {message}", call.stdout, call.stderr, output=Output(wanted) if wanted == "text" else None)

    def internal_error(self, error: BaseException, call: Call) -> int:
        return fail(f"internal error: {type(error).__name__}: {error}", call.stdout, call.stderr)

    def run(self, parsed: tuple[Options, Output], call: Call) -> int:
        options, output = parsed
        if output.list_checks:
            from health.explain import list_checks

            return list_checks(options, output, call.environ, call.stdout, call.stderr)
        return check(options, output, call.environ, call.stdout, call.stderr, call.tty, self.checks)


def check(options: Options, output: Output, environ: Mapping[str, str], stdout: TextIO, stderr: TextIO,
          tty: bool, checks: tuple | None = None) -> int:
    from health.run import AuditError, audit, publish

    context = dict(output=output, options=options, environ=environ)
    try:
        from reports.formats import load

        formatter = load(output.format)
        gcpause.resume()
        run = audit(options, environ) if checks is None else audit(options, environ, checks)
        report = publish(run, options, environ, stderr)
    except AuditError as error:
        return fail(str(error), stdout, stderr, error.root, **context)
    except (Exception, KeyboardInterrupt) as error:  # noqa: BLE001 - never a traceback
        return fail(f"internal error: {type(error).__name__}: {error}", stdout, stderr, **context)
    code = exit_code(report.overall, output.fail_on)
    if output.quiet and report.overall == "ok":
        return code
    try:
        live = getattr(formatter, "render_live", None)  # what only a run has (otlp-json: spans since its cursor)
        if live is not None:
            live(report, stdout, layout=run.layout, environ=environ, stderr=stderr)
        else:
            formatter.render(report, stdout, tty=tty, verbose=output.verbose, environ=environ)
        stdout.flush()
    except (BrokenPipeError, SystemExit):
        # The reader went away (`| head`); rich answers that with SystemExit(1). The verdict
        # and the published line stand, so the exit code still reports the health.
        _silence_stdout()
    except (Exception, KeyboardInterrupt) as error:  # noqa: BLE001
        return fail(f"internal error while rendering {output.format}: {type(error).__name__}: {error}", stdout, stderr)
    return code


def _silence_stdout() -> None:
    # Python flushes sys.stdout at exit; a closed pipe would then print a warning.
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def dispatch(argv: Sequence[str]) -> int:
    """`cortex-health SUBCOMMAND ...` → that module's main(argv) (health.commands); `--version`; anything else is
    the check."""
    if argv and argv[0] not in COMMANDS and ("--version" in argv or argv[0] == "-V"):
        from cortex.core.version import banner

        write_quietly(sys.stdout, banner("cortex-health"))
        return 0
    if argv and argv[0] in COMMANDS:
        import importlib

        return importlib.import_module(COMMANDS[argv[0]].module).main(list(argv[1:]))
    return run(argv)


def main(argv: Sequence[str] | None = None) -> int:
    """The console script (no argv: the process ends here, health.commands.base.end) or an in-process caller."""
    gcpause.pause()  # resumed once the command's code is loaded (dispatch, check)
    args = sys.argv[1:] if argv is None else list(argv)
    try:
        code = dispatch(args)
    finally:
        gcpause.resume()  # never left paused for a caller that goes on
    return code if argv is not None else end(code, args)
