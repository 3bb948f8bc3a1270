"""CLI entry point (`cortex-health`, `python -m health`): the only place that maps results to exit codes.

Exit 0 ok, 1 warn, 2 critical; 3 when the auditor itself cannot run (bad usage, unusable
root, internal error), still printing a JSON report with overall "unknown" and the reason.
Nothing escapes as a traceback: argparse errors are usage errors, anything else internal.
"""
from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping, Sequence
from typing import NoReturn, TextIO

from cortex.timestamps import now_ms
from health.model import EXIT_CODES, Overall
from health.run import AuditError, Options, audit, publish

TRUE = frozenset(["1", "true", "yes", "on"])
FALSE = frozenset(["", "0", "false", "no", "off"])


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    out: TextIO | None = None  # where --help goes (the injected stdout)

    def error(self, message: str) -> NoReturn:  # argparse would print usage and exit 2
        raise UsageError(message)

    def print_help(self, file: TextIO | None = None) -> None:
        super().print_help(file or self.out)


def threshold_pair(text: str) -> tuple[str, str]:
    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    return name.strip(), value


def build_parser(formats: Sequence[str], out: TextIO | None = None) -> _Parser:
    parser = _Parser(prog="cortex-health", allow_abbrev=False,
                     description="Audit a LifeOS memory tree: exit 0 ok, 1 warn, 2 critical, 3 when the auditor "
                     "cannot run.")
    parser.out = out
    parser.add_argument("--root", help="audited ROOT (default: CORTEX_HEALTH_ROOT, CLAUDE_CONFIG_DIR, ~/.claude)")
    parser.add_argument("--now", help="the audit's clock, e.g. 2026-11-29T12:00:00Z (default: CORTEX_HEALTH_NOW, "
                        "else real time)")
    parser.add_argument("--config", help='JSON config file: {"thresholds": {NAME: VALUE}}')
    parser.add_argument("--threshold", action="append", type=threshold_pair, default=[], metavar="NAME=VALUE",
                        help="override one threshold (beats environment and config); repeatable")
    parser.add_argument("--json", action="store_true", help="same as --format json")
    parser.add_argument("--format", choices=list(formats),
                        help="output format (default: text on a terminal, json otherwise)")
    parser.add_argument("--no-write", action="store_true",
                        help="do not append to memory-health.jsonl (also CORTEX_HEALTH_NO_WRITE=1)")
    parser.add_argument("--report-path", help="also write the report atomically here (also CORTEX_HEALTH_REPORT_PATH)")
    parser.add_argument("--index-manifest", help="index manifest path (default: CORTEX_INDEX_MANIFEST, "
                        "else M/INDEX/index-manifest.json)")
    return parser


def flag_from_env(environ: Mapping[str, str], name: str) -> bool:
    value = environ.get(name, "").strip().lower()
    if value in TRUE:
        return True
    if value in FALSE:
        return False
    raise UsageError(f"{name} must be one of 1/true/yes/on or 0/false/no/off, got {environ[name]!r}")


def parse(argv: Sequence[str], environ: Mapping[str, str], tty: bool,
          out: TextIO | None = None) -> tuple[Options, str]:
    from reports.formats import names

    args = build_parser(names(), out).parse_args(list(argv))
    if args.json and args.format not in (None, "json"):
        raise UsageError(f"--json conflicts with --format {args.format}")
    chosen = "json" if args.json else args.format or ("text" if tty else "json")
    env_no_write = flag_from_env(environ, "CORTEX_HEALTH_NO_WRITE")  # validated even when --no-write is given
    report_path = args.report_path if args.report_path is not None else environ.get("CORTEX_HEALTH_REPORT_PATH") or None
    options = Options(
        root=args.root, now=args.now, config=args.config, thresholds=tuple(args.threshold),
        no_write=args.no_write or env_no_write,
        report_path=report_path, index_manifest=args.index_manifest,
    )
    return options, chosen


def fail(reason: str, stdout: TextIO, stderr: TextIO, root: str | None = None) -> int:
    """Print the overall-unknown report and return 3, whatever else is broken."""
    from reports.document import unknown_report

    document = unknown_report(reason, now_ms=now_ms(), root=root)
    try:
        from reports.schema import report_json

        text = report_json(document)
    except Exception:  # noqa: BLE001 - even a broken report model must not produce a traceback
        import json

        text = json.dumps(document, separators=(",", ":"))
    _write(stdout, text + "\n")
    _write(stderr, f"cortex-health: {reason}\n")
    return EXIT_CODES[Overall.UNKNOWN]


def _write(stream: TextIO, text: str) -> None:
    try:
        stream.write(text)
        stream.flush()
    except (BrokenPipeError, OSError):
        pass


def run(argv: Sequence[str] | None = None, *, environ: Mapping[str, str] | None = None,
        stdout: TextIO | None = None, stderr: TextIO | None = None) -> int:
    """One audit: returns the exit code, having printed the report (or the unknown report)."""
    environ = os.environ if environ is None else environ
    stdout = stdout or sys.stdout
    stderr = stderr or sys.stderr
    argv = sys.argv[1:] if argv is None else argv
    tty = bool(getattr(stdout, "isatty", lambda: False)())
    try:
        options, chosen = parse(argv, environ, tty, stdout)
    except UsageError as error:
        return fail(f"usage: {error}", stdout, stderr)
    except SystemExit as done:  # --help printed its text
        return int(done.code or 0)
    try:
        from reports.formats import load

        formatter = load(chosen)
        document = publish(audit(options, environ), options)
    except AuditError as error:
        return fail(str(error), stdout, stderr, error.root)
    except (Exception, KeyboardInterrupt) as error:  # noqa: BLE001 - never a traceback
        return fail(f"internal error: {type(error).__name__}: {error}", stdout, stderr)
    code = EXIT_CODES[Overall(document["overall"])]
    try:
        formatter.render(document, stdout, tty=tty)
        stdout.flush()
    except BrokenPipeError:  # the reader went away; the verdict and the published line stand
        _silence_stdout()
    except (Exception, KeyboardInterrupt) as error:  # noqa: BLE001
        return fail(f"internal error while rendering {chosen}: {type(error).__name__}: {error}", stdout, stderr)
    return code


def _silence_stdout() -> None:
    # Python flushes sys.stdout at exit; a closed pipe would then print a warning.
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def main() -> NoReturn:
    sys.exit(run())
