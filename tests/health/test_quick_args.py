"""The audit's argparse-free reading of its common command line (health.quickargs) agrees with argparse."""
from __future__ import annotations

import io

from hypothesis import given, settings, strategies as st

from health.commands.base import UsageError
from health.layouts import NAMES as LAYOUT_NAMES
from health.checkparser import build_parser
from health.options import FAIL_ON
from health.quickargs import QUICK_FLAGS, QUICK_VALUES, quick_args
from reports.formats import names

FORMATS = names()
CHOICES = {"format": FORMATS, "layout": LAYOUT_NAMES, "fail_on": FAIL_ON}
WORDS = [*QUICK_FLAGS, *QUICK_VALUES, *FORMATS, *LAYOUT_NAMES, *FAIL_ON, "-", "", "--", "-h", "--help", "--version",
         "--format=json", "--root=/r", "--threshold", "proposal_backlog=3", "--only", "locks", "--skip", "-vv", "-q",
         "--form", "/tmp/x", "2026-11-29T12:00:00Z", "-1", "a b", "-x y", "bogus", "check", "report.prom", "--no-writ"]


def argparse_reading(argv: list[str]):
    try:
        return vars(build_parser(FORMATS, io.StringIO()).parse_args(argv))
    except (UsageError, SystemExit):
        return None


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(WORDS), max_size=7))
def test_a_quick_reading_is_argparse_s_and_anything_else_goes_to_argparse(argv):
    quick = quick_args(argv, CHOICES)
    if quick is not None:
        assert vars(quick) == argparse_reading(argv)


def test_the_audits_common_command_lines_are_read_quickly_and_the_rest_is_not():
    for argv in ([], ["--format", "json", "--no-write", "--root", "/r", "--now", "2026-11-29T12:00:00Z"], ["-v"],
                 ["--json", "--quiet", "--fail-on", "critical", "--layout", LAYOUT_NAMES[0], "--root", "/a", "--root", "/b"],
                 ["--report-path", "out.json", "--prometheus-textfile", "m.prom", "--index-manifest", "", "--otlp"]):
        assert quick_args(argv, CHOICES) is not None and vars(quick_args(argv, CHOICES)) == argparse_reading(argv)
    for argv in (["--help"], ["--version"], ["--format=json"], ["--format", "bogus"], ["--root"], ["--root", "-x"],
                 ["--threshold", "proposal_backlog=3"], ["--only", "locks"], ["--bogus"], ["--form", "json"]):
        assert quick_args(argv, CHOICES) is None
