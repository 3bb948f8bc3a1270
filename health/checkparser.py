"""CLI stage: the check's argparse parser, and the check options it shares with `cortex-health gate`. Used by health.options and health.gate.

health.options.parse reads the audit's common command line without argparse (health.quickargs);
this parser reads every other one (help, --version, `--option=VALUE`, the repeatable typed options,
every usage error), so a plain audit never loads these definitions.
"""
from __future__ import annotations

from health.commands import listing
from health.layouts import NAMES as LAYOUT_NAMES
from health.runoptions import FAIL_ON

TYPE_CHECKING = False  # typing costs every audit ~2 ms; these names are only annotations
if TYPE_CHECKING:
    import argparse
    from collections.abc import Sequence
    from typing import TextIO

    from health.parser import Parser


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
