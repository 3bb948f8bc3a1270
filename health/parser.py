"""CLI stage: the argument parser of every cortex-health command (check, gate, history, fix, serve, setup); used by them.

The one parser style: argparse, which never prints or exits on its own here: a usage problem is
the one UsageError (health.commands.base, with the closest spelling of a misspelt option), --help
goes to the injected stdout, and Command.main (health.commands.base) turns both into the
command's exit code. (The status line alone keeps a parser without argparse: its start-up budget.)
"""
from __future__ import annotations

import argparse

from cortex.core.spelling import did_you_mean as closest  # noqa: F401 (health.options uses it too)
from health.commands.base import UsageError

TYPE_CHECKING = False  # typing costs every audit ~2 ms; these names are only annotations
if TYPE_CHECKING:
    from typing import NoReturn, TextIO


class Parser(argparse.ArgumentParser):
    out: TextIO | None = None  # where --help goes (the injected stdout)

    def error(self, message: str) -> NoReturn:  # argparse would print usage and exit 2
        raise UsageError(message + self.suggestion(message))

    def suggestion(self, message: str) -> str:
        """`; did you mean --format?` for the first unrecognized option close to a known one."""
        if not message.startswith("unrecognized arguments:"):
            return ""
        known = [flag for action in self._actions for flag in action.option_strings if flag.startswith("--")]
        for word in message.split(":", 1)[1].split():
            if word.startswith("--"):
                hint = closest(word.partition("=")[0], known, 0.75)  # `--bogus` is not `--verbose`
                if hint:
                    return hint
        return ""

    def add_argument(self, *args, **kwargs):
        self._checking = True  # argparse makes a formatter here only to check the metavar: no width needed
        try:
            return super().add_argument(*args, **kwargs)
        finally:
            self._checking = False

    def _get_formatter(self):
        # A formatter without a width asks shutil for the terminal's (shutil imports bz2, lzma and fnmatch:
        # ~2 ms of every cortex-health start-up); help and usage text still get the terminal's width.
        if getattr(self, "_checking", False):
            return self.formatter_class(prog=self.prog, width=80)
        return super()._get_formatter()

    def print_help(self, file: TextIO | None = None) -> None:
        super().print_help(file or self.out)


def bounded_int(low: int, high: int, what: str = ""):
    """An argparse type: a whole number in ASCII digits from `low` to `high` (`１０` and `1_0` are refused)."""
    from cortex.core.numbers import ascii_digits, ascii_int

    def parse(text: str) -> int:
        if not ascii_digits(text):
            raise argparse.ArgumentTypeError(f"expected a whole number in ASCII digits, got {text!r}")
        value = ascii_int(text, low, high)
        if value is None:
            raise argparse.ArgumentTypeError(f"{what + ' ' if what else ''}must be between {low} and {high}, "
                                             f"got {text[:20]}")
        return value
    return parse
