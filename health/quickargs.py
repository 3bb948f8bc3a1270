"""CLI stage: the check's common command line read without argparse. Called by health.options.parse.

argparse (with gettext and locale) and building the check's parser cost about 20M instructions, 8%
of an audit. quick_args reads only words that mean exactly one thing to health.checkparser.build_parser's
parser, whatever surrounds them, and gives the namespace argparse would build; for anything else
(help, --version, `--option=VALUE`, the repeatable typed options, every usage error) it answers
None and argparse reads the line, so every help text, usage error and exit code stays argparse's
(tests/health/test_quick_args.py compares the two readings).
"""
from __future__ import annotations

import sys

SimpleNamespace = type(sys.implementation)  # types.SimpleNamespace itself: the types module costs ~0.6M instructions

TYPE_CHECKING = False  # typing costs every audit ~2 ms; these names are only annotations
if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

# Flag → destination, and option taking one value → destination, as build_parser declares them.
QUICK_FLAGS = {"--no-write": "no_write", "--probe": "probe", "--otlp": "otlp", "--json": "json", "-v": "verbose",
               "--verbose": "verbose", "--quiet": "quiet", "--list-checks": "list_checks"}
QUICK_VALUES = {"--root": "root", "--now": "now", "--config": "config", "--report-path": "report_path",
                "--prometheus-textfile": "prometheus_textfile", "--index-manifest": "index_manifest",
                "--format": "format", "--layout": "layout", "--fail-on": "fail_on"}


def quick_args(argv: Sequence[str], choices: Mapping[str, Sequence[str]]) -> SimpleNamespace | None:
    """The parser's namespace for a command line of QUICK_FLAGS and `QUICK_VALUES VALUE` pairs (a value not starting
    with `-`, within its destination's `choices` when it has some); None for anything else."""
    values: dict = dict.fromkeys((*QUICK_FLAGS.values(), "version"), False)
    values.update(dict.fromkeys(QUICK_VALUES.values()), threshold=[], only=[], skip=[])
    words = iter(argv)
    for word in words:
        if word in QUICK_FLAGS:
            values[QUICK_FLAGS[word]] = True
            continue
        dest = QUICK_VALUES.get(word)
        value = next(words, None) if dest is not None else None
        if value is None or value.startswith("-") or (dest in choices and value not in choices[dest]):
            return None
        values[dest] = value
    return SimpleNamespace(**values)
