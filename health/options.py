"""CLI stage: the check's command line → Options (what to audit) and Output (how to show it).

Called by health.cli for `cortex-health [flags]` and by health.gate, which accepts the same
check flags. Every flag falls back to its environment variable here, in one place
(CLI > env > default); health.inputs then turns Options into the frozen layout, clock and
thresholds. Every problem is a UsageError; argparse never prints or exits on its own. The audit's
common command line (plain flags and `--option VALUE` pairs) is read without argparse (health.quickargs).
"""
from __future__ import annotations

from health.commands import listing
from health.commands.base import UsageError
from health.layouts import NAMES as LAYOUT_NAMES
from health.runoptions import Options

TYPE_CHECKING = False  # typing costs every audit ~2 ms; these names are only annotations
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence
    import argparse
    from typing import TextIO

    from health.parser import Parser

TRUE = frozenset(["1", "true", "yes", "on"])
FALSE = frozenset(["", "0", "false", "no", "off"])
FAIL_ON = ("warn", "critical", "never")


class Output:
    """How to show the result.

    format: str; verbose, list_checks: bool; quiet: bool (nothing on stdout when overall is ok); fail_on:
    str | None (None keeps exit 0/1/2); format_given: bool (--format or --json was on the command line).
    """

    __slots__ = ("format", "verbose", "quiet", "fail_on", "list_checks", "format_given")

    def __init__(self, format, verbose=False, quiet=False, fail_on=None, list_checks=False, format_given=False) -> None:
        self.format, self.verbose, self.quiet, self.fail_on = format, verbose, quiet, fail_on
        self.list_checks, self.format_given = list_checks, format_given


def threshold_pair(text: str) -> tuple[str, str]:
    """NAME=VALUE with a known NAME (a misspelt one is a usage error naming the closest; values are judged later)."""
    import argparse

    from health.parser import closest

    name, sep, value = text.partition("=")
    if not sep or not name:
        raise argparse.ArgumentTypeError(f"expected NAME=VALUE, got {text!r}")
    from thresholds.defaults import BY_ALIAS, BY_NAME

    if name.strip() not in BY_NAME and name.strip() not in BY_ALIAS:
        raise argparse.ArgumentTypeError(f"unknown threshold {name.strip()!r}{closest(name.strip(), BY_NAME)}; "
                                         f"known: {', '.join(BY_NAME)}")
    return name.strip(), value


def name_list(text: str) -> list[str]:
    import argparse

    names = [part.strip().replace("-", "_") for part in text.split(",")]
    if not all(names):
        raise argparse.ArgumentTypeError(f"expected NAME[,NAME...], got {text!r}")
    return names


def add_check_options(parser: argparse.ArgumentParser) -> None:
    """What to audit and where to publish: shared by the check and `cortex-health gate`."""
    parser.add_argument("--root", help="audited ROOT (default: CORTEX_HEALTH_ROOT, CLAUDE_CONFIG_DIR, ~/.claude)")
    parser.add_argument("--now", help="the audit's clock, e.g. 2026-11-29T12:00:00Z (default: CORTEX_HEALTH_NOW, "
                        "else real time)")
    parser.add_argument("--config", help='JSON config file: {"thresholds": {NAME: VALUE}}')
    parser.add_argument("--threshold", action="append", type=threshold_pair, default=[], metavar="NAME=VALUE",
                        help="override one threshold (beats environment and config); repeatable")
    parser.add_argument("--only", action="append", type=name_list, default=[], metavar="COLLECTOR[,...]",
                        help="run only these collectors (see --list-checks); repeatable")
    parser.add_argument("--skip", action="append", type=name_list, default=[], metavar="COLLECTOR[,...]",
                        help="leave these collectors out (reported as skipped, never as ok); repeatable")
    parser.add_argument("--no-write", action="store_true",
                        help="do not append to memory-health.jsonl (also CORTEX_HEALTH_NO_WRITE=1)")
    parser.add_argument("--report-path", help="also write the report atomically here (also CORTEX_HEALTH_REPORT_PATH)")
    parser.add_argument("--prometheus-textfile", metavar="PATH.prom",
                        help="also write the Prometheus metrics atomically here, for node_exporter's textfile "
                        "collector (also CORTEX_HEALTH_PROMETHEUS_TEXTFILE)")
    parser.add_argument("--layout", choices=LAYOUT_NAMES,
                        help="the memory layout to audit (default: CORTEX_HEALTH_LAYOUT, else auto-detect: "
                        "LIFEOS/ or context/AGENTS.md)")
    parser.add_argument("--index-manifest", help="index manifest path (default: CORTEX_INDEX_MANIFEST, "
                        "else ROOT/LIFEOS/MEMORY/INDEX/index-manifest.json)")


def add_output_options(parser: argparse.ArgumentParser, formats: Sequence[str]) -> None:
    parser.add_argument("--json", action="store_true", help="same as --format json")
    parser.add_argument("--format", choices=list(formats),
                        help="output format (default: github when GITHUB_ACTIONS=true, text on a terminal, "
                        "json otherwise)")
    # -v says how much a report shows, --quiet whether an ok one is shown at all: together (cron, chronic)
    # an ok run prints nothing and any other prints the verbose report.
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="text: show the evidence, the threshold and its source and a fix for every finding")
    parser.add_argument("--quiet", action="store_true",
                        help="print nothing when overall is ok (for chronic); with -v, the verbose report otherwise")
    parser.add_argument("--fail-on", choices=FAIL_ON,
                        help="what fails the run: warn (exit 1/2), critical (warn exits 0) or never (exit 0); "
                        "default keeps 0/1/2. An auditor failure still exits 3")
    parser.add_argument("--list-checks", action="store_true",
                        help="list every collector and finding id with its severity and threshold, then exit")
    parser.add_argument("--version", action="store_true",
                        help="print the installed version and exit")


def build_parser(formats: Sequence[str], out: TextIO | None = None) -> Parser:
    from health.parser import Parser

    parser = Parser(prog="cortex-health", allow_abbrev=False,
                    description="Audit a LifeOS memory tree: exit 0 ok, 1 warn, 2 critical, 3 when the auditor "
                    "cannot run.",
                    epilog=listing())
    parser.out = out
    add_check_options(parser)
    parser.add_argument("--probe", action="store_true",
                        help="also run the registered hooks and a governed write in a throw-away copy of the install "
                        "(off by default: it takes seconds; see `cortex-health probe`)")
    parser.add_argument("--otlp", action="store_true",
                        help="also push the metrics, one log record per finding and the memory operations since "
                        "the last export to OTLP/HTTP endpoints (the standard OTEL_EXPORTER_OTLP_* variables; "
                        "default http://localhost:4318); see docs/otel.md")
    add_output_options(parser, formats)
    return parser


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
    args = quick_args(argv, choices) or build_parser(formats, out).parse_args(list(argv))
    if args.json and args.format not in (None, "json"):
        raise UsageError(f"--json conflicts with --format {args.format}")
    chosen = "json" if args.json else args.format or default_format(environ, tty)
    output = Output(chosen, verbose=args.verbose, quiet=args.quiet, fail_on=args.fail_on, list_checks=args.list_checks,
                    format_given=bool(args.json or args.format))
    return options_from(args, environ, checks), output

