"""CLI stage: the check's command line → Options (what to audit) and Output (how to show it).

Called by health.cli for `cortex-health [flags]` and by health.gate, which accepts the same
check flags. Every flag falls back to its environment variable here, in one place
(CLI > env > default); health.inputs then turns Options into the frozen layout, clock and
thresholds. Every problem is a UsageError; argparse never prints or exits on its own. The audit's
common command line (plain flags and `--option VALUE` pairs) is read without argparse (health.quickargs);
any other goes to the argparse parser of health.checkparser.
"""
from __future__ import annotations

from health.commands.base import UsageError
from health.layouts import NAMES as LAYOUT_NAMES
from health.runoptions import FAIL_ON, Options

TYPE_CHECKING = False  # typing costs every audit ~2 ms; these names are only annotations
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    import argparse
    from typing import TextIO

TRUE = frozenset(["1", "true", "yes", "on"])
FALSE = frozenset(["", "0", "false", "no", "off"])


class Output:
    """How to show the result.

    format: str; verbose, list_checks: bool; quiet: bool (nothing on stdout when overall is ok); fail_on:
    str | None (None keeps exit 0/1/2); format_given: bool (--format or --json was on the command line).
    """

    __slots__ = ("format", "verbose", "quiet", "fail_on", "list_checks", "format_given")

    def __init__(self, format, verbose=False, quiet=False, fail_on=None, list_checks=False, format_given=False) -> None:
        self.format, self.verbose, self.quiet, self.fail_on = format, verbose, quiet, fail_on
        self.list_checks, self.format_given = list_checks, format_given


def flag_from_env(environ: Mapping[str, str], name: str) -> bool:
    value = environ.get(name, "").strip().lower()
    if value in TRUE:
        return True
    if value in FALSE:
        return False
    raise UsageError(f"{name} must be one of 1/true/yes/on or 0/false/no/off, got {environ[name]!r}")


def selection(only: list[list[str]], skip: list[list[str]], checks: tuple | None = None) -> tuple[str, ...] | None:
    """The collectors to run (None: all). Unknown names and an empty selection are usage errors."""
    if not only and not skip:
        return None
    from health.judge.checks import names

    known = names() if checks is None else names(checks)
    wanted = [name for group in only for name in group] or list(known)
    left_out = [name for group in skip for name in group]
    unknown = sorted(set(wanted + left_out) - set(known))
    if unknown:
        raise UsageError(f"unknown collector(s) {', '.join(unknown)}; known: {', '.join(known)}")
    chosen = tuple(name for name in known if name in wanted and name not in left_out)
    if not chosen:
        raise UsageError("--only/--skip leave no collector to run")
    return chosen


def options_from(args: argparse.Namespace, environ: Mapping[str, str], checks: tuple | None = None) -> Options:
    env_no_write = flag_from_env(environ, "CORTEX_HEALTH_NO_WRITE")  # validated even when --no-write is given
    textfile = args.prometheus_textfile
    if textfile is None:
        textfile = environ.get("CORTEX_HEALTH_PROMETHEUS_TEXTFILE") or None
    if textfile is not None and not textfile.endswith(".prom"):
        raise UsageError(f"--prometheus-textfile must end in .prom (node_exporter reads only *.prom), got {textfile!r}")
    report_path = args.report_path if args.report_path is not None else environ.get("CORTEX_HEALTH_REPORT_PATH") or None
    layout = args.layout or environ.get("CORTEX_HEALTH_LAYOUT", "").strip() or None
    if layout not in (None, *LAYOUT_NAMES):
        raise UsageError(f"CORTEX_HEALTH_LAYOUT must be one of {', '.join(LAYOUT_NAMES)}, got {layout!r}")
    manifest = args.index_manifest or environ.get("CORTEX_INDEX_MANIFEST") or None
    return Options(
        root=args.root, now=args.now, config=args.config, thresholds=tuple(args.threshold),
        no_write=args.no_write or env_no_write, report_path=report_path, index_manifest=manifest,
        selected=selection(args.only, args.skip, checks), prometheus_textfile=textfile, layout=layout,
        otlp=getattr(args, "otlp", False),  # the check's own flag: the gate (a hook) never exports
        probe=bool(getattr(args, "probe", False)),  # the gate's parser has no --probe
    )


def requested_format(argv: Sequence[str], environ: Mapping[str, str], tty: bool) -> str:
    """The format a command line asks for, read without the parser (for reporting its usage error)."""
    if "--json" in argv:  # JSON whenever it was asked for at all: a script reads it
        return "json"
    chosen = None
    for i, word in enumerate(argv):
        if word == "--format" and i + 1 < len(argv):
            chosen = argv[i + 1]
        elif word.startswith("--format="):
            chosen = word.partition("=")[2]
    return chosen or default_format(environ, tty)


def default_format(environ: Mapping[str, str], tty: bool) -> str:
    if environ.get("GITHUB_ACTIONS", "").strip().lower() == "true":
        return "github"
    return "text" if tty else "json"


def parse(argv: Sequence[str], environ: Mapping[str, str], tty: bool,
          out: TextIO | None = None, checks: tuple | None = None) -> tuple[Options, Output]:
    from reports.formats import names

    from health.quickargs import quick_args

    formats = names()
    choices = {"format": formats, "layout": LAYOUT_NAMES, "fail_on": FAIL_ON}
    args = quick_args(argv, choices)
    if args is None:
        from health.checkparser import build_parser

        args = build_parser(formats, out).parse_args(list(argv))
    if args.json and args.format not in (None, "json"):
        raise UsageError(f"--json conflicts with --format {args.format}")
    chosen = "json" if args.json else args.format or default_format(environ, tty)
    output = Output(chosen, verbose=args.verbose, quiet=args.quiet, fail_on=args.fail_on, list_checks=args.list_checks,
                    format_given=bool(args.json or args.format))
    return options_from(args, environ, checks), output

